// The OpenLineage door's write (docs/lineage-model.md §OpenLineage): each event's plan (model/
// openlineage) is read under its entities' locks and written through the one write path, so every
// aspect is validated, versioned and derived exactly as from the other doors.
import { isCatalogError, type CatalogError } from '../model/errors.ts';
import { planOpenLineageEvent, stateKey } from '../model/openlineage/mapping.ts';
import type { OpenLineageEvent } from '../model/openlineage/events.ts';
import type { JsonRecord } from '../model/json.ts';
import { parseUrnOrThrow } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import { writeAspectsInTx } from './aspect-writer.ts';
import type { AspectChange, WriteOptions } from './changes.ts';

export type EventOutcome = { index: number; ok: true; rowsWritten: number } | { index: number; ok: false; error: CatalogError };

/** One event: lock its entities, read what it merges with, write what it says. */
async function applyEvent(tx: Tx, event: OpenLineageEvent, options: WriteOptions): Promise<number> {
  const plan = planOpenLineageEvent(event);
  const urns = plan.urns.map((u) => parseUrnOrThrow(u));
  await tx.run('aspects/lock-entities', { rows: lockRows(urns) });
  const rows = await tx.run<{ urn: string; name: string; value: string }>('aspects/fetch-latest', { keys: plan.reads.map((r) => rowKey(r.urn, r.aspect)) });
  const state = new Map(rows.map((r) => [stateKey(r.urn, r.name), JSON.parse(r.value) as JsonRecord]));
  const changes: AspectChange[] = plan.writes(state, options.actor)
    .map((w) => ({ urn: parseUrnOrThrow(w.urn), aspectName: w.aspectName, changeType: 'UPSERT', value: w.value }));
  return (await writeAspectsInTx(tx, changes, options)).rowsWritten;
}

/** A client's mistake in one event (its names, its values): reported, never retried. */
const isEventError = (e: unknown): e is CatalogError => isCatalogError(e) && (e.kind === 'validation' || e.kind === 'badRequest');

/**
 * Writes events in order. All of them in one transaction when they all go through; otherwise each
 * in its own, so a bad event is reported and the good ones are kept. Store failures propagate.
 */
export async function ingestOpenLineage(store: Store, events: readonly OpenLineageEvent[], options: WriteOptions): Promise<EventOutcome[]> {
  if (events.length === 0) return [];
  const write = <T>(work: (tx: Tx) => Promise<T>) => store.write(work, options.metadata ? { metadata: options.metadata } : undefined);
  try {
    const written = await write(async (tx) => {
      const counts: number[] = [];
      for (const e of events) counts.push(await applyEvent(tx, e, options));
      return counts;
    });
    return written.map((rowsWritten, index) => ({ index, ok: true, rowsWritten }));
  } catch (e) {
    if (!isEventError(e) || events.length === 1) {
      if (isEventError(e)) return [{ index: 0, ok: false, error: e }];
      throw e;
    }
  }
  const outcomes: EventOutcome[] = [];
  for (const [index, event] of events.entries()) {
    try {
      outcomes.push({ index, ok: true, rowsWritten: await write((tx) => applyEvent(tx, event, options)) });
    } catch (e) {
      if (!isEventError(e)) throw e;
      outcomes.push({ index, ok: false, error: e });
    }
  }
  return outcomes;
}
