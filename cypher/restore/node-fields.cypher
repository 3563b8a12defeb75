// Purpose: the current search fields and flags of some entity nodes, to compare with what the
// stored rows derive (restoreIndices rewrites only what differs). degree counts every
// relationship, HAS_ASPECT included: 0 = an orphan node.
// Params: $urns: [string]
// Returns: urn, exists, removed, platform, origin, name, qualifiedName, description, parentUrn, searchText, typeNames, facetKey, degree
UNWIND $urns AS u
MATCH (n:Entity {urn: u})
RETURN n.urn AS urn, n.exists AS exists, n.removed AS removed, n.platform AS platform, n.origin AS origin,
       n.name AS name, n.qualifiedName AS qualifiedName, n.description AS description, n.parentUrn AS parentUrn, n.searchText AS searchText, n.typeNames AS typeNames, n.facetKey AS facetKey,
       COUNT { (n)--() } AS degree
