// Purpose: chosen versions of aspects, read together (OpenAPI v3 batchGet with If-Version-Match).
// Version n ≥ 1 is the archived row n; the latest row answers for maxVersion + 1, the number
// DataHub gives the value that is the latest (version 0 answers it too, as a plain latest read).
// Params: $wanted: [{key: string, latestKey: string, version: int}]
// Returns: key (the request's), version, value, systemMetadata, createdOn, createdBy
UNWIND $wanted AS w
OPTIONAL MATCH (archived:Aspect {key: w.key})
OPTIONAL MATCH (latest:Aspect {key: w.latestKey})
WITH w, coalesce(archived, CASE WHEN latest.maxVersion + 1 = w.version THEN latest END) AS a
WHERE a IS NOT NULL
RETURN w.key AS key, w.version AS version, a.value AS value, a.systemMetadata AS systemMetadata,
       a.createdOn AS createdOn, a.createdBy AS createdBy
