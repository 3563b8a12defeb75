// The aspect write path: the one routine every write goes through (REST MCP/MCE/PATCH/DELETE,
// GraphQL updateLineage, RESTATE). One call = one transaction: validate every change, compute new
// values in memory, then store versions, re-derive the edges owned by each (urn, aspect) and
// refresh search fields. Any error rolls back everything (all-or-nothing per request).
//
// Edges and search fields are a pure function of the stored latest rows, so restoreIndices can
// rebuild them exactly. An UPSERT of an identical value writes nothing at all.
import { applyPatch } from '../model/patch.ts';
import { validateAspect } from '../model/aspects/index.ts';
import { entityTypeSpec, keyAspectNameOf, keyAspectOf } from '../model/entity-registry.ts';
import { deriveEdges, isLineageAspect, referencedLineageUrns, type DerivedEdge } from '../model/relationships.ts';
import { descriptiveAspectOf, diffFields, searchAspectsOf, searchFieldsOf, urnFields, type StoredFields } from '../model/search-fields.ts';
import { parseUrn, type Urn } from '../model/urn.ts';
import { validationFailed } from '../model/errors.ts';
import { int, type Store, type Tx } from '../store/store.ts';
import { markWrite } from '../store/write-generation.ts';
import { edgeRows, edgesOfRow, lockRows, nodeRows, rowKey } from '../store/rows.ts';

/** The change types the writer applies: DataHub's ChangeType but UPDATE, which DataHub rejects too. */
export const CHANGE_TYPES = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'DELETE', 'PATCH', 'RESTATE'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** A change type as a request names it; 422 naming `where` for UPDATE and unknown values. */
export function changeTypeOf(text: unknown, where: string): ChangeType {
  if (text === 'UPDATE') throw validationFailed('UPDATE change type not supported');
  if (!(CHANGE_TYPES as readonly unknown[]).includes(text)) throw validationFailed(`Invalid ${where}: unsupported changeType '${String(text)}'`);
  return text as ChangeType;
}

export type SystemMetadata = Record<string, unknown> & { lastObserved: number; runId: string; lastRunId: string };

export interface AspectChange {
  urn: Urn;
  aspectName: string;
  changeType: ChangeType;
  /** The aspect JSON (UPSERT, CREATE, CREATE_ENTITY). */
  value?: unknown;
  /** The JSON text of a PATCH (RFC 6902 array or DataHub's wrapper). */
  patchText?: string;
  systemMetadata?: Record<string, unknown> | undefined;
}

export type ExistenceMode = 'strict' | 'relaxed';

export interface WriteOptions {
  actor: string;
  existenceMode: ExistenceMode;
  now?: number;
  metadata?: Record<string, string>;
}

export interface WriteResult {
  /** Aspect rows written (new versions or new aspects). */
  rowsWritten: number;
  /** Aspect rows removed by DELETE / hard delete (all versions). */
  rowsDeleted: number;
}

