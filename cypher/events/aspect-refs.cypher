// Purpose: the events that still refer to some aspects' rows instead of carrying them (events/append),
// before a write removes or overwrites those rows (a DELETE, a hard delete, an import). The entity
// index reads the entity's MetadataChangeLog batches in retention; an item refers to a row when it
// is a reference (`R`) whose last line is the row's key (store/change-batches.ts). A frozen event is text.
// Params: $refs: [{urn: string, rowKey: string (latest-row key)}], $topic: string (MetadataChangeLog_Versioned_v1)
// Returns: batch: int (its first offset), offset: int, entityUrn: string, item: string
UNWIND $refs AS r
WITH r, '\n' + r.rowKey AS suffix
MATCH (b:ChangeBatch)
WHERE b.entityUrn = r.urn AND b.offset >= 0 AND b.topic = $topic
UNWIND range(0, size(b.items) - 1) AS i
WITH suffix, b, i WHERE b.items[i] STARTS WITH 'R' AND b.items[i] ENDS WITH suffix
RETURN DISTINCT b.offset AS batch, b.offset + i AS offset, b.entityUrn AS entityUrn, b.items[i] AS item
