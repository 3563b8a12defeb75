// Purpose: one hop of the application-level BFS under a per-hop limit: every lineage neighbour,
// {{stream}}, of a frontier as (parent, node) pairs ordered by parent urn, then node urn (the
// limit counts each parent's first new children; without a limit lineage/hop-nodes is used),
// ghosts included (they are walked through). Parallel edges collapse; an edge passes the time window
// as every lineage statement tests it (lineage/edge-in-window.cypher).
// The frontier is given by element ids (the ids of the nodes the hop before returned), so a hop
// starts with id lookups, not one index seek per urn. $strings: whether the request judges names
// and descriptions (text query, filters on them); when not, they are not read.
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/hop-<down|up>.
// Params: $frontier: [elementId], $unwindowed: boolean, $start, $end: epoch ms, $includeSoftDeleted: boolean,
//         $strings: boolean
// Returns: from (the parent's urn), id (the node's element id), urn, entityType, platform, origin,
//          name, description (null unless $strings), removed, ownExists, parentUrn,
//          returnable: boolean,
//          parent: {urn, entityType, platform, origin, name, description} | null (schemaFields)
UNWIND $frontier AS id
MATCH (a:Entity) WHERE elementId(a) = id
MATCH (a){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:r}})
WITH DISTINCT a, n
OPTIONAL MATCH (parent:Entity {urn: n.parentUrn})
WITH a, n, CASE WHEN n.entityType = 'schemaField' THEN parent ELSE n END AS e
RETURN a.urn AS from, elementId(n) AS id, n.urn AS urn, n.entityType AS entityType, e.platform AS platform, e.origin AS origin,
       CASE WHEN $strings THEN n.name END AS name, CASE WHEN $strings THEN n.description END AS description,
       coalesce(e.removed, false) AS removed, coalesce(n.exists, false) AS ownExists, n.parentUrn AS parentUrn,
       (e IS NOT NULL AND e.exists = true AND ($includeSoftDeleted OR NOT coalesce(e.removed, false))) AS returnable,
       CASE WHEN n.entityType = 'schemaField' AND e IS NOT NULL THEN {urn: e.urn, entityType: e.entityType,
         platform: e.platform, origin: e.origin, name: CASE WHEN $strings THEN e.name END,
         description: CASE WHEN $strings THEN e.description END} END AS parent
ORDER BY from, urn
