// W-query: scrollAcrossLineage first page and next page for degree "1", "2", "3+", both
// directions, from a hub, a mid node, a leaf and a schemaField — through the domain function
// (scrollLineage, in this process) and over HTTP (GraphQL at the gateway) — with two baselines of
// the same traversal in the same run: an in-process BFS over the edge list held in memory (the
// lower bound) and the naive variable-length query that enumerates paths (the peer approach),
// stopped at a time limit.
import neo4j from 'neo4j-driver';
import type { Store } from '../../catalog/src/store/store.ts';
import { scrollLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { normalizeQuery } from '../../catalog/src/read/lineage/query.ts';
import { graphqlToEntityType } from '../../catalog/src/model/entity-registry.ts';
import { reachFast } from '../../catalog/src/read/lineage/traverse.ts';
import { reachStatement } from '../../catalog/src/read/lineage/plan.ts';
import type { LineageLimits } from '../../catalog/src/read/lineage/query.ts';
import { adjacency, bfs, type Adjacency, type Graph } from '../generate.ts';
import { summarize, timeRuns, type Summary } from '../lib/stats.ts';
import { columnShapes, requestShapes } from './query-shapes.ts';
import { DEGREES, runFloor, runHopFloor, runNaive, type Degree, type Direction, type NaiveRun } from './query-floors.ts';

export interface QueryCase {
  source: string;
  urn: string;
  direction: Direction;
  degree: Degree;
  /** Entities the in-memory BFS finds at this degree filter (before the service's type/ghost filters). */
  bfsReach: number;
  total: number | null;
  /** How the first page was computed (fast = one BFS statement, hops = the fallback) and whether it was cut. */
  strategy: string;
  isPartial: boolean;
  domainFirst: Summary;
  domainNext: Summary | null;
  /** The Neo4j statement alone (reachFast: rows to this process), degree "3+" only. */
  reachOnly: Summary | null;
  /** The engine's floor: the pruning BFS counting the reach, nothing read from the nodes, degree "3+" only. */
  bfsFloor?: Summary | null;
  httpFirst: Summary | null;
  httpNext: Summary | null;
  httpError?: string;
  bfs: Summary;
  naive: NaiveRun | null;
  /** What failed instead of being timed (the product's answer: `answer`; a baseline: its field name), with the error. */
  errors?: Record<string, string>;
}

const PAGE = 10;

/**
 * A request shape beyond the degree filter (issue 17: what DataHub's UI and SDK send), timed from the
 * hub and the sink hub at "3+": where it is answered (database or shipped) and what that costs.
 */
export interface ShapeCase {
  source: string;
  direction: Direction;
  shape: string;
  total: number | null;
  strategy: string;
  isPartial: boolean;
  domainFirst: Summary;
  domainNext: Summary | null;
  httpFirst: Summary | null;
  httpNext?: Summary | null;
  httpError?: string;
  /** What failed instead of being timed (the product's answer: `answer`; a baseline: its field name), with the error. */
  errors?: Record<string, string>;
  /** The engine's floor for the same walk (the pruning BFS counting the reach, nothing read). */
  floor?: Summary | null;
  /**
   * Shapes that judge strings of every node (text, urn, name): the same BFS counting only the nodes
   * a hand-written test of those strings passes — what reading them costs the engine at least.
   */
  readFloor?: Summary | null;
  /**
   * Shapes walked hop by hop when per-hop control changes the walk: the lightest such walk — one
   * statement per hop (and per chain of ignored nodes), node ids out and in, one flag per node —
   * what any walk driven from outside Neo4j costs at least.
   */
  hopFloor?: Summary | null;
}

const GQL = `query benchScroll($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) {
    nextScrollId count total isPartial
    searchResults { degree entity { urn type ... on Dataset { name } } }
    facets { field aggregations { value count } }
  }
}`;

async function graphqlScroll(
  url: string,
  token: string,
  input: Record<string, unknown>,
): Promise<{ total: number; nextScrollId: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: GQL, variables: { input } }),
  });
  const text = await res.text();
  let body: { data?: { scrollAcrossLineage?: { total: number; nextScrollId: string | null } }; errors?: unknown[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
  }
  if (!res.ok || body.errors?.length || !body.data?.scrollAcrossLineage) throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
  return body.data.scrollAcrossLineage;
}

