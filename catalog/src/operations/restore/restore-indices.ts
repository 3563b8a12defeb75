// restoreIndices (docs/wire-contract.md §Restore, docs/lineage-model.md §Restore): rebuild the derived state —
// typed edges, :LINEAGE edges, entity search fields and flags — from the stored latest aspect rows,
// without touching any row. Derivation is the write path's own (edgesOfRow, searchFieldsOf): restore
// only compares and repairs (reconcile.ts).
//
// Each batch is one write transaction that takes the entity locks the write path takes (sorted
// urns, aspects/lock-entities) and re-reads the rows after locking, so a concurrent write is either
// fully before (its rows are what we read) or fully after (it re-derives over our result): no edge
// is lost or resurrected. Whole-store scans page by keyset (urn, aspect), never by SKIP. Clean mode's
// two passes over the same urn scope are clean-mode.ts; what a run reports, restore-report.ts.
import { keyAspectNameOf } from '../../model/entity-type-spec.ts';
import { isCatalogError } from '../../model/errors.ts';
import { edgesOfRow, type DerivedEdge } from '../../model/relationships.ts';
import { searchAspectsOf } from '../../model/search-fields.ts';
import type { Urn } from '../../model/urn.ts';
import { lockRows, rowKey } from '../../store/rows.ts';
import { int, type Store, type Tx } from '../../store/store.ts';
import { markWrite } from '../../store/write-generation.ts';
import { cleanNodeBatch, cleanOwnerBatch } from './clean-mode.ts';
import { checkRow, checkUrn } from './diff.ts';
import { reconcileEdges, reconcileFields, type RowRead } from './reconcile.ts';
import { scanParams, scopeOf, validateArgs, type RestoreArgs, type RestorePhase, type Scope } from './restore-args.ts';
import { absorb, emptyOutcome, newResult, timed, type BatchOutcome, type RestoreProgress, type RestoreResult } from './restore-report.ts';

export const DEFAULT_BATCH_SIZE = 500;
/** Transactions stay bounded whatever batchSize a client asks for. */
const MAX_TX_ROWS = 2000;

/** Latest rows in a scope (the CLI's progress total). */
export async function countRestoreRows(store: Store, args: RestoreArgs): Promise<number> {
  const scope = scopeOf(args);
  const rows = await store.read((tx) => tx.run<{ total: number }>('restore/count-rows', scanParams(scope)));
  return rows[0]?.total ?? 0;
}

/**
 * One batch of rows in one transaction: scan the next page, lock its entities, re-read the rows,
 * and reconcile edges and search fields. Returns the page's last (urn, aspect) for the keyset.
 */
async function restoreRowBatch(
  tx: Tx,
  scope: Scope,
  page: { afterUrn: string; afterName: string | null; skip: number; limit: number },
  write: boolean,
): Promise<{ outcome: BatchOutcome; last: { urn: string; name: string } | null }> {
  const o = emptyOutcome();
  const keys = await timed(o, () =>
    tx.run<{ urn: string; name: string }>('restore/scan-rows', {
      ...scanParams(scope),
      afterUrn: page.afterUrn,
      afterName: page.afterName,
      skip: int(page.skip),
      limit: int(page.limit),
    }),
  );
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
        derived.push(
          ...edgesOfRow(urn, k.name, {
            value: row.value,
            systemMetadata: row.systemMetadata,
            createdBy: row.createdBy ?? 'urn:li:corpuser:unknown',
          }),
        );
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
  const groups = await timed(o, () =>
    tx.run<{
      owner: string | null;
      aspect: string | null;
      unowned: boolean;
      edges: number;
      ends: Array<{ source: string; destination: string }>;
    }>('restore/edges-leaving', { urn: urn.text }),
  );
  const pairs = new Map<string, { owner: string; aspect: string; urn: Urn | null }>();
  for (const g of groups) {
    if (g.unowned) {
      for (const e of g.ends)
        o.extra.push({
          type: 'unowned',
          key: '',
          source: e.source,
          destination: e.destination,
          owner: g.owner ?? '',
          aspect: g.aspect ?? '',
        });
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
      derived.push(
        ...edgesOfRow(pair.urn, r.name, {
          value: r.value,
          systemMetadata: r.systemMetadata,
          createdBy: r.createdBy ?? 'urn:li:corpuser:unknown',
        }),
      );
    } catch {
      // likewise: a row that cannot be derived justifies no edge
    }
  }
  await reconcileEdges(
    tx,
    [...pairs.values()].map(({ owner, aspect }) => ({ owner, aspect })),
    derived,
    write,
    o,
  );
  const unowned = groups.filter((g) => g.unowned).reduce((n, g) => n + g.edges, 0);
  if (write && unowned) {
    const [deleted] = await tx.run<{ deleted: number }>('restore/delete-unowned', { urn: urn.text });
    o.edgesRemoved += deleted?.deleted ?? 0;
  }
  return o;
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
  const run = <T extends { outcome: BatchOutcome }>(work: (tx: Tx) => Promise<T>) =>
    write
      ? store.write(async (tx) => {
          const r = await work(tx);
          const o = r.outcome;
          if (o.edgesAdded || o.edgesRemoved || o.edgesChanged || o.fieldsRewritten || o.nodesRemoved) await markWrite(tx);
          return r;
        })
      : store.read(work);
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
    const passes: Array<[RestorePhase, typeof cleanOwnerBatch]> = [
      ['edges', cleanOwnerBatch],
      ['nodes', cleanNodeBatch],
    ];
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
