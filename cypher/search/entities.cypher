// Purpose: catalogue-wide entity search (GraphQL search / searchAcrossEntities): full-text over the
// entities' searchText words when $lucene is given (the exact urn first, then the exact name, then
// Lucene's score), else every entity of the types (in name order); ghosts never, soft-deleted
// entities only when a criterion on `removed` asks; then the request's orFilters, evaluated here on
// the node's search fields so paging, total and facet counts are exact. Criteria arrive as
// parameters (field, values, condition, negated) and are interpreted by the CASE below: never as
// Cypher text. Field meanings: docs/wire-contract.md §Filters and §Catalogue search.
// Params: $lucene: string|null (built and escaped by the caller), $text: string (the query, trimmed),
//         $types: [entity type name],
//         $clauses: [[{field, values: [string], condition, negated: boolean}]] | null (entityType values
//         lower-cased without underscores), $removedFiltered: boolean, $facets: boolean, $skip: int, $limit: int,
//         $sort: 'relevance' | 'urn' | 'name', $descending: boolean,
//         $slice: null | {id: int, max: int, codes: {character: int}} (the OpenAPI scroll's sliceId/sliceMax:
//         only entities whose urn hash is id modulo max; the hash reads the urn's last 32 characters
//         through the codes map, so every urn falls in exactly one slice whatever else is asked)
//         $visible: [urn] | null (view authorization: only these, before anything is counted; null = all)
// Returns: total: int, page: [{urn, entityType, score}],
//          groups: [{entityType, platform, origin, count}] | null, typeNames: [{value, count}] | null
CALL () {
  WITH 1 AS one WHERE $lucene IS NULL
  MATCH (node:Entity) WHERE node.entityType IN $types
  RETURN node, 1.0 AS score
  UNION ALL
  WITH 1 AS one WHERE $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('entity_search_v3', $lucene) YIELD node, score
  WITH node, score WHERE node.entityType IN $types
  RETURN node, score
}
WITH node, score
WHERE node.exists AND ($removedFiltered OR NOT coalesce(node.removed, false))
  AND ($visible IS NULL OR node.urn IN $visible)
  AND ($clauses IS NULL OR any(clause IN $clauses WHERE all(c IN clause WHERE
    [v IN [CASE c.field
        WHEN 'entityType' THEN toLower(node.entityType)
        WHEN 'platform' THEN node.platform
        WHEN 'origin' THEN node.origin
        WHEN 'urn' THEN node.urn
        WHEN 'removed' THEN toString(coalesce(node.removed, false))
        WHEN 'parent' THEN node.parentUrn
        WHEN 'name' THEN node.name
        WHEN 'description' THEN node.description
        WHEN 'hasUpstreams' THEN toString(node.entityType = 'dataset' AND EXISTS { (node)-[:DownstreamOf]->(:Dataset) })
      END] |
      c.condition <> 'EXISTS' AND size(c.values) = 0 OR CASE
        WHEN c.condition = 'EXISTS' THEN v IS NOT NULL AND v <> ''
        WHEN v IS NULL THEN false
        WHEN c.condition = 'CONTAIN' THEN any(x IN c.values WHERE toLower(v) CONTAINS toLower(x))
        WHEN c.condition = 'IEQUAL' THEN any(x IN c.values WHERE toLower(v) = toLower(x))
        WHEN c.condition = 'START_WITH' THEN any(x IN c.values WHERE v STARTS WITH x)
        WHEN c.condition = 'END_WITH' THEN any(x IN c.values WHERE v ENDS WITH x)
        // Comparisons are numeric when both sides are numbers, else by text (as filters.ts compares).
        WHEN c.condition = 'GREATER_THAN' THEN any(x IN c.values WHERE coalesce(toFloatOrNull(v) > toFloatOrNull(x), v > x))
        WHEN c.condition = 'GREATER_THAN_OR_EQUAL_TO' THEN any(x IN c.values WHERE coalesce(toFloatOrNull(v) >= toFloatOrNull(x), v >= x))
        WHEN c.condition = 'LESS_THAN' THEN any(x IN c.values WHERE coalesce(toFloatOrNull(v) < toFloatOrNull(x), v < x))
        WHEN c.condition = 'LESS_THAN_OR_EQUAL_TO' THEN any(x IN c.values WHERE coalesce(toFloatOrNull(v) <= toFloatOrNull(x), v <= x))
        ELSE v IN c.values
      END <> c.negated][0])))
WITH node, score
WHERE CASE WHEN $slice IS NULL THEN true
           ELSE reduce(h = 0, ch IN split(right(node.urn, 32), '') | (h * 31 + coalesce($slice.codes[ch], 1)) % 1000000007) % $slice.max = $slice.id
      END
WITH node, score
// $sort 'urn' / 'name' (the OpenAPI scroll's sort criteria) come first; 'relevance' leaves them null.
ORDER BY CASE WHEN $sort = 'urn' AND NOT $descending THEN node.urn END ASC,
         CASE WHEN $sort = 'urn' AND $descending THEN node.urn END DESC,
         CASE WHEN $sort = 'name' AND NOT $descending THEN coalesce(node.name, node.urn) END ASC,
         CASE WHEN $sort = 'name' AND $descending THEN coalesce(node.name, node.urn) END DESC,
         node.urn = $text DESC, toLower(node.name) = toLower($text) DESC, score DESC, coalesce(node.name, node.urn), node.urn
WITH collect(node) AS nodes, collect({urn: node.urn, entityType: node.entityType, score: score}) AS hits
// Facets count every match, by (type, platform, origin) in one pass and by subtype in another.
CALL (nodes) {
  UNWIND CASE WHEN $facets THEN nodes ELSE [] END AS n
  WITH n.entityType AS entityType, n.platform AS platform, n.origin AS origin, count(*) AS count
  RETURN collect({entityType: entityType, platform: platform, origin: origin, count: count}) AS groups
}
CALL (nodes) {
  UNWIND CASE WHEN $facets THEN nodes ELSE [] END AS n
  UNWIND coalesce(n.typeNames, []) AS value
  WITH value, count(*) AS count
  RETURN collect({value: value, count: count}) AS typeNames
}
RETURN size(hits) AS total, hits[$skip..$skip + $limit] AS page, groups, typeNames
