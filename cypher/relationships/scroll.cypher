// Purpose: one keyset page of typed relationship edges (POST /openapi/v3/relationship/scroll, the
// SDK's scroll_relationships), in (source urn, type, destination urn) order. Anchored on the source
// urns when given, else on the destination urns, else it walks sources from the cursor's urn through
// the urn index. Parallel edges of several owners are one row. Filters on the ends other than urn
// and type are the caller's (rows carry the ends' search fields).
// Params: $sourceUrns: [string] | null, $destinationUrns: [string] | null, $types: [string] (empty =
//         every relationship), $sourceTypes: [string], $destinationTypes: [string] (empty = any),
//         $includeRemoved: boolean, $fromSource: string ('' on the first page),
//         $after: null | [source, type, destination] (exclusive), $limit: int
// Returns: source, type, destination, sourceFields {entityType, platform, origin, name, description,
//          removed, parentUrn}, destinationFields {…}
CALL () {
  WITH 1 AS one WHERE $sourceUrns IS NOT NULL
  UNWIND $sourceUrns AS u
  MATCH (s:Entity {urn: u})-[r]->(d:Entity)
  RETURN s, r, d
  UNION ALL
  WITH 1 AS one WHERE $sourceUrns IS NULL AND $destinationUrns IS NOT NULL
  UNWIND $destinationUrns AS u
  MATCH (s:Entity)-[r]->(d:Entity {urn: u})
  RETURN s, r, d
  UNION ALL
  WITH 1 AS one WHERE $sourceUrns IS NULL AND $destinationUrns IS NULL
  MATCH (s:Entity)-[r]->(d:Entity)
  WHERE s.urn >= $fromSource
  RETURN s, r, d
}
WITH s, r, d
WHERE NOT type(r) IN ['LINEAGE', 'HAS_ASPECT'] AND (size($types) = 0 OR type(r) IN $types)
  AND (size($sourceTypes) = 0 OR s.entityType IN $sourceTypes)
  AND (size($destinationTypes) = 0 OR d.entityType IN $destinationTypes)
  AND ($destinationUrns IS NULL OR d.urn IN $destinationUrns)
  AND ($includeRemoved OR (NOT coalesce(s.removed, false) AND NOT coalesce(d.removed, false)))
  AND ($after IS NULL OR s.urn > $after[0]
       OR (s.urn = $after[0] AND (type(r) > $after[1] OR (type(r) = $after[1] AND d.urn > $after[2]))))
WITH DISTINCT s, type(r) AS type, d
ORDER BY s.urn, type, d.urn
LIMIT $limit
RETURN s.urn AS source, type, d.urn AS destination,
       s {.entityType, .platform, .origin, .name, .description, .removed, .parentUrn} AS sourceFields,
       d {.entityType, .platform, .origin, .name, .description, .removed, .parentUrn} AS destinationFields
