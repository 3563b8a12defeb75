// Purpose: one page of impact analysis selected inside Neo4j, {{direction}} from $urn, at most {{bound}} hops
// (the in-database path of catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results). The breadth-first
// pruning var-expand (VarLengthExpand(Pruning,BFS)) yields nodes in degree order, so
// ORDER BY degree, urn LIMIT plans a PartialTop: Neo4j stops after the degree that fills the page
// instead of reading the whole reach. The time-window test (lineage/edge-in-window.cypher) is inside all() where
// the BFS rewrite keeps it (test/lineage/plans.test.ts). Ghosts and soft-deleted nodes are walked through and
// filtered by their facetKey flags. Every verdict a facetKey decides is in $keys, so the filter reads one
// integer of most nodes (reading entityType too doubled the page's time on a selective filter at 1M).
// No schemaField lifting: select-counts tells the caller when a reach holds fields to lift, and then
// this page is not used.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/select-page-<down|up>-<1|2|max>[-windowed].
// Params: $urn, $start, $end: epoch ms (the -windowed expansions),
//         $maxHops: int, $d1, $d2, $d3: boolean (degree 1 / 2 / 3+ accepted),
//         $afterDegree: int, $afterUrn: string (keyset position; 0 and '' for the first page),
//         $keys: [int] (the facetKeys whose nodes are results: visible — the key's flags —, of a type
//         asked for, matching the criteria a facetKey decides; judged by select.ts), $limit: int,
//         $untilDegree: int, $untilUrn: string | null (the last position LINEAGE_MAX_RESULTS keeps, select-cut;
//         $untilUrn null = the whole degree; $maxHops and null when nothing is cut),
//         $tokens: [string] (free text, lower-cased; [] = none),
//         $criteria: [{property, condition, values, numbers}] and $pairs: [[facetKey, mask]] | null (with criteria on
//         the node itself: the (facetKey, mask) pairs select-counts-judged judged matching; the mask is
//         select-counts-judged's expression: both inline lineage/node-criteria-mask)
// Returns: urn, degree, entityType, platform, origin — in (degree, urn) order
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH s, n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n <> s
  AND (($d1 AND degree = 1) OR ($d2 AND degree = 2) OR ($d3 AND degree >= 3))
  AND (degree > $afterDegree OR (degree = $afterDegree AND n.urn > $afterUrn))
  AND (degree < $untilDegree OR (degree = $untilDegree AND ($untilUrn IS NULL OR n.urn <= $untilUrn)))
  AND n.facetKey IN $keys
  AND {{nodeTextMatch:n}}
  AND ($pairs IS NULL OR [n.facetKey, {{nodeCriteriaMask:n}}] IN $pairs)
RETURN n.urn AS urn, degree, n.entityType AS entityType, n.platform AS platform, n.origin AS origin
ORDER BY degree, urn
LIMIT $limit