/** In-process lower bound: BFS to the degree bound, degree filter, order by (degree, urn rank), first page. */
function memoryPage(adj: Adjacency, rank: Int32Array, source: number, degree: Degree): number[] {
  const maxDepth = degree === '1' ? 1 : degree === '2' ? 2 : 1000;
  const { order, degree: deg } = bfs(adj, source, maxDepth);
  const n = rank.length;
  const keys = new Float64Array(order.length);
  let k = 0;
  for (const v of order) {
    const d = deg.get(v)!;
    if (degree === '1' ? d === 1 : degree === '2' ? d === 2 : d >= 3) keys[k++] = d * n + rank[v]!;
  }
  const sorted = keys.subarray(0, k).sort();
  return Array.from(sorted.subarray(0, PAGE), (x) => x % n);
}

function ranks(urns: string[]): Int32Array {
  const idx = urns.map((_, i) => i).sort((a, b) => (urns[a]! < urns[b]! ? -1 : urns[a]! > urns[b]! ? 1 : 0));
  const rank = new Int32Array(urns.length);
  idx.forEach((id, r) => (rank[id] = r));
  return rank;
}

export interface QueryOptions {
  store: Store;
  limits: LineageLimits;
  gatewayGraphql: string | null;
  token: string;
  runs: number;
  /** Stop repeating a measurement after this much time (≥ 3 samples kept). */
  caseBudgetMs: number;
  naiveTimeoutMs: number;
  progress: (s: string) => void;
}

async function measure(runs: number, budgetMs: number, fn: () => Promise<unknown>): Promise<Summary> {
  await fn(); // warm-up (plan cache, page cache)
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
    if (samples.length >= 3 && performance.now() - t0 > budgetMs) break;
  }
  return summarize(samples);
}

/**
 * A measurement that may fail rather than be slow (at 10M, shipping a hub's 1.2M-node reach passes
 * Neo4j's per-transaction memory cap): null, with the error kept under `name`, so one failure does
 * not end the run.
 */
async function measureOrNote(errors: Record<string, string>, name: string, fn: () => Promise<Summary>): Promise<Summary | null> {
  try {
    return await fn();
  } catch (e) {
    errors[name] = (e as Error).message.slice(0, 300);
    return null;
  }
}

/** No samples: the product's answer failed (the case's `errors.answer` says why). */
const FAILED: Summary = { n: 0, p50: NaN, p95: NaN, max: NaN, mean: NaN };

/** A query's first page once (warm-up, and its cursor), then the first and the next page timed; the error if it failed. */
async function timeFirstAndNext(o: QueryOptions, q: LineageQuery, errors: Record<string, string>) {
  try {
    return await timeFirstAndNextOrThrow(o, q);
  } catch (e) {
    errors.answer = (e as Error).message.slice(0, 300);
    return { first: { total: null, strategy: 'failed', isPartial: false, nextCursor: null }, domainFirst: FAILED, domainNext: null };
  }
}

async function timeFirstAndNextOrThrow(o: QueryOptions, q: LineageQuery) {
  const first = await scrollLineage(o.store, q, { count: PAGE }, o.limits);
  const domainFirst = await measure(o.runs, o.caseBudgetMs, () => scrollLineage(o.store, q, { count: PAGE }, o.limits));
  const domainNext = first.nextCursor
    ? await measure(o.runs, o.caseBudgetMs, () => scrollLineage(o.store, q, { count: PAGE, scrollId: first.nextCursor }, o.limits))
    : null;
  return { first, domainFirst, domainNext };
}

