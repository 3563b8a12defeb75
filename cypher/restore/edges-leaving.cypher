// Purpose: the owners of every relationship leaving one entity (typed edges and LINEAGE edges,
// HAS_ASPECT aside), for restoreIndices of a single urn: each (owner, aspect) pair is then
// reconciled against its owner's stored row, and relationships with no owner at all are dropped
// by restore/delete-unowned (nothing any row derives lacks an owner).
// Params: $urn: string
// Returns: owner: string|null, aspect: string|null, unowned: boolean, edges: int
MATCH (x:Entity {urn: $urn})-[r]->(y)
WHERE type(r) <> 'HAS_ASPECT'
WITH r.owner AS owner, r.aspect AS aspect, (r.owner IS NULL OR r.aspect IS NULL OR r.key IS NULL) AS unowned, r, y
RETURN owner, aspect, unowned, count(r) AS edges, collect(y.urn)[0..20] AS destinations
