// Purpose: catalogue-wide entity search (GraphQL search / searchAcrossEntities): full-text over the
// entities' searchText words when $lucene is given (the exact urn first, then the exact name, then
// Lucene's score), else every entity of the types (in name order); ghosts never, soft-deleted
// entities only when a criterion on `removed` asks; then the request's orFilters, evaluated here on
// the node's search fields so paging, total and facet counts are exact. Criteria arrive as
// parameters (field, values, condition, negated) and are interpreted by the CASE below: never as
// Cypher text. A structured query (`/q`) arrives as $program, a postfix list of field tests and
// boolean operators, run below; its user text only ever as escaped pattern and bound values. Field
// meanings: docs/wire-contract.md §Filters, §Catalogue search and §Structured queries.
// Params: $lucene: string|null (built and escaped by the caller), $text: string (the query, trimmed),
//         $types: [entity type name],
//         $clauses: [[{field, values: [string], condition, negated: boolean}]] | null (entityType values
//         lower-cased without underscores), $removedFiltered: boolean, $facets: boolean, $skip: int, $limit: int,
//         $sort: 'relevance' | 'urn' | 'name', $descending: boolean,
//         $slice: null | {id: int, max: int, codes: {character: int}} (the OpenAPI scroll's sliceId/sliceMax:
//         only entities whose urn hash is id modulo max; the hash reads the urn's last 32 characters
//         through the codes map, so every urn falls in exactly one slice whatever else is asked)
//         $visible: [urn] | null (view authorization: only these, before anything is counted; null = all)
//         $program: [{op, field, pattern, lower, upper, lowerInclusive, upperInclusive}] | null,
//         $lists: {tags: boolean, glossaryTerms: boolean, owners: boolean, domains: boolean},
//         $urns: [string] | null (judge these entities only, whatever their type, ghosts too: which of a
//         lineage search's candidates a structured query keeps)
// Returns: total: int, page: [{urn, entityType, score}],
//          groups: [{entityType, platform, origin, count}] | null, typeNames: [{value, count}] | null,
//          listed: [{field, value, count}] (facets of the list-valued fields named by $lists)
CALL () {
  WITH 1 AS one WHERE $urns IS NOT NULL
  UNWIND $urns AS u
  MATCH (node:Entity {urn: u})
  RETURN node, 1.0 AS score
  UNION ALL
  WITH 1 AS one WHERE $urns IS NULL AND $lucene IS NULL
  MATCH (node:Entity) WHERE node.entityType IN $types
  RETURN node, 1.0 AS score
  UNION ALL
  WITH 1 AS one WHERE $urns IS NULL AND $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('entity_search_v3', $lucene) YIELD node, score
  WITH node, score WHERE node.entityType IN $types
  RETURN node, score
}
WITH node, score
WHERE (node.exists OR $urns IS NOT NULL) AND ($removedFiltered OR NOT coalesce(node.removed, false))
  AND ($visible IS NULL OR node.urn IN $visible)
// The list-valued fields, read only when a facet, a filter or the program needs them ($lists): tags,
// terms and owners from their derived edges, domains from the latest `domains` aspect row (a JSON
// list of domain urns, which hold no quote: the quoted pieces that are domain urns).
WITH node, score,
     CASE WHEN $lists.tags THEN reduce(u = [], x IN [(node)-[:TaggedWith]->(t) | t.urn] | CASE WHEN x IN u THEN u ELSE u + x END) ELSE [] END AS tags,
     CASE WHEN $lists.glossaryTerms THEN reduce(u = [], x IN [(node)-[:TermedWith]->(t) | t.urn] | CASE WHEN x IN u THEN u ELSE u + x END) ELSE [] END AS terms,
     CASE WHEN $lists.owners THEN reduce(u = [], x IN [(node)-[:OwnedBy]->(o) | o.urn] | CASE WHEN x IN u THEN u ELSE u + x END) ELSE [] END AS owners,
     CASE WHEN $lists.domains THEN reduce(u = [], v IN [(node)-[:HAS_ASPECT]->(a:Aspect {name: 'domains', version: 0}) | a.value] |
       u + [p IN split(v, '"') WHERE p STARTS WITH 'urn:li:domain:' AND NOT p IN u]) ELSE [] END AS domains
