// Purpose: schema 5 → 6 (`npm run migrate`): turns up to $batch events stored one node each
// (ChangeEvent {offset, topic, entityUrn, createdOn} and one of value | lineage | aspectKey + ref)
// into batches of one event, with the item store/change-batches.ts encodeChangeItem writes. Run
// until it moves nothing; each run is its own transaction, so a migration cut short resumes.
// Params: $batch: int
// Returns: moved: int
MATCH (e:ChangeEvent)
WITH e LIMIT $batch
CREATE (b:ChangeBatch)
SET b.topic = e.topic, b.entityUrn = e.entityUrn, b.offset = e.offset, b.last = e.offset, b.createdOn = e.createdOn,
    b.items = [CASE
      WHEN e.value IS NOT NULL THEN 'V' + e.value
      WHEN e.lineage IS NOT NULL THEN 'L' + e.lineage
      ELSE 'R' + e.ref + '\n' + e.aspectKey
    END]
DELETE e
RETURN count(*) AS moved
