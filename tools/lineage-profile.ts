// Measures the lineage query shapes on a ~10k-edge graph (built through writeAspects, the one write
// path) and prints PROFILE db hits, rows and latency per shape. It is how the design of
// catalog/src/lineage was chosen; rerun it after touching cypher/lineage.
//
//   node tools/lineage-profile.ts [--uri bolt://127.0.0.1:7688] [--edges 10000] [--runs 5]
//
// The graph lives under its own platform name (lineageprofile<edges>) and is reused when present,
// so the tool can run repeatedly against a shared server without rebuilding or touching others' data.
import { commandLine } from './cli/command-line.ts';
import { createStore, int, type Store } from '../catalog/src/store/store.ts';
import { writeAspects, type AspectChange } from '../catalog/src/write/aspect-writer.ts';
import { entityExistence } from '../catalog/src/read/aspect-reader.ts';
import { parseUrn } from '../catalog/src/model/urn.ts';
import { scrollLineage, type LineagePage, type LineageQuery } from '../catalog/src/read/lineage/service.ts';
import { normalizeQuery } from '../catalog/src/read/lineage/query.ts';
import { reachByHops } from '../catalog/src/read/lineage/traverse.ts';
// The bench's seeded random source (mulberry32): the same graph on every machine.
import { rng } from '../bench/lib/rng.ts';

const { values: args } = commandLine('node tools/lineage-profile.ts [--uri bolt://127.0.0.1:7688] [--edges 10000] [--runs 5]', {
  options: {
    uri: { type: 'string', default: process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7688' },
    edges: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
  },
});
const EDGES = Number(args.edges);
const RUNS = Number(args.runs);
const LAYERS = 10;
const FAN_IN = 4;
// Layers of datasets; every dataset past layer 0 has FAN_IN upstreams in the layer before, so the
// number of distinct paths explodes with depth (4^9 into the last layer) while nodes stay few.
const PER_LAYER = Math.ceil(EDGES / ((LAYERS - 1) * FAN_IN));
const platform = `lineageprofile${EDGES}`;
const ds = (layer: number, i: number) => `urn:li:dataset:(urn:li:dataPlatform:${platform},l${layer}.t${String(i).padStart(5, '0')},PROD)`;

const upsert = (urn: string, aspectName: string, value: unknown, lastObserved: number): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved },
});

async function build(store: Store): Promise<void> {
  const last = parseUrn(ds(LAYERS - 1, PER_LAYER - 1));
  const existing = await entityExistence(store, [last]);
  // The lineage of the last dataset is written last: its existence means the graph is complete.
  const lastHasLineage = await store.read((tx) =>
    tx.run<{ owner: string }>('edges/owned-by', { rows: [{ owner: last.text, aspect: 'upstreamLineage' }] }),
  );
  if (existing.get(last.text)?.exists && lastHasLineage.length > 0) {
    console.log(`graph ${platform} present: reusing it`);
    return;
  }
  const t0 = Date.now();
  const opts = { actor: 'urn:li:corpuser:profiler', existenceMode: 'strict' as const };
  const random = rng(42);
  const all: string[] = [];
  for (let l = 0; l < LAYERS; l++) for (let i = 0; i < PER_LAYER; i++) all.push(ds(l, i));
  for (let i = 0; i < all.length; i += 500) {
    await writeAspects(
      store,
      all
        .slice(i, i + 500)
        .map((u) => upsert(u, 'datasetProperties', { name: parseUrn(u).parts[1], description: 'profiled table' }, 1_700_000_000_000)),
      opts,
    );
  }
  const lineage: AspectChange[] = [];
  for (let l = 1; l < LAYERS; l++) {
    for (let i = 0; i < PER_LAYER; i++) {
      const ups = new Set<string>();
      while (ups.size < FAN_IN) ups.add(ds(l - 1, Math.floor(random() * PER_LAYER)));
      // Edge times spread over 10 days so a window keeps some edges and drops others.
      const time = 1_700_000_000_000 + Math.floor(random() * 10) * 86_400_000;
      lineage.push(
        upsert(
          ds(l, i),
          'upstreamLineage',
          {
            upstreams: [...ups].map((dataset) => ({
              dataset,
              type: 'TRANSFORMED',
              created: { time, actor: opts.actor },
              auditStamp: { time, actor: opts.actor },
            })),
          },
          time,
        ),
      );
    }
  }
  for (let i = 0; i < lineage.length; i += 200) await writeAspects(store, lineage.slice(i, i + 200), opts);
  console.log(`built ${all.length} datasets, ${lineage.length * FAN_IN} lineage edges in ${Date.now() - t0} ms`);
}

