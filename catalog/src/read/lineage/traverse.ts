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
import type { StatementName } from '../../store/cypher.ts';
import { isIgnoredAsHop, windowParams, type LineageLimits, type NormalizedQuery } from './query.ts';
import { planLineageRead, type LineagePlan } from './plan.ts';
import type { ListedValues } from '../../model/filters.ts';

interface ParentFields {
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
  /**
   * The tags, terms, owners and domains of the entity the row stands for (its parent when lifted):
   * set only for a filter on them, after the walk (service.ts); the walk never reads them.
   */
  lists?: ListedValues | null;
}

export interface Reach {
  /** Ordered by (degree, urn). */
  rows: ReachRow[];
  isPartial: boolean;
  strategy: 'fast' | 'hops';
}

const isDeadline = (e: unknown) => isCatalogError(e) && e.kind === 'deadline';

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
function collectRows(): ReachSink & { rows: ReachRow[] } {
  const sink = {
    rows: [] as ReachRow[],
    reset: () => {
      sink.rows = [];
    },
    add: (r: ReachRow) => {
      sink.rows.push(r);
    },
  };
  return sink;
}

type Walk = Omit<Reach, 'rows'>;

/** The fast path, streamed: rows go to the sink as Neo4j sends them, none are held here. */
async function streamFast(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  timeoutMs: number,
  sink: ReachSink,
): Promise<Walk> {
  const isPartial = await store.read(
    async (tx) => {
      sink.reset();
      let kept = 0;
      let cut = false;
      await tx.each<FastRow>(
        plan.reach,
        {
          urn: nq.urn,
          ...windowParams(nq.window),
          maxHops: int(plan.maxDepth),
          includeSoftDeleted: nq.includeSoftDeleted,
          includeGhosts: nq.includeGhosts,
          limit: int(limits.maxResults + 1),
        },
        (r) => {
          if (kept++ < limits.maxResults) sink.add({ ...r, ignoredAsHop: false, truncatedChildren: false });
          else cut = true;
        },
      );
      return cut;
    },
    { timeoutMs: Math.max(1, Math.floor(timeoutMs)), metadata: { app: 'lineage', op: 'reach' } },
  );
  return { isPartial, strategy: 'fast' };
}

export async function reachFast(store: Store, nq: NormalizedQuery, limits: LineageLimits, timeoutMs: number): Promise<Reach> {
  const sink = collectRows();
  return { ...(await streamFast(store, nq, planLineageRead(nq, limits), limits, timeoutMs, sink)), rows: sink.rows };
}

interface HopRow extends FastRow {
  /** The parent's urn (lineage/hop, under a per-hop limit; lineage/hop-nodes returns each node once, without it). */
  from?: string;
  /** The node's element id: what the next hop's frontier holds. */
  id: string;
  returnable: boolean;
}

/** A walk of the plan's reach from the query's urn into `sink`, within `deadline`. */
type ReachWalk = (
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  deadline: number,
  sink: ReachSink,
) => Promise<Walk>;

/**
 * Level-synchronous BFS, one query per hop (and one more per chain of ignored-as-hop entities,
 * which are expanded within the hop that found them). Under a per-hop limit parents are expanded
 * in urn order and each contributes at most perHopLimit not-yet-visited children, also in urn
 * order; as in DataHub, the children of a parent that reached the limit are marked
 * truncatedChildren. Without one, who reached a node first changes nothing: each node comes once,
 * in no order (the plan's hop statement says which).
 */
const streamByHops: ReachWalk = async (store, nq, plan, limits, deadline, sink) => {
  const statement = plan.hop;
  const maxDepth = plan.maxDepth;
  const visited = new Set<string>([nq.urn]);
  let isPartial = false;
  let emitted = 0;
  sink.reset();
  // The frontier is element ids: the source's first (none when it has no node: nothing to walk).
  // Each hop is its own transaction, as with urns; an id could name another node only if its node
  // were hard-deleted and the id reused between two hops of one request.
  let frontier = await sourceIdOf(store, nq.urn, deadline);
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
        (ignored ? sameHop : next).push(c.id);
        if (c.returnable || nq.includeGhosts) {
          // Field by field: one object of one shape per row (a hub's walk hands on 100k of them).
          if (emitted++ < limits.maxResults) {
            sink.add({
              urn: c.urn,
              degree,
              entityType: c.entityType,
              platform: c.platform,
              origin: c.origin,
              name: c.name,
              description: c.description,
              removed: c.removed,
              ownExists: c.ownExists,
              parentUrn: c.parentUrn,
              parent: c.parent,
              ignoredAsHop: ignored,
              truncatedChildren: capped,
            });
          } else isPartial = true;
        }
      };
      let parent: string | null | undefined = null;
      let waiting: HopRow[] = [];
      const parentDone = () => {
        const capped = nq.perHopLimit !== null && waiting.length >= nq.perHopLimit;
        for (const c of waiting) keep(c, capped);
        waiting = [];
      };
      const onRow = (c: HopRow) => {
        if (nq.perHopLimit === null) {
          if (!visited.has(c.urn)) keep(c, false);
          return;
        }
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
            await tx.each<HopRow>(
              statement,
              {
                frontier: toExpand,
                ...windowParams(nq.window),
                includeSoftDeleted: nq.includeSoftDeleted,
                strings: plan.strings,
              },
              onRow,
            );
            parentDone();
          },
          { timeoutMs: Math.max(1, Math.floor(remaining)), metadata: { app: 'lineage', op: 'hop' } },
        );
      } catch (e) {
        // Nothing at all to show: the caller gets a 504. Otherwise what we have, marked partial.
        if (isDeadline(e) && queries === 0)
          throw deadlineExceeded('The lineage traversal exceeded its deadline before the first hop completed.');
        if (isDeadline(e)) {
          isPartial = true;
          break hops;
        }
        throw e;
      }
      queries++;
      // Beyond the cap (not at it): more was reachable than can be kept.
      if (visited.size - 1 > limits.maxResults) {
        isPartial = true;
        break hops;
      }
      toExpand = sameHop;
    }
    frontier = next;
  }
  return { isPartial, strategy: 'hops' };
};

