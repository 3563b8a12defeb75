// The graph side of impact analysis (docs/lineage-model.md §Traversal): which entities are reachable from a
// source and at what minimum degree. Two strategies produce the same rows:
// - fast path: ONE statement (reach-<dir>-<bound>.cypher), a breadth-first pruning var-expand;
// - hop-by-hop: one statement per hop with the visited set here, for ignoreAsHops and per-hop
//   limits (which a single Cypher BFS cannot express) and as the fallback when the fast path runs
//   out of time or memory.
// Rows carry every returnable entity (ghosts and, unless re-admitted, soft-deleted ones are
// walked through but never returned); filtering, facets and paging happen over them in results.ts.
import { deadlineExceeded, isCatalogError } from '../../model/errors.ts';
import { int, type Store } from '../../store/store.ts';
import { boundedStatement, directedStatement, MAX_DEPTH_LITERAL, type StatementName } from '../../store/cypher.ts';
import { walkDirectionOf, type DepthBound, type NormalizedQuery, type TimeWindow } from './query.ts';
import { tryParseUrn } from '../../model/urn.ts';

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
  /** Whether the node has a key row of its own (a schemaField's parent may exist while it has none). */
  ownExists: boolean;
  /** A schemaField's parent urn, from its own urn (the parent node may not exist). */
  parentUrn: string | null;
  parent: ParentFields | null;
  ignoredAsHop: boolean;
  /** Found under a parent that reached entitiesExploredPerHopLimit (DataHub marks the children). */
  truncatedChildren: boolean;
  /** A via entity (a dataJob of column lineage): the node whose edge named it. */
  viaParent?: string | null;
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


export function windowParams(window: TimeWindow | null) {
  return window
    ? { unwindowed: false, start: int(window.start), end: int(window.end) }
    : { unwindowed: true, start: int(0), end: int(0) };
}

export function reachStatement(direction: NormalizedQuery['direction'], depth: DepthBound): StatementName {
  return boundedStatement('lineage/reach', walkDirectionOf(direction), depth);
}

const isDeadline = (e: unknown) => isCatalogError(e) && e.kind === 'deadline';

/** The walk's depth bound: the statement family's literal, capped by LINEAGE_MAX_HOPS. */
export function maxDepthOf(depth: DepthBound, limits: LineageLimits): number {
  return depth === 'max' ? Math.min(limits.maxHops, MAX_DEPTH_LITERAL) : Math.min(depth, limits.maxHops);
}

type FastRow = Omit<ReachRow, 'ignoredAsHop' | 'truncatedChildren' | 'viaParent'>;

