// Purpose: number of latest rows of an aspect, optionally restricted by a urn LIKE pattern
// translated to a regular expression by the caller (aspects?action=getCount).
// Params: $name: string, $urnRegex: string|null
// Returns: count
MATCH (a:Aspect {version: 0})
WHERE a.name = $name AND ($urnRegex IS NULL OR a.urn =~ $urnRegex)
RETURN count(a) AS count
