// Purpose: one page of latest (version 0) aspect rows in (urn, name) order for restoreIndices.
// Keyset pagination (rows after ($afterUrn, $afterName)) so whole-store scans never SKIP over
// millions; $skip only serves the API's `start` on the first page. The urn range [$lower, $upper)
// comes from the literal prefix of a LIKE pattern (or the exact urn) so the aspect_latest index is
// seeked, not scanned; $regex is the full LIKE pattern. Index order provides the sort.
// Params: $lower, $upper: string, $regex: string, $name: string|null, $afterUrn: string,
//         $afterName: string|null (null = include $afterUrn's rows), $ge: int (0 = no time filter),
//         $le: int, $skip: int, $limit: int
// Returns: urn, name
MATCH (a:Aspect)
USING INDEX a:Aspect(version, urn, name)
WHERE a.version = 0 AND a.urn >= $lower AND a.urn >= $afterUrn AND a.urn < $upper AND a.name IS NOT NULL
  AND a.urn =~ $regex AND ($name IS NULL OR a.name = $name)
  AND CASE WHEN $afterName IS NOT NULL AND a.urn = $afterUrn THEN a.name > $afterName ELSE true END
  AND coalesce(a.createdOn, 0) >= $ge AND ($ge = 0 OR a.createdOn <= $le)
WITH a ORDER BY a.version, a.urn, a.name
SKIP $skip LIMIT $limit
RETURN a.urn AS urn, a.name AS name
