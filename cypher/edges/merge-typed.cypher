// Purpose: create or refresh typed edges. Relationship type comes from the derivation registry
// (a fixed whitelist), never from request text. Every property is a function of the stored latest
// row only, so restoreIndices reproduces exactly what the write path wrote.
// Params: $rows: [{key, type, source, destination, owner, aspect, createdOn, createdActor, updatedOn,
//                  updatedActor, properties: JSON text|null, via, manual: boolean}]
// Returns: nothing
UNWIND $rows AS row
MATCH (a:Entity {urn: row.source})
MATCH (b:Entity {urn: row.destination})
MERGE (a)-[r:$(row.type) {key: row.key}]->(b)
SET r.owner = row.owner, r.aspect = row.aspect, r.createdOn = row.createdOn, r.createdActor = row.createdActor,
    r.updatedOn = row.updatedOn, r.updatedActor = row.updatedActor, r.properties = row.properties,
    r.via = row.via, r.manual = row.manual
