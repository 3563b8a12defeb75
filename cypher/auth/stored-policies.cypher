// Purpose: every stored policy: the latest dataHubPolicyInfo row of each dataHubPolicy entity.
// Params: none
// Returns: urn, value (JSON text)
MATCH (a:Aspect {name: 'dataHubPolicyInfo', version: 0})
RETURN a.urn AS urn, a.value AS value
