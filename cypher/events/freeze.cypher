// Purpose: copy rendered text into events that referred to aspect rows about to be removed or
// overwritten (a DELETE, a hard delete, an import over them), replacing the reference: from then on
// the event is polled like any other. Runs in the transaction that changes the rows, under their
// entity's lock. One row per batch, so the items list is rewritten once.
// Params: $batches: [{offset: int (the batch's first offset), replace: {<index as string>: item}}]
// Returns: nothing
UNWIND $batches AS f
MATCH (b:ChangeBatch {offset: f.offset})
SET b.items = [i IN range(0, size(b.items) - 1) | coalesce(f.replace[toString(i)], b.items[i])]
