// Purpose: mark that this transaction changed stored state (rows, edges or search fields), so
// lineage snapshots taken before it are not reused (docs/lineage-model.md §Snapshots). The
// generation is a set of shards, each holding the random token of the last write that picked it:
// a fresh token makes the set differ from every earlier one without reading a counter (no lost
// updates), and shards keep concurrent writers from queueing on one node. Run it last in the
// transaction: the shard's lock is then held only for the commit.
// Params: $shard: int (0..15), $token: string (random, unique per transaction)
// Returns: nothing
MERGE (g:WriteGeneration {shard: $shard})
SET g.token = $token
