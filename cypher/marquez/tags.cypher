// Purpose: one page of the tags Marquez's GET /tags lists (docs/marquez-compatibility.md §Tags):
// tag entities written or put on something, not removed, in urn (name) order.
// Params: $skip: int, $limit: int
// Returns: urn: string
MATCH (n:Entity)
WHERE n.entityType = 'tag' AND NOT coalesce(n.removed, false) AND (n.exists OR EXISTS { (n)<--() })
RETURN n.urn AS urn
ORDER BY urn
SKIP $skip LIMIT $limit
