// Change-log retention (EVENTS_RETENTION_DAYS; docs/change-events.md §Retention): the ingestion
// service prunes expired events in the background, in batches of their own transactions that take
// no lock a writer takes, so writes never wait for it.
import { DAY_MS } from '../../model/change-events.ts';
import { pruneEvents } from '../../store/change-log.ts';
import type { Store } from '../../store/store.ts';

/**
 * Batches deleted per transaction (a batch is one write's events about one entity: usually a few,
 * hundreds for a column-level OpenLineage event): small enough to stay far below Neo4j's transaction memory.
 */
const PRUNE_BATCH = 2_000;

export interface PruneResult {
  deleted: number;
  /** Every event below this offset is gone; a consumer behind it is told its offset expired. */
  prunedBelow: number;
}

/** Deletes every event recorded before `now - retentionDays`, batch by batch. */
export async function pruneChangeLog(store: Store, retentionDays: number, now = Date.now()): Promise<PruneResult> {
  const cutoff = now - retentionDays * DAY_MS;
  let deleted = 0;
  let prunedBelow = 0;
  for (;;) {
    const r = await pruneEvents(store, cutoff, PRUNE_BATCH);
    deleted += r.deleted;
    prunedBelow = Math.max(prunedBelow, r.prunedBelow);
    if (r.batches < PRUNE_BATCH) return { deleted, prunedBelow };
  }
}

export interface RetentionLogger {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
}

/**
 * Prunes every `intervalMs` (and once at start) until stopped. A failed pass is logged and tried
 * again at the next tick: retention falling behind loses nothing.
 */
export function startChangeLogRetention(
  store: Store,
  options: { retentionDays: number; intervalMs: number; logger: RetentionLogger },
): () => void {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const r = await pruneChangeLog(store, options.retentionDays);
      if (r.deleted)
        options.logger.info(
          { deleted: r.deleted, prunedBelow: r.prunedBelow, retentionDays: options.retentionDays },
          'change events pruned',
        );
    } catch (e) {
      options.logger.warn({ err: e }, 'change-log retention pass failed; retrying at the next interval');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void pass(), options.intervalMs);
  timer.unref();
  void pass();
  return () => clearInterval(timer);
}
