// Step 3 of the write path: validate each change against the rows read and compute the rows the
// request leaves, in request order (a later change sees an earlier one). Nothing is written here;
// the only reads are existence lookups of the urns lineage names (docs/lineage-model.md §Existence).
import { validateAspect } from '../model/aspects/index.ts';
import { keyAspectOf } from '../model/entity-registry.ts';
import { validationFailed } from '../model/errors.ts';
import { sameJsonText } from '../model/json.ts';
import { applyPatch } from '../model/patch.ts';
import { referencedLineageUrns } from '../model/relationships.ts';
import { parseUrn } from '../model/urn.ts';
import type { Tx } from '../store/store.ts';
import { existenceOf, existenceSubjectOf } from '../store/existence.ts';
import { normalizeSystemMetadata, type WriteOptions } from './changes.ts';
import type { PlannedChange, Slot, WritePlan } from './plan.ts';

/** Whether each urn exists as of now in this transaction: its key row, as changes apply. */
export type Existence = Map<string, boolean>;

/** The urn whose key row answers for this one's existence (a schemaField's parent). */
const existenceSubject = (urnText: string): string => existenceSubjectOf(parseUrn(urnText)).text;

/** Looks up the existence of urns not known yet in this transaction. */
async function lookupExistence(tx: Tx, urns: readonly string[], known: Existence): Promise<void> {
  const unknown = [...new Set(urns)].filter((u) => !known.has(u));
  if (!unknown.length) return;
  for (const [urn, e] of await existenceOf(tx, unknown.map((u) => parseUrn(u)))) known.set(urn, e.exists);
}

/**
 * What exists before any change applies: the planned entities' key rows, and in strict mode the
 * urns their lineage values name (one lookup for the whole request).
 */
export async function existenceBefore(tx: Tx, plan: WritePlan, options: WriteOptions): Promise<Existence> {
  const exists: Existence = new Map();
  for (const s of plan.slots.values()) if (s.isKey) exists.set(s.urn.text, s.stored !== undefined);
  if (options.existenceMode === 'strict') {
    const referenced = plan.changes.flatMap(({ change: c, lineage }) =>
      lineage && c.value !== undefined ? referencedLineageUrns(c.urn.entityType, c.aspectName, c.value, c.urn.text).map(existenceSubject) : []);
    await lookupExistence(tx, referenced, exists);
  }
  return exists;
}

/**
 * The existence rule of strict mode: a lineage aspect needs its own entity to exist (unless it is
 * the entity's descriptive aspect, which creates it) and every entity it names.
 */
async function checkLineageReferences(tx: Tx, pc: PlannedChange, value: unknown, entityExists: boolean, exists: Existence): Promise<void> {
  const { urn, aspectName } = pc.change;
  const refs = referencedLineageUrns(urn.entityType, aspectName, value, urn.text).map(existenceSubject);
  await lookupExistence(tx, refs, exists);
  if (!entityExists && !pc.creates) throw validationFailed(`Cannot upsert lineage as downstream urn ${urn.text} doesn't exist`);
  const missing = [...new Set(refs)].filter((u) => u !== urn.text && exists.get(u) !== true);
  if (missing.length) {
    throw validationFailed(`Cannot ingest ${aspectName} for ${urn.text}: referenced ${missing.length === 1 ? 'entity does' : 'entities do'} not exist: ${missing.join(', ')}`);
  }
}

const currentValue = (s: Slot) => (s.next === undefined ? s.stored?.value : s.next?.value);

/** The value an UPSERT / CREATE / PATCH leaves: the given one, or the patch applied to the current. */
function newValue(pc: PlannedChange, slot: Slot, now: number): unknown {
  const c = pc.change;
  if (c.changeType !== 'PATCH') return c.value;
  if (typeof c.patchText !== 'string') throw validationFailed('PATCH proposals need aspect.value with the patch document');
  const current = currentValue(slot);
  return applyPatch({ aspectName: c.aspectName, current: current === undefined ? undefined : JSON.parse(current), patchText: c.patchText, now });
}

/**
 * Applies every change to the plan's slots (`next`), checking each as DataHub does. Returns the
 * entities hard deleted; `exists` ends as the request leaves existence.
 */
export async function applyChanges(tx: Tx, plan: WritePlan, exists: Existence, options: WriteOptions, now: number): Promise<Set<string>> {
  const hardDeleted = new Set<string>();
  for (const pc of plan.changes) {
    const c = pc.change;
    const slot = plan.slotOf(c.urn, c.aspectName);
    const entityExists = exists.get(c.urn.text) === true;

    if (c.changeType === 'DELETE') {
      if (pc.hardDelete) {
        for (const s of plan.slots.values()) if (s.urn.text === c.urn.text) s.next = null;
        exists.set(c.urn.text, false);
        hardDeleted.add(c.urn.text);
      } else {
        slot.next = null;
      }
      continue;
    }
    if (c.changeType === 'RESTATE') {
      if (currentValue(slot) === undefined) throw validationFailed(`Cannot restate ${c.aspectName} of ${c.urn.text}: the aspect does not exist`);
      slot.restate = true;
      continue;
    }
    if (c.changeType === 'CREATE_ENTITY' && entityExists) throw validationFailed(`Cannot create entity ${c.urn.text}: it already exists`);
    if (c.changeType === 'CREATE' && currentValue(slot) !== undefined) {
      throw validationFailed(`Cannot create aspect ${c.aspectName} of ${c.urn.text}: it already exists`);
    }
    const value = newValue(pc, slot, now);
    validateAspect(c.aspectName, value, c.urn);
    if (options.existenceMode === 'strict' && pc.lineage) await checkLineageReferences(tx, pc, value, entityExists, exists);

    const systemMetadata = JSON.stringify(normalizeSystemMetadata(c.systemMetadata, now));
    // Any accepted write creates the entity's key aspect first.
    if (!entityExists && c.aspectName !== pc.keyAspect) {
      const key = keyAspectOf(c.urn);
      plan.slotOf(c.urn, key.aspectName).next = { value: JSON.stringify(key.value), systemMetadata, createdBy: options.actor };
    }
    exists.set(c.urn.text, true);
    const text = JSON.stringify(value);
    // Identical, key order aside (clients and merges reorder keys): nothing to write.
    const current = currentValue(slot);
    if (current !== undefined && sameJsonText(current, text)) continue;
    slot.next = { value: text, systemMetadata, createdBy: options.actor };
  }
  return hardDeleted;
}
