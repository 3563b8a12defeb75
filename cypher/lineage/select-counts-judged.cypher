// Purpose: select-counts for requests with free text or criteria on the node itself, {{direction}} from
// $urn, at most {{bound}} hops (catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results): one row
// per (facetKey, degree, text verdict, criteria mask) with its count. A separate statement
// because Neo4j reads every property an expression names, for every node of the reach, before it
// evaluates the expression (urn, name, description and parentUrn: +160 ms on a 120k-node reach); for
// the same reason properties are read by name (n[f]): only those a criterion or the text needs.
// Free text is judged per node, as results.ts judges it (every token in urn, name or description,
// lower-cased; a token holds no line break, so "in one of them" is "in the three joined"); nodes
// that fail it are still counted, apart, so the caller knows the whole reach.
// Criteria on what the node itself holds (urn, name, description, parent) are judged per node too,
// each as catalog/src/model/filters.ts judges it (before negation): `mask` has one bit per criterion,
// the first criterion's bit highest; the caller combines them with the facetKey's verdicts.
// select-page and select-cut compute the same mask and text verdict: all three inline the partials
// lineage/node-criteria-mask.cypher and lineage/node-text-match.cypher.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/select-counts-judged-<down|up>-<1|2|max>[-windowed].
// Params: $urn, $start, $end: epoch ms (the -windowed expansions), $maxHops: int,
//         $tokens: [string] (lower-cased; [] = no text query),
//         $criteria: [{property: urn|name|description|parentUrn, condition, values: [string],
//         numbers: [float | null] (each value read as a number, as filters.ts numberOf reads it)}] ([] = none)
// Returns: k = facetKey * 64 + degree (63 = "63 or more"), text: whether the node matches the text,
//          mask: the criteria hit (0 without criteria), count
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH s, n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n <> s
RETURN n.facetKey * 64 + CASE WHEN degree >= 63 THEN 63 ELSE degree END AS k,
       {{nodeTextMatch:n}} AS text,
       {{nodeCriteriaMask:n}} AS mask,
       count(*) AS count
