// Purpose: one hop of Marquez's lineage walk (docs/marquez-compatibility.md §Lineage): the jobs that read or write
// a dataset some job of the frontier reads or writes, in either direction, not seen yet.
// Params: $frontier: [string] (dataJob urns), $seen: [string] (dataJob urns already reached)
// Returns: urn: string (a dataJob)
UNWIND $frontier AS u
MATCH (:Entity {urn: u})-[:Consumes|Produces]->(d:Entity)<-[:Consumes|Produces]-(k:Entity)
WHERE d.entityType = 'dataset' AND k.entityType = 'dataJob' AND k.exists AND NOT coalesce(k.removed, false)
  AND NOT k.urn IN $seen
RETURN DISTINCT k.urn AS urn
ORDER BY urn
