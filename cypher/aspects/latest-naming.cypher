// Purpose: latest rows of one aspect whose stored JSON contains a string — the urn they name — newest
// first (a query's querySubjects, a document's relatedAssets). The text match narrows; the caller
// parses each value and keeps the rows whose field really names the urn. An empty needle lists all.
// Params: $name: string, $needle: string, $limit: int
// Returns: urn, value (JSON text), createdOn
MATCH (a:Aspect {name: $name})
WHERE a.version = 0 AND a.value CONTAINS $needle
RETURN a.urn AS urn, a.value AS value, a.createdOn AS createdOn
ORDER BY createdOn DESC, urn
LIMIT $limit
