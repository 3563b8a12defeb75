// Purpose: where a poll with lookbackWindowDays and no offsetId starts: the smallest offset of the
// topic's events recorded at or after $since (null when there is none; the poll then starts at the head).
// Params: $topic: string, $since: int (epoch ms)
// Returns: offset: int | null
MATCH (b:ChangeBatch)
WHERE b.createdOn >= $since AND b.topic = $topic
RETURN min(b.offset) AS offset
