// Purpose: an export still running pushes its hold's expiry on (about once a minute).
// Params: $id: string, $expiresAt: epoch ms
// Returns: nothing
MATCH (h:ExportHold {id: $id})
SET h.expiresAt = $expiresAt
