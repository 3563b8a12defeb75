// Purpose: typed edges arriving at an entity (Entity.relationships, direction INCOMING; wire-compat §3.3).
// Parallel edges of different owners collapse to one (type, neighbour) row with the earliest creation.
// Params: $urn: string, $types: [string] relationship names (never LINEAGE), $includeRemoved: boolean,
//         $start: int, $count: int
// Returns: total: int, rows: [{type, urn, createdOn, createdActor}] ordered by type, neighbour urn
MATCH (:Entity {urn: $urn})<-[r]-(n:Entity)
WHERE type(r) IN $types AND ($includeRemoved OR NOT coalesce(n.removed, false))
WITH type(r) AS type, n.urn AS urn, min(r.createdOn) AS createdOn, collect(r.createdActor)[0] AS createdActor
ORDER BY type, urn
WITH collect({type: type, urn: urn, createdOn: createdOn, createdActor: createdActor}) AS rows
RETURN size(rows) AS total, rows[$start..$start + $count] AS rows
