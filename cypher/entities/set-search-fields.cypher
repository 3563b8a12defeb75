// Purpose: rewrite the derived flags and search fields of entity nodes.
// Params: $rows: [{urn, exists: boolean, removed: boolean, platform, origin, name, qualifiedName, description, parentUrn, searchText,
//                  typeNames: [string] | null,
//                  facetKey: number (an integer below 2^53; stored as one)}]
// Returns: nothing
UNWIND $rows AS row
MATCH (n:Entity {urn: row.urn})
SET n.exists = row.exists, n.removed = row.removed, n.platform = row.platform, n.origin = row.origin,
    n.name = row.name, n.qualifiedName = row.qualifiedName, n.description = row.description, n.parentUrn = row.parentUrn, n.searchText = row.searchText,
    n.typeNames = row.typeNames,
    n.facetKey = toInteger(row.facetKey)
