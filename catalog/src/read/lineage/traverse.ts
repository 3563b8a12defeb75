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
  /** Hits a streamed selection holds beyond the page (service.ts STREAM_WINDOW); tests make it small. */
  streamWindow?: number;
  /** Hits a scroll's snapshot grows to (service.ts MAX_HELD_HITS); tests make it small. */
  maxHeldHits?: number;
}

export function lineageLimitsFromConfig(config: { LINEAGE_MAX_HOPS: number; LINEAGE_MAX_RESULTS: number; LINEAGE_DEADLINE_MS: number }): LineageLimits {
  return { maxHops: config.LINEAGE_MAX_HOPS, maxResults: config.LINEAGE_MAX_RESULTS, deadlineMs: config.LINEAGE_DEADLINE_MS };
}


export function windowParams(window: TimeWindow | null) {
  return window
    ? { unwindowed: false, start: int(window.start), end: int(window.end) }
    : { unwindowed: true, start: int(0), end: int(0) };
}

export function reachStatement(direction: NormalizedQuery['direction'], depth: DepthBound, window: TimeWindow | null): StatementName {
  return boundedStatement('lineage/reach', walkDirectionOf(direction), depth, window !== null);
}

const isDeadline = (e: unknown) => isCatalogError(e) && e.kind === 'deadline';

/** The walk's depth bound: the statement family's literal, capped by LINEAGE_MAX_HOPS. */
export function maxDepthOf(depth: DepthBound, limits: LineageLimits): number {
  return depth === 'max' ? Math.min(limits.maxHops, MAX_DEPTH_LITERAL) : Math.min(depth, limits.maxHops);
}

type FastRow = Omit<ReachRow, 'ignoredAsHop' | 'truncatedChildren' | 'viaParent'>;

/**
 * Where a walk puts its rows: the rows of the walk in nondecreasing degree, then (a column walk)
 * its via rows in any order. `reset` = forget what came so far: the walk starts over (a retried
 * transaction, or the hop-by-hop fallback after the fast path ran out of time).
 */
export interface ReachSink {
  reset(): void;
  add(row: ReachRow): void;
}

/** A sink that keeps every row (tests, the bench and small reaches). */
export function collectRows(): ReachSink & { rows: ReachRow[] } {
  const sink = { rows: [] as ReachRow[], reset: () => { sink.rows = []; }, add: (r: ReachRow) => { sink.rows.push(r); } };
  return sink;
}

type Walk = Omit<Reach, 'rows'>;

/** The fast path, streamed: rows go to the sink as Neo4j sends them, none are held here. */
async function streamFast(store: Store, nq: NormalizedQuery, limits: LineageLimits, timeoutMs: number, sink: ReachSink): Promise<Walk> {
  const isPartial = await store.read(
    async (tx) => {
      sink.reset();
      let kept = 0;
      let cut = false;
      await tx.each<FastRow>(reachStatement(nq.direction, nq.depth, nq.window), {
        urn: nq.urn,
        ...windowParams(nq.window),
        maxHops: int(maxDepthOf(nq.depth, limits)),
        includeSoftDeleted: nq.includeSoftDeleted,
        includeGhosts: nq.includeGhosts,
        limit: int(limits.maxResults + 1),
      }, (r) => {
        if (kept++ < limits.maxResults) sink.add({ ...r, ignoredAsHop: false, truncatedChildren: false });
        else cut = true;
      });
      return cut;
    },
    { timeoutMs: Math.max(1, Math.floor(timeoutMs)), metadata: { app: 'lineage', op: 'reach' } },
  );
  return { isPartial, strategy: 'fast' };
}

export async function reachFast(store: Store, nq: NormalizedQuery, limits: LineageLimits, timeoutMs: number): Promise<Reach> {
  const sink = collectRows();
  return { ...await streamFast(store, nq, limits, timeoutMs, sink), rows: sink.rows };
}

interface HopRow extends FastRow {
  from: string;
  returnable: boolean;
}

/** Whether the walk goes on from this node within the hop that found it (docs/lineage-model.md §Traversal). */
export function isIgnoredAsHop(nq: NormalizedQuery, row: { entityType: string; platform: string | null }): boolean {
  return nq.ignoreAsHops.some((h) => h.entityType === row.entityType && (h.platforms.size === 0 || (row.platform !== null && h.platforms.has(row.platform))));
}

/**
 * Level-synchronous BFS, one query per hop (and one more per chain of ignored-as-hop entities,
 * which are expanded within the hop that found them). Parents are expanded in urn order and each
 * contributes at most perHopLimit not-yet-visited children, also in urn order; as in DataHub, the
 * children of a parent that reached the limit are marked truncatedChildren.
 */
