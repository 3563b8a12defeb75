// Purpose: where LINEAGE_MAX_RESULTS cuts a reach counted in Neo4j, {{direction}} from $urn, at most {{bound}}
// hops (catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results). The streamed path keeps
// the first LINEAGE_MAX_RESULTS visible nodes in (degree, urn) order and says isPartial; select-counts
// tells which degree that cut falls in ($degree) and how many of its nodes it keeps ($rank), and this
// statement reads the rest: the first $rank visible nodes of that degree in urn order, grouped as
// select-counts-judged groups them, with the last urn kept. Only that degree's urns are read and
// sorted (a Top of $rank rows), not the reach's.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/select-cut-<down|up>-<1|2|max>[-windowed].
// The time-window test (lineage/edge-in-window.cypher) is inside all(), where the BFS rewrite keeps it.
// Params: $urn, $start, $end: epoch ms (the -windowed expansions), $degree: int, $rank: int,
//         $visibleKeys: [int] (the facetKeys of visible nodes: existing, and not soft-deleted unless asked for),
//         $tokens and $criteria as select-counts-judged takes them
// Returns: facetKey, text, mask, count, lastUrn: the largest urn of the group; rows ordered by it,
//          largest first, so the first row's is the cut's
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH s, n, min(length(p)) AS degree
WHERE degree = $degree AND n <> s AND n.facetKey IN $visibleKeys
WITH n ORDER BY n.urn LIMIT $rank
RETURN n.facetKey AS facetKey, {{nodeTextMatch:n}} AS text, {{nodeCriteriaMask:n}} AS mask,
       count(*) AS count, max(n.urn) AS lastUrn
ORDER BY lastUrn DESC
