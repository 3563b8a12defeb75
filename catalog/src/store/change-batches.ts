// How the change log is stored (docs/change-events.md §How the log is stored). The events one write
// transaction records about one entity on one topic are one `ChangeBatch` node with consecutive
// offsets `offset..last` and one text per event in `items`: each event used to be a node with four
// or five index entries, and creating and indexing those was most of what the log cost a write.
// An item is its kind and its text: `V` + the polled text, `L` + a LINEAGE change as
// model/change-events.ts encodeLineageChange wrote it, or `R` + an aspect reference (encodeAspectRef, below)
// + "\n" + the aspect's latest row key. The reference is JSON, which has no raw newline, so the
// first newline ends it. cypher/events/migrate-single-events.cypher writes the same items.
import { encodeLineageChange, type AspectChangeRef, type ChangeRecord, type EventTopic } from '../model/change-events.ts';

/** One event of the log as the readers see it: its text, or what a poll renders it from. */
export interface StoredEvent {
  offset: number;
  entityUrn: string;
  /** The polled text, when the event carries it. */
  value: string | null;
  /** The latest row key and the reference text of a MetadataChangeLog that refers to aspect rows. */
  aspectKey: string | null;
  ref: string | null;
  /** A LINEAGE change, stored compactly. */
  lineage: string | null;
}

/** A batch as cypher/events/append.cypher creates it; `at` is its first offset within the transaction's. */
export interface ChangeBatchRow {
  topic: EventTopic;
  entityUrn: string;
  at: number;
  items: string[];
}

/**
 * A reference as the log stores it: one JSON text (one property instead of six; the log's cost is
 * per property and per event, docs/capacity.md §Change log). The row key is stored beside it, indexed.
 */
export function encodeAspectRef(ref: AspectChangeRef): string {
  return JSON.stringify([ref.aspectName, ref.changeType, ref.sequence, ref.previousSequence, ref.time, ref.actor]);
}

export function decodeAspectRef(rowKey: string, text: string): AspectChangeRef {
  const [aspectName, changeType, sequence, previousSequence, time, actor] = JSON.parse(text) as [
    string,
    AspectChangeRef['changeType'],
    number,
    number | null,
    number,
    string,
  ];
  return { aspectName, rowKey, changeType, sequence, previousSequence, time, actor };
}

/** A row of events/poll, events/by-offsets or events/aspect-refs: one event's item. */
export interface ItemRow {
  offset: number;
  entityUrn: string;
  item: string;
}

export const decodeItemRows = (rows: readonly ItemRow[]): StoredEvent[] => rows.map((r) => decodeChangeItem(r.offset, r.entityUrn, r.item));

/** An event that refers to aspect rows instead of carrying its text. */
export type ReferringEvent = AspectChangeRef & { offset: number; entityUrn: string };

/** The events among `events` that refer to aspect rows, their references decoded. */
export const referringOf = (events: readonly StoredEvent[]): ReferringEvent[] =>
  events
    .filter((e) => e.value === null && e.aspectKey !== null && e.ref !== null)
    .map((e) => ({ ...decodeAspectRef(e.aspectKey!, e.ref!), offset: e.offset, entityUrn: e.entityUrn }));

/** The referring events among stored items (events/aspect-refs' rows), decoded. */
export const referringEventsOf = (rows: readonly ItemRow[]): ReferringEvent[] => referringOf(decodeItemRows(rows));

export function encodeChangeItem(r: ChangeRecord): string {
  if (r.aspect) return `R${encodeAspectRef(r.aspect)}\n${r.aspect.rowKey}`;
  if (r.lineage) return `L${encodeLineageChange(r.lineage)}`;
  return `V${r.value}`;
}

/** The item an event whose rows are about to go away stores instead: its rendered text. */
export const frozenItem = (value: string): string => `V${value}`;

/** A row of events/aspect-refs: an item, and the first offset of the batch that holds it. */
export type BatchItemRow = ItemRow & { batch: number };

/**
 * events/freeze's `batches`: each batch's items that `texts` has a text for, replaced by that text
 * (frozen), keyed by their index in the batch (offset − the batch's first offset).
 */
export function frozenBatches(
  rows: readonly BatchItemRow[],
  texts: ReadonlyMap<number, string>,
): Array<{ offset: number; replace: Record<string, string> }> {
  const batches = new Map<number, Record<string, string>>();
  for (const r of rows) {
    const text = texts.get(r.offset);
    if (text === undefined) continue;
    let replace = batches.get(r.batch);
    if (!replace) batches.set(r.batch, (replace = {}));
    replace[String(r.offset - r.batch)] = frozenItem(text);
  }
  return [...batches].map(([offset, replace]) => ({ offset, replace }));
}

export function decodeChangeItem(offset: number, entityUrn: string, item: string): StoredEvent {
  const text = item.slice(1);
  switch (item[0]) {
    case 'V':
      return { offset, entityUrn, value: text, aspectKey: null, ref: null, lineage: null };
    case 'L':
      return { offset, entityUrn, value: null, aspectKey: null, ref: null, lineage: text };
    case 'R': {
      const cut = text.indexOf('\n');
      if (cut < 0) break;
      return { offset, entityUrn, value: null, aspectKey: text.slice(cut + 1), ref: text.slice(0, cut), lineage: null };
    }
  }
  throw new Error(`change log event ${offset} is stored in a form this catalog does not know (${JSON.stringify(item.slice(0, 40))})`);
}

/**
 * A transaction's records as batches, one per (topic, entity) in order of first appearance, each
 * keeping its records' order; offsets are handed out batch after batch. Consumers are promised the
 * order of one entity's changes (DataHub partitions its topics by urn), which this keeps.
 */
export function changeBatchesOf(records: readonly ChangeRecord[]): ChangeBatchRow[] {
  const byKey = new Map<string, ChangeBatchRow>();
  for (const r of records) {
    const key = `${r.topic}\n${r.entityUrn}`;
    let batch = byKey.get(key);
    if (!batch) byKey.set(key, (batch = { topic: r.topic, entityUrn: r.entityUrn, at: 0, items: [] }));
    batch.items.push(encodeChangeItem(r));
  }
  let at = 0;
  const batches = [...byKey.values()];
  for (const b of batches) {
    b.at = at;
    at += b.items.length;
  }
  return batches;
}
