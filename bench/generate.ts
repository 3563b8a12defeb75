// Deterministic (seeded) lineage graph generator for the benchmarks. The graph is held compactly
// (integer ids, adjacency arrays) so the runner can (a) stream it as MCPs through the ingestion
// API, (b) stream the same rows into Neo4j with raw UNWIND…MERGE, and (c) walk it in memory as the
// BFS lower bound — three views of one object, so all three see exactly the same edges.
//
// Shape: many small "domains", each a layered DAG of datasets (fan-in from a narrow window of the
// layer above → many diamonds), a quarter of the transformations done by dataJobs of the domain's
// dataFlow, column-level lineage on a share of datasets, charts / a dashboard / ML keys and
// features at the leaves, and a back edge (cycle) in one domain in ten. Domains are independent
// except through the hubs: a few source hubs feed, via staging datasets, every root of a range of
// domains (≥ 10% of the edge count in downstream nodes: ≥100k at 1M), and a sink hub consumes the
// leaves of a range of domains (a large UPSTREAM reach). Reach from an ordinary node stays local.
import { rng } from './lib/rng.ts';

type Kind = 'dataset' | 'dataJob' | 'dataFlow' | 'chart' | 'dashboard' | 'mlPrimaryKey' | 'mlFeature';

export interface Entity {
  urn: string;
  kind: Kind;
  domain: number;
  /** Upstreams in lineage direction: dataset upstreams, job inputs, chart inputs, dashboard charts, ML sources. */
  ups: number[];
  /** dataJob only: datasets it produces. */
  outs?: number[];
  /** dataJob only: its dataFlow. */
  flow?: number;
  /** Column lineage of this dataset: column k ← column k of dataset up. */
  fine?: Array<{ col: number; up: number }>;
  /** Emits a schemaMetadata aspect (datasets at either end of column lineage). */
  schema?: boolean;
  layer: number;
}

export interface Graph {
  seed: number;
  targetEdges: number;
  entities: Entity[];
  /** Entity-level lineage edges, upstream → downstream, as parallel id arrays. */
  up: Int32Array;
  down: Int32Array;
  /** Column-level edges over field ids (fieldUrns[i]). */
  fieldUrns: string[];
  fieldUp: Int32Array;
  fieldDown: Int32Array;
  /** Named sources for the query workload. */
  sources: { hub: number; sinkHub: number; mid: number; leaf: number; field: number };
  stats: Record<string, number>;
}

export const SIZES: Record<string, number> = {
  '10k': 10_000,
  '100k': 100_000,
  '1m': 1_000_000,
  '1M': 1_000_000,
  '10m': 10_000_000,
  '10M': 10_000_000,
};

/**
 * A size as the runner names it: `10k`, `100k`, `1M`, `4M` (k thousands, M or m millions) or a plain
 * number of edges. The name labels the results file, so a lower-case `m` is written `M`.
 */
export function parseSize(text: string): { name: string; edges: number } {
  const m = /^(\d+)([kmM]?)$/.exec(text);
  if (!m) return { name: text, edges: Number.NaN };
  const unit = m[2] === 'k' ? 1_000 : m[2] ? 1_000_000 : 1;
  return { name: m[2] ? `${m[1]}${m[2] === 'k' ? 'k' : 'M'}` : m[1]!, edges: Number(m[1]) * unit };
}

export const COLUMNS = 4;
export const ACTOR = 'urn:li:corpuser:bench';
export const BASE_TIME = 1_700_000_000_000;

const pad = (n: number, w = 6) => String(n).padStart(w, '0');
export const datasetUrn = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
export const fieldUrn = (dataset: string, col: number) => `urn:li:schemaField:(${dataset},col_${col})`;

