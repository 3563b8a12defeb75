// Purpose: one aspect row by key (GET /aspects with a version).
// Params: $key: string
// Returns: version, value, systemMetadata, createdOn, createdBy
MATCH (a:Aspect {key: $key})
RETURN a.version AS version, a.value AS value, a.systemMetadata AS systemMetadata,
       a.createdOn AS createdOn, a.createdBy AS createdBy
