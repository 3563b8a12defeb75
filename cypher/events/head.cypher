// Purpose: where the change log stands (docs/change-events.md §Offsets): the next offset to be
// handed out (a poll without offsetId starts there) and the offset below which retention pruned
// every event (a consumer behind it has lost events and is told so). Read without locks: a committed
// `next` is only ever followed by commits with larger offsets.
// Params: none
// Returns: next: int, prunedBelow: int
OPTIONAL MATCH (h:ChangeLogHead {name: 'catalog'})
OPTIONAL MATCH (r:ChangeLogRetention {name: 'catalog'})
RETURN coalesce(h.next, 0) AS next, coalesce(r.prunedBelow, 0) AS prunedBelow
