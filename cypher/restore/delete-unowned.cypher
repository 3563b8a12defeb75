// Purpose: delete the relationships leaving one entity, and the LINEAGE edges arriving at it, that
// carry no owner, aspect or key: no stored row derives such an edge (every derived edge has all
// three), so restoreIndices of that urn drops them, as DataHub's restore rewrites the edges of a urn
// from its aspects and a hand-made edge goes.
// Params: $urn: string
// Returns: deleted: int
MATCH (x:Entity {urn: $urn})
CALL (x) {
  MATCH (x)-[r]->() WHERE type(r) <> 'HAS_ASPECT' RETURN r
  UNION
  MATCH ()-[r:LINEAGE]->(x) RETURN r
}
WITH r WHERE r.owner IS NULL OR r.aspect IS NULL OR r.key IS NULL
WITH collect(r) AS rels
FOREACH (r IN rels | DELETE r)
RETURN size(rels) AS deleted
