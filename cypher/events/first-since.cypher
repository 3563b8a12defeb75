// Purpose: where a poll with lookbackWindowDays and no offsetId starts: the smallest offset of the
// topic's events recorded at or after $since (null when there is none; the poll then starts at the head).
// Params: $topic: string, $since: int (epoch ms)
// Returns: offset: int | null
MATCH (e:ChangeEvent)
WHERE e.createdOn >= $since AND e.topic = $topic
RETURN min(e.offset) AS offset
