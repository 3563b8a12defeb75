// Purpose: the export's barrier (docs/operations.md §Consistency): the transactions this server
// has open and when each started, so the export waits until every one that may carry a write
// stamp at or before its moment has ended. Run on the server that takes writes.
// Params: none
// Returns: transactionId, startTime (epoch ms), metaData (the barrier finds its own by metadata)
SHOW TRANSACTIONS YIELD transactionId, startTime, metaData
RETURN transactionId, datetime(startTime).epochMillis AS startTime, metaData
