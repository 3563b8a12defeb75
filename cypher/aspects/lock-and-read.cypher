// Purpose: the write path's first statement. Locks the entities a request writes (as
// aspects/lock-entities: MERGE creates a missing node, SET of an unchanged property takes the
// node's exclusive lock until commit; callers pass urns sorted) and, for each entity once it is
// locked, reads the latest rows of the named aspects and the node's current search fields (the
// write path rewrites those only when they change). One statement and one round trip instead of
// lock-entities + fetch-latest.
// Params: $rows: [{urn: string, entityType: string, label: string, keys: [string]}]
//         keys: row keys "<urn>\u241f<aspect>\u241f0" of the aspects to read
// Returns: urn, fields {exists, removed, platform, origin, name, qualifiedName, description, parentUrn, searchText, typeNames,
//          facetKey}, rows [{name, value, systemMetadata, maxVersion, createdBy}]
UNWIND $rows AS row
MERGE (n:Entity {urn: row.urn})
  ON CREATE SET n.entityType = row.entityType, n.exists = false, n.removed = false
SET n:$(row.label)
SET n.urn = n.urn
WITH row, n
CALL (row) {
  UNWIND row.keys AS k
  MATCH (a:Aspect {key: k})
  RETURN collect(a {.name, .value, .systemMetadata, .maxVersion, .createdBy}) AS rows
}
RETURN row.urn AS urn, rows,
       n {.exists, .removed, .platform, .origin, .name, .qualifiedName, .description, .parentUrn, .searchText, .typeNames, .facetKey} AS fields
