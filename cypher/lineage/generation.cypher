// Purpose: the current write generation (see aspects/bump-generation): the tokens of every shard,
// in shard order. Equal strings = no write committed in between; a snapshot is reused only then.
// Params: none
// Returns: generation: string
OPTIONAL MATCH (g:WriteGeneration)
WITH g ORDER BY g.shard
RETURN reduce(s = '', t IN collect(toString(g.shard) + ':' + g.token) | s + t + ';') AS generation
