// Step 3 of the write path: validate each change against the rows read and compute the rows the
// request leaves, in request order (a later change sees an earlier one), and the edges they change.
// Each row's edges are derived once, when its value is known, and judged against the edge budget
// here. Nothing is written here; the only reads are existence lookups of the urns lineage names
// (docs/lineage-model.md §Existence).
import { validateAspect } from '../model/aspects/index.ts';
import { keyAspectOf } from '../model/urn-key.ts';
import { payloadTooLarge, preconditionFailed, validationFailed } from '../model/errors.ts';
import { sameJsonText } from '../model/json.ts';
import { unchangedWithinGranularity } from '../model/lineage-stamps.ts';
import { applyPatch } from '../model/patch/index.ts';
import { deriveRow, edgesOfRow, type DerivedEdge, type RowDerivation } from '../model/relationships.ts';
import { parseUrn } from '../model/urn.ts';
import type { Tx } from '../store/store.ts';
import { existenceOf } from '../store/existence.ts';
import type { SystemMetadata, WriteOptions } from './changes.ts';
import type { ChangedSlots, Existence, PlannedChange, Slot, WritePlan } from './plan.ts';

/** Looks up the existence of urns not known yet in this transaction. */
async function lookupExistence(tx: Tx, urns: readonly string[], known: Existence): Promise<void> {
  const unknown = [...new Set(urns)].filter((u) => !known.has(u));
  if (!unknown.length) return;
  for (const [urn, e] of await existenceOf(
    tx,
    unknown.map((u) => parseUrn(u)),
  ))
    known.set(urn, e.exists);
}

/**
 * What exists before any change applies: the planned entities' key rows, and in strict mode the
 * urns their lineage values name (one lookup for the whole request).
 */
async function existenceBefore(tx: Tx, plan: WritePlan, options: WriteOptions): Promise<Existence> {
  const exists: Existence = new Map();
  for (const s of plan.slots.values()) if (s.isKey) exists.set(s.urn.text, s.stored !== undefined);
  if (options.existenceMode === 'strict')
    await lookupExistence(
      tx,
      plan.changes.flatMap((pc) => pc.derived?.row.references ?? []),
      exists,
    );
  return exists;
}

/** One record the existence rule refuses: where it is, what it writes, what it names that does not exist. */
interface ExistenceProblem {
  index: number;
  source: string | undefined;
  urn: string;
  aspect: string;
  missing: string[];
}

/**
 * Entities the request writes with a change that creates them in strict mode too: any write but a
 * lineage aspect (which needs its entity), or the entity's descriptive aspect. Judged for the request
 * as a whole (docs/lineage-model.md §Existence): an entity ingested anywhere in it exists for every
 * lineage aspect in it, whatever the order, as connectors emit lineage before the entity's own aspects.
 */
function writtenByRequest(plan: WritePlan): Set<string> {
  const written = new Set<string>();
  for (const pc of plan.changes) {
    const t = pc.change.changeType;
    if (t === 'DELETE' || t === 'RESTATE') continue;
    if (!pc.lineage || pc.creates) written.add(pc.change.urn.text);
  }
  return written;
}

/**
 * The existence rule of strict mode: a lineage aspect needs its own entity to exist (unless it is
 * the entity's descriptive aspect, which creates it) and every entity it names — existing before the
 * request, or written anywhere in it. Returns what is missing (empty = the record passes).
 */
async function missingLineageReferences(
  tx: Tx,
  pc: PlannedChange,
  refs: readonly string[],
  exists: Existence,
  written: ReadonlySet<string>,
  hardDeleted: ReadonlySet<string>,
): Promise<string[]> {
  const { urn } = pc.change;
  // The value as given had its references looked up by existenceBefore; a patched one's are looked up here.
  await lookupExistence(tx, refs, exists);
  const present = (u: string) => exists.get(u) === true || (written.has(u) && !hardDeleted.has(u));
  const missing: string[] = [];
  if (!pc.creates && !present(urn.text)) missing.push(urn.text);
  for (const u of new Set(refs)) if (u !== urn.text && !present(u)) missing.push(u);
  return missing;
}

/**
 * The 422 naming every record the existence rule refuses (each in the words of the single-record
 * messages, DataHub's for a missing own entity), and how this client may choose the other mode.
 */
