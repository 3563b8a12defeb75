// Purpose: removes held rows no live export needs: all of them when no hold is live, else those
// deleted before the oldest live hold began (an export only uses rows deleted after its moment,
// which is after its hold began). At most $batch per call; the caller repeats until none.
// Params: $now: epoch ms, $batch: int
// Returns: deleted
OPTIONAL MATCH (h:ExportHold) WHERE h.expiresAt > $now
WITH min(h.createdOn) AS oldest
MATCH (r:HeldRow)
WHERE oldest IS NULL OR r.deletedOn < oldest
WITH r LIMIT $batch
DELETE r
RETURN count(*) AS deleted
