// Purpose: append a committed write's change events to the change log (docs/change-events.md
// §Offsets). Run LAST in the write transaction, after every other lock it takes: the first SET takes
// the head's write lock, which is held until the transaction commits or rolls back, so the next
// writer reads `next` only after this one's events are committed (or gone, when it rolled back and
// the numbers are handed out again). Offsets are therefore gap-free and in commit order: a reader
// that has seen offset N has seen every event with a smaller offset. The lock is taken before the
// read (SET of `writer` first), so no two writers read the same `next`.
// The events come as batches, one per (topic, entity), each one node holding its events' texts as
// `items` with consecutive offsets `offset..last` (store/change-batches.ts: what an item is, and why
// a node per batch rather than per event).
// Params: $batches: [{topic, entityUrn, at: int (first offset within this append), items: [string]}],
//         $createdOn: int (epoch ms), $writer: string (random per transaction)
// Returns: nothing
MERGE (h:ChangeLogHead {name: 'catalog'})
  ON CREATE SET h.next = 0
SET h.writer = $writer
WITH h, reduce(n = 0, b IN $batches | n + size(b.items)) AS count
SET h.next = h.next + count
WITH h.next - count AS first
UNWIND $batches AS b
CREATE (e:ChangeBatch)
SET e.topic = b.topic, e.entityUrn = b.entityUrn, e.items = b.items,
    e.offset = first + b.at, e.last = first + b.at + size(b.items) - 1, e.createdOn = $createdOn
