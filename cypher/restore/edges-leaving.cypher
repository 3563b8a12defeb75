// Purpose: the owners of every relationship leaving one entity (typed edges and LINEAGE edges,
// HAS_ASPECT aside) and of every LINEAGE edge arriving at it (the twin of the entity's own upstream
// edges: upstreamLineage's DownstreamOf x->u has its traversal edge u->x), for restoreIndices of a
// single urn: each (owner, aspect) pair is then reconciled against its owner's stored row, and
// relationships with no owner at all are dropped by restore/delete-unowned (nothing any row derives
// lacks an owner).
// Params: $urn: string
// Returns: owner: string|null, aspect: string|null, unowned: boolean, edges: int,
//          ends: [{source: string, destination: string}] (at most 20)
MATCH (x:Entity {urn: $urn})
CALL (x) {
  MATCH (x)-[r]->(y) WHERE type(r) <> 'HAS_ASPECT' RETURN r, x.urn AS source, y.urn AS destination
  UNION
  MATCH (y)-[r:LINEAGE]->(x) RETURN r, y.urn AS source, x.urn AS destination
}
WITH r.owner AS owner, r.aspect AS aspect, (r.owner IS NULL OR r.aspect IS NULL OR r.key IS NULL) AS unowned, r, source, destination
RETURN owner, aspect, unowned, count(r) AS edges, collect({source: source, destination: destination})[0..20] AS ends
