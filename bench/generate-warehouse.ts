// The second bench graph (`--shape warehouse`): the shape of a large public dbt warehouse instead of
// the synthetic domains of generate.ts. Measured on one with 11.5k nodes and 12.9k edges: out-degree
// median 1, p99 6, max 559; in-degree p99 11, max 72; longest chain 10 hops; a few source tables
// reaching hundreds of models. This generator builds one such project per ~16k lineage edges (a
// "tile": sources, models in up to 8 layers, column lineage on a tenth of the models, charts and
// dashboards reading the top layers) and repeats it with fresh random draws up to the size asked
// for; tiles are independent, as separate dbt projects of one company are. The degree
// distributions are drawn, not copied: `node bench/generate-warehouse.ts --size 100k` prints the
// measured shape beside the target, and bench/README.md keeps both.
import { adjacency, bfs, COLUMNS, datasetUrn, materialise, parseSize, type Entity, type Graph } from './generate.ts';
import { rng } from './lib/rng.ts';

/** One tile's node and edge budget: the measured warehouse. */
const TILE_NODES = 11_500;
const SOURCE_SHARE = 0.22;
/**
 * Models per layer 1..8 (dbt staging → intermediate → marts, a long tail of deep models); charts and
 * dashboards on top make the longest chain 10 hops.
 */
const LAYER_SHARES = [0.32, 0.26, 0.17, 0.11, 0.07, 0.04, 0.02, 0.01];
/** In-degree buckets [min, max, probability]: mostly one parent, a heavy tail up to 72. */
const IN_DEGREE: ReadonlyArray<readonly [number, number, number]> = [
  [1, 1, 0.86],
  [2, 2, 0.07],
  [3, 3, 0.03],
  [4, 6, 0.02],
  [7, 11, 0.012],
  [12, 30, 0.006],
  [31, 72, 0.002],
];
/** Source tables most models start from (users, orders, events …): picked by a 1/rank law. */
const HOT_SOURCES = 6;
const HOT_SOURCE_PICK = 0.38;
/** Within a layer, a popular tenth of the models is picked this often (shared dimensions). */
const POPULAR_PICK = 0.25;
const COLUMN_LINEAGE_SHARE = 0.1;
const CHARTS_PER_TILE = 60;
const CHARTS_PER_DASHBOARD = 6;

