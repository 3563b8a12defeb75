// restoreIndices (docs/wire-contract.md §Restore, docs/lineage-model.md §Restore): rebuild the derived state —
// typed edges, :LINEAGE edges, entity search fields and flags — from the stored latest aspect rows,
// without touching any row. Derivation is the write path's own (edgesOfRow, searchFieldsOf): restore
// only compares and repairs.
//
// Each batch is one write transaction that takes the entity locks the write path takes (sorted
// urns, aspects/lock-entities) and re-reads the rows after locking, so a concurrent write is either
// fully before (its rows are what we read) or fully after (it re-derives over our result): no edge
// is lost or resurrected. Whole-store scans page by keyset (urn, aspect), never by SKIP.
//
// Clean mode adds two passes over the same urn scope: edges whose (owner, aspect) has no latest
// row any more (scanned per owner through the per-type owner indexes), and nodes without a key
// row (ghosts: search fields reset to what the urn alone gives; orphans with no row and no
// relationship dropped, as a hard delete would).
import { lockRows, mergeEdgeRows, rowKey } from '../../store/rows.ts';
import { keyAspectNameOf } from '../../model/entity-registry.ts';
import { edgesOfRow, type DerivedEdge } from '../../model/relationships.ts';
import { searchAspectsOf, searchFieldDrift, type SearchFields, type StoredFields } from '../../model/search-fields.ts';
import { int, type Store, type Tx } from '../../store/store.ts';
import { markWrite } from '../../store/write-generation.ts';
import type { Urn } from '../../model/urn.ts';
import { badRequest, isCatalogError } from '../../model/errors.ts';
import { lineageChangeRecord, lineageEdgeOf, type ChangeRecord } from '../../model/change-events.ts';
import { SYSTEM_ACTOR_URN } from '../../model/privileges.ts';
import {
  checkRow, checkUrn, diffEdges, urnRange,
  type ChangedEdge, type EdgeDiff, type EdgeRef, type StoredEdge, type UrnRange,
} from './diff.ts';

export interface RestoreArgs {
  urn?: string | undefined;
  aspect?: string | undefined;
  urnLike?: string | undefined;
  /** Rows to skip before the first one restored (offset; the API's window start). */
  start?: number | undefined;
  /** Rows per transaction. */
  batchSize?: number | undefined;
  /** At most this many rows; 0 or absent = every row of the scope. */
  limit?: number | undefined;
  /** Only rows created at or after this time (epoch ms); 0 = no time filter. */
  gePitEpochMs?: number | undefined;
  /** With gePitEpochMs: only rows created at or before this time (default now). */
  lePitEpochMs?: number | undefined;
  clean?: boolean | undefined;
  dryRun?: boolean | undefined;
  /** Resume after this cursor (a previous run's lastUrn/lastAspect, or a progress event's cursor). */
  after?: RestoreCursor | undefined;
}

export type RestorePhase = 'rows' | 'edges' | 'nodes';

/** Where a run stands: rows after (urn, aspect); in clean mode, edge owners or nodes after urn. */
export interface RestoreCursor {
  phase?: RestorePhase;
  urn: string;
  aspect?: string | null;
}

export interface Examples<T> {
  count: number;
  examples: T[];
}

export interface FieldDrift {
  urn: string;
  fields: Record<string, { expected: unknown; actual: unknown }>;
}

export interface DriftReport {
  missingEdges: Examples<EdgeRef>;
  extraEdges: Examples<EdgeRef>;
  changedEdges: Examples<ChangedEdge>;
  searchFields: Examples<FieldDrift>;
  orphanNodes: Examples<string>;
}

export interface RestoreResult {
  dryRun: boolean;
  clean: boolean;
  rowsScanned: number;
  /** Rows whose derived state was checked and repaired (DataHub's rowsMigrated). */
  rowsMigrated: number;
  ignored: number;
  ignoredRows: Array<{ urn: string; aspect: string; reason: string }>;
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  searchFieldsRewritten: number;
  nodesRemoved: number;
  lastUrn: string | null;
  lastAspect: string | null;
  timeSqlQueryMs: number;
  timeMs: number;
  /** What differed from the stored rows (found, and unless dryRun, repaired). */
  drift: DriftReport;
}

