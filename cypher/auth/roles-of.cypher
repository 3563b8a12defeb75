// Purpose: the roleMembership aspect of a user (role urns are inside the JSON value).
// Params: $key: string   ("<corpuser urn>\u241froleMembership\u241f0")
// Returns: value
MATCH (a:Aspect {key: $key})
RETURN a.value AS value
