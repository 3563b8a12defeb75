// Partial, not a statement: the node criteria mask of impact analysis (docs/lineage-model.md §Results),
// written once and inlined by the loader (catalog/src/store/cypher.ts) wherever a lineage template
// says {{nodeCriteriaMask:<variable>}}; {{node}} stands for that variable. One bit per criterion of
// $criteria, the first criterion's bit highest, set when the node's property matches as
// catalog/src/model/filters.ts judges it (before negation); select.ts combines the bits with what the
// node's facetKey decides. Properties are read by name ({{node}}[c.property]): only those a
// criterion names. A criterion with `ids` (an exact urn: EQUAL or IN on urn, the nodes' element ids
// looked up by lineage/node-ids) is judged by identity and reads nothing: the urn is a long string, and
// reading it from every node of a 120k-node reach cost about as much as the walk (bench/README.md).
// Params: $criteria: [{property, condition, values: [string], numbers: [float | null], ids: [string] | null}]
reduce(m = 0, c IN $criteria | m * 2 + CASE
 WHEN c.ids IS NOT NULL THEN CASE WHEN elementId({{node}}) IN c.ids THEN 1 ELSE 0 END
 WHEN any(a IN [{{node}}[c.property]] WHERE a IS NOT NULL AND CASE c.condition
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
 ELSE a IN c.values END) THEN 1
 ELSE 0 END)