export function normalizeSystemMetadata(sm: Record<string, unknown> | undefined, now: number): SystemMetadata {
  const cleaned = Object.fromEntries(Object.entries(sm ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const lastObserved = typeof cleaned.lastObserved === 'number' && cleaned.lastObserved > 0 ? cleaned.lastObserved : now;
  return {
    ...cleaned,
    lastObserved,
    runId: typeof cleaned.runId === 'string' ? cleaned.runId : 'no-run-id-provided',
    lastRunId: typeof cleaned.lastRunId === 'string' ? cleaned.lastRunId : 'no-run-id-provided',
  };
}

interface StoredRow {
  value: string;
  systemMetadata: string;
  maxVersion: number;
  createdBy: string;
}

/** What a (urn, aspect) looks like in this transaction: stored state plus the request's changes. */
interface Slot {
  urn: Urn;
  aspect: string;
  stored: StoredRow | undefined;
  /** Final value text, or null when deleted; undefined = untouched. */
  next: { value: string; systemMetadata: string; createdBy: string } | null | undefined;
  /** Re-derive even if unchanged (RESTATE). */
  restate: boolean;
}

/** Existence lookups (key-aspect rows) for urns not yet known in this transaction. */
async function lookupExistence(tx: Tx, urns: string[], known: Map<string, boolean>): Promise<void> {
  const unknown = [...new Set(urns)].filter((u) => !known.has(u));
  if (!unknown.length) return;
  const rows = unknown.map((u) => ({ urn: u, keyRow: rowKey(u, keyAspectNameOf(parseUrn(u).entityType)) }));
  const found = await tx.run<{ urn: string; exists: boolean }>('entities/exist', { rows });
  for (const r of found) known.set(r.urn, r.exists);
}

function existenceSubject(urnText: string): string {
  // A schemaField exists when its parent dataset exists.
  const u = parseUrn(urnText);
  if (u.entityType === 'schemaField' && u.parts[0]) return parseUrn(u.parts[0]).text;
  return u.text;
}

/**
 * Applies a list of aspect changes in one transaction. Changes are processed in order, so a later
 * change sees an earlier one (an MCE snapshot's aspects, an earlier proposal of the same batch).
 */
export async function writeAspects(store: Store, changes: AspectChange[], options: WriteOptions): Promise<WriteResult> {
  if (changes.length === 0) return { rowsWritten: 0, rowsDeleted: 0 };
  return store.write((tx) => writeAspectsInTx(tx, changes, options), options.metadata ? { metadata: options.metadata } : undefined);
}

export async function writeAspectsInTx(tx: Tx, changes: AspectChange[], options: WriteOptions): Promise<WriteResult> {
  const owners = changes.map((c) => c.urn);
  // Reject what needs no database before touching it.
  for (const c of changes) {
    entityTypeSpec(c.urn.entityType);
  }
  // Load every row the request can touch: the changed aspects, key aspects, search aspects, and
  // for hard deletes every aspect of the entity.
  const slots = new Map<string, Slot>();
  const slotOf = (urn: Urn, aspect: string): Slot => {
    const k = rowKey(urn.text, aspect);
    let s = slots.get(k);
    if (!s) {
      s = { urn, aspect, stored: undefined, next: undefined, restate: false };
      slots.set(k, s);
    }
    return s;
  };
  const hardDeleteUrns = new Set<string>();
  for (const c of changes) {
    const keyAspect = keyAspectNameOf(c.urn.entityType);
    slotOf(c.urn, c.aspectName);
    slotOf(c.urn, keyAspect);
    for (const a of searchAspectsOf(c.urn.entityType)) slotOf(c.urn, a);
    if (c.changeType === 'DELETE' && c.aspectName === keyAspect) hardDeleteUrns.add(c.urn.text);
  }
  type Row = { value: string; systemMetadata: string; maxVersion: number | null; createdBy: string | null };
  const storedOf = (r: Row): StoredRow =>
    ({ value: r.value, systemMetadata: r.systemMetadata, maxVersion: r.maxVersion ?? 0, createdBy: r.createdBy ?? options.actor });
  // Lock every owner, then read its rows (all of them for an entity being hard deleted, below).
  const keysOf = new Map<string, string[]>();
  for (const [key, s] of slots) {
    if (hardDeleteUrns.has(s.urn.text)) continue;
    const keys = keysOf.get(s.urn.text);
    if (keys) keys.push(key);
    else keysOf.set(s.urn.text, [key]);
  }
  const locked = await tx.run<{ urn: string; fields: StoredFields; rows: Array<Row & { name: string }> }>(
    'aspects/lock-and-read', { rows: lockRows(owners).map((r) => ({ ...r, keys: keysOf.get(r.urn) ?? [] })) });
  const storedFields = new Map<string, StoredFields>();
  for (const l of locked) {
    storedFields.set(l.urn, l.fields);
    for (const r of l.rows) slots.get(rowKey(l.urn, r.name))!.stored = storedOf(r);
  }
  if (hardDeleteUrns.size) {
    const all = await tx.run<Row & { urn: string; name: string }>('aspects/fetch-entity-latest', { urns: [...hardDeleteUrns] });
    for (const r of all) slotOf(parseUrn(r.urn), r.name).stored = storedOf(r);
  }
  // Read the clock only once the entity locks are held: writers of an entity then stamp createdOn
  // in the order they commit, so the newest createdOn is always the latest version.
  const now = options.now ?? Date.now();
  const current = (s: Slot) => (s.next === undefined ? s.stored?.value : s.next?.value);

  // Existence as of "now in this transaction": key-aspect rows, updated as changes are applied.
  const exists = new Map<string, boolean>();
  for (const s of slots.values()) {
    if (s.aspect === keyAspectNameOf(s.urn.entityType)) exists.set(s.urn.text, s.stored !== undefined);
  }
  if (options.existenceMode === 'strict') {
    const referenced = changes.flatMap((c) =>
      c.value !== undefined && isLineageAspect(c.aspectName)
        ? referencedLineageUrns(c.urn.entityType, c.aspectName, c.value, c.urn.text).map(existenceSubject)
        : []);
    await lookupExistence(tx, referenced, exists);
  }

  const hardDeleted = new Set<string>();
  for (const c of changes) {
    const slot = slotOf(c.urn, c.aspectName);
    const keyAspect = keyAspectNameOf(c.urn.entityType);
    const entityExists = exists.get(c.urn.text) === true;
    const sm = normalizeSystemMetadata(c.systemMetadata, now);
    const smText = JSON.stringify(sm);

    if (c.changeType === 'DELETE') {
      if (c.aspectName === keyAspect) {
        for (const s of slots.values()) if (s.urn.text === c.urn.text) s.next = null;
        exists.set(c.urn.text, false);
        hardDeleted.add(c.urn.text);
      } else {
        slot.next = null;
      }
      continue;
    }
    if (c.changeType === 'RESTATE') {
      if (current(slot) === undefined) throw validationFailed(`Cannot restate ${c.aspectName} of ${c.urn.text}: the aspect does not exist`);
      slot.restate = true;
      continue;
    }
    if (c.changeType === 'CREATE_ENTITY' && entityExists) {
      throw validationFailed(`Cannot create entity ${c.urn.text}: it already exists`);
    }
    if (c.changeType === 'CREATE' && current(slot) !== undefined) {
      throw validationFailed(`Cannot create aspect ${c.aspectName} of ${c.urn.text}: it already exists`);
    }
    let value: unknown;
    if (c.changeType === 'PATCH') {
      if (typeof c.patchText !== 'string') throw validationFailed('PATCH proposals need aspect.value with the patch document');
      const cur = current(slot);
      value = applyPatch({ aspectName: c.aspectName, current: cur === undefined ? undefined : JSON.parse(cur), patchText: c.patchText, now });
    } else {
      value = c.value;
    }
    validateAspect(c.aspectName, value, c.urn);

    if (options.existenceMode === 'strict' && isLineageAspect(c.aspectName)) {
      const refs = referencedLineageUrns(c.urn.entityType, c.aspectName, value, c.urn.text).map(existenceSubject);
      await lookupExistence(tx, refs, exists);
      // An entity's own descriptive aspect (chartInfo, dashboardInfo, mlModelProperties, …) creates
      // it; any other lineage aspect needs its entity to exist already (docs/lineage-model.md §Existence).
      if (!entityExists && c.aspectName !== descriptiveAspectOf(c.urn.entityType)) {
        throw validationFailed(`Cannot upsert lineage as downstream urn ${c.urn.text} doesn't exist`);
      }
      const missing = [...new Set(refs)].filter((u) => u !== c.urn.text && exists.get(u) !== true);
      if (missing.length) {
        throw validationFailed(`Cannot ingest ${c.aspectName} for ${c.urn.text}: referenced ${missing.length === 1 ? 'entity does' : 'entities do'} not exist: ${missing.join(', ')}`);
      }
    }

    // Any accepted write creates the entity's key aspect first.
    if (!entityExists && c.aspectName !== keyAspect) {
      const key = keyAspectOf(c.urn);
      slotOf(c.urn, key.aspectName).next = { value: JSON.stringify(key.value), systemMetadata: smText, createdBy: options.actor };
    }
    exists.set(c.urn.text, true);
    const text = JSON.stringify(value);
    if (current(slot) === text) continue; // identical: nothing to write
    slot.next = { value: text, systemMetadata: smText, createdBy: options.actor };
  }

  return persist(tx, [...slots.values()], hardDeleted, exists, now, storedFields);
}

async function persist(
  tx: Tx, slots: Slot[], hardDeleted: Set<string>, exists: Map<string, boolean>, now: number,
  storedFields: Map<string, StoredFields>,
): Promise<WriteResult> {
  const changed = slots.filter((s) => s.restate || (s.next !== undefined && !(s.next === null && s.stored === undefined)));
  if (!changed.length && !hardDeleted.size) return { rowsWritten: 0, rowsDeleted: 0 };

  // 1. Edges owned by the old rows that the new rows no longer justify.
  const oldEdges = new Map<string, DerivedEdge>();
  const newEdges = new Map<string, DerivedEdge>();
  for (const s of changed) {
    if (s.stored) for (const e of edgesOfRow(s.urn, s.aspect, s.stored)) oldEdges.set(e.key, e);
    const next = s.next === undefined ? s.stored : s.next;
    if (next) for (const e of edgesOfRow(s.urn, s.aspect, next)) newEdges.set(e.key, e);
  }
  const stale = [...oldEdges.values()].filter((e) => !newEdges.has(e.key));
  if (stale.length) await tx.run('edges/delete-by-key', { rows: stale.map((e) => ({ source: e.source, destination: e.destination, key: e.key })) });
  if (hardDeleted.size) {
    // Anything else owned by a hard-deleted entity (edges no stored row explained any more).
    const owned = await tx.run<{ source: string; destination: string; key: string; owner: string; aspect: string }>(
      'edges/owned-by', { rows: [...hardDeleted].map((owner) => ({ owner, aspect: null })) });
    const extra = owned.filter((e) => !newEdges.has(e.key));
    if (extra.length) await tx.run('edges/delete-by-key', { rows: extra.map((e) => ({ source: e.source, destination: e.destination, key: e.key })) });
  }

  // 2. Aspect rows.
  let rowsDeleted = 0;
  const deletions = slots.filter((s) => s.stored && (s.next === null || hardDeleted.has(s.urn.text)));
  if (deletions.length) {
    const removed = await tx.run<{ removed: number }>('aspects/delete-rows', { keys: deletions.map((s) => ({ urn: s.urn.text, name: s.aspect })) });
    rowsDeleted = removed.reduce((n, r) => n + r.removed, 0);
  }
  const writes = slots.filter((s) => s.next);
  const fresh = (s: Slot) => !s.stored || hardDeleted.has(s.urn.text);
  const created = writes.filter(fresh);
  const updated = writes.filter((s) => !fresh(s));
  if (created.length) {
    await tx.run('aspects/create-rows', {
      rows: created.map((s) => ({
        urn: s.urn.text, name: s.aspect, key: rowKey(s.urn.text, s.aspect),
        value: s.next!.value, systemMetadata: s.next!.systemMetadata, createdOn: int(now), createdBy: s.next!.createdBy,
      })),
    });
  }
  if (updated.length) {
    await tx.run('aspects/update-rows', {
      rows: updated.map((s) => ({
        urn: s.urn.text, name: s.aspect, key: rowKey(s.urn.text, s.aspect), archiveKey: rowKey(s.urn.text, s.aspect, s.stored!.maxVersion + 1),
        value: s.next!.value, systemMetadata: s.next!.systemMetadata, createdOn: int(now), createdBy: s.next!.createdBy,
      })),
    });
  }

  // 3. Edges the new rows justify, with ghost nodes for endpoints never ingested. Nodes known to be
  // there (the locked owners, and urns whose key row was found) need no MERGE.
  if (newEdges.size) {
    const edges = [...newEdges.values()];
    const present = (u: string) => storedFields.has(u) || exists.get(u) === true;
    const missing = edges.flatMap((e) => [e.source, e.destination]).filter((u) => !present(u));
    if (missing.length) await tx.run('entities/merge-nodes', { rows: nodeRows(missing) });
    await tx.run('edges/merge', { rows: edgeRows(edges) });
  }

  // 4. Search fields of every touched entity, from the final state of its rows; written only where
  // they differ from what the node holds (a lineage-only write changes none).
  const byUrn = new Map<string, { urn: Urn; aspects: Map<string, unknown> }>();
  for (const s of slots) {
    let entry = byUrn.get(s.urn.text);
    if (!entry) byUrn.set(s.urn.text, (entry = { urn: s.urn, aspects: new Map() }));
    // Only the aspects search fields read are parsed (a lineage aspect can be the largest row).
    if (!searchAspectsOf(s.urn.entityType).includes(s.aspect)) continue;
    const final = s.next === undefined ? (hardDeleted.has(s.urn.text) ? undefined : s.stored) : s.next;
    if (final) entry.aspects.set(s.aspect, JSON.parse(final.value));
  }
  const fields = [...byUrn.values()]
    .map((e) => searchFieldsOf(e.urn, { exists: exists.get(e.urn.text) === true, aspects: e.aspects }))
    .filter((f) => Object.keys(diffFields(f, storedFields.get(f.urn))).length > 0);
  if (fields.length) await tx.run('entities/set-search-fields', { rows: fields });
  const gone = [...hardDeleted].filter((u) => exists.get(u) !== true);
  if (gone.length) await tx.run('entities/finish-hard-delete', { urns: gone });

  // Last: lineage snapshots taken before this transaction must not be reused.
  await markWrite(tx);
  return { rowsWritten: writes.length, rowsDeleted };
}

/** Hard delete of an entity (entities?action=delete): every aspect row and every owned edge. */
export async function hardDeleteEntity(store: Store, urn: Urn, options: WriteOptions): Promise<number> {
  const result = await writeAspects(store, [{ urn, aspectName: keyAspectNameOf(urn.entityType), changeType: 'DELETE' }], options);
  return result.rowsDeleted;
}
