// Purpose: the explorer's start page — entities with the most direct lineage links (either direction),
// so a new user has something worth opening. Reads each node's :LINEAGE degree (the degree store, no
// walk); ghosts and soft-deleted entities never.
// Params: $types: [string] entity type names (dataset, dataJob, …), $limit: int
// Returns: urn: string, links: int — most links first, then by urn
MATCH (n:Entity)
WHERE n.entityType IN $types AND n.exists AND NOT coalesce(n.removed, false)
WITH n, COUNT { (n)-[:LINEAGE]-() } AS links
WHERE links > 0
RETURN n.urn AS urn, links
ORDER BY links DESC, urn
LIMIT $limit
