// Purpose: one hop of the application-level BFS when nothing depends on who reached a node or in
// which order (ignoreAsHops without a per-hop limit, the fallback when the fast path times out):
// every lineage neighbour, {{stream}}, of a frontier, each node once, in no order. lineage/hop
// returns (parent, node) pairs in order, which only a per-hop limit needs; collapsing them and
// not sorting is about half of a large hop's time (a 1M-edge hub's hops: 27,754 pairs, 23,363
// nodes). Ghosts are included (they are walked through); an edge passes the time window as
// every lineage statement tests it (lineage/edge-in-window.cypher).
// The frontier is given by element ids (the ids of the nodes the hop before returned). $strings:
// whether the request judges names and descriptions (text query, filters on them); when not,
// they are not read.
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/hop-nodes-<down|up>.
// Params: $frontier: [elementId], $unwindowed: boolean, $start, $end: epoch ms, $includeSoftDeleted: boolean,
//         $strings: boolean
// Returns: id (the node's element id), urn, entityType, platform, origin, name, description (null
//          unless $strings), removed, ownExists, parentUrn, returnable: boolean,
//          parent: {urn, entityType, platform, origin, name, description} | null (schemaFields)
UNWIND $frontier AS id
MATCH (a:Entity) WHERE elementId(a) = id
MATCH (a){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:r}})
WITH DISTINCT n
OPTIONAL MATCH (parent:Entity {urn: n.parentUrn})
WITH n, CASE WHEN n.entityType = 'schemaField' THEN parent ELSE n END AS e
RETURN elementId(n) AS id, n.urn AS urn, n.entityType AS entityType, e.platform AS platform, e.origin AS origin,
       CASE WHEN $strings THEN n.name END AS name, CASE WHEN $strings THEN n.description END AS description,
       coalesce(e.removed, false) AS removed, coalesce(n.exists, false) AS ownExists, n.parentUrn AS parentUrn,
       (e IS NOT NULL AND e.exists = true AND ($includeSoftDeleted OR NOT coalesce(e.removed, false))) AS returnable,
       CASE WHEN n.entityType = 'schemaField' AND e IS NOT NULL THEN {urn: e.urn, entityType: e.entityType,
         platform: e.platform, origin: e.origin, name: CASE WHEN $strings THEN e.name END,
         description: CASE WHEN $strings THEN e.description END} END AS parent
