// Purpose: how many aspect rows (every version) a scope holds now: the export's progress total.
// Params: $lower, $upper, $regex: string
// Returns: total
MATCH (a:Aspect)
WHERE a.urn >= $lower AND a.urn < $upper AND a.urn =~ $regex
RETURN count(a) AS total
