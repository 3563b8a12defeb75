// Steps 4–6 of the write path: the aspect rows, then the edges they justify (derived by apply.ts as
// it decided each row), then the search fields of the touched entities — each a function of the rows
// the request leaves (the slots' final state), which is why restoreIndices can rebuild edges and
// fields exactly (docs/lineage-model.md §Restore).
import {
  lineageChangeEvents,
  MCL_TOPIC,
  metadataChangeLog,
  PLATFORM_EVENT_TOPIC,
  type ChangeRecord,
  type ChangeStamp,
  type EventTopic,
} from '../model/change-events.ts';
import type { DerivedEdge } from '../model/relationships.ts';
import { searchFieldDrift, type StoredFields } from '../model/search-fields.ts';
import type { Urn } from '../model/urn.ts';
import { freezeAspectRefs } from '../store/change-log.ts';
import { int, type Tx } from '../store/store.ts';
import { mergeEdgeRows, rowKey } from '../store/rows.ts';
import { markWrite } from '../store/write-generation.ts';
import type { WriteResult } from './changes.ts';
import type { ChangedSlots, Existence, Slot, WritePlan } from './plan.ts';

/** What steps 1–3 leave for the writes. */
export interface Outcome {
  plan: WritePlan;
  hardDeleted: ReadonlySet<string>;
  exists: Existence;
  storedFields: ReadonlyMap<string, StoredFields>;
  now: number;
  /** Who writes: the change events' audit stamp. */
  actor: string;
  /** What the request changes, with the edges derived and judged by apply.ts. */
  changed: ChangedSlots;
}

/** The row a slot ends with: its next row, else what is stored (none once its entity is hard deleted). */
function finalRow(s: Slot, hardDeleted: ReadonlySet<string>) {
  return s.next === undefined ? (hardDeleted.has(s.urn.text) ? undefined : s.stored) : s.next;
}

/** Step 4a: edges the old rows declared that the new rows do not, and all else a hard-deleted entity owns. */
async function removeStaleEdges(
  tx: Tx,
  before: Map<string, DerivedEdge>,
  after: Map<string, DerivedEdge>,
  hardDeleted: ReadonlySet<string>,
): Promise<void> {
  await deleteStaleEdges(tx, before, after);
  if (!hardDeleted.size) return;
  // Edges no stored row explained any more (drift, bogus writes) go with their owner too.
  const owned = await tx.run<{ source: string; destination: string; key: string }>('edges/owned-by', {
    rows: [...hardDeleted].map((owner) => ({ owner, aspect: null })),
  });
  const extra = owned.filter((e) => !after.has(e.key));
  if (extra.length)
    await tx.run('edges/delete-by-key', { rows: extra.map((e) => ({ source: e.source, destination: e.destination, key: e.key })) });
}

/** Step 4b: aspect rows — removed, created, or a new latest version with the old one archived. */
async function writeRows(tx: Tx, slots: readonly Slot[], hardDeleted: ReadonlySet<string>, now: number): Promise<WriteResult> {
  let rowsDeleted = 0;
  const deletions = slots.filter((s) => s.stored && (s.next === null || hardDeleted.has(s.urn.text)));
  if (deletions.length) {
    // Events that refer to these rows keep what they referred to (whatever this process records).
    await freezeAspectRefs(
      tx,
      deletions.map((s) => ({ urn: s.urn.text, aspect: s.aspect })),
    );
    // `now` stamps the copies an export running now keeps of these rows (docs/operations.md §Consistency).
    const removed = await tx.run<{ removed: number }>('aspects/delete-rows', {
      keys: deletions.map((s) => ({ urn: s.urn.text, name: s.aspect })),
      now: int(now),
    });
    rowsDeleted = removed.reduce((n, r) => n + r.removed, 0);
  }
  const writes = slots.filter((s) => s.next);
  const fresh = (s: Slot) => !s.stored || hardDeleted.has(s.urn.text);
  const row = (s: Slot) => ({
    urn: s.urn.text,
    name: s.aspect,
    key: rowKey(s.urn.text, s.aspect),
    value: s.next!.value,
    systemMetadata: s.next!.systemMetadata,
    createdOn: int(now),
    createdBy: s.next!.createdBy,
  });
  const created = writes.filter(fresh);
  const updated = writes.filter((s) => !fresh(s));
  if (created.length) await tx.run('aspects/create-rows', { rows: created.map(row) });
  if (updated.length) {
    await tx.run('aspects/update-rows', {
      rows: updated.map((s) => ({ ...row(s), archiveKey: rowKey(s.urn.text, s.aspect, s.stored!.maxVersion + 1) })),
    });
  }
  return { rowsWritten: writes.length, rowsDeleted };
}

/**
 * Step 5: the edges the new rows justify, with ghost nodes for endpoints never ingested. Nodes known
 * to be there (the locked owners, urns whose key row was found) need no MERGE.
 */
async function mergeEdges(tx: Tx, after: Map<string, DerivedEdge>, o: Outcome): Promise<void> {
  await mergeEdgeRows(tx, [...after.values()], (u) => o.storedFields.has(u) || o.exists.get(u) === true);
}

/**
 * Step 4a's core: the edges old rows declared that the new rows do not. With store/rows.ts `mergeEdgeRows`,
 * what a caller that stores rows its own way (the import keeps versions and stamps) runs to keep the
 * derived state as the write path keeps it.
 */
