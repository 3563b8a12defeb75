// Purpose: the element id of a walk's source, the first frontier of the hop-by-hop walk
// (lineage/hop-*, which takes element ids). No row when the source has no node.
// Params: $urn
// Returns: id
MATCH (s:Entity {urn: $urn})
RETURN elementId(s) AS id