function existenceError(problems: readonly ExistenceProblem[], hint: string | undefined): Error {
  const records = problems.map((p) => {
    const where = `[${p.index}]${p.source ? ` ${p.source}` : ''}`;
    const named = p.missing.filter((u) => u !== p.urn);
    const parts: string[] = [];
    if (p.missing.includes(p.urn)) parts.push(`Cannot upsert lineage as downstream urn ${p.urn} doesn't exist`);
    if (named.length) {
      parts.push(
        `Cannot ingest ${p.aspect} for ${p.urn}: referenced ${named.length === 1 ? 'entity does' : 'entities do'} not exist: ${named.join(', ')}`,
      );
    }
    return `${where}: ${parts.join('; ')}`;
  });
  const n = problems.length;
  const head = `Lineage names entities that neither exist nor are written in this request (existence mode strict; ${n} record${n === 1 ? '' : 's'} refused, nothing written)`;
  return validationFailed(`${head}: ${records.join(' | ')}.${hint ? ` ${hint}` : ''}`);
}

/**
 * A key aspect is what the urn says (docs/wire-contract.md §Key aspects): as in DataHub, which
 * derives it from the urn, a client's key aspect that disagrees (Power BI's `dashboardKey` with
 * another id) is replaced by the urn's, and the record is kept. A value that is not an object
 * still fails validation.
 */
