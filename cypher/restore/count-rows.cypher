// Purpose: how many latest aspect rows a restoreIndices scope holds (CLI progress total).
// Params: $lower, $upper, $regex: string, $name: string|null, $ge: int, $le: int (as scan-rows)
// Returns: total
MATCH (a:Aspect)
USING INDEX a:Aspect(version, urn, name)
WHERE a.version = 0 AND a.urn >= $lower AND a.urn < $upper AND a.name IS NOT NULL
  AND a.urn =~ $regex AND ($name IS NULL OR a.name = $name)
  AND coalesce(a.createdOn, 0) >= $ge AND ($ge = 0 OR a.createdOn <= $le)
RETURN count(a) AS total