export function generate(targetEdges: number, seed = 42): Graph {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const entities: Entity[] = [];
  const add = (e: Entity) => entities.push(e) - 1;
  let edges = 0;
  let fieldEdges = 0;
  const domainRoots: number[][] = [];
  const domainLeaves: number[][] = [];
  const domainSize: number[] = [];
  const fineDatasets: number[] = [];

  // Hubs and their staging layer first (ids are stable whatever the size).
  const hubCount = 3;
  const hubs: number[] = [];
  const hubRaw = add({ urn: datasetUrn('kafka', 'ingest.raw_events'), kind: 'dataset', domain: -1, ups: [], layer: 0 });
  for (let h = 0; h < hubCount; h++)
    hubs.push(add({ urn: datasetUrn('hive', `core.hub_${h}`), kind: 'dataset', domain: -1, ups: [hubRaw], layer: 1 }));
  edges += hubCount;

  // Reserve ~2.5% of the budget for the hub wiring, the rest for domains.
  const domainBudget = Math.floor(targetEdges * 0.975);
  let d = 0;
  while (edges < domainBudget) {
    const platform = pick(['hive', 'snowflake', 'bigquery', 'postgres']);
    const flow = add({ urn: `urn:li:dataFlow:(airflow,domain_${pad(d)},PROD)`, kind: 'dataFlow', domain: d, ups: [], layer: 0 });
    const layers: number[][] = [];
    // 8 layers (staging → intermediate → marts → exposures, as dbt projects go): deep enough that
    // reconverging paths multiply, as they do in real warehouses.
    const widths = [
      3 + Math.floor(random() * 3),
      5 + Math.floor(random() * 4),
      6 + Math.floor(random() * 4),
      6 + Math.floor(random() * 4),
      6 + Math.floor(random() * 4),
      6 + Math.floor(random() * 4),
      5 + Math.floor(random() * 3),
      4 + Math.floor(random() * 3),
    ];
    let size = 0;
    let jobs = 0;
    for (let l = 0; l < widths.length; l++) {
      const layer: number[] = [];
      for (let i = 0; i < widths[l]!; i++) {
        const id = add({ urn: datasetUrn(platform, `d${pad(d)}.l${l}_t${i}`), kind: 'dataset', domain: d, ups: [], layer: l });
        layer.push(id);
        size++;
        if (l === 0) continue;
        const prev = layers[l - 1]!;
        // Fan-in from a narrow window of the layer above: neighbours share parents → diamonds.
        const centre = Math.floor((i / widths[l]!) * prev.length);
        const fanIn = 1 + (random() < 0.6 ? 1 : 0) + (random() < 0.25 ? 1 : 0);
        const ups = new Set<number>();
        for (let k = 0; k < fanIn; k++) ups.add(prev[Math.min(prev.length - 1, Math.max(0, centre - 1 + Math.floor(random() * 3)))]!);
        // A skip edge two layers up now and then: longer diamonds.
        if (l >= 2 && random() < 0.15) ups.add(pick(layers[l - 2]!));
        const upList = [...ups];
        if (random() < 0.25) {
          // The transformation is a job of the domain's flow: inputs → job → this dataset.
          const job = add({
            urn: `urn:li:dataJob:(${entities[flow]!.urn},task_l${l}_${i})`,
            kind: 'dataJob',
            domain: d,
            ups: upList,
            outs: [id],
            flow,
            layer: l,
          });
          jobs++;
          edges += upList.length + 1;
          void job;
        } else {
          const e = entities[id]!;
          e.ups = upList;
          edges += upList.length;
          if (random() < 0.2) {
            e.fine = [];
            for (let c = 0; c < COLUMNS; c++) e.fine.push({ col: c, up: pick(upList) });
            e.schema = true;
            for (const u of upList) entities[u]!.schema = true;
            fineDatasets.push(id);
            fieldEdges += COLUMNS;
          }
        }
      }
      layers.push(layer);
    }
    const roots = layers[0]!;
    const leaves = layers[layers.length - 1]!;
    // A back edge: a root reads a leaf of its own domain → a cycle through the whole domain.
    if (d % 10 === 7) {
      entities[roots[0]!]!.ups.push(leaves[0]!);
      edges++;
    }
    // The edges of the graph: BI and ML consumers of the leaves.
    const charts: number[] = [];
    for (let c = 0; c < 2; c++) {
      const inputs = [...new Set([pick(leaves), pick(leaves)])];
      charts.push(add({ urn: `urn:li:chart:(looker,d${pad(d)}_chart_${c})`, kind: 'chart', domain: d, ups: inputs, layer: 8 }));
      edges += inputs.length;
    }
    add({ urn: `urn:li:dashboard:(looker,d${pad(d)}_dashboard)`, kind: 'dashboard', domain: d, ups: charts, layer: 9 });
    edges += charts.length;
    add({ urn: `urn:li:mlPrimaryKey:(d${pad(d)}_features,entity_id)`, kind: 'mlPrimaryKey', domain: d, ups: [pick(leaves)], layer: 8 });
    add({ urn: `urn:li:mlFeature:(d${pad(d)}_features,score)`, kind: 'mlFeature', domain: d, ups: [pick(layers[5]!)], layer: 8 });
    edges += 2;
    size += jobs + 5;
    domainRoots.push(roots);
    domainLeaves.push(leaves);
    domainSize.push(size);
    d++;
    if (edges + fieldEdges >= domainBudget) break;
  }
  const domains = d;

  // Hub wiring: each source hub reaches ≥ 12% of the edge target in downstream nodes.
  const avgSize = domainSize.reduce((a, b) => a + b, 0) / Math.max(1, domains);
  const perHub = Math.min(domains, Math.ceil((0.12 * targetEdges) / avgSize));
  const stagingPerHub = Math.max(2, Math.ceil(Math.sqrt(perHub)));
  const step = Math.floor(domains / hubCount);
  for (let h = 0; h < hubCount; h++) {
    const staging: number[] = [];
    for (let s = 0; s < stagingPerHub; s++) {
      staging.push(
        add({ urn: datasetUrn('hive', `core.hub_${h}_staging_${pad(s, 3)}`), kind: 'dataset', domain: -1, ups: [hubs[h]!], layer: 2 }),
      );
      edges++;
    }
    for (let k = 0; k < perHub; k++) {
      const dom = (h * step + k) % domains;
      const st = staging[k % stagingPerHub]!;
      for (const r of domainRoots[dom]!) {
        entities[r]!.ups.push(st);
        edges++;
      }
    }
  }
  // Sink hub: consumes, through collector datasets, every leaf of a range of domains → a large
  // UPSTREAM reach (the mirror image of the source hubs).
  const collectors: number[] = [];
  const sinkStart = Math.floor(step / 2);
  for (let k = 0; k < perHub; k++) {
    if (k % stagingPerHub === 0)
      collectors.push(
        add({ urn: datasetUrn('hive', `core.audit_collect_${pad(collectors.length, 3)}`), kind: 'dataset', domain: -1, ups: [], layer: 6 }),
      );
    const c = entities[collectors.at(-1)!]!;
    for (const leaf of domainLeaves[(sinkStart + k) % domains]!) {
      c.ups.push(leaf);
      edges++;
    }
  }
  const sinkHub = add({ urn: datasetUrn('hive', 'core.audit_all_tables'), kind: 'dataset', domain: -1, ups: collectors, layer: 7 });
  edges += collectors.length;

  const hub = hubs[0]!;
  // Mid: between a hub and the leaves (a staging dataset of hub 0, feeding ~sqrt(domainsPerHub) domains).
  const mid = entities.findIndex((e) => e.urn === datasetUrn('hive', 'core.hub_0_staging_000'));
  const midDomain = 0;
  const leaf = entities.findIndex((e) => e.kind === 'dashboard' && e.domain === midDomain);
  return materialise(
    seed,
    targetEdges,
    entities,
    { hub, sinkHub, mid, leaf },
    {
      domains,
      columnLineageDatasets: fineDatasets.length,
      domainsPerHub: perHub,
      stagingPerHub,
    },
  );
}