WHERE ($clauses IS NULL OR any(clause IN $clauses WHERE all(c IN clause WHERE
    [vals IN [[v IN CASE c.field
        WHEN 'entityType' THEN [toLower(node.entityType)]
        WHEN 'platform' THEN [node.platform]
        WHEN 'origin' THEN [node.origin]
        WHEN 'urn' THEN [node.urn]
        WHEN 'removed' THEN [toString(coalesce(node.removed, false))]
        WHEN 'parent' THEN [node.parentUrn]
        WHEN 'name' THEN [node.name]
        WHEN 'description' THEN [node.description]
        WHEN 'hasUpstreams' THEN [toString(node.entityType = 'dataset' AND EXISTS { (node)-[:DownstreamOf]->(:Dataset) })]
        WHEN 'tags' THEN tags
        WHEN 'glossaryTerms' THEN terms
        WHEN 'owners' THEN owners
        WHEN 'domains' THEN domains
        WHEN 'typeNames' THEN coalesce(node.typeNames, [])
      END WHERE v IS NOT NULL]] |
      c.condition <> 'EXISTS' AND size(c.values) = 0 OR CASE
        WHEN c.condition = 'EXISTS' THEN any(v IN vals WHERE v <> '')
        ELSE any(v IN vals WHERE CASE
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
        END)
      END <> c.negated][0])))
  // The structured query's postfix program (model/structured-query-program.ts), run on a stack of
  // booleans: operators pop their operands, a field test pushes its answer. Patterns arrive escaped.
  AND ($program IS NULL OR reduce(st = [], s IN $program | CASE s.op
    WHEN 'and' THEN [st[1] AND st[0]] + st[2..]
    WHEN 'or' THEN [st[1] OR st[0]] + st[2..]
    WHEN 'not' THEN [NOT st[0]] + st[1..]
    WHEN 'all' THEN [true] + st
    ELSE [[vals IN [[v IN CASE s.field
        WHEN 'urn' THEN [node.urn]
        WHEN 'name' THEN [node.name]
        WHEN 'qualifiedName' THEN [node.qualifiedName]
        WHEN 'description' THEN [node.description]
        WHEN 'platform' THEN [node.platform]
        WHEN 'origin' THEN [node.origin]
        WHEN 'entityType' THEN [replace(toLower(node.entityType), '_', '')]
        WHEN 'typeNames' THEN coalesce(node.typeNames, [])
        WHEN 'removed' THEN [toString(coalesce(node.removed, false))]
        WHEN 'tags' THEN tags
        WHEN 'glossaryTerms' THEN terms
        WHEN 'owners' THEN owners
        WHEN 'domains' THEN domains
      END WHERE v IS NOT NULL AND v <> '']] | CASE s.op
        WHEN 'exists' THEN size(vals) > 0
        WHEN 'match' THEN any(v IN vals WHERE v =~ s.pattern)
        ELSE any(v IN vals WHERE (s.lower IS NULL OR toLower(v) > s.lower OR (s.lowerInclusive AND toLower(v) = s.lower))
                             AND (s.upper IS NULL OR toLower(v) < s.upper OR (s.upperInclusive AND toLower(v) = s.upper)))
      END][0]] + st
  END)[0])
WITH node, score, tags, terms, owners, domains
WHERE CASE WHEN $slice IS NULL THEN true
           ELSE reduce(h = 0, ch IN split(right(node.urn, 32), '') | (h * 31 + coalesce($slice.codes[ch], 1)) % 1000000007) % $slice.max = $slice.id
      END
WITH node, score, tags, terms, owners, domains
// $sort 'urn' / 'name' (the OpenAPI scroll's sort criteria) come first; 'relevance' leaves them null.
ORDER BY CASE WHEN $sort = 'urn' AND NOT $descending THEN node.urn END ASC,
         CASE WHEN $sort = 'urn' AND $descending THEN node.urn END DESC,
         CASE WHEN $sort = 'name' AND NOT $descending THEN coalesce(node.name, node.urn) END ASC,
         CASE WHEN $sort = 'name' AND $descending THEN coalesce(node.name, node.urn) END DESC,
         node.urn = $text DESC, toLower(node.name) = toLower($text) DESC, score DESC, coalesce(node.name, node.urn), node.urn
WITH collect(node) AS nodes, collect({urn: node.urn, entityType: node.entityType, score: score}) AS hits,
     collect({tags: tags, glossaryTerms: terms, owners: owners, domains: domains}) AS lists
// Facets count every match, by (type, platform, origin) in one pass, by subtype and by each list-valued
// field (an entity counted once per value it holds) in others.
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
CALL (lists) {
  UNWIND CASE WHEN $facets THEN lists ELSE [] END AS l
  UNWIND [f IN ['tags', 'glossaryTerms', 'owners', 'domains'] WHERE $lists[f] | f] AS field
  UNWIND l[field] AS value
  WITH field, value, count(*) AS count
  RETURN collect({field: field, value: value, count: count}) AS listed
}
RETURN size(hits) AS total, hits[$skip..$skip + $limit] AS page, groups, typeNames, listed