export interface RestoreProgress {
  phase: RestorePhase;
  /** Rows (phase rows), owners (edges) or nodes (nodes) done so far in this phase. */
  done: number;
  cursor: RestoreCursor;
  result: RestoreResult;
}

export const DEFAULT_BATCH_SIZE = 500;
/** Transactions stay bounded whatever batchSize a client asks for. */
export const MAX_TX_ROWS = 2000;
export const MAX_EXAMPLES = 20;
const MAX_IGNORED_ROWS = 100;
const CLEAN_PAGE = 200;

const emptyExamples = <T>(): Examples<T> => ({ count: 0, examples: [] });

/** push(...items) passes every item as an argument: past ~100k (a batch of hubs' edges) the stack overflows. */
function appendAll<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

function newResult(args: RestoreArgs): RestoreResult {
  return {
    dryRun: args.dryRun === true, clean: args.clean === true, rowsScanned: 0, rowsMigrated: 0, ignored: 0, ignoredRows: [],
    edgesAdded: 0, edgesRemoved: 0, edgesChanged: 0, searchFieldsRewritten: 0, nodesRemoved: 0,
    lastUrn: null, lastAspect: null, timeSqlQueryMs: 0, timeMs: 0,
    drift: { missingEdges: emptyExamples(), extraEdges: emptyExamples(), changedEdges: emptyExamples(), searchFields: emptyExamples(), orphanNodes: emptyExamples() },
  };
}

function note<T>(into: Examples<T>, items: readonly T[]): void {
  into.count += items.length;
  for (const i of items) if (into.examples.length < MAX_EXAMPLES) into.examples.push(i);
}

export function hasDrift(r: RestoreResult): boolean {
  const d = r.drift;
  return d.missingEdges.count + d.extraEdges.count + d.changedEdges.count + d.searchFields.count + d.orphanNodes.count > 0;
}

/** What one transaction found and did; merged into the result only after it committed. */
interface BatchOutcome {
  scanned: number;
  migrated: number;
  ignoredRows: Array<{ urn: string; aspect: string; reason: string }>;
  missing: EdgeRef[];
  extra: EdgeRef[];
  changed: ChangedEdge[];
  fields: FieldDrift[];
  orphans: string[];
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  fieldsRewritten: number;
  nodesRemoved: number;
  sqlMs: number;
}

const emptyOutcome = (): BatchOutcome => ({
  scanned: 0, migrated: 0, ignoredRows: [], missing: [], extra: [], changed: [], fields: [], orphans: [],
  edgesAdded: 0, edgesRemoved: 0, edgesChanged: 0, fieldsRewritten: 0, nodesRemoved: 0, sqlMs: 0,
});

function absorb(result: RestoreResult, o: BatchOutcome): void {
  result.rowsScanned += o.scanned;
  result.rowsMigrated += o.migrated;
  result.ignored += o.ignoredRows.length;
  for (const r of o.ignoredRows) if (result.ignoredRows.length < MAX_IGNORED_ROWS) result.ignoredRows.push(r);
  note(result.drift.missingEdges, o.missing);
  note(result.drift.extraEdges, o.extra);
  note(result.drift.changedEdges, o.changed);
  note(result.drift.searchFields, o.fields);
  note(result.drift.orphanNodes, o.orphans);
  result.edgesAdded += o.edgesAdded;
  result.edgesRemoved += o.edgesRemoved;
  result.edgesChanged += o.edgesChanged;
  result.searchFieldsRewritten += o.fieldsRewritten;
  result.nodesRemoved += o.nodesRemoved;
  result.timeSqlQueryMs += o.sqlMs;
}

// ---------------------------------------------------------------------------------------------
// Scope

interface Scope {
  range: UrnRange;
  aspect: string | null;
  ge: number;
  le: number;
}

function scopeOf(args: RestoreArgs): Scope {
  const ge = args.gePitEpochMs ?? 0;
  return {
    range: urnRange({ urn: args.urn, urnLike: args.urnLike }),
    aspect: args.aspect ?? null,
    ge,
    le: args.lePitEpochMs ?? Date.now(),
  };
}

function scanParams(scope: Scope) {
  return { ...scope.range, name: scope.aspect, ge: int(scope.ge), le: int(scope.le) };
}

