// The graph side of impact analysis (lineage-model §5–§7, §10): which entities are reachable from a
// source and at what minimum degree. Two strategies produce the same rows:
// - fast path: ONE statement (reach-<dir>-<bound>.cypher), a breadth-first pruning var-expand;
// - hop-by-hop: one statement per hop with the visited set here, for ignoreAsHops and per-hop
//   limits (which a single Cypher BFS cannot express) and as the fallback when the fast path runs
//   out of time or memory.
// Rows carry every returnable entity (ghosts and, unless re-admitted, soft-deleted ones are
// walked through but never returned); filtering, facets and paging happen over them in results.ts.
import { deadlineExceeded, isCatalogError } from '../errors.ts';
import { int, type Store } from '../neo4j/store.ts';
import type { StatementName } from '../neo4j/cypher.ts';
import type { DepthBound, NormalizedQuery, TimeWindow } from './query.ts';

export interface ParentFields {
  urn: string;
  entityType: string;
  platform: string | null;
  origin: string | null;
  name: string | null;
  description: string | null;
}

/** One reachable entity as the walk found it (a schemaField carries its parent for lifting). */
export interface ReachRow {
  urn: string;
  degree: number;
  entityType: string;
  platform: string | null;
  origin: string | null;
  name: string | null;
  description: string | null;
  removed: boolean;
  parent: ParentFields | null;
  ignoredAsHop: boolean;
  truncatedChildren: boolean;
}

export interface Reach {
  /** Ordered by (degree, urn). */
  rows: ReachRow[];
  isPartial: boolean;
  strategy: 'fast' | 'hops';
}

export interface LineageLimits {
  /** LINEAGE_MAX_HOPS: "unlimited" depth (≤ 1000, the literal bound of reach-*-max). */
  maxHops: number;
  /** LINEAGE_MAX_RESULTS: entities kept (fast path) / visited (hop-by-hop) before cutting. */
  maxResults: number;
  /** LINEAGE_DEADLINE_MS: wall-clock budget of one request. */
  deadlineMs: number;
  /** Transaction timeout of the fast path; the rest of the deadline is left for the fallback. Default deadlineMs / 2. */
  fastPathTimeoutMs?: number;
  /**
   * Select and count in Neo4j when the request allows it (select.ts); false = always ship the
   * reach and select here (tests compare the two; the bench measures both). Default true.
   */
  selectInDatabase?: boolean;
}

export function lineageLimitsFromConfig(config: { LINEAGE_MAX_HOPS: number; LINEAGE_MAX_RESULTS: number; LINEAGE_DEADLINE_MS: number }): LineageLimits {
  return { maxHops: config.LINEAGE_MAX_HOPS, maxResults: config.LINEAGE_MAX_RESULTS, deadlineMs: config.LINEAGE_DEADLINE_MS };
}

/** The literal depth bound of the reach-*-max statements. */
export const MAX_HOPS_LITERAL = 1000;

export function windowParams(window: TimeWindow | null) {
  return window
    ? { unwindowed: false, start: int(window.start), end: int(window.end) }
    : { unwindowed: true, start: int(0), end: int(0) };
}

export function reachStatement(direction: NormalizedQuery['direction'], depth: DepthBound): StatementName {
  return `lineage/reach-${direction === 'DOWNSTREAM' ? 'down' : 'up'}-${depth}` as StatementName;
}

const isDeadline = (e: unknown) => isCatalogError(e) && e.kind === 'deadline';

/** The walk's depth bound: the statement family's literal, capped by LINEAGE_MAX_HOPS. */
export function maxDepthOf(depth: DepthBound, limits: LineageLimits): number {
  return depth === 'max' ? Math.min(limits.maxHops, MAX_HOPS_LITERAL) : Math.min(depth, limits.maxHops);
}

type FastRow = Omit<ReachRow, 'ignoredAsHop' | 'truncatedChildren'>;

export async function reachFast(store: Store, nq: NormalizedQuery, limits: LineageLimits, timeoutMs: number): Promise<Reach> {
  const rows = await store.read(
    (tx) => tx.run<FastRow>(reachStatement(nq.direction, nq.depth), {
      urn: nq.urn,
      ...windowParams(nq.window),
      maxHops: int(maxDepthOf(nq.depth, limits)),
      includeSoftDeleted: nq.includeSoftDeleted,
      limit: int(limits.maxResults + 1),
    }),
    { timeoutMs: Math.max(1, Math.floor(timeoutMs)), metadata: { app: 'lineage', op: 'reach' } },
  );
  const isPartial = rows.length > limits.maxResults;
  return {
    rows: (isPartial ? rows.slice(0, limits.maxResults) : rows).map((r) => ({ ...r, ignoredAsHop: false, truncatedChildren: false })),
    isPartial,
    strategy: 'fast',
  };
}

