// Purpose: after a hard delete removed an entity's rows and owned edges, drop its node if nothing
// references it any more, else keep it as a ghost with descriptive fields cleared.
// Params: $urns: [string]
// Returns: nothing
UNWIND $urns AS u
MATCH (n:Entity {urn: u})
CALL (n) {
  WITH n WHERE COUNT { (n)--() } = 0
  DELETE n
}
CALL (n) {
  WITH n WHERE COUNT { (n)--() } > 0
  SET n.exists = false, n.removed = false, n.description = null, n.facetKey = n.facetKey / 4 * 4
}
