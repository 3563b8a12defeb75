// The aspect write path: the one routine every write goes through (REST MCP/MCE/PATCH/DELETE,
// GraphQL updateLineage, RESTATE). One call = one transaction, in named steps: plan (plan.ts, no
// database), lock and read (here: the transaction's first statement), validate and apply in memory,
// deriving each new row's edges once and judging the edge budget (apply.ts), then rows, edges and
// search fields (persist.ts). Any error rolls back everything (all-or-nothing per request).
//
// Edges and search fields are a pure function of the stored latest rows, so restoreIndices can
// rebuild them exactly. A change whose value equals the stored latest one (key order and system
// metadata aside: an UPSERT sent again, a PATCH that changes nothing) writes nothing at all — no
// version, no edge, no search field, no write generation — and the stored row keeps its system
// metadata (docs/lineage-model.md §Aspect rows).
import { keyAspectNameOf } from '../model/entity-type-spec.ts';
import type { StoredFields } from '../model/search-fields.ts';
import { parseUrn, type Urn } from '../model/urn.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import type { Store, Tx } from '../store/store.ts';
import type { AspectChange, WriteOptions, WriteResult } from './changes.ts';
import { applyChanges } from './apply.ts';
import { persist } from './persist.ts';
import { planWrite, type StoredRow, type WritePlan } from './plan.ts';

// What callers of the write path name, from changes.ts.
export { changeTypeOf, type AspectChange, type ExistenceMode, type WriteOptions, type WriteResult } from './changes.ts';

/**
 * Applies a list of aspect changes in one transaction. Changes are processed in order, so a later
 * change sees an earlier one (an MCE snapshot's aspects, an earlier proposal of the same batch).
 */
export async function writeAspects(store: Store, changes: AspectChange[], options: WriteOptions): Promise<WriteResult> {
  if (changes.length === 0) return { rowsWritten: 0, rowsDeleted: 0 };
  return store.write((tx) => writeAspectsInTx(tx, changes, options), options.metadata ? { metadata: options.metadata } : undefined);
}

/** The write path in its steps: plan → lock and read → validate and apply → rows → edges → search fields. */
export async function writeAspectsInTx(tx: Tx, changes: AspectChange[], options: WriteOptions): Promise<WriteResult> {
  // Rejects what needs no database before touching it.
  const plan = planWrite(changes);
  const storedFields = await lockAndRead(tx, plan, options.actor);
  // Read the clock only once the entity locks are held: writers of an entity then stamp createdOn
  // in the order they commit, so the newest createdOn is always the latest version.
  const now = options.now ?? Date.now();
  const { exists, hardDeleted, changed } = await applyChanges(tx, plan, options, now);
  return persist(tx, { plan, hardDeleted, exists, storedFields, now, actor: options.actor, changed });
}

type StoredRowRecord = { value: string; systemMetadata: string; maxVersion: number | null; createdBy: string | null };

/**
 * Step 2: lock every entity the request changes (in urn order, so concurrent writers cannot
 * deadlock), then read its planned rows — all rows of an entity being hard deleted. Returns the
 * search fields each locked node holds now.
 */
async function lockAndRead(tx: Tx, plan: WritePlan, actor: string): Promise<Map<string, StoredFields>> {
  const storedOf = (r: StoredRowRecord): StoredRow => ({
    value: r.value,
    systemMetadata: r.systemMetadata,
    maxVersion: r.maxVersion ?? 0,
    createdBy: r.createdBy ?? actor,
  });
  const keysOf = new Map<string, string[]>();
  for (const [key, s] of plan.slots) {
    if (plan.hardDeleteUrns.has(s.urn.text)) continue;
    const keys = keysOf.get(s.urn.text);
    if (keys) keys.push(key);
    else keysOf.set(s.urn.text, [key]);
  }
  const owners = plan.changes.map((c) => c.change.urn);
  const locked = await tx.run<{ urn: string; fields: StoredFields; rows: Array<StoredRowRecord & { name: string }> }>(
    'aspects/lock-and-read',
    { rows: lockRows(owners).map((r) => ({ ...r, keys: keysOf.get(r.urn) ?? [] })) },
  );
  const storedFields = new Map<string, StoredFields>();
  for (const l of locked) {
    storedFields.set(l.urn, l.fields);
    for (const r of l.rows) plan.slots.get(rowKey(l.urn, r.name))!.stored = storedOf(r);
  }
  if (plan.hardDeleteUrns.size) {
    const all = await tx.run<StoredRowRecord & { urn: string; name: string }>('aspects/fetch-entity-latest', {
      urns: [...plan.hardDeleteUrns],
    });
    for (const r of all) plan.slotOf(parseUrn(r.urn), r.name).stored = storedOf(r);
  }
  return storedFields;
}

/** Hard delete of an entity (entities?action=delete): every aspect row and every owned edge. */
export async function hardDeleteEntity(store: Store, urn: Urn, options: WriteOptions): Promise<number> {
  const result = await writeAspects(store, [{ urn, aspectName: keyAspectNameOf(urn.entityType), changeType: 'DELETE' }], options);
  return result.rowsDeleted;
}