/** Latest rows in a scope (the CLI's progress total). */
export async function countRestoreRows(store: Store, args: RestoreArgs): Promise<number> {
  const scope = scopeOf(args);
  const rows = await store.read((tx) => tx.run<{ total: number }>('restore/count-rows', scanParams(scope)));
  return rows[0]?.total ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Rows

interface RowRead {
  key: string;
  urn: string;
  name: string;
  value: string;
  systemMetadata: string;
  createdBy: string | null;
}

async function timed<T>(o: BatchOutcome, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    o.sqlMs += performance.now() - t0;
  }
}

/** Search fields of some entities from their stored rows, compared with (and written to) their nodes. */
async function reconcileFields(tx: Tx, urns: Urn[], rowsByKey: Map<string, RowRead>, write: boolean, o: BatchOutcome): Promise<void> {
  if (!urns.length) return;
  const current = await tx.run<StoredFields & { urn: string }>('restore/node-fields', { urns: urns.map((u) => u.text) });
  const byUrn = new Map(current.map((c) => [c.urn, c]));
  const rewrite: SearchFields[] = [];
  for (const u of urns) {
    const aspects = new Map<string, unknown>();
    for (const a of searchAspectsOf(u.entityType)) {
      const row = rowsByKey.get(rowKey(u.text, a));
      if (!row) continue;
      try {
        aspects.set(a, JSON.parse(row.value));
      } catch {
        // An unparseable row describes nothing; checkRow reports it when it is scanned.
      }
    }
    const stored = byUrn.get(u.text);
    if (!stored) continue; // the node went away with a concurrent hard delete: nothing to index
    const { expected, drift: fields } = searchFieldDrift(u, { exists: rowsByKey.has(rowKey(u.text, keyAspectNameOf(u.entityType))), aspects }, stored);
    if (Object.keys(fields).length) {
      o.fields.push({ urn: u.text, fields });
      rewrite.push(expected);
    }
  }
  if (write && rewrite.length) {
    await tx.run('entities/set-search-fields', { rows: rewrite });
    o.fieldsRewritten += rewrite.length;
  }
}

/**
 * The lineage a repair changed, as change events (docs/change-events.md §What is recorded): a
 * LINEAGE edge the rows justify that was missing is added, one they do not justify is removed.
 */
function restoredLineageChanges(diff: EdgeDiff, derived: readonly DerivedEdge[], stored: readonly StoredEdge[]): ChangeRecord[] {
  // restoreIndices runs as an operation, not for a request's actor: the system actor made the change.
  const stamp = { actor: SYSTEM_ACTOR_URN, time: Date.now() };
  const byKey = new Map(derived.map((e) => [e.key, e]));
  const storedLineage = new Map(stored.filter((e) => e.type === 'LINEAGE').map((e) => [e.key, e]));
  const records: ChangeRecord[] = [];
  for (const ref of diff.extra) {
    const s = ref.type === 'LINEAGE' ? storedLineage.get(ref.key) : undefined;
    if (s) records.push(lineageChangeRecord({ owner: s.owner, aspect: s.aspect, type: s.lineageType ?? 'LINEAGE', upstream: s.source, downstream: s.destination, via: s.via }, 'REMOVE', stamp));
  }
  for (const ref of diff.missing) {
    const e = ref.type === 'LINEAGE' ? byKey.get(ref.key) : undefined;
    const edge = e ? lineageEdgeOf(e) : null;
    if (edge) records.push(lineageChangeRecord(edge, 'ADD', stamp));
  }
  return records;
}

/** Makes the graph match what some (owner, aspect) pairs justify; derived = every edge they justify. */
async function reconcileEdges(tx: Tx, owners: Array<{ owner: string; aspect: string | null }>, derived: DerivedEdge[], write: boolean, o: BatchOutcome): Promise<void> {
  if (!owners.length) return;
  const stored = await tx.run<StoredEdge>('edges/owned-by', { rows: owners });
  const diff = diffEdges(derived, stored);
  appendAll(o.missing, diff.missing);
  appendAll(o.extra, diff.extra);
  appendAll(o.changed, diff.changed);
  if (!write) return;
  if (diff.toDelete.length) await tx.run('edges/delete-by-key', { rows: diff.toDelete });
  await mergeEdgeRows(tx, diff.toMerge);
  if (tx.changeLog.size) tx.record(restoredLineageChanges(diff, derived, stored));
  o.edgesAdded += diff.missing.length;
  o.edgesRemoved += diff.extra.length;
  o.edgesChanged += diff.changed.length;
}

