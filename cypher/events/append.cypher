// Purpose: append a committed write's change events to the change log (docs/change-events.md
// §Offsets). Run LAST in the write transaction, after every other lock it takes: the first SET takes
// the head's write lock, which is held until the transaction commits or rolls back, so the next
// writer reads `next` only after this one's events are committed (or gone, when it rolled back and
// the numbers are handed out again). Offsets are therefore gap-free and in commit order: a reader
// that has seen offset N has seen every event with a smaller offset. The lock is taken before the
// read (SET of `writer` first), so no two writers read the same `next`.
// An event carries its polled text (`value`), or, for a MetadataChangeLog whose rows stay stored,
// a reference to them that a poll renders (§Cost): the latest row's key, the aspect, the change
// type, the sequence numbers of the values after and before, who and when. Null properties are
// simply not stored.
// Params: $events: [{topic, entityUrn, value: string|null, aspectKey, aspectName, changeType: string|null,
//                    sequence, previousSequence, time: int|null, actor: string|null}],
//         $createdOn: int (epoch ms), $writer: string (random per transaction)
// Returns: nothing
MERGE (h:ChangeLogHead {name: 'catalog'})
  ON CREATE SET h.next = 0
SET h.writer = $writer
WITH h
SET h.next = h.next + size($events)
WITH h.next - size($events) AS first
UNWIND range(0, size($events) - 1) AS i
WITH first + i AS offset, $events[i] AS ev
CREATE (:ChangeEvent {offset: offset, topic: ev.topic, entityUrn: ev.entityUrn, value: ev.value, createdOn: $createdOn,
                      aspectKey: ev.aspectKey, aspectName: ev.aspectName, changeType: ev.changeType,
                      sequence: ev.sequence, previousSequence: ev.previousSequence, time: ev.time, actor: ev.actor})
