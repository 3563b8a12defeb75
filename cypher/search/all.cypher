// Purpose: catalogue-wide entity listing for the match-all query ("*" or empty), in name order.
// Params: $types: [string], $skip: int, $limit: int
// Returns: total: int, page: [{urn, entityType, score}]
MATCH (node:Entity)
WHERE node.entityType IN $types AND node.exists AND NOT coalesce(node.removed, false)
WITH node ORDER BY coalesce(node.name, node.urn), node.urn
WITH collect({urn: node.urn, entityType: node.entityType, score: 1.0}) AS hits
RETURN size(hits) AS total, hits[$skip..$skip + $limit] AS page
