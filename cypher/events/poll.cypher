// Purpose: the next events of one topic from an offset, in offset order (GET /openapi/v1/events/poll).
// The (topic, offset) index answers it in order without sorting.
// Params: $topic: string, $from: int (first offset wanted), $limit: int
// Returns: offset: int, value: string
MATCH (e:ChangeEvent)
WHERE e.topic = $topic AND e.offset >= $from
RETURN e.offset AS offset, e.value AS value
ORDER BY e.offset
LIMIT $limit
