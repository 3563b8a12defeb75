// Purpose: is a stored access token (dataHubAccessToken entity) still present, i.e. not revoked.
// Params: $keyRow: string   ("urn:li:dataHubAccessToken:<id>\u241fdataHubAccessTokenKey\u241f0")
// Returns: active
OPTIONAL MATCH (a:Aspect {key: $keyRow})
RETURN a IS NOT NULL AS active
