// Purpose: every live access token's info (revocation deletes the token entity, so these are the
// unrevoked ones, expired ones included): what listAccessTokens filters, sorts and pages.
// Params: (none)
// Returns: urn, value (JSON text of dataHubAccessTokenInfo)
MATCH (a:Aspect {name: 'dataHubAccessTokenInfo'})
WHERE a.version = 0
RETURN a.urn AS urn, a.value AS value
