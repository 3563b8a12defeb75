// Steps 1 and 2 of the write path (docs/lineage-model.md §Derivation): plan a request — what the
// registry says about each change, asked once, and every aspect row it can touch — then lock its
// entities and read those rows. Later steps work on the plan's slots only.
import { entityTypeSpec, keyAspectNameOf } from '../model/entity-registry.ts';
import { isLineageAspect } from '../model/relationships.ts';
import { searchAspectsOf, type StoredFields } from '../model/search-fields.ts';
import { parseUrn, type Urn } from '../model/urn.ts';
import type { Tx } from '../store/store.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import type { AspectChange, SystemMetadata } from './changes.ts';

/** One change with the registry's answers about it. */
export interface PlannedChange {
  change: AspectChange;
  /** The key aspect of the change's entity type. */
  keyAspect: string;
  /** A DELETE of the key aspect: the entity and everything it owns go. */
  hardDelete: boolean;
  /** Its aspect can derive lineage edges: the existence rule applies (strict mode). */
  lineage: boolean;
  /** Its aspect is its type's descriptive aspect, which creates the entity in strict mode too. */
  creates: boolean;
  /**
   * Strict mode: the entities its own value names as lineage neighbours (existence subjects), found
   * once by existenceBefore and reused by the existence rule while the value is that one.
   */
  referenced?: string[];
}

export interface StoredRow {
  value: string;
  systemMetadata: string;
  maxVersion: number;
  createdBy: string;
}

export interface NextRow {
  value: string;
  systemMetadata: string;
  createdBy: string;
  /** value and systemMetadata as they were before being stringified: edges derive from these. */
  parsed: { value: unknown; systemMetadata: SystemMetadata };
}

/** One (urn, aspect) as this transaction sees it: stored state plus the request's changes. */
export interface Slot {
  urn: Urn;
  aspect: string;
  /** The entity's key aspect (its presence is the entity's existence). */
  isKey: boolean;
  /** A search field reads it (status, the descriptive aspect). */
  feedsSearch: boolean;
  stored: StoredRow | undefined;
  /** Final row, or null when deleted; undefined = untouched. */
  next: NextRow | null | undefined;
  /** Re-derive even if unchanged (RESTATE). */
  restate: boolean;
}

export interface WritePlan {
  changes: PlannedChange[];
  /** By row key: every row the request can touch. */
  slots: Map<string, Slot>;
  /** The slot of (urn, aspect), made on first use (hard deletes discover rows as they read). */
  slotOf(urn: Urn, aspect: string): Slot;
  hardDeleteUrns: Set<string>;
}

/**
 * Step 1, no database: each change's entity type is checked and its facts computed once; the rows
 * it touches are the changed aspect, the entity's key aspect and the aspects search fields read.
 */
export function planWrite(changes: readonly AspectChange[]): WritePlan {
  const slots = new Map<string, Slot>();
  const searchAspects = new Map<string, readonly string[]>();
  const searchAspectsOfType = (entityType: string) => {
    let aspects = searchAspects.get(entityType);
    if (!aspects) searchAspects.set(entityType, (aspects = searchAspectsOf(entityType)));
    return aspects;
  };
  const slotOf = (urn: Urn, aspect: string): Slot => {
    const key = rowKey(urn.text, aspect);
    let slot = slots.get(key);
    if (!slot) {
      const isKey = aspect === keyAspectNameOf(urn.entityType);
      slot = { urn, aspect, isKey, feedsSearch: searchAspectsOfType(urn.entityType).includes(aspect), stored: undefined, next: undefined, restate: false };
      slots.set(key, slot);
    }
    return slot;
  };
  const hardDeleteUrns = new Set<string>();
  const planned = changes.map((change): PlannedChange => {
    const { urn, aspectName } = change;
    // Rejects an invalid entity type; its descriptor (modelled types) names the descriptive aspect.
    const spec = entityTypeSpec(urn.entityType);
    const keyAspect = spec.keyAspect;
    const hardDelete = change.changeType === 'DELETE' && aspectName === keyAspect;
    if (hardDelete) hardDeleteUrns.add(urn.text);
    slotOf(urn, aspectName);
    slotOf(urn, keyAspect);
    for (const a of searchAspectsOfType(urn.entityType)) slotOf(urn, a);
    return { change, keyAspect, hardDelete, lineage: isLineageAspect(aspectName), creates: aspectName === spec.descriptor?.modelled?.descriptive?.aspect };
  });
  return { changes: planned, slots, slotOf, hardDeleteUrns };
}

type StoredRowRecord = { value: string; systemMetadata: string; maxVersion: number | null; createdBy: string | null };

/**
 * Step 2: lock every entity the request changes (in urn order, so concurrent writers cannot
 * deadlock), then read its planned rows — all rows of an entity being hard deleted. Returns the
 * search fields each locked node holds now.
 */
export async function lockAndRead(tx: Tx, plan: WritePlan, actor: string): Promise<Map<string, StoredFields>> {
  const storedOf = (r: StoredRowRecord): StoredRow =>
    ({ value: r.value, systemMetadata: r.systemMetadata, maxVersion: r.maxVersion ?? 0, createdBy: r.createdBy ?? actor });
  const keysOf = new Map<string, string[]>();
  for (const [key, s] of plan.slots) {
    if (plan.hardDeleteUrns.has(s.urn.text)) continue;
    const keys = keysOf.get(s.urn.text);
    if (keys) keys.push(key);
    else keysOf.set(s.urn.text, [key]);
  }
  const owners = plan.changes.map((c) => c.change.urn);
  const locked = await tx.run<{ urn: string; fields: StoredFields; rows: Array<StoredRowRecord & { name: string }> }>(
    'aspects/lock-and-read', { rows: lockRows(owners).map((r) => ({ ...r, keys: keysOf.get(r.urn) ?? [] })) });
  const storedFields = new Map<string, StoredFields>();
  for (const l of locked) {
    storedFields.set(l.urn, l.fields);
    for (const r of l.rows) plan.slots.get(rowKey(l.urn, r.name))!.stored = storedOf(r);
  }
  if (plan.hardDeleteUrns.size) {
    const all = await tx.run<StoredRowRecord & { urn: string; name: string }>('aspects/fetch-entity-latest', { urns: [...plan.hardDeleteUrns] });
    for (const r of all) plan.slotOf(parseUrn(r.urn), r.name).stored = storedOf(r);
  }
  return storedFields;
}
