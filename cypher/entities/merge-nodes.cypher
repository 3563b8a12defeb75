// Purpose: make sure nodes exist for urns that edges reference (ghosts until ingested) with the
// fields derived from the urn alone.
// Params: $rows: [{urn, entityType, label, platform, origin, name, parentUrn, searchText, facetKey}]
// Returns: nothing
UNWIND $rows AS row
MERGE (n:Entity {urn: row.urn})
  ON CREATE SET n.entityType = row.entityType, n.exists = false, n.removed = false,
                n.platform = row.platform, n.origin = row.origin, n.name = row.name, n.parentUrn = row.parentUrn,
                n.searchText = row.searchText, n.facetKey = toInteger(row.facetKey)
// The type label, for a node just created or one made before its type was known. Only when missing:
// setting a label a node already has still takes its exclusive lock (held until commit), which
// would make every writer of an edge to an entity wait for every other such writer.
WITH n, row WHERE NOT row.label IN labels(n)
SET n:$(row.label)
