// The change log's reads and retention (docs/change-events.md). Events are appended by the store
// itself, as the last statement of the write transaction that records them (store.ts, Tx.record).
import type { EventTopic } from '../model/change-events.ts';
import { int, type Store, type Tx } from './store.ts';

export interface LogHead {
  /** The offset the next event will get: where a poll without offsetId starts. */
  next: number;
  /** Every event below this offset was pruned by retention. */
  prunedBelow: number;
}

/**
 * The log's head. `onLeader` reads it where writes commit: a read replica of a cluster may lag, and
 * only the leader can say an offset was never issued.
 */
export async function readLogHead(store: Store, onLeader = false): Promise<LogHead> {
  const work = (tx: Tx) => tx.run<LogHead>('events/head');
  const options = { metadata: { app: 'events', op: 'head' } };
  const [row] = onLeader ? await store.write(work, options) : await store.read(work, options);
  return row ?? { next: 0, prunedBelow: 0 };
}

export async function readEvents(store: Store, topic: EventTopic, from: number, limit: number): Promise<Array<{ offset: number; value: string }>> {
  return store.read((tx) => tx.run<{ offset: number; value: string }>('events/poll', { topic, from: int(from), limit: int(limit) }),
    { metadata: { app: 'events', op: 'poll' } });
}

/** The first offset of `topic` recorded at or after `since`, or null. */
export async function firstOffsetSince(store: Store, topic: EventTopic, since: number): Promise<number | null> {
  const [row] = await store.read((tx) => tx.run<{ offset: number | null }>('events/first-since', { topic, since: int(since) }));
  return row?.offset ?? null;
}

/** One retention batch: deletes at most `batch` events older than `cutoff`, oldest first. */
export async function pruneEvents(store: Store, cutoff: number, batch: number): Promise<{ deleted: number; prunedBelow: number }> {
  const [row] = await store.write((tx) => tx.run<{ deleted: number; prunedBelow: number }>('events/prune', { cutoff: int(cutoff), batch: int(batch) }),
    { metadata: { app: 'events', op: 'prune' } });
  return row ?? { deleted: 0, prunedBelow: 0 };
}
