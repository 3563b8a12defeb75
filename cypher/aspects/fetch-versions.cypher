// Purpose: every stored version of one aspect of one entity (history reads and tests).
// Params: $urn: string, $name: string
// Returns: version, value, systemMetadata, createdOn, createdBy
MATCH (:Entity {urn: $urn})-[:HAS_ASPECT]->(a:Aspect {name: $name})
RETURN a.version AS version, a.value AS value, a.systemMetadata AS systemMetadata,
       a.createdOn AS createdOn, a.createdBy AS createdBy
ORDER BY version
