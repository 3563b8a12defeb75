// Purpose: the datasets Marquez's search may match (docs/marquez-compatibility.md §Search):
// existing PROD datasets whose name contains $q, case-insensitively (the caller matches the Marquez
// name, which for an object store is the name after its bucket), with when each was last written.
// Params: $q: string (lower case)
// Returns: urn: string, updatedOn: int
MATCH (n:Entity)
WHERE n.entityType = 'dataset' AND n.exists AND NOT coalesce(n.removed, false) AND n.origin = 'PROD'
  AND toLower(n.name) CONTAINS $q
MATCH (n)-[:HAS_ASPECT]->(a:Aspect {version: 0})
RETURN n.urn AS urn, max(a.createdOn) AS updatedOn
ORDER BY urn
