// The aspect write path: the one routine every write goes through (REST MCP/MCE/PATCH/DELETE,
// GraphQL updateLineage, RESTATE). One call = one transaction, in named steps: plan (plan.ts), lock
// and read (plan.ts), validate and apply in memory (apply.ts), then rows, edges and search fields
// (persist.ts). Any error rolls back everything (all-or-nothing per request).
//
// Edges and search fields are a pure function of the stored latest rows, so restoreIndices can
// rebuild them exactly. A change whose value equals the stored latest one (key order and system
// metadata aside: an UPSERT sent again, a PATCH that changes nothing) writes nothing at all — no
// version, no edge, no search field, no write generation — and the stored row keeps its system
// metadata (docs/lineage-model.md §Aspect rows).
import { keyAspectNameOf } from '../model/entity-registry.ts';
import type { Urn } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';
import type { AspectChange, WriteOptions, WriteResult } from './changes.ts';
import { applyChanges } from './apply.ts';
import { persist } from './persist.ts';
import { lockAndRead, planWrite } from './plan.ts';

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
  const { exists, hardDeleted } = await applyChanges(tx, plan, options, now);
  return persist(tx, { plan, hardDeleted, exists, storedFields, now, actor: options.actor });
}

/** Hard delete of an entity (entities?action=delete): every aspect row and every owned edge. */
export async function hardDeleteEntity(store: Store, urn: Urn, options: WriteOptions): Promise<number> {
  const result = await writeAspects(store, [{ urn, aspectName: keyAspectNameOf(urn.entityType), changeType: 'DELETE' }], options);
  return result.rowsDeleted;
}