export async function reachFast(store: Store, nq: NormalizedQuery, limits: LineageLimits, timeoutMs: number): Promise<Reach> {
  const rows = await store.read(
    (tx) => tx.run<FastRow>(reachStatement(nq.direction, nq.depth), {
      urn: nq.urn,
      ...windowParams(nq.window),
      maxHops: int(maxDepthOf(nq.depth, limits)),
      includeSoftDeleted: nq.includeSoftDeleted,
      includeGhosts: nq.includeGhosts,
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
 * contributes at most perHopLimit not-yet-visited children, also in urn order; as in DataHub, the
 * children of a parent that reached the limit are marked truncatedChildren.
 */
export async function reachByHops(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number): Promise<Reach> {
  const statement = directedStatement('lineage/hop', walkDirectionOf(nq.direction));
  const maxDepth = maxDepthOf(nq.depth, limits);
  const visited = new Set<string>([nq.urn]);
  const found = new Map<string, ReachRow>();
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
        const capped = nq.perHopLimit !== null && fresh.length >= nq.perHopLimit;
        if (nq.perHopLimit !== null && fresh.length > nq.perHopLimit) {
          fresh = fresh.slice(0, nq.perHopLimit);
          isPartial = true;
        }
        for (const c of fresh) {
          visited.add(c.urn);
          const ignored = isIgnoredAsHop(nq, c);
          (ignored ? sameHop : next).push(c.urn);
          if (c.returnable || nq.includeGhosts) {
            const { from: _from, returnable: _returnable, ...row } = c;
            found.set(c.urn, { ...row, degree, ignoredAsHop: ignored, truncatedChildren: capped });
          }
        }
      }
      // Beyond the cap (not at it): more was reachable than can be kept.
      if (visited.size - 1 > limits.maxResults) { isPartial = true; break hops; }
      toExpand = sameHop;
    }
    frontier = next;
  }
  let ordered = [...found.values()].sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  if (ordered.length > limits.maxResults) {
    ordered = ordered.slice(0, limits.maxResults);
    isPartial = true;
  }
  return { rows: ordered, isPartial, strategy: 'hops' };
}

/** Fast path unless the request needs per-hop control; a fast path out of time or memory falls back. */
async function walkReach(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number): Promise<Reach> {
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

/** A via entity with the edge that named it (lineage/vias-*). */
interface ViaRow extends ParentFields {
  parent: string;
  child: string;
  removed: boolean;
}

/**
 * The via entities of a column walk (docs/lineage-model.md §Paths): a dataJob whose column lineage
 * made an edge the walk took is reached with the column it leads to, at that column's degree,
 * once (its smallest such degree; then the smallest parent urn). Queries are vias too, but only
 * shown inside paths.
 */
async function viaRowsOf(store: Store, nq: NormalizedQuery, rows: readonly ReachRow[], limits: LineageLimits, deadline: number): Promise<ReachRow[]> {
  const degreeOf = new Map<string, number>([[nq.urn, 0]]);
  for (const r of rows) degreeOf.set(r.urn, r.degree);
  const maxDepth = maxDepthOf(nq.depth, limits);
  const parents = [nq.urn, ...rows.filter((r) => r.degree < maxDepth).map((r) => r.urn)];
  const found = await store.read(
    (tx) => tx.run<ViaRow>(directedStatement('lineage/vias', walkDirectionOf(nq.direction)), {
      parents, ...windowParams(nq.window), includeSoftDeleted: nq.includeSoftDeleted,
    }),
    { timeoutMs: Math.max(1, Math.floor(deadline - Date.now())), metadata: { app: 'lineage', op: 'vias' } },
  );
  const best = new Map<string, ReachRow>();
  for (const v of found) {
    const from = degreeOf.get(v.parent);
    const degree = degreeOf.get(v.child);
    // Only an edge the breadth-first walk took: from a node at d - 1 to one first reached at d.
    if (from === undefined || degree === undefined || degree !== from + 1 || degreeOf.has(v.urn)) continue;
    const seen = best.get(v.urn);
    if (seen && (seen.degree < degree || (seen.degree === degree && seen.viaParent! <= v.parent))) continue;
    best.set(v.urn, {
      urn: v.urn, degree, entityType: v.entityType, platform: v.platform, origin: v.origin, name: v.name,
      description: v.description, removed: v.removed, ownExists: true, parentUrn: null, parent: null,
      ignoredAsHop: false, truncatedChildren: false, viaParent: v.parent,
    });
  }
  return [...best.values()];
}

/**
 * Every entity reachable from the source, ordered by (degree, urn); for a column walk also the
 * via entities of the edges it took. Nothing at all when the request explores nothing.
 */
export async function reach(store: Store, nq: NormalizedQuery, limits: LineageLimits, startedAt = Date.now()): Promise<Reach> {
  const deadline = startedAt + limits.deadlineMs;
  if (nq.exploresNothing) return { rows: [], isPartial: false, strategy: 'hops' };
  const walked = await walkReach(store, nq, limits, deadline);
  if (tryParseUrn(nq.urn)?.entityType !== 'schemaField' || walked.rows.length === 0) return walked;
  try {
    const vias = await viaRowsOf(store, nq, walked.rows, limits, deadline);
    if (!vias.length) return walked;
    const rows = [...walked.rows, ...vias].sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
    return { ...walked, rows };
  } catch (e) {
    // Out of time: the columns stand; their jobs are missing, so the answer is partial.
    if (isDeadline(e)) return { ...walked, isPartial: true };
    throw e;
  }
}
