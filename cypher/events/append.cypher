// Purpose: append a committed write's change events to the change log (docs/change-events.md
// §Offsets). Run LAST in the write transaction, after every other lock it takes: the first SET takes
// the head's write lock, which is held until the transaction commits or rolls back, so the next
// writer reads `next` only after this one's events are committed (or gone, when it rolled back and
// the numbers are handed out again). Offsets are therefore gap-free and in commit order: a reader
// that has seen offset N has seen every event with a smaller offset. The lock is taken before the
// read (SET of `writer` first), so no two writers read the same `next`.
// Params: $events: [{topic: string, value: string, entityUrn: string}], $createdOn: int (epoch ms),
//         $writer: string (random per transaction)
// Returns: first: int (the offset of $events[0])
MERGE (h:ChangeLogHead {name: 'catalog'})
  ON CREATE SET h.next = 0
SET h.writer = $writer
WITH h
SET h.next = h.next + size($events)
WITH h.next - size($events) AS first
UNWIND range(0, size($events) - 1) AS i
CREATE (:ChangeEvent {offset: first + i, topic: $events[i].topic, entityUrn: $events[i].entityUrn,
                      value: $events[i].value, createdOn: $createdOn})
RETURN DISTINCT first