/**
 * The edge arrays, column edges and statistics of a generated entity list (any shape). The
 * schemaField source is the column whose downstream field reach is largest (deterministic).
 */
export function materialise(
  seed: number,
  targetEdges: number,
  entities: Entity[],
  sources: Omit<Graph['sources'], 'field'>,
  shapeStats: Record<string, number>,
): Graph {
  const ups: number[] = [];
  const downs: number[] = [];
  const fieldIds = new Map<string, number>();
  const fieldUrns: string[] = [];
  const fid = (urn: string) => {
    let i = fieldIds.get(urn);
    if (i === undefined) {
      i = fieldUrns.push(urn) - 1;
      fieldIds.set(urn, i);
    }
    return i;
  };
  const fUp: number[] = [];
  const fDown: number[] = [];
  for (let id = 0; id < entities.length; id++) {
    const e = entities[id]!;
    for (const u of e.ups) {
      ups.push(u);
      downs.push(id);
    }
    if (e.outs)
      for (const o of e.outs) {
        ups.push(id);
        downs.push(o);
      }
    if (e.fine) {
      for (const f of e.fine) {
        fUp.push(fid(fieldUrn(entities[f.up]!.urn, f.col)));
        fDown.push(fid(fieldUrn(e.urn, f.col)));
      }
    }
  }
  const fieldAdj = adjacency(fieldUrns.length, Int32Array.from(fUp), Int32Array.from(fDown));
  let field = 0;
  let best = -1;
  for (let i = 0; i < Math.min(fieldUrns.length, 20_000); i++) {
    const n = bfs(fieldAdj, i, 1000).order.length;
    if (n > best) {
      best = n;
      field = i;
    }
  }
  const counts: Record<string, number> = {};
  for (const e of entities) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return {
    seed,
    targetEdges,
    entities,
    up: Int32Array.from(ups),
    down: Int32Array.from(downs),
    fieldUrns,
    fieldUp: Int32Array.from(fUp),
    fieldDown: Int32Array.from(fDown),
    sources: { ...sources, field },
    stats: {
      ...shapeStats,
      entities: entities.length,
      entityEdges: ups.length,
      fieldEdges: fUp.length,
      lineageEdges: ups.length + fUp.length,
      fieldNodes: fieldUrns.length,
      ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [`${k}s`, v])),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// In-memory traversal: the lower bound of a reachable-set computation.

export interface Adjacency {
  offsets: Int32Array;
  targets: Int32Array;
}

/** CSR adjacency (outgoing) from parallel edge arrays. */
export function adjacency(n: number, from: Int32Array, to: Int32Array): Adjacency {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < from.length; i++) offsets[from[i]! + 1]!++;
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) targets[fill[from[i]!]!++] = to[i]!;
  return { offsets, targets };
}

