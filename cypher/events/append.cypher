// Purpose: append a committed write's change events to the change log (docs/change-events.md
// §Offsets). Run LAST in the write transaction, after every other lock it takes: the first SET takes
// the head's write lock, which is held until the transaction commits or rolls back, so the next
// writer reads `next` only after this one's events are committed (or gone, when it rolled back and
// the numbers are handed out again). Offsets are therefore gap-free and in commit order: a reader
// that has seen offset N has seen every event with a smaller offset. The lock is taken before the
// read (SET of `writer` first), so no two writers read the same `next`.
// An event carries its polled text (`value`), or what a poll renders it from (§Cost): a LINEAGE
// event its fields as one text (`lineage`: model/change-events.ts encodeLineageChange), a
// MetadataChangeLog whose rows stay stored a reference to them, the latest row's key (`aspectKey`,
// indexed) and the rest as one text (`ref`: encodeAspectRef). Each event sends only what it has.
// Params: $events: [{topic, entityUrn, value} | {topic, entityUrn, lineage} | {topic, entityUrn, aspectKey, ref}],
//         $createdOn: int (epoch ms), $writer: string (random per transaction)
// Returns: nothing
MERGE (h:ChangeLogHead {name: 'catalog'})
  ON CREATE SET h.next = 0
SET h.writer = $writer
WITH h
SET h.next = h.next + size($events)
WITH h.next - size($events) AS first
UNWIND range(0, size($events) - 1) AS i
CREATE (e:ChangeEvent)
SET e = $events[i], e.offset = first + i, e.createdOn = $createdOn