export async function deleteStaleEdges(
  tx: Tx,
  before: ReadonlyMap<string, DerivedEdge>,
  after: ReadonlyMap<string, DerivedEdge>,
): Promise<void> {
  const stale = [...before.values()].filter((e) => !after.has(e.key));
  if (stale.length)
    await tx.run('edges/delete-by-key', { rows: stale.map((e) => ({ source: e.source, destination: e.destination, key: e.key })) });
}

/**
 * Step 6: search fields of every touched entity from the final state of its rows, written only
 * where they differ from what the node holds (a lineage-only write changes none).
 */
async function refreshSearchFields(tx: Tx, slots: readonly Slot[], o: Outcome): Promise<void> {
  const byUrn = new Map<string, { urn: Urn; aspects: Map<string, unknown> }>();
  for (const s of slots) {
    let entry = byUrn.get(s.urn.text);
    if (!entry) byUrn.set(s.urn.text, (entry = { urn: s.urn, aspects: new Map() }));
    // Only the aspects search fields read are looked at (a lineage aspect can be the largest row);
    // a row this request wrote is read as apply.ts built it, a stored one is parsed.
    if (!s.feedsSearch) continue;
    const final = finalRow(s, o.hardDeleted);
    if (final) entry.aspects.set(s.aspect, 'parsedValue' in final ? final.parsedValue : JSON.parse(final.value));
  }
  const fields = [...byUrn.values()]
    .map((e) => searchFieldDrift(e.urn, { exists: o.exists.get(e.urn.text) === true, aspects: e.aspects }, o.storedFields.get(e.urn.text)))
    .filter((f) => Object.keys(f.drift).length > 0)
    .map((f) => f.expected);
  if (fields.length) await tx.run('entities/set-search-fields', { rows: fields });
  const gone = [...o.hardDeleted].filter((u) => o.exists.get(u) !== true);
  if (gone.length) await tx.run('entities/finish-hard-delete', { urns: gone });
}

/**
 * Step 7's records (docs/change-events.md): a MetadataChangeLog per aspect row written, removed or
 * restated, then a LINEAGE change event per lineage edge added or removed.
 */
function changeRecords(
  slots: readonly Slot[],
  o: Outcome,
  before: Map<string, DerivedEdge>,
  after: Map<string, DerivedEdge>,
  topics: ReadonlySet<EventTopic>,
): ChangeRecord[] {
  const logs = topics.has(MCL_TOPIC);
  const stamp: ChangeStamp = { actor: o.actor, time: o.now };
  const records: ChangeRecord[] = [];
  for (const s of logs ? slots : []) {
    const removed = s.stored && (s.next === null || (s.next === undefined && o.hardDeleted.has(s.urn.text)));
    const changeType = s.next ? 'UPSERT' : removed ? 'DELETE' : s.restate ? 'RESTATE' : undefined;
    if (!changeType) continue;
    // Rows that stay stored are referred to, not copied (docs/change-events.md §Cost): the value
    // after is the row writeRows leaves (maxVersion + 1 over an old one, 0 for a first), the value
    // before the one it archived. A DELETE's rows, and those a hard delete removed before this
    // request wrote the aspect again, are gone: their text goes into the event.
    const rowsStay = changeType === 'RESTATE' || (changeType === 'UPSERT' && !(s.stored && o.hardDeleted.has(s.urn.text)));
    if (rowsStay) {
      const previous = s.stored ? s.stored.maxVersion : null;
      records.push({
        topic: MCL_TOPIC,
        entityUrn: s.urn.text,
        aspect: {
          aspectName: s.aspect,
          rowKey: rowKey(s.urn.text, s.aspect),
          changeType,
          sequence: changeType === 'RESTATE' ? previous! : previous === null ? 0 : previous + 1,
          previousSequence: previous,
          actor: stamp.actor,
          time: stamp.time,
        },
      });
      continue;
    }
    records.push(
      metadataChangeLog({
        entityUrn: s.urn.text,
        aspectName: s.aspect,
        changeType,
        stamp,
        after: s.next ? s.next : undefined,
        before: s.stored,
      }),
    );
  }
  // One by one: a spread of tens of thousands of events (MAX_EDGES_PER_WRITE raised) overflows the stack.
  if (topics.has(PLATFORM_EVENT_TOPIC)) for (const event of lineageChangeEvents(before, after, stamp)) records.push(event);
  return records;
}

/**
 * Steps 4–6, then the write generation (lineage snapshots taken before this transaction are stale)
 * and the change events, which the store appends when the transaction's work is done.
 */
export async function persist(tx: Tx, o: Outcome): Promise<WriteResult> {
  const slots = [...o.plan.slots.values()];
  if (!o.changed.slots.length && !o.hardDeleted.size) return { rowsWritten: 0, rowsDeleted: 0 };
  const { edgesBefore: before, edgesAfter: after } = o.changed;
  await removeStaleEdges(tx, before, after, o.hardDeleted);
  const result = await writeRows(tx, slots, o.hardDeleted, o.now);
  await mergeEdges(tx, after, o);
  await refreshSearchFields(tx, slots, o);
  await markWrite(tx);
  if (tx.changeLog.size) tx.record(changeRecords(slots, o, before, after, tx.changeLog));
  return result;
}
