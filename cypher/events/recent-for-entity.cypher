// Purpose: an entity's newest lineage change events, newest first (the explorer's "Recent lineage
// changes"; docs/change-events.md §An entity's recent lineage changes). The (entityUrn, offset)
// index answers it backwards in offset order, without sorting (ordering by both of its properties is
// what lets the planner use the index's order; the hint keeps it off the (topic, last) index, which
// holds every entity's events). Each batch's events are then read last first: batches never
// overlap, so the rows stay newest first. The topic is filtered as rows come, skipping MetadataChangeLogs.
// An edge is recorded on the entity whose aspect declared it (the downstream for upstreamLineage,
// the job for dataJobInputOutput), so a dataset's edges from the jobs that write it are the jobs'
// events, not the dataset's. Events whose other end (modifier) is the entity are not read: the
// modifier sits inside the value's JSON text, which no index reaches, so finding them would scan
// every lineage event in retention.
// Params: $urn: string, $topic: string (PlatformEvent_v1), $limit: int
// Returns: offset: int, item: string (store/change-batches.ts)
MATCH (b:ChangeBatch)
USING INDEX b:ChangeBatch(entityUrn, offset)
WHERE b.entityUrn = $urn AND b.offset >= 0 AND b.topic = $topic
WITH b ORDER BY b.entityUrn DESC, b.offset DESC LIMIT $limit
UNWIND range(size(b.items) - 1, 0, -1) AS i
RETURN b.offset + i AS offset, b.items[i] AS item
LIMIT $limit
