// Purpose: remove every version of some aspects (DELETE change type, hard delete).
// Params: $keys: [{urn: string, name: string}]
// Returns: removed (rows removed per key)
UNWIND $keys AS k
OPTIONAL MATCH (:Entity {urn: k.urn})-[:HAS_ASPECT]->(a:Aspect {name: k.name})
WITH k, collect(a) AS rows
FOREACH (a IN rows | DETACH DELETE a)
RETURN k.urn AS urn, k.name AS name, size(rows) AS removed