/**
 * One batch of rows in one transaction: scan the next page, lock its entities, re-read the rows,
 * and reconcile edges and search fields. Returns the page's last (urn, aspect) for the keyset.
 */
async function restoreRowBatch(
  tx: Tx, scope: Scope, page: { afterUrn: string; afterName: string | null; skip: number; limit: number }, write: boolean,
): Promise<{ outcome: BatchOutcome; last: { urn: string; name: string } | null }> {
  const o = emptyOutcome();
  const keys = await timed(o, () => tx.run<{ urn: string; name: string }>('restore/scan-rows', {
    ...scanParams(scope), afterUrn: page.afterUrn, afterName: page.afterName, skip: int(page.skip), limit: int(page.limit),
  }));
  if (!keys.length) return { outcome: o, last: null };
  o.scanned = keys.length;

  const urns = new Map<string, Urn>();
  const bad = new Map<string, string>();
  for (const k of keys) {
    if (urns.has(k.urn) || bad.has(k.urn)) continue;
    const c = checkUrn(k.urn);
    if (c.ok) urns.set(k.urn, c.urn);
    else bad.set(k.urn, c.reason);
  }
  if (write && urns.size) await tx.run('aspects/lock-entities', { rows: lockRows(urns.values()) });

  // Re-read after locking: what a concurrent writer committed before us is what we restore.
  const wanted = new Set<string>();
  for (const k of keys) if (urns.has(k.urn)) wanted.add(rowKey(k.urn, k.name));
  for (const u of urns.values()) {
    wanted.add(rowKey(u.text, keyAspectNameOf(u.entityType)));
    for (const a of searchAspectsOf(u.entityType)) wanted.add(rowKey(u.text, a));
  }
  const rows = await tx.run<RowRead>('aspects/fetch-latest', { keys: [...wanted] });
  const rowsByKey = new Map(rows.map((r) => [r.key, r]));

  const owners: Array<{ owner: string; aspect: string }> = [];
  const derived: DerivedEdge[] = [];
  for (const k of keys) {
    const badUrn = bad.get(k.urn);
    if (badUrn !== undefined) {
      o.ignoredRows.push({ urn: k.urn, aspect: k.name, reason: badUrn });
      continue;
    }
    const urn = urns.get(k.urn)!;
    const row = rowsByKey.get(rowKey(k.urn, k.name));
    if (row) {
      const check = checkRow(k.urn, k.name, row.value);
      if (!check.ok) {
        o.ignoredRows.push({ urn: k.urn, aspect: k.name, reason: check.reason });
        continue;
      }
      try {
        derived.push(...edgesOfRow(urn, k.name, { value: row.value, systemMetadata: row.systemMetadata, createdBy: row.createdBy ?? 'urn:li:corpuser:unknown' }));
      } catch (e) {
        o.ignoredRows.push({ urn: k.urn, aspect: k.name, reason: `cannot derive: ${(e as Error).message}` });
        continue;
      }
    }
    // A row deleted since the scan justifies nothing: its owned edges go (the deleter removed them already).
    owners.push({ owner: k.urn, aspect: k.name });
    o.migrated++;
  }
  await reconcileEdges(tx, owners, derived, write, o);
  await reconcileFields(tx, [...urns.values()], rowsByKey, write, o);
  const last = keys[keys.length - 1]!;
  return { outcome: o, last };
}

/**
 * Search fields of some entities made to match their stored rows, inside the caller's transaction,
 * which holds their locks (the import, after it stored a batch of rows). Returns how many were rewritten.
 */
export async function reconcileSearchFieldsOf(tx: Tx, urns: readonly Urn[]): Promise<number> {
  if (!urns.length) return 0;
  const o = emptyOutcome();
  const keys = urns.flatMap((u) => [keyAspectNameOf(u.entityType), ...searchAspectsOf(u.entityType)].map((a) => rowKey(u.text, a)));
  const rows = await tx.run<RowRead>('aspects/fetch-latest', { keys });
  await reconcileFields(tx, [...urns], new Map(rows.map((r) => [r.key, r])), true, o);
  return o.fieldsRewritten;
}

