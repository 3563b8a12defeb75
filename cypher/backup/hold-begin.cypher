// Purpose: an export begins holding deleted rows (docs/operations.md §Consistency): while a hold is
// live, the write path copies every aspect row it deletes into a HeldRow (aspects/delete-rows)
// so the export can still write the rows that existed at its moment. A hold lives until its
// export ends or, if the export dies, until it expires.
// Params: $id: string, $now, $expiresAt: epoch ms
// Returns: nothing
CREATE (:ExportHold {id: $id, createdOn: $now, expiresAt: $expiresAt})
