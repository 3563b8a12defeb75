// Purpose: the most lineage edges, {{direction}}, that any node a walk from $urn expands has (the source, and
// every node reached before the depth bound {{bound}}): when it is below a request's
// entitiesExploredPerHopLimit, the limit cannot cut anything (no parent has that many new
// neighbours), so the walk is the plain breadth-first one and Neo4j can select it
// (catalog/src/read/lineage/select.ts; docs/lineage-model.md §Traversal). Edges are counted, not distinct
// neighbours, and in every window: the test errs towards "may cut", never the other way. An edge
// count is read from the node's relationship groups, not by walking its edges.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/fanout-<down|up>-<1|2|max>[-windowed].
// Params: $urn, $start, $end: epoch ms (the -windowed expansions), $maxHops: int
// Returns: source: the source's edge count; reach: the largest edge count among the nodes it reaches
//          before the bound (null when it reaches nothing)
MATCH (s:Entity {urn: $urn})
OPTIONAL CALL (s) {
  MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
  WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
  WITH n, min(length(p)) AS degree
  WHERE degree < $maxHops AND n <> s
  RETURN max(COUNT { (n){{<}}-[:LINEAGE]-{{>}}() }) AS reach
}
RETURN COUNT { (s){{<}}-[:LINEAGE]-{{>}}() } AS source, reach
