// Purpose: one shortest path from $urn to each of a page of results, {{stream}} (never for the
// whole reachable set: per-target shortest paths over everything is DataHub #8687). Each target is
// known reachable, so the bidirectional search stops at its degree. Same time-window test as every
// lineage statement (lineage/edge-in-window.cypher).
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/paths-<down|up>.
// Params: $urn, $targets: [urn], $unwindowed: boolean, $start, $end: epoch ms
// Returns: target, path: [urn] (source first, target last), vias: [urn|null] (the via of each edge
//          of the path, in path order: a query or dataJob shown between the two ends)
MATCH (s:Entity {urn: $urn})
UNWIND $targets AS target
MATCH (t:Entity {urn: target})
WHERE t <> s
MATCH p = shortestPath((s){{<}}-[rs:LINEAGE*1..{{maxBound}}]-{{>}}(t))
WHERE all(r IN rs WHERE $unwindowed OR {{edgeInWindow:r}})
RETURN target, [x IN nodes(p) | x.urn] AS path, [r IN relationships(p) | r.via] AS vias