interface PlanNode {
  operatorType: string;
  dbHits?: number;
  rows?: number;
  children: PlanNode[];
}
const dbHitsOf = (p: PlanNode): number => (p.dbHits ?? 0) + p.children.reduce((s, c) => s + dbHitsOf(c), 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function profileShape(store: Store, label: string, text: string, params: Record<string, unknown>): Promise<void> {
  const session = store.driver.session({ database: store.database, defaultAccessMode: 'READ' });
  try {
    const prof = await session.run(`PROFILE ${text}`, params, { timeout: 60_000 });
    const plan = prof.summary.profile as unknown as PlanNode;
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const r = await session.run(text, params, { timeout: 60_000 });
      times.push(performance.now() - t);
      rows = r.records.length;
    }
    const expand = (function find(p: PlanNode): string | undefined {
      return p.operatorType.includes('Expand') || p.operatorType.includes('ShortestPath')
        ? p.operatorType
        : p.children.map(find).find(Boolean);
    })(plan);
    console.log(
      `${label.padEnd(58)} dbHits=${String(dbHitsOf(plan)).padStart(9)} rows=${String(rows).padStart(6)} median=${median(times).toFixed(1).padStart(7)} ms  ${expand ?? ''}`,
    );
  } catch (e) {
    console.log(`${label.padEnd(58)} FAILED: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await session.close();
  }
}

async function timeIt(label: string, fn: () => Promise<string>): Promise<void> {
  const times: number[] = [];
  let info = '';
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    info = await fn();
    times.push(performance.now() - t);
  }
  console.log(`${label.padEnd(58)} median=${median(times).toFixed(1).padStart(7)} ms  ${info}`);
}

/** What answered a page and the plan's first reason: why it came from Neo4j, or was streamed. */
function answeredBy(p: LineagePage): string {
  return `total=${p.total} by=${p.strategy}${p.isPartial ? ' partial' : ''} — ${p.plan.reasons[0] ?? ''}`;
}

// The in-database alternative to paging in the service: reachable set, facets, total and one
// keyset page in one statement. Kept here (not in cypher/) because measurement rejected it.
const IN_DB_PAGE = `
MATCH (s:Entity {urn: $urn})
MATCH p = (s)-[rs:LINEAGE*1..1000]->(n:Entity)
WHERE all(r IN rs WHERE $unwindowed OR r.manual OR (coalesce(r.createdOn, 0) = 0 AND coalesce(r.updatedOn, 0) = 0)
      OR (r.createdOn >= $start AND r.createdOn <= $end) OR (r.updatedOn >= $start AND r.updatedOn <= $end))
WITH n, min(length(p)) AS degree
WHERE n.urn <> $urn AND n.exists AND NOT coalesce(n.removed, false) AND n.entityType IN $types
WITH collect({urn: n.urn, degree: degree, type: n.entityType, platform: n.platform, origin: n.origin}) AS xs
RETURN size(xs) AS total,
  [d IN [1, 2, 3] | size([x IN xs WHERE (d < 3 AND x.degree = d) OR (d = 3 AND x.degree >= 3)])] AS degreeFacet,
  COLLECT { UNWIND xs AS x WITH x.platform AS v, count(*) AS c ORDER BY c DESC LIMIT 20 RETURN {value: v, count: c} } AS platformFacet,
  COLLECT { UNWIND xs AS x WITH x WHERE x.degree > $afterDegree OR (x.degree = $afterDegree AND x.urn > $afterUrn)
            RETURN x ORDER BY x.degree, x.urn LIMIT $count } AS page`;

async function main(): Promise<void> {
  const store = createStore({ uri: args.uri, database: 'neo4j' });
  try {
    await store.applySchema();
    await build(store);
    const src = ds(0, 0);
    const deep = ds(LAYERS - 1, 0);
    const common = {
      urn: src,
      includeSoftDeleted: false,
      maxHops: int(1000),
      limit: int(1_000_001),
      unwindowed: true,
      start: int(0),
      end: int(0),
    };
    const windowed = { ...common, unwindowed: false, start: int(1_700_000_000_000), end: int(1_700_000_000_000 + 3 * 86_400_000) };
    const st = store.statements;
    console.log(`\nsource ${src}\n`);
    await profileShape(store, 'reach-down-1 (fast path, 1 hop)', st['lineage/reach-down-1'], common);
    await profileShape(store, 'reach-down-2 (fast path, 2 hops)', st['lineage/reach-down-2'], common);
    await profileShape(store, 'reach-down-max (fast path, all rows to the service)', st['lineage/reach-down-max'], common);
    await profileShape(store, 'reach-down-max with a 3-day window', st['lineage/reach-down-max'], windowed);
    await profileShape(store, 'reach-up-max from the last layer', st['lineage/reach-up-max'], { ...common, urn: deep });
    await profileShape(store, 'in-DB page+facets (one statement, first page)', IN_DB_PAGE, {
      ...common,
      types: ['dataset'],
      afterDegree: int(0),
      afterUrn: '',
      count: int(10),
    });
    await profileShape(store, 'in-DB page+facets (a later page)', IN_DB_PAGE, {
      ...common,
      types: ['dataset'],
      afterDegree: int(5),
      afterUrn: ds(5, 100),
      count: int(10),
    });
    const [source] = await store.read((tx) => tx.run<{ id: string }>('lineage/node-id', { urn: src }));
    await profileShape(store, 'hop-down: one hop of the fallback (frontier = source)', st['lineage/hop-down'], {
      frontier: [source!.id],
      unwindowed: true,
      start: int(0),
      end: int(0),
      includeSoftDeleted: false,
      strings: false,
    });
    // What the BFS rewrite saves: the same traversal with an aggregate that defeats it, depth 4.
    for (const depth of [4, 6, 8, 10]) {
      await profileShape(
        store,
        `NO pruning (count(*) in the horizon), depth ${depth} only`,
        `MATCH (s:Entity {urn: $urn}) MATCH p = (s)-[:LINEAGE*1..${depth}]->(n:Entity) WITH n, min(length(p)) AS degree, count(*) AS paths RETURN n.urn, degree, paths`,
        common,
      );
    }
    await profileShape(store, 'paths-down for a page of 10', st['lineage/paths-down'], {
      urn: src,
      targets: Array.from({ length: 10 }, (_, i) => ds(LAYERS - 1, i)),
      unwindowed: true,
      start: int(0),
      end: int(0),
    });

    const limits = { maxHops: 1000, maxResults: 1_000_000, deadlineMs: 30_000 };
    const q: LineageQuery = { urn: src, direction: 'DOWNSTREAM' };
    console.log('');
    await timeIt('scrollLineage first page (count 10), end to end', async () => {
      const p = await scrollLineage(store, q, { count: 10 }, limits);
      return answeredBy(p);
    });
    await timeIt('scrollLineage first page with paths', async () => {
      const p = await scrollLineage(store, { ...q, includePaths: true }, { count: 10 }, limits);
      return answeredBy(p);
    });
    await timeIt('scrollLineage, degree filter "1"', async () => {
      const p = await scrollLineage(store, { ...q, orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }] }, { count: 10 }, limits);
      return answeredBy(p);
    });
    await timeIt('hop-by-hop (fallback / per-hop limits), whole reach', async () => {
      const r = await reachByHops(store, normalizeQuery(q, Date.now()), limits, Date.now() + 30_000);
      return `rows=${r.rows.length}`;
    });
    await timeIt('hop-by-hop with entitiesExploredPerHopLimit 3', async () => {
      const p = await scrollLineage(store, { ...q, lineageFlags: { entitiesExploredPerHopLimit: 3 } }, { count: 10 }, limits);
      return answeredBy(p);
    });
  } finally {
    await store.close();
  }
}

await main();
