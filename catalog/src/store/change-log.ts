// The change log's reads and retention (docs/change-events.md). Events are appended by the store
// itself, as the last statement of the write transaction that records them (store.ts, Tx.record),
// in batches whose items store/change-batches.ts encodes and decodes.
import { lineageChangeText, MCL_TOPIC, metadataChangeLog, type EventTopic, type RowText } from '../model/change-events.ts';
import {
  decodeItemRows,
  frozenBatches,
  referringEventsOf,
  referringOf,
  type BatchItemRow,
  type ItemRow,
  type ReferringEvent,
} from './change-batches.ts';
import { rowKey, rowKeyOfSequence } from './rows.ts';
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

/**
 * The MetadataChangeLog texts of events that refer to aspect rows, keyed by offset; an event whose
 * rows are not all found is left out (the caller decides: read it again, or render what is there).
 */
async function renderReferring(tx: Tx, events: readonly ReferringEvent[], partial: boolean): Promise<Map<number, string>> {
  const rows = new Map<string, RowText & { maxVersion: number | null }>();
  const fetch = async (keys: Iterable<string>) => {
    const wanted = [...new Set(keys)].filter((k) => !rows.has(k));
    if (!wanted.length) return;
    for (const r of await tx.run<{ key: string; value: string; systemMetadata: string | null; maxVersion: number | null }>(
      'aspects/fetch-latest',
      { keys: wanted },
    ))
      rows.set(r.key, r);
  };
  await fetch(events.map((e) => e.rowKey));
  const keyOf = (e: ReferringEvent, sequence: number | null) =>
    sequence === null ? null : rowKeyOfSequence(e.rowKey, rows.get(e.rowKey)?.maxVersion ?? null, sequence);
  await fetch(events.flatMap((e) => [keyOf(e, e.sequence), keyOf(e, e.previousSequence)]).filter((k): k is string => k !== null));
  const texts = new Map<number, string>();
  for (const e of events) {
    const afterKey = keyOf(e, e.sequence)!;
    const beforeKey = keyOf(e, e.previousSequence);
    const after = rows.get(afterKey);
    const before = beforeKey === null ? undefined : rows.get(beforeKey);
    if (!partial && (!after || (beforeKey !== null && !before))) continue;
    texts.set(
      e.offset,
      metadataChangeLog({
        entityUrn: e.entityUrn,
        aspectName: e.aspectName,
        changeType: e.changeType,
        after,
        before,
        stamp: { actor: e.actor, time: e.time },
      }).value,
    );
  }
  return texts;
}

/** Times a poll reads again an event whose rows it did not find before rendering what is there. */
const REREADS = 3;

/**
 * The next events of a topic from an offset, rendered. Rows are read after the events, so a write
 * that removed an event's rows in between (having copied them into the event) is caught by reading
 * that event again. Rows missing for good (changed behind the catalog's back) render as absent.
 */
export async function readEvents(
  store: Store,
  topic: EventTopic,
  from: number,
  limit: number,
): Promise<Array<{ offset: number; value: string }>> {
  return store.read(
    async (tx) => {
      const events = decodeItemRows(await tx.run<ItemRow>('events/poll', { topic, from: int(from), limit: int(limit) }));
      const texts = new Map<number, string>();
      for (const e of events) {
        const text = e.value ?? (e.lineage === null ? null : lineageChangeText(e.entityUrn, e.lineage));
        if (text !== null) texts.set(e.offset, text);
      }
      let pending = referringOf(events);
      for (let attempt = 0; pending.length; attempt++) {
        const rendered = await renderReferring(tx, pending, attempt === REREADS);
        for (const [offset, text] of rendered) texts.set(offset, text);
        const missing = pending.filter((e) => !rendered.has(e.offset));
        if (!missing.length) break;
        const again = decodeItemRows(await tx.run<ItemRow>('events/by-offsets', { offsets: missing.map((e) => int(e.offset)) }));
        for (const e of again) if (e.value !== null) texts.set(e.offset, e.value);
        pending = referringOf(again);
      }
      return events.map((e) => ({ offset: e.offset, value: texts.get(e.offset) ?? '' })).filter((e) => e.value !== '');
    },
    { metadata: { app: 'events', op: 'poll' } },
  );
}

/**
 * Before a write removes or overwrites aspects' rows (each named by entity urn and aspect): every
 * event still referring to them gets its text copied in, so it polls the same afterwards. Call under
 * the rows' entity locks, in the transaction that changes them.
 */
export async function freezeAspectRefs(tx: Tx, aspects: ReadonlyArray<{ urn: string; aspect: string }>): Promise<void> {
  if (!aspects.length) return;
  const refs = new Map(aspects.map(({ urn, aspect }) => [rowKey(urn, aspect), urn]));
  const rows = await tx.run<BatchItemRow>('events/aspect-refs', {
    refs: [...refs].map(([key, urn]) => ({ urn, rowKey: key })),
    topic: MCL_TOPIC,
  });
  const events = referringEventsOf(rows);
  if (!events.length) return;
  const texts = await renderReferring(tx, events, true);
  // One rewrite of each batch's items.
  await tx.run('events/freeze', { batches: frozenBatches(rows, texts).map((b) => ({ offset: int(b.offset), replace: b.replace })) });
}

/** The first offset of `topic` recorded at or after `since`, or null. */
export async function firstOffsetSince(store: Store, topic: EventTopic, since: number): Promise<number | null> {
  const [row] = await store.read((tx) => tx.run<{ offset: number | null }>('events/first-since', { topic, since: int(since) }));
  return row?.offset ?? null;
}

/**
 * One retention step: deletes at most `batch` batches of events (events/append) older than
 * `cutoff`, oldest first; answers how many batches and events went.
 */
export async function pruneEvents(
  store: Store,
  cutoff: number,
  batch: number,
): Promise<{ batches: number; deleted: number; prunedBelow: number }> {
  const [row] = await store.write(
    (tx) => tx.run<{ batches: number; deleted: number; prunedBelow: number }>('events/prune', { cutoff: int(cutoff), batch: int(batch) }),
    { metadata: { app: 'events', op: 'prune' } },
  );
  return row ?? { batches: 0, deleted: 0, prunedBelow: 0 };
}

/**
 * Schema 5 → 6: events stored one node each become batches of one (events/migrate-single-events),
 * `batch` per transaction; answers how many moved.
 */
export async function batchSingleEvents(store: Store, batch = 5_000): Promise<number> {
  let moved = 0;
  for (;;) {
    const [row] = await store.write((tx) => tx.run<{ moved: number }>('events/migrate-single-events', { batch: int(batch) }), {
      metadata: { app: 'migrate', op: 'single-events' },
    });
    moved += row?.moved ?? 0;
    if (!row?.moved) return moved;
  }
}
