// Purpose: the next events of one topic from an offset, in offset order (GET /openapi/v1/events/poll).
// The (topic, last) index finds the batches that end at or after $from in order without sorting;
// batches never overlap, so their events unwound in turn are in offset order. At most $limit batches
// hold at least $limit events. An item is decoded by store/change-batches.ts.
// Params: $topic: string, $from: int (first offset wanted), $limit: int
// Returns: offset: int, entityUrn: string, item: string
MATCH (b:ChangeBatch)
WHERE b.topic = $topic AND b.last >= $from
WITH b ORDER BY b.last LIMIT $limit
UNWIND range(0, size(b.items) - 1) AS i
WITH b, i WHERE b.offset + i >= $from
RETURN b.offset + i AS offset, b.entityUrn AS entityUrn, b.items[i] AS item
LIMIT $limit
