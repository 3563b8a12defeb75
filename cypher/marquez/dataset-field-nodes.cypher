// Purpose: the column nodes of datasets (docs/marquez-compatibility.md §Column lineage): where
// Marquez's column lineage of a dataset or a job starts, beside the fields of their schemas.
// Params: $prefixes: [string] ("urn:li:schemaField:(<dataset urn>," — prefixes of the unique urn index)
// Returns: urn: string (a schemaField)
UNWIND $prefixes AS prefix
MATCH (f:Entity)
WHERE f.urn STARTS WITH prefix AND f.entityType = 'schemaField'
RETURN DISTINCT f.urn AS urn
ORDER BY urn
