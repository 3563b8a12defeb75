// Purpose: the events that still refer to some aspects' rows instead of carrying them (events/append),
// before a write removes or overwrites those rows. The aspectKey index answers it; a frozen event has
// no aspectKey any more.
// Params: $keys: [string] (latest-row keys, store/rows.ts rowKey)
// Returns: as events/poll
UNWIND $keys AS k
MATCH (e:ChangeEvent {aspectKey: k})
RETURN e.offset AS offset, e.value AS value, e.entityUrn AS entityUrn, e.aspectKey AS aspectKey, e.ref AS ref,
       e.lineage AS lineage
