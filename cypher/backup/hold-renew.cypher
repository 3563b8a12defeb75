// Purpose: an export still running pushes its hold's expiry on (once per page).
// Params: $id: string, $expiresAt: epoch ms
// Returns: nothing
MATCH (h:ExportHold {id: $id})
SET h.expiresAt = $expiresAt
