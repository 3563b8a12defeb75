// Purpose: total and facets of impact analysis counted inside Neo4j, {{direction}} from $urn, at most {{bound}}
// hops (the in-database path of catalog/src/read/lineage/select.ts; docs/lineage-model.md §Results): one row per
// (facetKey, degree bucket) with its count. The breadth-first pruning var-expand visits each node
// once; grouping by ONE integer read from the node is what keeps this near the BFS itself (string
// properties cost ~150 ms more per 120k nodes at 1M edges; bench/README.md). A null k = a node
// written before facetKey existed: the caller falls back to shipping rows.
// Template: catalog/src/store/cypher.ts expands it per direction and depth bound into
// lineage/select-counts-<down|up>-<1|2|max>.
// The time-window test is reach.cypher's, inside all() where the BFS rewrite keeps it.
// Free text is judged per node, as results.ts judges it (every token in urn, name or description,
// lower-cased); nodes that fail it are still counted, apart, so the caller knows the whole reach.
// Criteria on what the node itself holds (urn, name, description, parent) are judged per node too,
// each as catalog/src/model/filters.ts judges it (before negation): `mask` has one bit per criterion,
// the first criterion's bit highest; the caller combines them with the facetKey's verdicts.
// select-page computes the same mask: the two expressions must stay equal.
// Params: $urn, $unwindowed: boolean, $start, $end: epoch ms (ignored when unwindowed), $maxHops: int,
//         $tokens: [string] (lower-cased; [] = no text query),
//         $criteria: [{field: urn|name|description|parent, condition, values: [string]}] ([] = none)
// Returns: k = facetKey * 4 + bucket (1, 2, 3 = "3+"), text: whether the node matches the text,
//          mask: the criteria hit (0 without criteria), count
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n)
WHERE all(r IN rs WHERE $unwindowed OR r.manual
      OR (coalesce(r.createdOn, 0) = 0 AND coalesce(r.updatedOn, 0) = 0)
      OR (r.createdOn >= $start AND r.createdOn <= $end) OR (r.updatedOn >= $start AND r.updatedOn <= $end))
WITH s, n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n <> s
RETURN n.facetKey * 4 + CASE WHEN degree >= 3 THEN 3 ELSE degree END AS k,
       all(t IN $tokens WHERE toLower(n.urn + '\n' + coalesce(n.name, '') + '\n' + coalesce(n.description, '')) CONTAINS t) AS text,
       reduce(m = 0, c IN $criteria | m * 2 + CASE WHEN any(a IN [CASE c.field WHEN 'urn' THEN n.urn WHEN 'name' THEN n.name
           WHEN 'description' THEN n.description ELSE n.parentUrn END] WHERE a IS NOT NULL AND CASE c.condition
             WHEN 'EXISTS' THEN a <> ''
             WHEN 'IEQUAL' THEN any(v IN c.values WHERE toLower(v) = toLower(a))
             WHEN 'CONTAIN' THEN any(v IN c.values WHERE toLower(a) CONTAINS toLower(v))
             WHEN 'START_WITH' THEN any(v IN c.values WHERE a STARTS WITH v)
             WHEN 'END_WITH' THEN any(v IN c.values WHERE a ENDS WITH v)
             ELSE a IN c.values END) THEN 1 ELSE 0 END) AS mask,
       count(*) AS count
