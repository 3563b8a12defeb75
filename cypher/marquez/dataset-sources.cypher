// Purpose: the data sources Marquez's GET /sources lists (docs/marquez-compatibility.md §Sources):
// for each existing dataset the OpenLineage door wrote, the dataSource facet its openLineage
// aspect keeps (the caller reads it out of the aspect's JSON), and when that row was written.
// Params: $suffix: string (the row key suffix "␟openLineage␟0")
// Returns: value: string (the openLineage aspect's JSON), createdOn: int
MATCH (n:Entity)
WHERE n.entityType = 'dataset' AND n.exists AND NOT coalesce(n.removed, false) AND n.origin = 'PROD'
MATCH (a:Aspect {key: n.urn + $suffix})
RETURN a.value AS value, coalesce(a.createdOn, 0) AS createdOn
