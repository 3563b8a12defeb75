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
// Returns: the columns of lineage/hop-row.cypher (each node's id, urn, type, platform, origin, name,
//          description, removed, ownExists, parentUrn, returnable, parent)
UNWIND $frontier AS id
MATCH (a:Entity) WHERE elementId(a) = id
MATCH (a){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:r}})
WITH DISTINCT n
{{hopRow:n}}
