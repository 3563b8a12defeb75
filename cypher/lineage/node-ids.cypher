// Purpose: the element ids of the nodes an impact-analysis criterion names by exact urn (EQUAL / IN on
// urn), so the in-database selection judges it by node identity instead of reading the urn of every
// node of the reach (catalog/src/read/lineage/select.ts; lineage/node-criteria-mask.cypher). An urn
// with no node has no row: nothing in the reach can equal it.
// Params: $urns: [string]
// Returns: urn, id
UNWIND $urns AS urn
MATCH (n:Entity {urn: urn})
RETURN urn, elementId(n) AS id
