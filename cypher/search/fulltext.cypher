// Purpose: catalogue-wide entity search (searchAcrossEntities) over the full-text index on name,
// description and urn. The Lucene query text is built by the caller with every special character
// escaped; ghosts and soft-deleted entities are never returned. One row: the total and one page.
// Params: $lucene: string, $types: [string] (entity type names, DataHub spelling), $skip: int, $limit: int
// Returns: total: int, page: [{urn, entityType, score}]
CALL db.index.fulltext.queryNodes('entity_search_v2', $lucene) YIELD node, score
WHERE node.exists AND NOT coalesce(node.removed, false) AND node.entityType IN $types
WITH node, score ORDER BY score DESC, node.urn
WITH collect({urn: node.urn, entityType: node.entityType, score: score}) AS hits
RETURN size(hits) AS total, hits[$skip..$skip + $limit] AS page
