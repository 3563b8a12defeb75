// Step 1 of the write path (docs/lineage-model.md §Derivation): plan a request — what the registry
// says about each change, asked once, and every aspect row it can touch. No database: a plan is
// made before the transaction touches anything, which then locks the plan's entities and reads its
// rows into the slots (aspect-writer.ts); later steps work on the plan's slots only, and what step 3
// leaves step 4 (existence, the changed slots with their edges) is declared here, below both.
import { entityTypeSpec, keyAspectNameOf } from '../model/entity-type-spec.ts';
import { isLineageAspect, type DerivedEdge, type RowDerivation } from '../model/relationships.ts';
import { searchAspectsOf } from '../model/search-fields.ts';
import type { Urn } from '../model/urn.ts';
import { rowKey } from '../store/rows.ts';
import type { AspectChange } from './changes.ts';

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
   * What the value it leaves derives — edges and, for the existence rule, the entities its lineage
   * names — derived once (apply.ts derivationOf): a whole value as given before the edge budget's
   * first count and the existence lookup, a patched one when first needed.
   */
  derived?: { value: unknown; row: RowDerivation };
}

export interface StoredRow {
  value: string;
  systemMetadata: string;
  maxVersion: number;
  createdBy: string;
}

interface NextRow {
  value: string;
  systemMetadata: string;
  createdBy: string;
  /** value before it was stringified: search fields read it. */
  parsedValue: unknown;
  /** The edges the row derives, derived once when apply.ts decided the row. */
  edges: DerivedEdge[];
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

/** Whether each urn exists as of now in this transaction: its key row, as changes apply. */
export type Existence = Map<string, boolean>;

/**
 * The slots whose derived state the request may change (rows written or removed, and restated ones),
 * with the edges their old rows declared and those the request leaves them, by edge key.
 */
export interface ChangedSlots {
  slots: Slot[];
  edgesBefore: Map<string, DerivedEdge>;
  edgesAfter: Map<string, DerivedEdge>;
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
 * Step 1: each change's entity type is checked and its facts computed once; the rows
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
      slot = {
        urn,
        aspect,
        isKey,
        feedsSearch: searchAspectsOfType(urn.entityType).includes(aspect),
        stored: undefined,
        next: undefined,
        restate: false,
      };
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
    return {
      change,
      keyAspect,
      hardDelete,
      lineage: isLineageAspect(aspectName),
      creates: aspectName === spec.descriptor?.modelled?.descriptive?.aspect,
    };
  });
  return { changes: planned, slots, slotOf, hardDeleteUrns };
}
