// Purpose: delete the relationships leaving one entity that carry no owner, aspect or key: no stored
// row derives such an edge (every derived edge has all three), so restoreIndices of that urn drops
// them, as DataHub's restore drops edges of a urn that none of its aspects justify.
// Params: $urn: string
// Returns: deleted: int
MATCH (x:Entity {urn: $urn})-[r]->()
WHERE type(r) <> 'HAS_ASPECT' AND (r.owner IS NULL OR r.aspect IS NULL OR r.key IS NULL)
WITH collect(r) AS rels
FOREACH (r IN rels | DELETE r)
RETURN size(rels) AS deleted
