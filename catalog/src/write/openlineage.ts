// The OpenLineage door's write (docs/lineage-model.md §OpenLineage): the events' plans (model/
// openlineage) are read under their entities' locks and written through the one write path, so every
// aspect is validated, versioned and derived exactly as from the other doors. A batch is one write:
// its entities locked together, what its plans merge with read once, each event's writes computed
// on what the events before it wrote, and all of it handed to the write path as one list — the
// batching the write path is built for.
import { isCatalogError, type CatalogError } from '../model/errors.ts';
import { planOpenLineageEvent, stateKey } from '../model/openlineage/mapping.ts';
import type { OpenLineageEvent } from '../model/openlineage/events.ts';
import type { JsonRecord } from '../model/json.ts';
import { parseUrnOrThrow } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import { writeAspectsInTx } from './aspect-writer.ts';
import type { AspectChange, WriteOptions } from './changes.ts';

export type EventOutcome = { index: number; ok: true } | { index: number; ok: false; error: CatalogError };

/** Some events, in order, in one transaction. */
async function applyEvents(tx: Tx, events: readonly OpenLineageEvent[], options: WriteOptions): Promise<void> {
  const plans = events.map(planOpenLineageEvent);
  const locked = [...new Set(plans.flatMap((p) => p.locks))].map((u) => parseUrnOrThrow(u));
  await tx.run('aspects/lock-entities', { rows: lockRows(locked) });
  const keys = [...new Set(plans.flatMap((p) => p.reads.map((r) => rowKey(r.urn, r.aspect))))];
  const rows = await tx.run<{ urn: string; name: string; value: string }>('aspects/fetch-latest', { keys });
  const state = new Map(rows.map((r) => [stateKey(r.urn, r.name), JSON.parse(r.value) as JsonRecord]));
  const changes: AspectChange[] = [];
  for (const [i, plan] of plans.entries()) {
    for (const w of plan.writes(state, options.actor)) {
      // The next events merge with what this one leaves, as they would one transaction later.
      state.set(stateKey(w.urn, w.aspectName), w.value);
      changes.push({ urn: parseUrnOrThrow(w.urn), aspectName: w.aspectName, changeType: 'UPSERT', value: w.value, source: `events[${i}]` });
    }
  }
  await writeAspectsInTx(tx, changes, options);
}

/** A client's mistake in one event (its names, its values): reported, never retried. */
const isEventError = (e: unknown): e is CatalogError => isCatalogError(e) && (e.kind === 'validation' || e.kind === 'badRequest');

/**
 * Writes events in order: all of them in one transaction when they all go through; otherwise each
 * in its own, so a bad event is reported and the good ones are kept. Store failures propagate.
 */
export async function ingestOpenLineage(store: Store, events: readonly OpenLineageEvent[], options: WriteOptions): Promise<EventOutcome[]> {
  if (events.length === 0) return [];
  const write = (work: (tx: Tx) => Promise<void>) => store.write(work, options.metadata ? { metadata: options.metadata } : undefined);
  try {
    await write((tx) => applyEvents(tx, events, options));
    return events.map((_, index) => ({ index, ok: true }));
  } catch (e) {
    if (!isEventError(e)) throw e;
    if (events.length === 1) return [{ index: 0, ok: false, error: e }];
  }
  const outcomes: EventOutcome[] = [];
  for (const [index, event] of events.entries()) {
    try {
      await write((tx) => applyEvents(tx, [event], options));
      outcomes.push({ index, ok: true });
    } catch (e) {
      if (!isEventError(e)) throw e;
      outcomes.push({ index, ok: false, error: e });
    }
  }
  return outcomes;
}
