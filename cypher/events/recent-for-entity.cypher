// Purpose: an entity's newest lineage change events, newest first (the explorer's "Recent lineage
// changes"; docs/change-events.md §An entity's recent lineage changes). The (entityUrn, offset)
// index answers it backwards in offset order, without sorting (ordering by both of its properties is
// what lets the planner use the index's order; the hint keeps it off the (topic, offset) index, which
// holds every entity's events). The topic is filtered as rows come, skipping MetadataChangeLogs.
// An edge is recorded on the entity whose aspect declared it (the downstream for upstreamLineage,
// the job for dataJobInputOutput), so a dataset's edges from the jobs that write it are the jobs'
// events, not the dataset's. Events whose other end (modifier) is the entity are not read: the
// modifier sits inside the value's JSON text, which no index reaches, so finding them would scan
// every lineage event in retention.
// Params: $urn: string, $topic: string (PlatformEvent_v1), $limit: int
// Returns: offset: int, value: string|null, lineage: string|null (one of them: events/append)
MATCH (e:ChangeEvent)
USING INDEX e:ChangeEvent(entityUrn, offset)
WHERE e.entityUrn = $urn AND e.offset >= 0 AND e.topic = $topic
RETURN e.offset AS offset, e.value AS value, e.lineage AS lineage
ORDER BY e.entityUrn DESC, e.offset DESC
LIMIT $limit
