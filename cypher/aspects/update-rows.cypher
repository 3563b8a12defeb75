// Purpose: store a new latest value of aspects that already have a row. The old latest is first
// copied to version maxVersion+1 (version 1 = the oldest), then version 0 is overwritten. The caller
// holds the entity's lock and sends only changed values (an identical UPSERT writes nothing);
// aspects without a row go through aspects/create-rows.
// Params: $rows: [{urn, name, key, archiveKey: string, value, systemMetadata, createdOn: int, createdBy: string}]
// Returns: nothing
UNWIND $rows AS row
MATCH (e:Entity {urn: row.urn})
MATCH (a:Aspect {key: row.key})
CREATE (e)-[:HAS_ASPECT]->(:Aspect {key: row.archiveKey, urn: row.urn, name: row.name, version: a.maxVersion + 1,
                                    value: a.value, systemMetadata: a.systemMetadata,
                                    createdOn: a.createdOn, createdBy: a.createdBy})
SET a.maxVersion = a.maxVersion + 1, a.value = row.value, a.systemMetadata = row.systemMetadata,
    a.createdOn = row.createdOn, a.createdBy = row.createdBy
