// Purpose: clean mode: drop entity nodes that no stored row and no relationship keeps (e.g. the
// far end of a bogus edge just removed); the write path's hard delete does the same. Callers hold
// the node locks (aspects/lock-entities) so the check sees committed state.
// Params: $urns: [string]
// Returns: deleted
UNWIND $urns AS u
MATCH (n:Entity {urn: u})
WHERE COUNT { (n)--() } = 0
DELETE n
RETURN count(*) AS deleted
