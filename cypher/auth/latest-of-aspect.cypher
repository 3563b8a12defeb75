// Purpose: the latest row of one aspect on every entity holding it: the stored policies
// (dataHubPolicyInfo), the live invite tokens (inviteToken), secrets, ingestion sources. Few rows
// each, read whole.
// Params: $name: string   (the aspect name)
// Returns: urn, value (JSON text)
MATCH (a:Aspect {name: $name, version: 0})
RETURN a.urn AS urn, a.value AS value