function keyAspectFromUrn(pc: PlannedChange, value: unknown): unknown {
  if (pc.change.aspectName !== pc.keyAspect || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return keyAspectOf(pc.change.urn).value;
}

const currentValue = (s: Slot) => (s.next === undefined ? s.stored?.value : s.next?.value);

/**
 * A conditional write's precondition against the row as stored when the request began (the node is
 * locked, so nothing changes it before commit). An aspect's version is the number of versions
 * written (1 after the first write), "-1" when it has none, as DataHub counts.
 */
function checkPrecondition(pc: PlannedChange, slot: Slot): void {
  const { precondition: p, aspectName, urn } = pc.change;
  if (!p) return;
  const version = slot.stored ? String(slot.stored.maxVersion + 1) : '-1';
  if (p.versionMatch !== undefined && p.versionMatch !== version) {
    throw preconditionFailed(
      `Precondition failed for ${aspectName} of ${urn.text}: Expected version ${p.versionMatch}, actual version ${version}`,
    );
  }
  if (p.noneMatch && currentValue(slot) !== undefined) {
    throw preconditionFailed(`Precondition failed for ${aspectName} of ${urn.text}: the aspect already exists (If-None-Match: *)`);
  }
}

/** The value an UPSERT / CREATE / PATCH leaves: the given one, or the patch applied to the current. */
function newValue(pc: PlannedChange, slot: Slot, now: number): unknown {
  const c = pc.change;
  if (c.changeType !== 'PATCH') return c.value;
  if (typeof c.patchText !== 'string') throw validationFailed('PATCH proposals need aspect.value with the patch document');
  const current = currentValue(slot);
  return applyPatch({
    aspectName: c.aspectName,
    current: current === undefined ? undefined : JSON.parse(current),
    patchText: c.patchText,
    now,
  });
}

/** The system metadata a row is stored with: the given fields but nulls, lastObserved and run ids defaulted. */
function normalizeSystemMetadata(sm: Record<string, unknown> | undefined, now: number): SystemMetadata {
  const cleaned = Object.fromEntries(Object.entries(sm ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const lastObserved = typeof cleaned.lastObserved === 'number' && cleaned.lastObserved > 0 ? cleaned.lastObserved : now;
  return {
    ...cleaned,
    lastObserved,
    runId: typeof cleaned.runId === 'string' ? cleaned.runId : 'no-run-id-provided',
    lastRunId: typeof cleaned.lastRunId === 'string' ? cleaned.lastRunId : 'no-run-id-provided',
  };
}

/**
 * What `value`, the value `pc` leaves, derives as the row it leaves holds it (the write's system
 * metadata and actor): derived on first asking and kept, so a value is derived once whoever asks.
 */
function derivationOf(pc: PlannedChange, value: unknown, sm: SystemMetadata, actor: string): RowDerivation {
  if (pc.derived && pc.derived.value === value) return pc.derived.row;
  const row = deriveRow(pc.change.urn, pc.change.aspectName, { value, systemMetadata: sm, createdBy: actor });
  pc.derived = { value, row };
  return row;
}

/**
 * A write is one transaction, which Neo4j holds in memory until it commits: one deriving more edges
 * than the store's bound (MAX_EDGES_PER_WRITE) is refused before anything is written, with what to do.
 * The edges its rows declare are counted, each merged again whether new or not; edges it removes are
 * not, so that a delete or a shrinking rewrite stays possible (a removal also costs Neo4j less).
 */
function checkEdgeBudget(tx: Tx, edges: number): void {
  if (edges <= tx.maxEdgesPerWrite) return;
  throw payloadTooLarge(
    `This write adds or refreshes ${edges} derived edges; one write may merge at most ${tx.maxEdgesPerWrite} ` +
      "(MAX_EDGES_PER_WRITE, bounded by the store's per-transaction memory). Nothing was written. " +
      'Send the records in smaller requests (datahub-rest sink: a lower max_per_batch).',
  );
}

/** Change types whose record carries the aspect's whole new value. */
const WHOLE_VALUE: ReadonlySet<string> = new Set(['UPSERT', 'CREATE', 'CREATE_ENTITY']);

/**
 * Derives every lineage aspect's whole value as given, before anything reads it: the edge budget's
 * first count, the existence lookup and the row the value leaves all take this derivation. A value
 * that cannot be derived is left to the checks that name its fault.
 */
function deriveGivenValues(plan: WritePlan, actor: string, now: number): void {
  for (const pc of plan.changes) {
    const c = pc.change;
    if (!pc.lineage || !WHOLE_VALUE.has(c.changeType) || c.value === undefined) continue;
    try {
      derivationOf(pc, c.value, normalizeSystemMetadata(c.systemMetadata, now), actor);
    } catch {
      continue;
    }
  }
}

/**
 * The edges the request's whole lineage values will certainly derive (deriveGivenValues: nothing
 * else is derived yet): of each row whose last change gives its whole value, when the entity is not
 * hard deleted and — judged only once the count passes the budget, to spare ordinary writes the
 * comparison — the value differs from the stored one (these are then among the edges the request
 * leaves, changedSlots). The edge budget is judged on them before the existence lookup, the patches
 * and the validation: a hub batch past the budget held its body about eight times over in the heap
 * through those steps, and one 15 MiB batch in strict mode took a warmed ingestion service past its
 * 160 MB heap (bench/README.md §Bodies handled at once). Under the budget the count may include
 * unchanged values: it only has to stay under the budget whenever the final count does.
 */
function edgesCertainlyDerived(plan: WritePlan, budget: number): number {
  const last = new Map<Slot, PlannedChange>();
  for (const pc of plan.changes) last.set(plan.slotOf(pc.change.urn, pc.change.aspectName), pc);
  const derived: Array<{ slot: Slot; value: unknown; edges: readonly DerivedEdge[] }> = [];
  for (const [slot, pc] of last) {
    if (pc.derived && !plan.hardDeleteUrns.has(pc.change.urn.text))
      derived.push({ slot, value: pc.derived.value, edges: pc.derived.row.edges });
  }
  const count = (rows: typeof derived) => new Set(rows.flatMap((r) => r.edges.map((e) => e.key))).size;
  const all = count(derived);
  if (all <= budget) return all;
  return count(derived.filter((r) => !(r.slot.stored && sameJsonText(r.slot.stored.value, JSON.stringify(r.value)))));
}

/**
 * The slots whose derived state may change — rows written or removed, and restated ones — with the
 * edges their old rows declared and those the request leaves them: a new row's, derived as it was
 * decided; a restated row's, its old ones. The edge budget is judged on the latter.
 */
function changedSlots(plan: WritePlan): ChangedSlots {
  const slots = [...plan.slots.values()].filter((s) => s.restate || (s.next !== undefined && !(s.next === null && s.stored === undefined)));
  const edgesBefore = new Map<string, DerivedEdge>();
  const edgesAfter = new Map<string, DerivedEdge>();
  for (const s of slots) {
    const old = s.stored ? edgesOfRow(s.urn, s.aspect, s.stored) : [];
    for (const e of old) edgesBefore.set(e.key, e);
    const next = s.next === undefined ? old : s.next === null ? [] : s.next.edges;
    for (const e of next) edgesAfter.set(e.key, e);
  }
  return { slots, edgesBefore, edgesAfter };
}

/**
 * Applies every change to the plan's slots (`next`), checking each as DataHub does. Returns the
 * entities hard deleted, existence as the request leaves it, and the slots and edges it changes.
 */
export async function applyChanges(
  tx: Tx,
  plan: WritePlan,
  options: WriteOptions,
  now: number,
): Promise<{ exists: Existence; hardDeleted: Set<string>; changed: ChangedSlots }> {
  deriveGivenValues(plan, options.actor, now);
  checkEdgeBudget(tx, edgesCertainlyDerived(plan, tx.maxEdgesPerWrite));
  const exists = await existenceBefore(tx, plan, options);
  const hardDeleted = new Set<string>();
  const strict = options.existenceMode === 'strict';
  const written = strict ? writtenByRequest(plan) : new Set<string>();
  const problems: ExistenceProblem[] = [];
  for (const [index, pc] of plan.changes.entries()) {
    const c = pc.change;
    const slot = plan.slotOf(c.urn, c.aspectName);
    const entityExists = exists.get(c.urn.text) === true;
    checkPrecondition(pc, slot);

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
      if (currentValue(slot) === undefined)
        throw validationFailed(`Cannot restate ${c.aspectName} of ${c.urn.text}: the aspect does not exist`);
      slot.restate = true;
      continue;
    }
    if (c.changeType === 'CREATE_ENTITY' && entityExists) throw validationFailed(`Cannot create entity ${c.urn.text}: it already exists`);
    if (c.changeType === 'CREATE' && currentValue(slot) !== undefined) {
      throw validationFailed(`Cannot create aspect ${c.aspectName} of ${c.urn.text}: it already exists`);
    }
    const value = keyAspectFromUrn(pc, newValue(pc, slot, now));
    validateAspect(c.aspectName, value, c.urn);
    const sm = normalizeSystemMetadata(c.systemMetadata, now);
    if (strict && pc.lineage) {
      // Every refused record is collected, so the 422 names them all; nothing is written then.
      const refs = derivationOf(pc, value, sm, options.actor).references;
      const missing = await missingLineageReferences(tx, pc, refs, exists, written, hardDeleted);
      if (missing.length) problems.push({ index, source: c.source, urn: c.urn.text, aspect: c.aspectName, missing });
    }

    const systemMetadata = JSON.stringify(sm);
    // Any accepted write creates the entity's key aspect first.
    if (!entityExists && c.aspectName !== pc.keyAspect) {
      const key = keyAspectOf(c.urn);
      const edges = deriveRow(c.urn, key.aspectName, { value: key.value, systemMetadata: sm, createdBy: options.actor }).edges;
      plan.slotOf(c.urn, key.aspectName).next = {
        value: JSON.stringify(key.value),
        systemMetadata,
        createdBy: options.actor,
        parsedValue: key.value,
        edges,
      };
    }
    exists.set(c.urn.text, true);
    const text = JSON.stringify(value);
    // Identical, key order aside (clients and merges reorder keys), or but for lineage stamps moved
    // by less than the granularity: nothing to write, and the stored row keeps its system metadata,
    // whose lastObserved its edges' stamps fall back on (docs/lineage-model.md §Aspect rows). Judged
    // under the entity's lock, after validation and the existence rule, so the answer is the one a
    // write gets.
    const current = currentValue(slot);
    if (current !== undefined && unchangedWithinGranularity(c.aspectName, current, text, options.stampGranularityMs ?? 0)) continue;
    slot.next = {
      value: text,
      systemMetadata,
      createdBy: options.actor,
      parsedValue: value,
      edges: derivationOf(pc, value, sm, options.actor).edges,
    };
  }
  if (problems.length) throw existenceError(problems, options.existenceHint);
  const changed = changedSlots(plan);
  checkEdgeBudget(tx, changed.edgesAfter.size);
  return { exists, hardDeleted, changed };
}
