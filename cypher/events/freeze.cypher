// Purpose: copy rendered text into events that referred to aspect rows about to be removed or
// overwritten (a DELETE, a hard delete, an import over them), and drop the reference: from then on
// the event is polled like any other. Runs in the transaction that changes the rows, under their
// entity's lock.
// Params: $rows: [{offset: int, value: string}]
// Returns: nothing
UNWIND $rows AS r
MATCH (e:ChangeEvent {offset: r.offset})
SET e.value = r.value
REMOVE e.aspectKey, e.ref
