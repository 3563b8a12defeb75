// Purpose: some events again, by offset: a poll that found an event's referred rows gone reads it
// once more (a write that removed the rows copied them into the event first: events/freeze). The
// batch holding offset o is the one with the greatest first offset not above it.
// Params: $offsets: [int]
// Returns: offset: int, entityUrn: string, item: string (as events/poll)
UNWIND $offsets AS o
CALL (o) {
  MATCH (b:ChangeBatch) WHERE b.offset <= o
  RETURN b ORDER BY b.offset DESC LIMIT 1
}
WITH o, b WHERE b.last >= o
RETURN o AS offset, b.entityUrn AS entityUrn, b.items[o - b.offset] AS item
