// Purpose: the explorer's start page — entities whose stored aspects changed last (the latest row's
// write time), newest first. Looks at the $scan newest latest rows only, so an entity written in one
// batch of many aspects does not crowd the list and the cost stays bounded by $scan.
// Params: $types: [string] entity type names, $scan: int (latest rows looked at), $limit: int
// Returns: urn: string, changedOn: int (epoch ms)
MATCH (a:Aspect)
WHERE a.version = 0 AND a.createdOn IS NOT NULL
WITH a ORDER BY a.createdOn DESC LIMIT $scan
MATCH (e:Entity {urn: a.urn})
WHERE e.entityType IN $types AND e.exists AND NOT coalesce(e.removed, false)
WITH e.urn AS urn, max(a.createdOn) AS changedOn
RETURN urn, changedOn
ORDER BY changedOn DESC, urn
LIMIT $limit
