// Purpose: retention (EVENTS_RETENTION_DAYS): delete the oldest batches of events (events/append),
// at most $batch of them, in offset order up to the first one recorded at or after $cutoff, and
// remember the offset below which nothing is left (a consumer behind it is told its offset expired
// instead of silently skipping events). Stopping at the first young batch never deletes one younger
// than the cutoff (createdOn is only nearly in offset order). Takes no lock a writer takes: the head is not touched.
// Params: $cutoff: int (epoch ms), $batch: int
// Returns: batches: int (deleted), deleted: int (events in them), prunedBelow: int
OPTIONAL MATCH (r:ChangeLogRetention {name: 'catalog'})
WITH coalesce(r.prunedBelow, 0) AS floor
OPTIONAL MATCH (e:ChangeBatch) WHERE e.offset >= floor
WITH floor, e ORDER BY e.offset LIMIT $batch
WITH floor, [x IN collect(e) WHERE x IS NOT NULL] AS candidates
WITH floor, candidates, [i IN range(0, size(candidates) - 1) WHERE candidates[i].createdOn >= $cutoff] AS young
WITH floor, CASE WHEN size(young) = 0 THEN candidates ELSE candidates[0..young[0]] END AS old
WITH floor, old, CASE WHEN size(old) = 0 THEN floor ELSE old[size(old) - 1].last + 1 END AS below,
     reduce(n = 0, x IN old | n + size(x.items)) AS deleted
FOREACH (x IN old | DELETE x)
FOREACH (_ IN CASE WHEN below > floor THEN [1] ELSE [] END |
  MERGE (r:ChangeLogRetention {name: 'catalog'})
  SET r.prunedBelow = below)
RETURN size(old) AS batches, deleted, below AS prunedBelow
