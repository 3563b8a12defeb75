// Purpose: the aspect rows change events refer to, by key (latest rows and archived versions alike).
// Params: $keys: [string]
// Returns: key, value, systemMetadata, maxVersion (null on an archived row)
UNWIND $keys AS k
MATCH (a:Aspect {key: k})
RETURN a.key AS key, a.value AS value, a.systemMetadata AS systemMetadata, a.maxVersion AS maxVersion
