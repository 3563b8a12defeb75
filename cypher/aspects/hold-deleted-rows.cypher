// Purpose: before some aspects' rows are deleted (aspects/delete-rows), while an export holds
// deleted rows (backup/hold-begin): a copy of every version as a HeldRow, stamped with this
// write's time, so the export still writes what existed at its moment (docs/operations.md
// §Consistency). Without a live hold it does nothing.
// Params: $keys: [{urn: string, name: string}], $now: epoch ms (the write's stamp)
// Returns: nothing
MATCH (h:ExportHold) WHERE h.expiresAt > $now
WITH count(h) AS holds WHERE holds > 0
UNWIND $keys AS k
MATCH (e:Entity {urn: k.urn})-[:HAS_ASPECT]->(a:Aspect {name: k.name})
CREATE (:HeldRow {urn: e.urn, entityType: e.entityType, name: a.name, version: a.version, maxVersion: a.maxVersion,
                  value: a.value, systemMetadata: a.systemMetadata, createdOn: a.createdOn, createdBy: a.createdBy,
                  deletedOn: $now})
