// Purpose: column-level lineage counts of one dataset's, chart's or dashboard's columns: for each of
// its schemaField nodes, the columns (or jobs) one :LINEAGE hop upstream and downstream.
// Params: $prefix: string ("urn:li:schemaField:(<parent urn>," — a prefix of the unique urn index)
// Returns: urn: string, upstream: int, downstream: int
MATCH (f:Entity)
WHERE f.urn STARTS WITH $prefix AND f.entityType = 'schemaField'
RETURN f.urn AS urn, COUNT { (f)<-[:LINEAGE]-() } AS upstream, COUNT { (f)-[:LINEAGE]->() } AS downstream
ORDER BY urn
