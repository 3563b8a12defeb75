// Purpose: store aspects that have no row yet (version 0, nothing to archive). The caller holds the
// entity's lock (aspects/lock-and-read) and read under it that no latest row exists, so CREATE
// cannot race another writer; the aspect_key constraint still rejects a duplicate at commit. One
// CREATE with every property is cheaper than a MERGE followed by SETs (bench/README.md).
// Params: $rows: [{urn, name, key, value, systemMetadata, createdOn: int, createdBy: string}]
// Returns: nothing
UNWIND $rows AS row
MATCH (e:Entity {urn: row.urn})
CREATE (e)-[:HAS_ASPECT]->(:Aspect {key: row.key, urn: row.urn, name: row.name, version: 0, maxVersion: 0,
                                    value: row.value, systemMetadata: row.systemMetadata,
                                    createdOn: row.createdOn, createdBy: row.createdBy})
