// Purpose: create or refresh the derived traversal edges, always upstream -> downstream, one per
// typed lineage edge (same key). Traversal only ever walks :LINEAGE.
// Params: $rows: [{key, type, upstream, downstream, owner, aspect, createdOn, updatedOn, manual}]
// Returns: nothing
UNWIND $rows AS row
MATCH (u:Entity {urn: row.upstream})
MATCH (d:Entity {urn: row.downstream})
MERGE (u)-[l:LINEAGE {key: row.key}]->(d)
SET l.createdOn = row.createdOn, l.type = row.type, l.owner = row.owner, l.aspect = row.aspect, l.updatedOn = row.updatedOn,
    l.manual = row.manual
