// Purpose: typed edges leaving an entity (direction OUTGOING: the entity is the edge's source), for
// GraphQL Entity.relationships, OpenAPI GET /openapi/relationships/v1 and Rest.li GET /relationships.
// Parallel edges of different owners collapse to one (type, neighbour) row: the earliest creation
// (time and actor of the same edge), and the smallest non-null via.
// Params: $urn: string, $types: [string] relationship names (never LINEAGE or HAS_ASPECT),
//         $includeRemoved: boolean (soft-deleted neighbours), $start: int, $count: int
// Returns: total: int (rows before paging), rows: [{type, urn, createdOn, createdActor, via}] ordered by type, neighbour urn
MATCH (:Entity {urn: $urn})-[r]->(n:Entity)
WHERE type(r) IN $types AND ($includeRemoved OR NOT coalesce(n.removed, false))
WITH type(r) AS type, n, r ORDER BY r.createdOn
WITH type, n.urn AS urn, collect(r)[0] AS first, min(r.via) AS via
WITH type, urn, first.createdOn AS createdOn, first.createdActor AS createdActor, via
ORDER BY type, urn
WITH collect({type: type, urn: urn, createdOn: createdOn, createdActor: createdActor, via: via}) AS rows
RETURN size(rows) AS total, rows[$start..$start + $count] AS rows
