// Purpose: some events again, by offset: a poll that found an event's referred rows gone reads it
// once more (a write that removed the rows copied them into the event first: events/freeze).
// Params: $offsets: [int]
// Returns: as events/poll
UNWIND $offsets AS o
MATCH (e:ChangeEvent {offset: o})
RETURN e.offset AS offset, e.value AS value, e.entityUrn AS entityUrn, e.aspectKey AS aspectKey, e.ref AS ref,
       e.lineage AS lineage
