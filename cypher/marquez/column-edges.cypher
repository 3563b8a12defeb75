// Purpose: one hop of Marquez's column lineage walk (docs/marquez-compatibility.md §Column lineage):
// the column edges into the fields of $downstreamOf (their upstream columns) and out of the fields
// of $upstreamOf (the columns they feed), between columns of existing, not removed entities.
// Params: $downstreamOf: [string] (schemaField urns), $upstreamOf: [string] (schemaField urns)
// Returns: downstream: string, upstream: string (schemaField urns)
UNWIND $downstreamOf AS u
MATCH (up:Entity)-[:LINEAGE]->(down:Entity {urn: u})
WHERE up.entityType = 'schemaField'
MATCH (p:Entity {urn: up.parentUrn})
WHERE p.exists AND NOT coalesce(p.removed, false)
RETURN down.urn AS downstream, up.urn AS upstream
UNION
UNWIND $upstreamOf AS u
MATCH (up:Entity {urn: u})-[:LINEAGE]->(down:Entity)
WHERE down.entityType = 'schemaField'
MATCH (p:Entity {urn: down.parentUrn})
WHERE p.exists AND NOT coalesce(p.removed, false)
RETURN down.urn AS downstream, up.urn AS upstream
