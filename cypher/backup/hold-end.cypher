// Purpose: an export ends its hold; holds whose export died (expired) end with it.
// Params: $id: string, $now: epoch ms
// Returns: nothing
MATCH (h:ExportHold)
WHERE h.id = $id OR h.expiresAt <= $now
DELETE h