async function streamByHops(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number, sink: ReachSink): Promise<Walk> {
  const statement = directedStatement('lineage/hop', walkDirectionOf(nq.direction));
  const maxDepth = maxDepthOf(nq.depth, limits);
  const visited = new Set<string>([nq.urn]);
  let isPartial = false;
  let emitted = 0;
  sink.reset();
  let frontier = [nq.urn];
  let queries = 0;

  hops: for (let degree = 1; degree <= maxDepth && frontier.length > 0; degree++) {
    let toExpand = frontier;
    const next: string[] = [];
    while (toExpand.length > 0) {
      const remaining = deadline - Date.now();
      const sameHop: string[] = [];
      // Rows come ordered by parent, then urn, and go to the sink as they come: a hop is never
      // held. Under a per-hop limit a parent's first perHopLimit new children wait until the parent
      // is done (whether it reached the limit marks them truncatedChildren). A retried transaction
      // sends rows again; those already visited are skipped.
      const keep = (c: HopRow, capped: boolean) => {
        visited.add(c.urn);
        const ignored = isIgnoredAsHop(nq, c);
        (ignored ? sameHop : next).push(c.urn);
        if (c.returnable || nq.includeGhosts) {
          const { from: _from, returnable: _returnable, ...row } = c;
          if (emitted++ < limits.maxResults) sink.add({ ...row, degree, ignoredAsHop: ignored, truncatedChildren: capped });
          else isPartial = true;
        }
      };
      let parent: string | null = null;
      let waiting: HopRow[] = [];
      const parentDone = () => {
        const capped = nq.perHopLimit !== null && waiting.length >= nq.perHopLimit;
        for (const c of waiting) keep(c, capped);
        waiting = [];
      };
      const onRow = (c: HopRow) => {
        if (c.from !== parent) {
          parentDone();
          parent = c.from;
        }
        if (visited.has(c.urn)) return;
        if (nq.perHopLimit === null) keep(c, false);
        else if (waiting.length < nq.perHopLimit) waiting.push(c);
        else isPartial = true; // beyond the limit: not explored
      };
      try {
        if (remaining <= 0) throw deadlineExceeded('The lineage traversal exceeded its deadline.');
        await store.read(
          async (tx) => {
            parent = null;
            waiting = [];
            await tx.each<HopRow>(statement, {
              frontier: [...toExpand].sort(),
              ...windowParams(nq.window),
              includeSoftDeleted: nq.includeSoftDeleted,
            }, onRow);
            parentDone();
          },
          { timeoutMs: Math.max(1, Math.floor(remaining)), metadata: { app: 'lineage', op: 'hop' } },
        );
      } catch (e) {
        // Nothing at all to show: the caller gets a 504. Otherwise what we have, marked partial.
        if (isDeadline(e) && queries === 0) throw deadlineExceeded('The lineage traversal exceeded its deadline before the first hop completed.');
        if (isDeadline(e)) { isPartial = true; break hops; }
        throw e;
      }
      queries++;
      // Beyond the cap (not at it): more was reachable than can be kept.
      if (visited.size - 1 > limits.maxResults) { isPartial = true; break hops; }
      toExpand = sameHop;
    }
    frontier = next;
  }
  return { isPartial, strategy: 'hops' };
}

export async function reachByHops(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number): Promise<Reach> {
  const sink = collectRows();
  const walked = await streamByHops(store, nq, limits, deadline, sink);
  return { ...walked, rows: sink.rows.sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)) };
}

/** Fast path unless the request needs per-hop control; a fast path out of time or memory falls back. */
async function walkReach(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number, sink: ReachSink): Promise<Walk> {
  if (nq.ignoreAsHops.length > 0 || nq.perHopLimit !== null) return streamByHops(store, nq, limits, deadline, sink);
  const fastBudget = Math.min(limits.fastPathTimeoutMs ?? limits.deadlineMs / 2, deadline - Date.now());
  try {
    if (fastBudget <= 0) throw deadlineExceeded('no time left for the fast path');
    return await streamFast(store, nq, limits, fastBudget, sink);
  } catch (e) {
    if (!isDeadline(e)) throw e;
    return streamByHops(store, nq, limits, deadline, sink);
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
async function viaRowsOf(store: Store, nq: NormalizedQuery, degreeOf: ReadonlyMap<string, number>, limits: LineageLimits, deadline: number): Promise<ReachRow[]> {
  const maxDepth = maxDepthOf(nq.depth, limits);
  const parents = [...degreeOf].filter(([, d]) => d < maxDepth).map(([urn]) => urn);
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
 * Every entity reachable from the source, into `sink` in (degree, urn) order; for a column walk
 * then the via entities of the edges it took (which needs each walked urn's degree: a map of urns,
 * not of rows). Nothing at all when the request explores nothing.
 */
export async function reach(store: Store, nq: NormalizedQuery, limits: LineageLimits, startedAt: number, sink: ReachSink): Promise<Walk> {
  const deadline = startedAt + limits.deadlineMs;
  sink.reset();
  if (nq.exploresNothing) return { isPartial: false, strategy: 'hops' };
  if (tryParseUrn(nq.urn)?.entityType !== 'schemaField') return walkReach(store, nq, limits, deadline, sink);
  let degreeOf = new Map<string, number>();
  const walked = await walkReach(store, nq, limits, deadline, {
    reset: () => { degreeOf = new Map([[nq.urn, 0]]); sink.reset(); },
    add: (r) => { degreeOf.set(r.urn, r.degree); sink.add(r); },
  });
  if (degreeOf.size <= 1) return walked;
  try {
    for (const via of await viaRowsOf(store, nq, degreeOf, limits, deadline)) sink.add(via);
    return walked;
  } catch (e) {
    // Out of time: the columns stand; their jobs are missing, so the answer is partial.
    if (isDeadline(e)) return { ...walked, isPartial: true };
    throw e;
  }
}