export function generateWarehouse(targetEdges: number, seed = 42): Graph {
  const random = rng(seed);
  const entities: Entity[] = [];
  const add = (e: Entity) => entities.push(e) - 1;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const inDegree = () => {
    let r = random();
    for (const [lo, hi, p] of IN_DEGREE) {
      if (r < p) return between(lo, hi);
      r -= p;
    }
    return 1;
  };
  let edges = 0;
  let tile = 0;
  const hotSources: number[] = [];
  const topModels: number[] = [];
  const charts: number[] = [];
  while (edges < targetEdges) {
    const t = String(tile).padStart(3, '0');
    const sources: number[] = [];
    for (let i = 0; i < Math.round(TILE_NODES * SOURCE_SHARE); i++) {
      sources.push(add({ urn: datasetUrn('postgres', `p${t}_raw.src_${i}`), kind: 'dataset', domain: tile, ups: [], layer: 0 }));
    }
    const layers: number[][] = [sources];
    const popular: number[][] = [sources.slice(0, Math.max(1, Math.floor(sources.length / 10)))];
    const models = TILE_NODES - sources.length;
    /** A parent in `layer`: a hot source, a popular model, or any model of the layer. */
    const parentIn = (layer: number) => {
      if (layer === 0 && random() < HOT_SOURCE_PICK) {
        // 1/rank: the first hot source gets the most readers.
        const weights = Array.from({ length: HOT_SOURCES }, (_, r) => 1 / (r + 1));
        let x = random() * weights.reduce((a, b) => a + b, 0);
        for (let r = 0; r < HOT_SOURCES; r++) {
          if ((x -= weights[r]!) <= 0) return sources[r]!;
        }
      }
      return random() < POPULAR_PICK ? pick(popular[layer]!) : pick(layers[layer]!);
    };
    for (let l = 1; l <= LAYER_SHARES.length; l++) {
      const layer: number[] = [];
      const count = Math.max(1, Math.round(models * LAYER_SHARES[l - 1]!));
      for (let i = 0; i < count; i++) {
        const ups = new Set<number>([parentIn(l - 1)]);
        const want = inDegree();
        for (let tries = 0; ups.size < want && tries < want * 4; tries++)
          ups.add(parentIn(random() < 0.5 ? l - 1 : Math.floor(random() * l)));
        const id = add({
          urn: datasetUrn('snowflake', `p${t}_analytics.l${l}_model_${i}`),
          kind: 'dataset',
          domain: tile,
          ups: [...ups],
          layer: l,
        });
        edges += ups.size;
        if (random() < COLUMN_LINEAGE_SHARE) {
          const e = entities[id]!;
          e.fine = Array.from({ length: COLUMNS }, (_, col) => ({ col, up: pick(e.ups) }));
          e.schema = true;
          for (const u of e.ups) entities[u]!.schema = true;
          edges += COLUMNS;
        }
        layer.push(id);
      }
      layers.push(layer);
      popular.push(layer.slice(0, Math.max(1, Math.floor(layer.length / 10))));
    }
    // Exposures: charts read the marts (layers 4 and up), dashboards group charts.
    const marts = layers.slice(4).flat();
    const tileCharts: number[] = [];
    for (let c = 0; c < CHARTS_PER_TILE; c++) {
      const inputs = [...new Set(Array.from({ length: between(1, 3) }, () => pick(marts)))];
      tileCharts.push(
        add({ urn: `urn:li:chart:(looker,p${t}_chart_${c})`, kind: 'chart', domain: tile, ups: inputs, layer: LAYER_SHARES.length + 1 }),
      );
      edges += inputs.length;
    }
    for (let d = 0; d * CHARTS_PER_DASHBOARD < tileCharts.length; d++) {
      const ups = tileCharts.slice(d * CHARTS_PER_DASHBOARD, (d + 1) * CHARTS_PER_DASHBOARD);
      add({ urn: `urn:li:dashboard:(looker,p${t}_dashboard_${d})`, kind: 'dashboard', domain: tile, ups, layer: LAYER_SHARES.length + 2 });
      edges += ups.length;
    }
    hotSources.push(sources[0]!);
    topModels.push(...layers[LAYER_SHARES.length]!);
    charts.push(...tileCharts);
    tile++;
  }
  // Query sources, all in tile 0: the most-read source table (the hub), the deepest model (the
  // sink hub: longest upstream reach), a layer-3 model (mid) and a chart (leaf).
  const hub = hotSources[0]!;
  const sinkHub = topModels[0]!;
  const mid = entities.findIndex((e) => e.domain === 0 && e.layer === 3);
  const leaf = charts[0]!;
  return materialise(seed, targetEdges, entities, { hub, sinkHub, mid, leaf }, { tiles: tile });
}

/** Degree percentiles and the longest chain of a graph's entity edges: what the shape is measured by. */
export function shapeOf(g: Graph): Record<string, number> {
  const n = g.entities.length;
  const out = new Int32Array(n);
  const inn = new Int32Array(n);
  for (let i = 0; i < g.up.length; i++) {
    out[g.up[i]!]!++;
    inn[g.down[i]!]!++;
  }
  const max = (xs: Int32Array) => xs.reduce((a, b) => Math.max(a, b), 0);
  const pct = (xs: Int32Array, p: number) => {
    const sorted = Float64Array.from(xs).sort();
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  };
  // Longest chain: the entity edges form a DAG here (every edge goes to a higher layer).
  const longest = new Int32Array(n);
  const order = [...g.entities.keys()].sort((a, b) => g.entities[a]!.layer - g.entities[b]!.layer);
  const adj = adjacency(n, g.up, g.down);
  let chain = 0;
  for (const u of order) {
    for (let k = adj.offsets[u]!; k < adj.offsets[u + 1]!; k++) {
      const v = adj.targets[k]!;
      if (longest[u]! + 1 > longest[v]!) longest[v] = longest[u]! + 1;
      if (longest[v]! > chain) chain = longest[v]!;
    }
  }
  return {
    outDegreeMedian: pct(out, 0.5),
    outDegreeP99: pct(out, 0.99),
    outDegreeMax: max(out),
    inDegreeMedian: pct(inn, 0.5),
    inDegreeP99: pct(inn, 0.99),
    inDegreeMax: max(inn),
    longestChain: chain,
    hubReachDown: bfs(adj, g.sources.hub, 1000).order.length,
  };
}

// CLI: `node bench/generate-warehouse.ts --size 100k` prints the statistics and the measured shape.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { commandLine } = await import('../tools/cli/command-line.ts');
  const { values } = commandLine('node bench/generate-warehouse.ts [--size 10k] [--seed 42]', {
    options: { size: { type: 'string', default: '10k' }, seed: { type: 'string', default: '42' } },
  });
  const g = generateWarehouse(parseSize(values.size!).edges, Number(values.seed));
  console.log(JSON.stringify({ ...g.stats, shape: shapeOf(g) }, null, 2));
}
