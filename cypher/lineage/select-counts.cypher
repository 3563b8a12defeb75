// Purpose: total and facets of impact analysis counted inside Neo4j, {{direction}} from $urn, at most {{bound}}
// hops (the in-database path of catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results): one row per
// (facetKey, degree bucket) with its count. The breadth-first pruning var-expand visits each node
// once; grouping by ONE integer read from the node is what keeps this near the BFS itself (string
// properties cost ~150 ms more per 120k nodes at 1M edges; bench/README.md). A null k = a node
// written before facetKey existed: the caller falls back to shipping rows. Requests with free text or
// criteria on the node itself use select-counts-judged, which reads more of every node.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/select-counts-<down|up>-<1|2|max>[-windowed].
// The time-window test (lineage/edge-in-window.cypher) is inside all(), where the BFS rewrite keeps it.
// Params: $urn, $start, $end: epoch ms (the -windowed expansions), $maxHops: int
// Returns: k = facetKey * 64 + degree (63 = "63 or more": facetKey < 2^46, so k stays an exact JS number), count.
// The exact degree (not the 1 / 2 / 3+ bucket) is what lets select.ts find where LINEAGE_MAX_RESULTS cuts.
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH s, n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n <> s
RETURN n.facetKey * 64 + CASE WHEN degree >= 63 THEN 63 ELSE degree END AS k, count(*) AS count
