// Purpose: one hop of the application-level BFS (ignoreAsHops, per-hop limits, fallback when the
// fast path times out): every lineage neighbour, {{stream}}, of a frontier, ghosts included
// (they are walked through). Parallel edges collapse; an edge passes the time window
// as every lineage statement tests it (lineage/edge-in-window.cypher).
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/hop-<down|up>.
// Params: $frontier: [urn], $unwindowed: boolean, $start, $end: epoch ms, $includeSoftDeleted: boolean
// Returns: from, urn, entityType, platform, origin, name, description, removed, ownExists, parentUrn,
//          returnable: boolean,
//          parent: {urn, entityType, platform, origin, name, description} | null (schemaFields)
UNWIND $frontier AS u
MATCH (a:Entity {urn: u}){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:r}})
WITH DISTINCT u, n
OPTIONAL MATCH (parent:Entity {urn: n.parentUrn})
WITH u, n, CASE WHEN n.entityType = 'schemaField' THEN parent ELSE n END AS e
RETURN u AS from, n.urn AS urn, n.entityType AS entityType, e.platform AS platform, e.origin AS origin,
       n.name AS name, n.description AS description, coalesce(e.removed, false) AS removed,
       coalesce(n.exists, false) AS ownExists, n.parentUrn AS parentUrn,
       (e IS NOT NULL AND e.exists = true AND ($includeSoftDeleted OR NOT coalesce(e.removed, false))) AS returnable,
       CASE WHEN n.entityType = 'schemaField' AND e IS NOT NULL THEN {urn: e.urn, entityType: e.entityType,
         platform: e.platform, origin: e.origin, name: e.name, description: e.description} END AS parent
ORDER BY from, urn
