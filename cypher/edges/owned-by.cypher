// Purpose: every edge (typed and LINEAGE) owned by some (owner, aspect) pairs, found through the
// per-type owner indexes — also the edges no stored row justifies (drift, bogus writes). One
// branch per relationship type of RELATIONSHIP_TYPES (catalog/src/model/entity-types.ts), expanded
// by the loader (catalog/src/store/cypher.ts, a listing template), plus LINEAGE. $aspect null =
// every aspect of the owner (hard delete).
// Params: $rows: [{owner: string, aspect: string|null}]
// Returns: owner, aspect, type, key, source, destination, createdOn, createdActor, updatedOn,
//          updatedActor, properties, via, manual, lineageType
UNWIND $rows AS row
CALL (row) {
{{#relationshipTypes}}
  MATCH (a)-[r:{{relationshipType}} {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL
{{/relationshipTypes}}
  MATCH (a)-[r:LINEAGE {owner: row.owner}]->(b) RETURN r, a, b
}
WITH row, r, a, b WHERE row.aspect IS NULL OR r.aspect = row.aspect
RETURN r.owner AS owner, r.aspect AS aspect, type(r) AS type, r.key AS key, a.urn AS source, b.urn AS destination,
       r.createdOn AS createdOn, r.createdActor AS createdActor, r.updatedOn AS updatedOn, r.updatedActor AS updatedActor,
       r.properties AS properties, r.via AS via, r.manual AS manual, r.type AS lineageType
