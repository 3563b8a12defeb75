// Purpose: the latest values of the given aspect rows (an actor's memberships, its groups' roles, the
// aspects a policy filter reads of the resources written); rows that do not exist are left out.
// Params: $keys: [string]   ("<urn>\u241f<aspect>\u241f0" each)
// Returns: urn, name, value (JSON text)
UNWIND $keys AS key
MATCH (a:Aspect {key: key})
RETURN a.urn AS urn, a.name AS name, a.value AS value