interface HopRow extends FastRow {
  from: string;
  returnable: boolean;
}

function isIgnoredAsHop(nq: NormalizedQuery, row: { entityType: string; platform: string | null }): boolean {
  return nq.ignoreAsHops.some((h) => h.entityType === row.entityType && (h.platforms.size === 0 || (row.platform !== null && h.platforms.has(row.platform))));
}

/**
 * Level-synchronous BFS, one query per hop (and one more per chain of ignored-as-hop entities,
 * which are expanded within the hop that found them). Parents are expanded in urn order and each
 * contributes at most perHopLimit not-yet-visited children, also in urn order.
 */
export async function reachByHops(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number): Promise<Reach> {
  const statement: StatementName = nq.direction === 'DOWNSTREAM' ? 'lineage/hop-down' : 'lineage/hop-up';
  const maxDepth = maxDepthOf(nq.depth, limits);
  const visited = new Set<string>([nq.urn]);
  const found = new Map<string, ReachRow>();
  const truncated = new Set<string>();
  let isPartial = false;
  let frontier = [nq.urn];
  let queries = 0;

  hops: for (let degree = 1; degree <= maxDepth && frontier.length > 0; degree++) {
    let toExpand = frontier;
    const next: string[] = [];
    while (toExpand.length > 0) {
      const remaining = deadline - Date.now();
      let rows: HopRow[];
      try {
        if (remaining <= 0) throw deadlineExceeded('The lineage traversal exceeded its deadline.');
        rows = await store.read(
          (tx) => tx.run<HopRow>(statement, {
            frontier: [...toExpand].sort(),
            ...windowParams(nq.window),
            includeSoftDeleted: nq.includeSoftDeleted,
          }),
          { timeoutMs: Math.max(1, Math.floor(remaining)), metadata: { app: 'lineage', op: 'hop' } },
        );
      } catch (e) {
        // Nothing at all to show: the caller gets a 504. Otherwise what we have, marked partial.
        if (isDeadline(e) && queries === 0) throw deadlineExceeded('The lineage traversal exceeded its deadline before the first hop completed.');
        if (isDeadline(e)) { isPartial = true; break hops; }
        throw e;
      }
      queries++;
      const sameHop: string[] = [];
      const byParent = new Map<string, HopRow[]>();
      for (const r of rows) {
        const list = byParent.get(r.from);
        if (list) list.push(r); else byParent.set(r.from, [r]);
      }
      for (const [from, children] of [...byParent].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        let fresh = children.filter((c) => !visited.has(c.urn));
        if (nq.perHopLimit !== null && fresh.length > nq.perHopLimit) {
          fresh = fresh.slice(0, nq.perHopLimit);
          truncated.add(from);
          isPartial = true;
        }
        for (const c of fresh) {
          visited.add(c.urn);
          const ignored = isIgnoredAsHop(nq, c);
          (ignored ? sameHop : next).push(c.urn);
          if (c.returnable) {
            const { from: _from, returnable: _returnable, ...row } = c;
            found.set(c.urn, { ...row, degree, ignoredAsHop: ignored, truncatedChildren: false });
          }
        }
      }
      if (visited.size - 1 >= limits.maxResults) { isPartial = true; break hops; }
      toExpand = sameHop;
    }
    frontier = next;
  }
  for (const urn of truncated) {
    const row = found.get(urn);
    if (row) row.truncatedChildren = true;
  }
  let ordered = [...found.values()].sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  if (ordered.length > limits.maxResults) {
    ordered = ordered.slice(0, limits.maxResults);
    isPartial = true;
  }
  return { rows: ordered, isPartial, strategy: 'hops' };
}

/** Fast path unless the request needs per-hop control; a fast path out of time or memory falls back. */
export async function reach(store: Store, nq: NormalizedQuery, limits: LineageLimits, startedAt = Date.now()): Promise<Reach> {
  const deadline = startedAt + limits.deadlineMs;
  if (nq.ignoreAsHops.length > 0 || nq.perHopLimit !== null) return reachByHops(store, nq, limits, deadline);
  const fastBudget = Math.min(limits.fastPathTimeoutMs ?? limits.deadlineMs / 2, deadline - Date.now());
  try {
    if (fastBudget <= 0) throw deadlineExceeded('no time left for the fast path');
    return await reachFast(store, nq, limits, fastBudget);
  } catch (e) {
    if (!isDeadline(e)) throw e;
    return reachByHops(store, nq, limits, deadline);
  }
}
