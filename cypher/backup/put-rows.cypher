// Purpose: the import's row writer: store aspect rows exactly as a backup holds them (any version,
// its own createdOn / createdBy / maxVersion), idempotently (MERGE on the aspect key, every
// property set), under the entity locks the caller took with aspects/lock-entities. Derived state
// (edges, search fields) is not touched here: the import rebuilds it with restoreIndices.
// Params: $rows: [{urn, name, key, version: int, maxVersion: int|null, value, systemMetadata,
//                  createdOn: int|null, createdBy: string|null}]
// Returns: nothing
UNWIND $rows AS row
MATCH (e:Entity {urn: row.urn})
MERGE (a:Aspect {key: row.key})
SET a.urn = row.urn, a.name = row.name, a.version = row.version, a.maxVersion = row.maxVersion,
    a.value = row.value, a.systemMetadata = row.systemMetadata,
    a.createdOn = row.createdOn, a.createdBy = row.createdBy
MERGE (e)-[:HAS_ASPECT]->(a)
