// Purpose: store new latest values. When a row already existed and its value changed, the old latest
// is first copied to version maxVersion+1 (version 1 = the oldest), then version 0 is overwritten.
// A row whose value is unchanged only gets its systemMetadata refreshed (archive = false).
// Params: $rows: [{urn, name, key, archiveKey: string|null, archive: boolean, value, systemMetadata,
//                  createdOn: int, createdBy: string}]
// Returns: nothing
UNWIND $rows AS row
MATCH (e:Entity {urn: row.urn})
MERGE (a:Aspect {key: row.key})
  ON CREATE SET a.urn = row.urn, a.name = row.name, a.version = 0, a.maxVersion = 0
MERGE (e)-[:HAS_ASPECT]->(a)
WITH row, e, a
CALL (row, e, a) {
  WITH row, e, a WHERE row.archive
  CREATE (old:Aspect {key: row.archiveKey, urn: row.urn, name: row.name, version: a.maxVersion + 1,
                      value: a.value, systemMetadata: a.systemMetadata, createdOn: a.createdOn, createdBy: a.createdBy})
  CREATE (e)-[:HAS_ASPECT]->(old)
  SET a.maxVersion = a.maxVersion + 1
}
SET a.value = row.value, a.systemMetadata = row.systemMetadata
FOREACH (_ IN CASE WHEN row.archive OR a.createdOn IS NULL THEN [1] ELSE [] END |
  SET a.createdOn = row.createdOn, a.createdBy = row.createdBy)