export async function runQueries(g: Graph, o: QueryOptions): Promise<{ cases: QueryCase[]; shapes: ShapeCase[]; profile: unknown }> {
  const entityUrns = g.entities.map((e) => e.urn);
  const down = adjacency(entityUrns.length, g.up, g.down);
  const up = adjacency(entityUrns.length, g.down, g.up);
  const fDown = adjacency(g.fieldUrns.length, g.fieldUp, g.fieldDown);
  const fUp = adjacency(g.fieldUrns.length, g.fieldDown, g.fieldUp);
  const rank = ranks(entityUrns);
  const fRank = ranks(g.fieldUrns);
  const s = g.sources;
  const sources: Array<{ name: string; id: number; field: boolean; directions: Direction[] }> = [
    { name: 'hub', id: s.hub, field: false, directions: ['DOWNSTREAM', 'UPSTREAM'] },
    { name: 'sink hub', id: s.sinkHub, field: false, directions: ['UPSTREAM'] },
    { name: 'mid', id: s.mid, field: false, directions: ['DOWNSTREAM', 'UPSTREAM'] },
    { name: 'leaf', id: s.leaf, field: false, directions: ['DOWNSTREAM', 'UPSTREAM'] },
    { name: 'schemaField', id: s.field, field: true, directions: ['DOWNSTREAM', 'UPSTREAM'] },
  ];
  const cases: QueryCase[] = [];
  for (const src of sources) {
    const urn = src.field ? g.fieldUrns[src.id]! : entityUrns[src.id]!;
    for (const direction of src.directions) {
      for (const degree of DEGREES) {
        const label = `${src.name} ${direction} "${degree}"`;
        const orFilters = [{ and: [{ field: 'degree', values: [degree] }] }];
        const q: LineageQuery = { urn, direction, orFilters };
        const errors: Record<string, string> = {};
        const { first, domainFirst, domainNext } = await timeFirstAndNext(o, q, errors);
        let reachOnly: Summary | null = null;
        let bfsFloor: Summary | null = null;
        if (degree === '3+') {
          const nq = normalizeQuery(q, Date.now());
          reachOnly = await measureOrNote(errors, 'reachOnly', () =>
            measure(o.runs, o.caseBudgetMs, () => reachFast(o.store, nq, o.limits, o.limits.deadlineMs)),
          );
          bfsFloor = await measureOrNote(errors, 'bfsFloor', () =>
            measure(o.runs, o.caseBudgetMs, () => runFloor(o.store.driver, direction, urn)),
          );
        }
        let httpFirst: Summary | null = null;
        let httpNext: Summary | null = null;
        let httpError: string | undefined;
        if (o.gatewayGraphql) {
          try {
            const input = { urn, direction, orFilters, count: PAGE };
            const page = await graphqlScroll(o.gatewayGraphql, o.token, input);
            httpFirst = await measure(o.runs, o.caseBudgetMs, () => graphqlScroll(o.gatewayGraphql!, o.token, input));
            if (page.nextScrollId)
              httpNext = await measure(o.runs, o.caseBudgetMs, () =>
                graphqlScroll(o.gatewayGraphql!, o.token, { ...input, scrollId: page.nextScrollId }),
              );
          } catch (e) {
            httpError = (e as Error).message;
          }
        }
        const adj = src.field ? (direction === 'DOWNSTREAM' ? fDown : fUp) : direction === 'DOWNSTREAM' ? down : up;
        const rk = src.field ? fRank : rank;
        const bfsTimes = await timeRuns(Math.max(o.runs, 5), 1, async () => memoryPage(adj, rk, src.id, degree));
        const maxDepth = degree === '1' ? 1 : degree === '2' ? 2 : 1000;
        const all = bfs(adj, src.id, maxDepth);
        const bfsReach = [...all.degree.values()].filter((d) => (degree === '1' ? d === 1 : degree === '2' ? d === 2 : d >= 3)).length;
        // Planning a var-length query costs ~100 ms: when the naive query finishes quickly, time it again warm.
        let naive = await runNaive(o.store.driver, direction, degree, urn, o.naiveTimeoutMs);
        if (!naive.timedOut && !naive.error && naive.ms < 5000)
          naive = await runNaive(o.store.driver, direction, degree, urn, o.naiveTimeoutMs);
        const c: QueryCase = {
          source: src.name,
          urn,
          direction,
          degree,
          bfsReach,
          total: first.total,
          strategy: first.strategy,
          isPartial: first.isPartial,
          domainFirst,
          domainNext,
          reachOnly,
          bfsFloor,
          httpFirst,
          httpNext,
          ...(httpError ? { httpError } : {}),
          bfs: summarize(bfsTimes.samples),
          naive,
          ...(Object.keys(errors).length ? { errors } : {}),
        };
        cases.push(c);
        o.progress(
          `query ${label}: total ${first.total}, first p50 ${domainFirst.p50} ms${Object.keys(errors).length ? ` (failed: ${JSON.stringify(errors)})` : ''}, next p50 ${domainNext?.p50 ?? '–'} ms, http ${httpFirst?.p50 ?? httpError ?? '–'}, bfs p50 ${c.bfs.p50} ms, naive ${naive.timedOut ? `>${naive.ms}` : naive.ms} ms`,
        );
      }
    }
  }
  const shapes: ShapeCase[] = [];
  const shapeSources = [
    { name: 'hub', urn: entityUrns[s.hub]!, direction: 'DOWNSTREAM' as const, shapes: requestShapes() },
    { name: 'sink hub', urn: entityUrns[s.sinkHub]!, direction: 'UPSTREAM' as const, shapes: requestShapes() },
    { name: 'schemaField', urn: g.fieldUrns[s.field]!, direction: 'DOWNSTREAM' as const, shapes: columnShapes() },
  ];
  for (const { name, urn, direction, shapes: shapesOf } of shapeSources) {
    const floors = new Map<string, Summary | null>();
    for (const { shape, input, domainOnly, reads } of shapesOf as Array<{
      shape: string;
      input: Partial<LineageQuery>;
      domainOnly?: true;
      reads?: string;
    }>) {
      const q: LineageQuery = { urn, direction, ...input };
      const window = q.startTimeMillis != null && q.endTimeMillis != null ? { start: q.startTimeMillis, end: q.endTimeMillis } : null;
      const floorKey = window ? `${window.start}-${window.end}` : 'every edge';
      const errors: Record<string, string> = {};
      if (!floors.has(floorKey))
        floors.set(
          floorKey,
          await measureOrNote(errors, 'floor', () =>
            measure(o.runs, o.caseBudgetMs, () => runFloor(o.store.driver, direction, urn, { window })),
          ),
        );
      const floor = floors.get(floorKey) ?? null;
      const { first, domainFirst, domainNext } = await timeFirstAndNext(o, q, errors);
      let httpFirst: Summary | null = null;
      let httpNext: Summary | null = null;
      let httpError: string | undefined;
      if (o.gatewayGraphql && !domainOnly) {
        try {
          const http = { urn, direction, count: PAGE, ...input };
          const page = await graphqlScroll(o.gatewayGraphql, o.token, http);
          httpFirst = await measure(o.runs, o.caseBudgetMs, () => graphqlScroll(o.gatewayGraphql!, o.token, http));
          if (page.nextScrollId)
            httpNext = await measure(o.runs, o.caseBudgetMs, () =>
              graphqlScroll(o.gatewayGraphql!, o.token, { ...http, scrollId: page.nextScrollId }),
            );
        } catch (e) {
          httpError = (e as Error).message;
        }
      }
      const readFloor = reads
        ? await measureOrNote(errors, 'readFloor', () =>
            measure(o.runs, o.caseBudgetMs, () => runFloor(o.store.driver, direction, urn, { reads })),
          )
        : null;
      const ignored = q.lineageFlags?.ignoreAsHops?.[0]?.entityType;
      const hopFloor =
        ignored && (first.strategy === 'hops' || first.strategy === 'failed')
          ? await measureOrNote(errors, 'hopFloor', () =>
              measure(o.runs, o.caseBudgetMs, () => runHopFloor(o.store.driver, direction, urn, graphqlToEntityType(ignored) ?? ignored)),
            )
          : null;
      shapes.push({
        source: name,
        direction,
        shape,
        total: first.total,
        strategy: first.strategy,
        isPartial: first.isPartial,
        domainFirst,
        domainNext,
        httpFirst,
        httpNext,
        floor,
        readFloor,
        hopFloor,
        ...(httpError ? { httpError } : {}),
        ...(Object.keys(errors).length ? { errors } : {}),
      });
      o.progress(
        `query shape ${name} ${direction} "3+" ${shape}: total ${first.total} (${first.strategy}), first p50 ${domainFirst.p50} ms (floor ${floor?.p50 ?? '–'})${Object.keys(errors).length ? ` (failed: ${JSON.stringify(errors)})` : ''}, next p50 ${domainNext?.p50 ?? '–'} ms, http ${httpFirst?.p50 ?? httpError ?? '–'}`,
      );
    }
  }
  return { cases, shapes, profile: await profileHub(o, entityUrns[s.hub]!) };
}