/** The walk's source as a frontier of element ids: one, or none when it has no node. */
async function sourceIdOf(store: Store, urn: string, deadline: number): Promise<string[]> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw deadlineExceeded('The lineage traversal exceeded its deadline before the first hop completed.');
  try {
    const rows = await store.read((tx) => tx.run<{ id: string }>('lineage/node-id', { urn }), {
      timeoutMs: Math.max(1, Math.floor(remaining)),
      metadata: { app: 'lineage', op: 'hop' },
    });
    return rows.map((r) => r.id);
  } catch (e) {
    if (isDeadline(e)) throw deadlineExceeded('The lineage traversal exceeded its deadline before the first hop completed.');
    throw e;
  }
}

export async function reachByHops(store: Store, nq: NormalizedQuery, limits: LineageLimits, deadline: number): Promise<Reach> {
  const sink = collectRows();
  const walked = await streamByHops(store, nq, planLineageRead(nq, limits), limits, deadline, sink);
  return { ...walked, rows: sink.rows.sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)) };
}

/** The plan's streamed walk: one statement, falling back to hop by hop when out of time; or hop by hop. */
const walkReach: ReachWalk = async (store, nq, plan, limits, deadline, sink) => {
  if (plan.streamed === 'hops') return streamByHops(store, nq, plan, limits, deadline, sink);
  const fastBudget = Math.min(plan.firstStepMs, deadline - Date.now());
  try {
    if (fastBudget <= 0) throw deadlineExceeded('no time left for the fast path');
    return await streamFast(store, nq, plan, limits, fastBudget, sink);
  } catch (e) {
    if (!isDeadline(e)) throw e;
    return streamByHops(store, nq, plan, limits, deadline, sink);
  }
};

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
async function viaRowsOf(
  store: Store,
  nq: NormalizedQuery,
  vias: StatementName,
  maxDepth: number,
  degreeOf: ReadonlyMap<string, number>,
  deadline: number,
): Promise<ReachRow[]> {
  const parents = [...degreeOf].filter(([, d]) => d < maxDepth).map(([urn]) => urn);
  const found = await store.read(
    (tx) =>
      tx.run<ViaRow>(vias, {
        parents,
        ...windowParams(nq.window),
        includeSoftDeleted: nq.includeSoftDeleted,
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
      urn: v.urn,
      degree,
      entityType: v.entityType,
      platform: v.platform,
      origin: v.origin,
      name: v.name,
      description: v.description,
      removed: v.removed,
      ownExists: true,
      parentUrn: null,
      parent: null,
      ignoredAsHop: false,
      truncatedChildren: false,
      viaParent: v.parent,
    });
  }
  return [...best.values()];
}

/**
 * Every entity reachable from the source, into `sink` in (degree, urn) order; for a column walk
 * then the via entities of the edges it took (which needs each walked urn's degree: a map of urns,
 * not of rows). Nothing at all when the request explores nothing.
 */
export async function reach(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  startedAt: number,
  sink: ReachSink,
): Promise<Walk> {
  const deadline = startedAt + limits.deadlineMs;
  sink.reset();
  if (plan.exploresNothing) return { isPartial: false, strategy: 'hops' };
  const vias = plan.vias;
  if (vias === null) return walkReach(store, nq, plan, limits, deadline, sink);
  let degreeOf = new Map<string, number>();
  const walked = await walkReach(store, nq, plan, limits, deadline, {
    reset: () => {
      degreeOf = new Map([[nq.urn, 0]]);
      sink.reset();
    },
    add: (r) => {
      degreeOf.set(r.urn, r.degree);
      sink.add(r);
    },
  });
  if (degreeOf.size <= 1) return walked;
  try {
    for (const via of await viaRowsOf(store, nq, vias, plan.maxDepth, degreeOf, deadline)) sink.add(via);
    return walked;
  } catch (e) {
    // Out of time: the columns stand; their jobs are missing, so the answer is partial.
    if (isDeadline(e)) return { ...walked, isPartial: true };
    throw e;
  }
}
