// Purpose: every latest aspect row of some entities (reads, hard delete, search fields).
// Params: $urns: [string]
// Returns: urn, name, value, systemMetadata, maxVersion, createdOn, createdBy
UNWIND $urns AS u
MATCH (:Entity {urn: u})-[:HAS_ASPECT]->(a:Aspect {version: 0})
RETURN a.urn AS urn, a.name AS name, a.value AS value, a.systemMetadata AS systemMetadata,
       a.maxVersion AS maxVersion, a.createdOn AS createdOn, a.createdBy AS createdBy
ORDER BY urn, name
