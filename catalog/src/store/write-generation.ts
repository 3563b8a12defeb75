// The global write generation (docs/lineage-model.md §Snapshots): every transaction that changes
// stored state marks it, and a lineage snapshot is reused only while the generation is unchanged,
// so any committed write — from any process — invalidates every snapshot taken before it.
import { randomInt, randomUUID } from 'node:crypto';
import { int, type Store, type Tx } from './store.ts';

/** Writers spread over this many shard nodes, so concurrent commits rarely wait on one lock. */
const GENERATION_SHARDS = 16;

/** Call last in a write transaction that changed something (the shard lock is then held only for the commit). */
export async function markWrite(tx: Tx): Promise<void> {
  await tx.run('aspects/bump-generation', { shard: int(randomInt(GENERATION_SHARDS)), token: randomUUID() });
}

/** The generation as of now: equal values mean no write committed in between. */
export async function currentGeneration(store: Store, timeoutMs?: number): Promise<string> {
  const rows = await store.read((tx) => tx.run<{ generation: string }>('lineage/generation'), {
    ...(timeoutMs ? { timeoutMs } : {}),
    metadata: { app: 'lineage', op: 'generation' },
  });
  return rows[0]?.generation ?? '';
}
