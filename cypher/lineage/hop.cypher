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
// Returns: from (the parent's urn), then the columns of lineage/hop-row.cypher (each node's id, urn,
//          type, platform, origin, name, description, removed, ownExists, parentUrn, returnable, parent)
UNWIND $frontier AS id
MATCH (a:Entity) WHERE elementId(a) = id
MATCH (a){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:r}})
WITH DISTINCT a.urn AS from, n
{{hopRow:n}}, from
ORDER BY from, urn
