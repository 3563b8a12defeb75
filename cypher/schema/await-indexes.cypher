// Purpose: wait until every index is online (after a bulk load, applySchema's indexes are still
// being populated from the loaded nodes when their CREATE returns).
// Params: $seconds: int (give up after; Neo4j then fails the call naming the index still populating)
// Returns: nothing
CALL db.awaitIndexes($seconds)
