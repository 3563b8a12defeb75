// Purpose: remove every version of some aspects (DELETE change type, hard delete). While an export
// holds deleted rows (backup/hold-begin), each version is first copied into a HeldRow stamped with
// this write's time, so the export still writes what existed at its moment (docs/operations.md
// §Consistency); without a live hold nothing is copied.
// Params: $keys: [{urn: string, name: string}], $now: epoch ms (the write's stamp)
// Returns: removed (rows removed per key)
OPTIONAL MATCH (h:ExportHold) WHERE h.expiresAt > $now
WITH count(h) > 0 AS held
UNWIND $keys AS k
OPTIONAL MATCH (e:Entity {urn: k.urn})-[:HAS_ASPECT]->(a:Aspect {name: k.name})
WITH held, k, e, collect(a) AS rows
FOREACH (a IN CASE WHEN held THEN rows ELSE [] END |
  CREATE (:HeldRow {urn: e.urn, entityType: e.entityType, name: a.name, version: a.version, maxVersion: a.maxVersion,
                    value: a.value, systemMetadata: a.systemMetadata, createdOn: a.createdOn, createdBy: a.createdBy,
                    deletedOn: $now}))
FOREACH (a IN rows | DETACH DELETE a)
RETURN k.urn AS urn, k.name AS name, size(rows) AS removed
