// restoreIndices' clean mode (docs/lineage-model.md §Restore): two passes over the run's urn scope
// after its rows — edges whose (owner, aspect) has no latest row any more (scanned per owner through
// the per-type owner indexes), and nodes without a key row (ghosts: search fields reset to what the
// urn alone gives; orphans with no row and no relationship dropped, as a hard delete would).
import { keyAspectNameOf } from '../../model/entity-type-spec.ts';
import type { Urn } from '../../model/urn.ts';
import { lockRows, rowKey } from '../../store/rows.ts';
import { int, type Tx } from '../../store/store.ts';
import { checkUrn, type StoredEdge } from './diff.ts';
import { reconcileEdges, reconcileFields, type RowRead } from './reconcile.ts';
import type { Scope } from './restore-args.ts';
import { appendAll, emptyOutcome, timed, type BatchOutcome } from './restore-report.ts';

const CLEAN_PAGE = 200;

/** One batch of a clean pass from `after` on: what it found (and, writing, repaired) and where it stopped. */
type CleanBatch = (tx: Tx, scope: Scope, after: string, write: boolean) => Promise<{ outcome: BatchOutcome; last: string | null }>;

/** One keyset page of a clean-mode scan (owners or nodes in the scope, after `after`), timed and counted. */
async function scanCleanPage<R>(
  tx: Tx,
  o: BatchOutcome,
  statement: 'restore/scan-owners' | 'restore/scan-nodes',
  scope: Scope,
  after: string,
): Promise<R[]> {
  const page = await timed(o, () =>
    tx.run<R>(statement, {
      lower: scope.range.lower,
      upper: scope.range.upper,
      regex: scope.range.regex,
      after,
      limit: int(CLEAN_PAGE),
    }),
  );
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
export const cleanOwnerBatch: CleanBatch = async (tx, scope, after, write) => {
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
};

/** Nodes without a key row: search fields from the urn (and any stray rows), orphans removed. */
export const cleanNodeBatch: CleanBatch = async (tx, scope, after, write) => {
  const o = emptyOutcome();
  const page = await scanCleanPage<{ urn: string }>(tx, o, 'restore/scan-nodes', scope, after);
  if (!page.length) return { outcome: o, last: null };
  const urns = validUrns(page.map((p) => p.urn));
  const keyRows = (list: Urn[]) => list.map((u) => ({ urn: u.text, keyRow: rowKey(u.text, keyAspectNameOf(u.entityType)) }));
  const existing = async (list: Urn[]) =>
    new Set(
      (await tx.run<{ urn: string; exists: boolean }>('entities/exist', { rows: keyRows(list) })).filter((r) => r.exists).map((r) => r.urn),
    );
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
};