/** Level-synchronous BFS: visit order and minimum degree of every node reached (source excluded). */
export function bfs(adj: Adjacency, source: number, maxDepth: number): { order: number[]; degree: Map<number, number> } {
  const degree = new Map<number, number>([[source, 0]]);
  const order: number[] = [];
  let frontier = [source];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let k = adj.offsets[u]!; k < adj.offsets[u + 1]!; k++) {
        const v = adj.targets[k]!;
        if (degree.has(v)) continue;
        degree.set(v, depth);
        next.push(v);
        order.push(v);
      }
    }
    frontier = next;
  }
  return { order, degree };
}

export function countProposals(g: Graph): { phase1: number; phase2: number } {
  let phase1 = 0;
  let phase2 = 0;
  for (let id = 0; id < g.entities.length; id++) {
    const e = g.entities[id]!;
    phase1 += e.kind === 'dataset' && e.schema ? 2 : 1;
    if (e.kind !== 'dataFlow' && (e.kind !== 'dataset' || e.ups.length)) phase2++;
  }
  return { phase1, phase2 };
}

// CLI: `node bench/generate.ts --size 10k` prints the graph's statistics.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { commandLine } = await import('../tools/cli/command-line.ts');
  const { values } = commandLine('node bench/generate.ts [--size 10k] [--seed 42]', {
    options: { size: { type: 'string', default: '10k' }, seed: { type: 'string', default: '42' } },
  });
  const t0 = performance.now();
  const g = generate(parseSize(values.size!).edges, Number(values.seed));
  const t1 = performance.now();
  const adj = adjacency(g.entities.length, g.up, g.down);
  const radj = adjacency(g.entities.length, g.down, g.up);
  const reach = Object.fromEntries(
    Object.entries(g.sources)
      .filter(([k]) => k !== 'field')
      .flatMap(([k, id]) => [
        [`${k}.down`, bfs(adj, id, 1000).order.length],
        [`${k}.up`, bfs(radj, id, 1000).order.length],
      ]),
  );
  const fadj = adjacency(g.fieldUrns.length, g.fieldUp, g.fieldDown);
  const rfadj = adjacency(g.fieldUrns.length, g.fieldDown, g.fieldUp);
  Object.assign(reach, {
    'field.down': bfs(fadj, g.sources.field, 1000).order.length,
    'field.up': bfs(rfadj, g.sources.field, 1000).order.length,
  });
  console.log(JSON.stringify({ generatedMs: Math.round(t1 - t0), ...g.stats, ...countProposals(g), reach }, null, 2));
}
