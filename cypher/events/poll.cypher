// Purpose: the next events of one topic from an offset, in offset order (GET /openapi/v1/events/poll).
// The (topic, offset) index answers it in order without sorting. An event without `value` refers to
// stored aspect rows (events/append), which the caller renders.
// Params: $topic: string, $from: int (first offset wanted), $limit: int
// Returns: offset: int, value: string|null, entityUrn, aspectKey, ref, lineage (null unless value is)
MATCH (e:ChangeEvent)
WHERE e.topic = $topic AND e.offset >= $from
RETURN e.offset AS offset, e.value AS value, e.entityUrn AS entityUrn, e.aspectKey AS aspectKey, e.ref AS ref,
       e.lineage AS lineage
ORDER BY e.offset
LIMIT $limit