/**
 * restoreIndices of one urn, after its rows: every relationship leaving the urn, and every `:LINEAGE`
 * edge arriving at it (the traversal twin of its upstream edges), must be what the stored row of its
 * (owner, aspect) derives, as DataHub's restore rewrites an entity's edges of each restored aspect's
 * relationship types. An edge whose owner row is gone, or that no row derives, is removed — also
 * when another entity claims it (a column's edges are owned by its dataset's upstreamLineage), and
 * a hand-made edge with no owner at all.
 */
async function restoreLeavingEdges(tx: Tx, urn: Urn, write: boolean): Promise<BatchOutcome> {
  const o = emptyOutcome();
  const groups = await timed(o, () => tx.run<{ owner: string | null; aspect: string | null; unowned: boolean; edges: number; ends: Array<{ source: string; destination: string }> }>(
    'restore/edges-leaving', { urn: urn.text }));
  const pairs = new Map<string, { owner: string; aspect: string; urn: Urn | null }>();
  for (const g of groups) {
    if (g.unowned) {
      for (const e of g.ends) o.extra.push({ type: 'unowned', key: '', source: e.source, destination: e.destination, owner: g.owner ?? '', aspect: g.aspect ?? '' });
      continue;
    }
    const c = checkUrn(g.owner!);
    pairs.set(rowKey(g.owner!, g.aspect!), { owner: g.owner!, aspect: g.aspect!, urn: c.ok ? c.urn : null });
  }
  // The owners' rows are what justifies their edges: lock them as the write path would.
  const owners = [urn, ...[...pairs.values()].flatMap((p) => (p.urn ? [p.urn] : []))];
  if (write) await tx.run('aspects/lock-entities', { rows: lockRows(owners) });
  const rows = pairs.size ? await tx.run<RowRead>('aspects/fetch-latest', { keys: [...pairs.keys()] }) : [];
  const derived: DerivedEdge[] = [];
  for (const r of rows) {
    const pair = pairs.get(r.key)!;
    // The urn's own rows were reconciled by the rows phase just before.
    if (pair.owner === urn.text) {
      pairs.delete(r.key);
      continue;
    }
    if (!pair.urn || !checkRow(r.urn, r.name, r.value).ok) continue; // an unrestorable row justifies nothing
    try {
      derived.push(...edgesOfRow(pair.urn, r.name, { value: r.value, systemMetadata: r.systemMetadata, createdBy: r.createdBy ?? 'urn:li:corpuser:unknown' }));
    } catch {
      // likewise: a row that cannot be derived justifies no edge
    }
  }
  await reconcileEdges(tx, [...pairs.values()].map(({ owner, aspect }) => ({ owner, aspect })), derived, write, o);
  const unowned = groups.filter((g) => g.unowned).reduce((n, g) => n + g.edges, 0);
  if (write && unowned) {
    const [deleted] = await tx.run<{ deleted: number }>('restore/delete-unowned', { urn: urn.text });
    o.edgesRemoved += deleted?.deleted ?? 0;
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Clean mode

/** One keyset page of a clean-mode scan (owners or nodes in the scope, after `after`), timed and counted. */
async function scanCleanPage<R>(tx: Tx, o: BatchOutcome, statement: 'restore/scan-owners' | 'restore/scan-nodes', scope: Scope, after: string): Promise<R[]> {
  const page = await timed(o, () => tx.run<R>(statement, {
    lower: scope.range.lower, upper: scope.range.upper, regex: scope.range.regex, after, limit: int(CLEAN_PAGE),
  }));
  o.scanned = page.length;
  return page;
}

/** The urns of a page that parse and fit their type (the others are reported by the row scan). */
function validUrns(texts: readonly string[]): Urn[] {
  return texts.flatMap((t) => {
    const c = checkUrn(t);
    return c.ok ? [c.urn] : [];
  });
}

/** Edges of some owners whose (owner, aspect) has no latest row any more. */
async function cleanOwnerBatch(tx: Tx, scope: Scope, after: string, write: boolean): Promise<{ outcome: BatchOutcome; last: string | null }> {
  const o = emptyOutcome();
  const page = await scanCleanPage<{ owner: string }>(tx, o, 'restore/scan-owners', scope, after);
  if (!page.length) return { outcome: o, last: null };
  const lockable = validUrns(page.map((p) => p.owner));
  if (write && lockable.length) await tx.run('aspects/lock-entities', { rows: lockRows(lockable) });
  const stored = await tx.run<StoredEdge>('edges/owned-by', { rows: page.map((p) => ({ owner: p.owner, aspect: scope.aspect })) });
  const pairs = new Map<string, { owner: string; aspect: string }>();
  for (const e of stored) pairs.set(rowKey(e.owner, e.aspect), { owner: e.owner, aspect: e.aspect });
  const present = new Set((await tx.run<{ key: string }>('aspects/fetch-latest', { keys: [...pairs.keys()] })).map((r) => r.key));
  const orphaned = [...pairs].filter(([k]) => !present.has(k)).map(([, p]) => p);
  // Nothing justifies these pairs: the derived set is empty, so every edge they own is extra.
  await reconcileEdges(tx, orphaned, [], write, o);
  return { outcome: o, last: page[page.length - 1]!.owner };
}

/** Nodes without a key row: search fields from the urn (and any stray rows), orphans removed. */
async function cleanNodeBatch(tx: Tx, scope: Scope, after: string, write: boolean): Promise<{ outcome: BatchOutcome; last: string | null }> {
  const o = emptyOutcome();
  const page = await scanCleanPage<{ urn: string }>(tx, o, 'restore/scan-nodes', scope, after);
  if (!page.length) return { outcome: o, last: null };
  const urns = validUrns(page.map((p) => p.urn));
  const keyRows = (list: Urn[]) => list.map((u) => ({ urn: u.text, keyRow: rowKey(u.text, keyAspectNameOf(u.entityType)) }));
  const existing = async (list: Urn[]) => new Set((await tx.run<{ urn: string; exists: boolean }>('entities/exist', { rows: keyRows(list) }))
    .filter((r) => r.exists).map((r) => r.urn));
  const withKey = await existing(urns);
  let ghosts = urns.filter((u) => !withKey.has(u.text));
  if (write && ghosts.length) {
    await tx.run('aspects/lock-entities', { rows: lockRows(ghosts) });
    const nowWithKey = await existing(ghosts); // a writer may have created the entity meanwhile
    ghosts = ghosts.filter((u) => !nowWithKey.has(u.text));
  }
  if (!ghosts.length) return { outcome: o, last: page[page.length - 1]!.urn };
  const stray = await tx.run<RowRead & { name: string }>('aspects/fetch-entity-latest', { urns: ghosts.map((u) => u.text) });
  const rowsByKey = new Map(stray.map((r) => [rowKey(r.urn, r.name), { ...r, key: rowKey(r.urn, r.name) }]));
  await reconcileFields(tx, ghosts, rowsByKey, write, o);
  const degrees = await tx.run<{ urn: string; degree: number }>('restore/node-fields', { urns: ghosts.map((u) => u.text) });
  const orphans = degrees.filter((d) => d.degree === 0).map((d) => d.urn);
  appendAll(o.orphans, orphans);
  if (write && orphans.length) {
    const deleted = await tx.run<{ deleted: number }>('restore/delete-orphans', { urns: orphans });
    o.nodesRemoved += deleted.reduce((n, r) => n + r.deleted, 0);
  }
  return { outcome: o, last: page[page.length - 1]!.urn };
}

// ---------------------------------------------------------------------------------------------

function validateArgs(args: RestoreArgs): void {
  const nonNegative = (name: string, v: number | undefined) => {
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw badRequest(`${name} must be a non-negative integer`);
  };
  nonNegative('start', args.start);
  nonNegative('limit', args.limit);
  nonNegative('gePitEpochMs', args.gePitEpochMs);
  nonNegative('lePitEpochMs', args.lePitEpochMs);
  if (args.batchSize !== undefined && (!Number.isInteger(args.batchSize) || args.batchSize < 1)) {
    throw badRequest('batchSize must be a positive integer');
  }
  if (args.clean && ((args.start ?? 0) > 0 || (args.limit ?? 0) > 0)) {
    throw badRequest('clean mode rebuilds a whole scope: it cannot be combined with start or limit');
  }
  if (args.after && (args.start ?? 0) > 0) throw badRequest('start cannot be combined with a resume cursor');
}

/**
 * Restores the derived state of the rows in scope: rows (urn ASC, aspect ASC) from `start` or after
 * the resume cursor, at most `limit`, one transaction per `batchSize` rows; then, in clean mode,
 * the stale-edge and ghost passes. onProgress runs after every committed transaction.
 */
export async function restoreIndices(
  store: Store,
  args: RestoreArgs,
  onProgress?: (p: RestoreProgress) => void | Promise<void>,
): Promise<RestoreResult> {
  validateArgs(args);
  const t0 = performance.now();
  const scope = scopeOf(args);
  const result = newResult(args);
  const write = args.dryRun !== true;
  const batchSize = Math.min(args.batchSize ?? DEFAULT_BATCH_SIZE, MAX_TX_ROWS);
  const limit = args.limit && args.limit > 0 ? args.limit : Infinity;
  // A batch that repaired anything invalidates lineage snapshots, like any other write.
  const run = <T extends { outcome: BatchOutcome }>(work: (tx: Tx) => Promise<T>) => (write
    ? store.write(async (tx) => {
      const r = await work(tx);
      const o = r.outcome;
      if (o.edgesAdded || o.edgesRemoved || o.edgesChanged || o.fieldsRewritten || o.nodesRemoved) await markWrite(tx);
      return r;
    })
    : store.read(work));
  const phase = args.after?.phase ?? 'rows';

  if (phase === 'rows') {
    let afterUrn = args.after?.urn ?? '';
    let afterName: string | null = args.after ? (args.after.aspect ?? null) : null;
    let skip = args.start ?? 0;
    let done = 0;
    // Rows whose edges are all missing can make a batch more than one transaction holds (hubs'
    // lineage: hundreds of edges per row): such a batch is tried again in halves, and the batch size
    // grows back by doubling once batches commit.
    let rowsPerTx = batchSize;
    while (done < limit) {
      const size = Math.min(rowsPerTx, limit - done);
      // The work re-runs from scratch on a transient retry; only the committed attempt counts.
      let batch: Awaited<ReturnType<typeof restoreRowBatch>>;
      try {
        batch = await run((tx) => restoreRowBatch(tx, scope, { afterUrn, afterName, skip, limit: size }, write));
      } catch (e) {
        if (!(isCatalogError(e) && e.kind === 'payloadTooLarge' && size > 1)) throw e;
        rowsPerTx = Math.ceil(size / 2);
        continue;
      }
      rowsPerTx = Math.min(batchSize, rowsPerTx * 2);
      const { outcome, last } = batch;
      if (!last) break;
      absorb(result, outcome);
      done += outcome.scanned;
      skip = 0;
      afterUrn = last.urn;
      afterName = last.name;
      result.lastUrn = last.urn;
      result.lastAspect = last.name;
      result.timeMs = performance.now() - t0;
      await onProgress?.({ phase: 'rows', done, cursor: { phase: 'rows', urn: last.urn, aspect: last.name }, result });
      if (outcome.scanned < size) break;
    }
  }
  // One urn, every aspect: its outgoing edges are rebuilt from the stored rows as a whole.
  if (args.urn !== undefined && args.aspect === undefined && phase === 'rows' && !args.after) {
    const target = checkUrn(args.urn);
    if (target.ok) {
      const outcome = await run(async (tx) => ({ outcome: await restoreLeavingEdges(tx, target.urn, write) }));
      absorb(result, outcome.outcome);
    }
  }
  if (args.clean) {
    const passes: Array<[RestorePhase, typeof cleanOwnerBatch]> = [['edges', cleanOwnerBatch], ['nodes', cleanNodeBatch]];
    for (const [name, pass] of passes) {
      if (phase === 'nodes' && name === 'edges') continue;
      let after = args.after?.phase === name ? args.after.urn : '';
      let done = 0;
      for (;;) {
        const { outcome, last } = await run((tx) => pass(tx, scope, after, write));
        if (!last) break;
        const scanned = outcome.scanned;
        outcome.scanned = 0; // rowsScanned counts aspect rows only
        absorb(result, outcome);
        done += scanned;
        after = last;
        result.timeMs = performance.now() - t0;
        await onProgress?.({ phase: name, done, cursor: { phase: name, urn: last }, result });
      }
    }
  }
  result.timeMs = Math.round(performance.now() - t0);
  result.timeSqlQueryMs = Math.round(result.timeSqlQueryMs);
  return result;
}
