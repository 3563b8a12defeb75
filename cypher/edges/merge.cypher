// Purpose: create or refresh typed edges and, for lineage edges, their derived traversal edge
// (:LINEAGE, always upstream -> downstream, same key, with the via that paths show). Relationship type comes from the derivation
// registry (a fixed whitelist), never from request text. Every property is a function of the stored
// latest row only, so restoreIndices reproduces exactly what the write path wrote. One statement
// for both: the endpoints are looked up once and a lineage edge's fields travel once.
// Params: $rows: [{key, type, source, destination, owner, aspect, createdOn, createdActor, updatedOn,
//                  updatedActor, properties: JSON text|null, via, manual: boolean,
//                  lineage: null | 'down' (source is upstream) | 'up' (destination is upstream)}]
// Returns: nothing
UNWIND $rows AS row
MATCH (a:Entity {urn: row.source})
MATCH (b:Entity {urn: row.destination})
MERGE (a)-[r:$(row.type) {key: row.key}]->(b)
SET r.owner = row.owner, r.aspect = row.aspect, r.createdOn = row.createdOn, r.createdActor = row.createdActor,
    r.updatedOn = row.updatedOn, r.updatedActor = row.updatedActor, r.properties = row.properties,
    r.via = row.via, r.manual = row.manual
WITH row, a, b WHERE row.lineage IS NOT NULL
WITH row, CASE row.lineage WHEN 'down' THEN a ELSE b END AS u, CASE row.lineage WHEN 'down' THEN b ELSE a END AS d
MERGE (u)-[l:LINEAGE {key: row.key}]->(d)
SET l.createdOn = row.createdOn, l.type = row.type, l.owner = row.owner, l.aspect = row.aspect, l.updatedOn = row.updatedOn,
    l.manual = row.manual, l.via = row.via