interface PlanNode {
  operatorType: string;
  dbHits?: number;
  rows?: number;
  pageCacheHits?: number;
  pageCacheMisses?: number;
  time?: number;
  children: PlanNode[];
}

/** PROFILE of the fast-path statement from the hub: where the time of the big case goes. */
async function profileHub(o: QueryOptions, urn: string) {
  const text = o.store.statements[reachStatement('down', 'max', false)];
  const params = { urn, maxHops: neo4j.int(1000), includeSoftDeleted: false, limit: neo4j.int(o.limits.maxResults + 1) };
  const session = o.store.driver.session({ database: 'neo4j', defaultAccessMode: neo4j.session.READ });
  try {
    const t = performance.now();
    const r = await session.run(`PROFILE ${text}`, params, { timeout: 120_000 });
    const ms = performance.now() - t;
    const ops: Array<{ operator: string; dbHits: number; rows: number; pageCacheMisses: number }> = [];
    const walk = (p: PlanNode) => {
      ops.push({
        operator: p.operatorType,
        dbHits: Number(p.dbHits ?? 0),
        rows: Number(p.rows ?? 0),
        pageCacheMisses: Number(p.pageCacheMisses ?? 0),
      });
      p.children.forEach(walk);
    };
    walk(r.summary.profile as unknown as PlanNode);
    return {
      statement: 'lineage/reach-down-max',
      source: urn,
      ms: Math.round(ms),
      records: r.records.length,
      totalDbHits: ops.reduce((a, b) => a + b.dbHits, 0),
      operators: ops,
    };
  } catch (e) {
    return { error: (e as Error).message.slice(0, 300) };
  } finally {
    await session.close();
  }
}
