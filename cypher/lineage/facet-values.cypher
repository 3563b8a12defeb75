// Purpose: what some facetKeys stand for (entity type, platform, origin): any one node carrying
// the key says it, since the key is a hash of exactly these three (search-fields.ts).
// Params: $keys: [int] (facetKeys with their flag bits cleared or not: any node with the key)
// Returns: facetKey, entityType, platform, origin — one row per key found
UNWIND $keys AS key
CALL (key) {
  MATCH (n:Entity {facetKey: key})
  RETURN n.entityType AS entityType, n.platform AS platform, n.origin AS origin
  LIMIT 1
}
RETURN key AS facetKey, entityType, platform, origin
