// Purpose: select-counts for requests with free text or criteria on the node itself, {{direction}} from
// $urn, at most {{bound}} hops (catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results): one row
// per (facetKey, degree bucket, text verdict, criteria mask) with its count. A separate statement
// because Neo4j reads every property an expression names, for every node of the reach, before it
// evaluates the expression (urn, name, description and parentUrn: +160 ms on a 120k-node reach); for
// the same reason properties are read by name (n[f]): only those a criterion or the text needs.
// Free text is judged per node, as results.ts judges it (every token in urn, name or description,
// lower-cased; a token holds no line break, so "in one of them" is "in the three joined"); nodes
// that fail it are still counted, apart, so the caller knows the whole reach.
// Criteria on what the node itself holds (urn, name, description, parent) are judged per node too,
// each as catalog/src/model/filters.ts judges it (before negation): `mask` has one bit per criterion,
// the first criterion's bit highest; the caller combines them with the facetKey's verdicts.
// select-page computes the same mask: the two expressions must stay equal.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/select-counts-judged-<down|up>-<1|2|max>[-windowed].
// Params: $urn, $start, $end: epoch ms (the -windowed expansions), $maxHops: int,
//         $tokens: [string] (lower-cased; [] = no text query),
//         $criteria: [{property: urn|name|description|parentUrn, condition, values: [string],
//         numbers: [float | null] (each value read as a number, as filters.ts numberOf reads it)}] ([] = none)
// Returns: k = facetKey * 4 + bucket (1, 2, 3 = "3+"), text: whether the node matches the text,
//          mask: the criteria hit (0 without criteria), count
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH s, n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n <> s
RETURN n.facetKey * 4 + CASE WHEN degree >= 3 THEN 3 ELSE degree END AS k,
       all(t IN $tokens WHERE any(f IN ['urn', 'name', 'description'] WHERE toLower(coalesce(n[f], '')) CONTAINS t)) AS text,
       reduce(m = 0, c IN $criteria | m * 2 + CASE WHEN any(a IN [n[c.property]] WHERE a IS NOT NULL AND CASE c.condition
             WHEN 'EQUAL' THEN a IN c.values
             WHEN 'IN' THEN a IN c.values
             WHEN 'EXISTS' THEN a <> ''
             WHEN 'IEQUAL' THEN any(v IN c.values WHERE toLower(v) = toLower(a))
             WHEN 'CONTAIN' THEN any(v IN c.values WHERE toLower(a) CONTAINS toLower(v))
             WHEN 'START_WITH' THEN any(v IN c.values WHERE a STARTS WITH v)
             WHEN 'END_WITH' THEN any(v IN c.values WHERE a ENDS WITH v)
             // Comparisons are numeric when both sides are numbers, else by text (as filters.ts compares); a value
             // that is no number (c.numbers[i] null) spares reading the node's as one (a failed parse is costly).
             WHEN 'GREATER_THAN' THEN any(i IN range(0, size(c.values) - 1) WHERE CASE WHEN c.numbers[i] IS NULL THEN a > c.values[i] ELSE coalesce(toFloatOrNull(a) > c.numbers[i], a > c.values[i]) END)
             WHEN 'GREATER_THAN_OR_EQUAL_TO' THEN any(i IN range(0, size(c.values) - 1) WHERE CASE WHEN c.numbers[i] IS NULL THEN a >= c.values[i] ELSE coalesce(toFloatOrNull(a) >= c.numbers[i], a >= c.values[i]) END)
             WHEN 'LESS_THAN' THEN any(i IN range(0, size(c.values) - 1) WHERE CASE WHEN c.numbers[i] IS NULL THEN a < c.values[i] ELSE coalesce(toFloatOrNull(a) < c.numbers[i], a < c.values[i]) END)
             WHEN 'LESS_THAN_OR_EQUAL_TO' THEN any(i IN range(0, size(c.values) - 1) WHERE CASE WHEN c.numbers[i] IS NULL THEN a <= c.values[i] ELSE coalesce(toFloatOrNull(a) <= c.numbers[i], a <= c.values[i]) END)
             ELSE a IN c.values END) THEN 1 ELSE 0 END) AS mask,
       count(*) AS count
