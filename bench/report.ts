// Renders a results JSON as the markdown block bench/README.md keeps per size (replaced in place
// between markers, so each size shows its latest run).
import { readFileSync, writeFileSync } from 'node:fs';
import { fmtInt, fmtMs, type Summary } from './lib/stats.ts';
import type { QueryCase, ShapeCase } from './workloads/query.ts';
import type { BenchResult, TargetCheck } from './result.ts';

const ms = (s: Summary | null | undefined) => (s ? fmtMs(s.p50) : '–');
const trio = (s: Summary | null | undefined) => (s ? `${fmtMs(s.p50)} / ${fmtMs(s.p95)} / ${fmtMs(s.max)}` : '–');

/** One row of a throughput table: what ran, how many, in how long, how many a second, the latency. */
interface ThroughputRow {
  what: string;
  count: string;
  ms?: number;
  perSecond: string;
  latency: Summary | null | undefined;
}

/** A workload's throughput table, absent rows left out. */
function throughputTable(head: string, rows: readonly (ThroughputRow | false | null | undefined)[]): string[] {
  const line = (t: ThroughputRow) =>
    `| ${t.what} | ${t.count} | ${t.ms === undefined ? '–' : (t.ms / 1000).toFixed(1)} | ${t.perSecond} | ${trio(t.latency)} |`;
  return [head, '|---|---:|---:|---:|---|', ...rows.flatMap((t) => (t ? [line(t)] : []))];
}

export function checkTargets(r: BenchResult): TargetCheck[] {
  const out: TargetCheck[] = [];
  const hub = r.query?.cases.find((c) => c.source === 'hub' && c.direction === 'DOWNSTREAM' && c.degree === '3+');
  const at1M = r.size.edges >= 1_000_000 * 0.9;
  const scale = at1M ? '' : ` (target is set at 1M; measured at ${r.size.label})`;
  if (hub?.errors?.answer) {
    out.push({ target: `hub DOWNSTREAM "3+" first page ≤ 300 ms p50${scale}`, measured: `failed: ${hub.errors.answer}`, met: false });
  } else if (hub) {
    out.push({
      target: `hub DOWNSTREAM "3+" first page ≤ 300 ms p50${scale}`,
      measured: `${fmtMs(hub.domainFirst.p50)} ms (${fmtInt(hub.total ?? NaN)} results)`,
      met: hub.domainFirst.p50 <= 300,
    });
    out.push({
      target: `hub DOWNSTREAM "3+" next page ≤ 20 ms p50${scale}`,
      measured: `${ms(hub.domainNext)} ms`,
      met: hub.domainNext ? hub.domainNext.p50 <= 20 : null,
    });
    const ratio = hub.domainFirst.p50 / hub.bfs.p50;
    out.push({
      target: 'hub "3+" first page ≤ 10× in-process BFS',
      measured: `${ratio.toFixed(1)}× (${fmtMs(hub.domainFirst.p50)} vs ${fmtMs(hub.bfs.p50)} ms)`,
      met: ratio <= 10,
    });
    if (hub.naive) {
      const speedup = hub.naive.ms / hub.domainFirst.p50;
      out.push({
        target: 'hub "3+" ≥ 10× faster than the naive path query',
        measured: `${hub.naive.timedOut ? '≥ ' : ''}${speedup.toFixed(1)}× (naive ${hub.naive.timedOut ? `stopped at ${fmtInt(hub.naive.ms)}` : fmtInt(hub.naive.ms)} ms)`,
        met: speedup >= 10,
      });
    }
  }
  const allShapes = r.query?.shapes ?? [];
  // A shape whose answer failed (errors.answer) has no time: it counts as missed and is named.
  const failedShapes = allShapes.filter((c) => c.errors?.answer);
  const shapes = allShapes.filter((c) => !c.errors?.answer);
  const label = (c: ShapeCase) => `${c.source} ${c.shape}`;
  const failedNote = failedShapes.length ? `; ${failedShapes.length} failed (${failedShapes.map(label).join(', ')})` : '';
  if (shapes.length) {
    const worstFirst = shapes.reduce((a, b) => (b.domainFirst.p50 > a.domainFirst.p50 ? b : a));
    out.push({
      target: `every request shape: first page ≤ 300 ms p50${scale}`,
      measured: `worst ${fmtMs(worstFirst.domainFirst.p50)} ms (${label(worstFirst)}); ${shapes.filter((c) => c.domainFirst.p50 <= 300).length} of ${allShapes.length} met${failedNote}`,
      met: worstFirst.domainFirst.p50 <= 300 && !failedShapes.length,
    });
    const withFloor = shapes.filter((c) => c.floor);
    if (withFloor.length) {
      const ratio = (c: ShapeCase) => c.domainFirst.p50 / c.floor!.p50;
      const worst = withFloor.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
      out.push({
        target: "every request shape: first page ≤ 3× the engine's floor",
        measured: `worst ${ratio(worst).toFixed(1)}× (${label(worst)}: ${fmtMs(worst.domainFirst.p50)} vs ${fmtMs(worst.floor!.p50)} ms); ${withFloor.filter((c) => ratio(c) <= 3).length} of ${withFloor.length} met`,
        met: ratio(worst) <= 3,
      });
    }
    const nexts = shapes.filter((c) => c.domainNext);
    if (nexts.length) {
      const worst = nexts.reduce((a, b) => (b.domainNext!.p50 > a.domainNext!.p50 ? b : a));
      out.push({
        target: 'every request shape: next page ≤ 20 ms p50',
        measured: `worst ${fmtMs(worst.domainNext!.p50)} ms (${label(worst)})`,
        met: worst.domainNext!.p50 <= 20,
      });
    }
  }
  const d1 = r.query?.cases.filter((c) => c.degree === '1' && !c.errors?.answer) ?? [];
  if (d1.length) {
    const worst = d1.reduce((a, b) => (b.domainFirst.p50 > a.domainFirst.p50 ? b : a));
    out.push({
      target: 'degree "1" first page ≤ 20 ms p50 (every source, both directions)',
      measured: `worst ${fmtMs(worst.domainFirst.p50)} ms (${worst.source} ${worst.direction})`,
      met: worst.domainFirst.p50 <= 20,
    });
  }
  if (r.ingest?.api) {
    out.push({ target: 'ingest ≥ 5,000 MCP/s', measured: `${fmtInt(r.ingest.api.mcpPerSec)} MCP/s`, met: r.ingest.api.mcpPerSec >= 5000 });
    if (r.ingest.raw) {
      const share = r.ingest.api.mcpPerSec / r.ingest.raw.mcpPerSec;
      out.push({
        target: 'ingest ≥ 1/3 of raw UNWIND…MERGE',
        measured: `${(share * 100).toFixed(0)}% (raw ${fmtInt(r.ingest.raw.mcpPerSec)} MCP/s)`,
        met: share >= 1 / 3,
      });
    }
  }
  if (r.openlineage) {
    out.push({
      target: 'OpenLineage ≥ 2,000 events/s (batch route, 2 inputs, 1 output, column lineage)',
      measured: `${fmtInt(r.openlineage.eventsPerSec)} events/s (${fmtInt(r.openlineage.events)} events, ${fmtInt(r.openlineage.lineageEdges)} lineage edges)`,
      met: r.openlineage.eventsPerSec >= 2000,
    });
  }
  if (r.restore?.full)
    out.push({
      target: 'full restore ≥ 5,000 rows/s',
      measured: `${fmtInt(r.restore.full.rowsPerSec)} rows/s`,
      met: r.restore.full.rowsPerSec >= 5000,
    });
  const peaks: Record<string, number> = {};
  for (const w of Object.values(r.memory ?? {})) {
    for (const [name, mb] of Object.entries(w.peakRssMb))
      if (name !== 'neo4j' && !name.startsWith('bench')) peaks[name] = Math.max(peaks[name] ?? 0, mb);
  }
  if (Object.keys(peaks).length) {
    const worst = Object.entries(peaks).sort((a, b) => b[1] - a[1])[0]!;
    out.push({
      target: 'each service ≤ 256 MB RSS',
      measured: Object.entries(peaks)
        .map(([n, v]) => `${n} ${v} MB`)
        .join(', '),
      met: worst[1] <= 256,
    });
  }
  return out;
}

/** The same walk's baselines from the degree cases: the in-process BFS and the naive path query at "3+". */
function baselineOf(r: BenchResult, c: ShapeCase): QueryCase | undefined {
  return r.query?.cases.find((q) => q.source === c.source && q.direction === c.direction && q.degree === '3+');
}

function shapeTable(r: BenchResult, shapes: ShapeCase[]): string[] {
  const rows = [
    '| source | dir | "3+" and … | results | first p50 / p95 / max (ms) | × floor | next p50 | HTTP first / next p50 | engine floor p50 | floor reading the strings / walking by hops p50 | in-memory BFS p50 | naive path query |',
    '|---|---|---|---:|---|---:|---:|---|---:|---:|---:|---|',
  ];
  for (const c of shapes) {
    const how = `${c.strategy && c.strategy !== 'none' ? ` (${c.strategy})` : ''}${c.isPartial ? ' partial' : ''}`;
    const base = baselineOf(r, c);
    const naive = !base?.naive
      ? '–'
      : base.naive.timedOut
        ? `stopped at ${fmtInt(base.naive.ms)} ms`
        : base.naive.error
          ? 'error'
          : `${fmtInt(base.naive.ms)} ms`;
    const ratio = c.floor ? `${(c.domainFirst.p50 / c.floor.p50).toFixed(1)}×` : '–';
    const http = c.httpError ? 'error' : `${ms(c.httpFirst)} / ${ms(c.httpNext ?? null)}`;
    rows.push(
      `| ${c.source} | ${c.direction === 'DOWNSTREAM' ? 'down' : 'up'} | ${c.shape} | ${fmtInt(c.total ?? NaN)}${how} | ${trio(c.domainFirst)} | ${ratio} | ${ms(c.domainNext)} | ${http} | ${ms(c.floor ?? null)} | ${ms(c.readFloor ?? c.hopFloor ?? null)} | ${ms(base?.bfs ?? null)} | ${naive} |`,
    );
  }
  return rows;
}

function queryTable(cases: QueryCase[]): string[] {
  const rows = [
    '| source | dir | degree | results | first p50 / p95 / max (ms) | next p50 | Neo4j BFS count only p50 | Neo4j reach shipped p50 | HTTP first p50 | HTTP next p50 | in-memory BFS p50 | naive path query |',
    '|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const c of cases) {
    const naive = !c.naive
      ? '–'
      : c.naive.timedOut
        ? `stopped at ${fmtInt(c.naive.ms)} ms${c.naive.error ? ` (${c.naive.error})` : ''}`
        : c.naive.error
          ? `error`
          : `${fmtInt(c.naive.ms)} ms (${fmtInt(c.naive.paths ?? NaN)} paths)`;
    const how = `${c.strategy && c.strategy !== 'none' ? ` (${c.strategy})` : ''}${c.isPartial ? ' partial' : ''}`;
    rows.push(
      `| ${c.source} | ${c.direction === 'DOWNSTREAM' ? 'down' : 'up'} | ${c.degree} | ${fmtInt(c.total ?? NaN)}${how} | ${trio(c.domainFirst)} | ${ms(c.domainNext)} | ${ms(c.bfsFloor ?? null)} | ${ms(c.reachOnly)} | ${c.httpError ? 'error' : ms(c.httpFirst)} | ${ms(c.httpNext)} | ${ms(c.bfs)} | ${naive} |`,
    );
  }
  return rows;
}

function renderMarkdown(r: BenchResult): string {
  const L: string[] = [];
  const m = r.machine;
  L.push(`### ${r.size.label} — ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC (results/${r.file})`);
  L.push('');
  L.push(
    `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB, load average at start ${m.loadAvg.join(' / ')}; Node ${m.node}; Neo4j ${m.neo4j} (heap ${r.config.heap}, page cache ${r.config.pageCache}${r.config.checkpointInterval === undefined ? '' : `, checkpoint every ${r.config.checkpointInterval}, checkpoint IO limit ${r.config.checkpointIopsLimit}`}); ${r.config.quiet ? 'machine quiet' : '**machine shared with other work: noisy numbers**'}.`,
  );
  const g = (k: string): number => r.graph[k] ?? NaN;
  if (r.graph.tiles !== undefined) {
    // The warehouse shape (bench/generate-warehouse.ts): its measured degrees beside the target.
    L.push(
      `Shape: warehouse (${fmtInt(g('tiles'))} dbt-project tiles); out-degree median / p99 / max ${g('outDegreeMedian')} / ${g('outDegreeP99')} / ${fmtInt(g('outDegreeMax'))} (target 1 / 6 / 559), in-degree p99 / max ${g('inDegreeP99')} / ${g('inDegreeMax')} (target 11 / 72), longest chain ${g('longestChain')} hops (target 10); the hub is the most-read source table of tile 0.`,
    );
  }
  L.push(
    `Graph (seed ${r.config.seed}): ${fmtInt(g('lineageEdges'))} lineage edges (${fmtInt(g('entityEdges'))} entity-level, ${fmtInt(g('fieldEdges'))} column-level), ${fmtInt(g('entities'))} entities (${fmtInt(g('datasets'))} datasets, ${fmtInt(g('dataJobs'))} jobs, ${fmtInt(g('charts'))} charts, ${fmtInt(g('dashboards'))} dashboards, ${fmtInt(g('mlPrimaryKeys') + g('mlFeatures'))} ML), ${fmtInt(g('fieldNodes'))} schemaFields, ${fmtInt(g('domains'))} domains; hub reaches ${fmtInt(r.hubReach)} nodes downstream${r.loaded?.storeMb ? `; store ${fmtInt(r.loaded.storeMb)} MB on disk ${r.ingest?.raw ? "after both loads (the dropped raw copy's space is reused, not returned)" : 'after the load (the data directory, transaction logs not yet pruned included)'}` : ''}. Run took ${fmtInt(r.totalMs / 1000)} s.`,
  );
  L.push('');
  L.push('| target | measured | met |');
  L.push('|---|---|---|');
  for (const t of checkTargets(r)) L.push(`| ${t.target} | ${t.measured} | ${t.met === null ? '–' : t.met ? 'yes' : '**no**'} |`);
  L.push('');
  if (r.ingest) {
    const { raw: rawRun, api: apiRun } = r.ingest;
    const mcpRow = (what: string, w: { mcps: number; ms: number; mcpPerSec: number; batchMs: Summary }): ThroughputRow => ({
      what,
      count: fmtInt(w.mcps),
      ms: w.ms,
      perSecond: fmtInt(w.mcpPerSec),
      latency: w.batchMs,
    });
    L.push(
      ...throughputTable('| W-ingest | MCPs | time (s) | MCP/s | batch p50 / p95 / max (ms) |', [
        rawRun && mcpRow('raw UNWIND…MERGE (bound)', rawRun),
        apiRun && mcpRow(`ingestProposalBatch over HTTP (batch ${r.config.batch}, ${r.config.concurrency} in flight)`, apiRun),
        ...(apiRun?.phases ?? []).map((p) => mcpRow(`… phase ${p.phase} (${p.phase === 1 ? 'entities' : 'lineage aspects'})`, p)),
      ]),
    );
    const api = r.memory['W-ingest API']?.cpuSec;
    const raw = r.memory['W-ingest raw']?.cpuSec;
    if (api && r.ingest.api) {
      const perMcp = (c: Record<string, number>, keys: string[], mcps: number) => (keys.reduce((a, k) => a + (c[k] ?? 0), 0) / mcps) * 1e6;
      L.push('');
      L.push(
        `CPU per MCP — API: Neo4j ${perMcp(api, ['neo4j'], r.ingest.api.mcps).toFixed(0)} µs + ingestion service ${perMcp(api, ['ingestion-service'], r.ingest.api.mcps).toFixed(0)} µs` +
          (raw && r.ingest.raw ? `; raw: Neo4j ${perMcp(raw, ['neo4j'], r.ingest.raw.mcps).toFixed(0)} µs` : '') +
          ` (the runner's own CPU — generating and sending — excluded). On ${r.machine.cores} otherwise idle cores this bounds the API at ≈ ${fmtInt((r.machine.cores * 1e6) / perMcp(api, ['neo4j', 'ingestion-service'], r.ingest.api.mcps))} MCP/s` +
          (raw && r.ingest.raw
            ? ` and the raw load at ≈ ${fmtInt((r.machine.cores * 1e6) / perMcp(raw, ['neo4j'], r.ingest.raw.mcps))} MCP/s.`
            : '.'),
      );
      const split = (w: string, mcps: number) => {
        const t = r.memory[w]?.neo4jThreadsSec;
        if (!t || !Object.keys(t).length) return null;
        const sum = (re: RegExp) =>
          Object.entries(t)
            .filter(([n]) => re.test(n))
            .reduce((a, [, v]) => a + v, 0);
        const all = sum(/./);
        const bolt = sum(/^neo4j\.Bolt/);
        const jit = sum(/CompilerThre/);
        const gc = sum(/^(GC Thread|G1 )/);
        const us = (v: number) => `${((v / mcps) * 1e6).toFixed(0)} µs`;
        return `${w}: Bolt threads (query execution, commit, network) ${us(bolt)}, JIT compilers ${us(jit)}, GC ${us(gc)}, other ${us(all - bolt - jit - gc)}`;
      };
      const parts = [split('W-ingest API', r.ingest.api.mcps), r.ingest.raw ? split('W-ingest raw', r.ingest.raw.mcps) : null].filter(
        Boolean,
      );
      if (parts.length) L.push('', `Neo4j CPU per MCP by thread group — ${parts.join('; ')}.`);
    }
    L.push('');
  }
  if (r.query) {
    L.push(...queryTable(r.query.cases));
    L.push('');
    if (r.query.shapes?.length) {
      L.push(...shapeTable(r, r.query.shapes));
      L.push('');
      L.push(
        'Request shapes beyond the degree filter (issue 17), from the hub, the sink hub and the column source at "3+": database = selected in Neo4j (time windows, free text, filters on type, platform, origin and soft deletion judged per facetKey, on urn, name, description and parent per node, every condition); fast / hops = the reach streamed to the lineage service, which holds a page and a window of 5,000 hits and counts the rest (ignoreAsHops and per-hop limits hop by hop, column walks). "× floor" = first page p50 over the engine floor of the same walk (the pruning BFS counting the reach, nothing read; with the time window\'s edge test for a windowed shape); "floor reading the strings" = that BFS counting the nodes a hand-written test of the strings the shape judges passes (what reading them costs at least); "walking by hops" = the lightest walk by hops driven from outside Neo4j (node ids in and out, one flag per node: what any such walk costs at least); the in-memory BFS and the naive path query are the degree table\'s "3+" baselines of the same source (without the shape\'s filters).',
      );
      L.push('');
    }
    L.push(
      `Page size 10; "first"/"next" = \`scrollLineage\` (the domain function behind \`scrollAcrossLineage\`) in the runner process; HTTP = \`scrollAcrossLineage\` through the gateway; ${r.config.runs} runs after one warm-up. After the count, how the first page was computed: database = page, total and facets selected in Neo4j (catalog/src/read/lineage/select.ts); fast = the reach shipped to the service and selected there (schemaField starts, whose results are lifted onto datasets). "Neo4j BFS count only" = the pruning BFS counting the reach and reading nothing (the engine's floor for any answer); "Neo4j reach shipped" = the shipping statement alone, rows to the runner.`,
    );
    L.push('');
  }
  if (r.restore) {
    const { full, windows } = r.restore;
    L.push(
      ...throughputTable('| W-restore | rows | time (s) | rows/s | latency p50 / p95 / max (ms) |', [
        full && {
          what: `full restoreIndices (batch ${full.batchSize}, per batch)`,
          count: fmtInt(full.rows),
          ms: full.ms,
          perSecond: fmtInt(full.rowsPerSec),
          latency: full.batchMs,
        },
        windows && {
          what: `API windows (${windows.windows} × ${windows.windowRows} rows at spread offsets)`,
          count: fmtInt(windows.windows * windows.windowRows),
          perSecond: fmtInt(windows.rowsPerSec),
          latency: windows.windowMs,
        },
      ]),
    );
    L.push('');
  }
  if (r.openlineage) {
    const o = r.openlineage;
    const events = (what: string, w: { ms: number; eventsPerSec: number; batchMs: Summary } | undefined): ThroughputRow | undefined =>
      w && { what, count: `${fmtInt(o.events)} events`, ms: w.ms, perSecond: `${fmtInt(w.eventsPerSec)} events`, latency: w.batchMs };
    L.push(
      ...throughputTable('| W-openlineage | items | time (s) | per second | batch p50 / p95 / max (ms) |', [
        events(`RunEvents through POST /api/v1/lineage/batch (batch ${r.config.batch}, ${r.config.concurrency} in flight)`, o),
        events('… the same events posted again (a replay: nothing new to write)', o.replay),
        events("… the next run of the same jobs ten minutes later (new run ids, within the stamps' granularity)", o.rerunWithinWindow),
        events('… the next run of the same jobs (new run ids, a day later)', o.rerun),
        {
          what: 'the same writes as MCPs through ingestProposalBatch',
          count: `${fmtInt(o.mcpPath.mcps)} MCPs`,
          ms: o.mcpPath.ms,
          perSecond: `${fmtInt(o.mcpPath.mcpPerSec)} MCPs (${fmtInt(o.mcpPath.eventsPerSec)} events)`,
          latency: o.mcpPath.batchMs,
        },
      ]),
    );
    L.push('');
    L.push(
      `Each event: a job reading 2 tables and writing 1 with a 4-column schema and column lineage — ${fmtInt(o.lineageEdges)} lineage edges in all, on top of the graph above; the MCP row writes what the door writes for the same events, in a namespace of its own.`,
    );
    L.push('');
  }
  const names = [...new Set(Object.values(r.memory).flatMap((w) => Object.keys(w.peakRssMb)))];
  L.push(`| peak RSS MB (CPU s used) | ${names.join(' | ')} | Neo4j heap used / max MB | wall s |`);
  L.push(`|---|${names.map(() => '---:').join('|')}|---:|---:|`);
  for (const [w, mem] of Object.entries(r.memory)) {
    const cell = (n: string) => `${mem.peakRssMb[n] ?? '–'}${mem.cpuSec?.[n] !== undefined ? ` (${mem.cpuSec[n]!.toFixed(1)})` : ''}`;
    L.push(
      `| ${w} | ${names.map(cell).join(' | ')} | ${mem.neo4jHeapPeakMb ?? '–'} / ${mem.neo4jHeapMaxMb ?? '–'} | ${mem.wallSec ?? '–'} |`,
    );
  }
  L.push('');
  L.push(
    'Peak RSS is VmHWM, reset at the start of each workload (/proc/<pid>/clear_refs); "neo4j" is the whole JVM (heap + page cache + native). CPU seconds come from /proc/<pid>/stat: on a shared machine they are the stable measure of cost, wall time is not.',
  );
  L.push('');
  return L.join('\n');
}

export function updateReadme(readmePath: string, r: BenchResult): void {
  const text = readFileSync(readmePath, 'utf8');
  const start = `<!-- bench:${r.size.label}:start -->`;
  const end = `<!-- bench:${r.size.label}:end -->`;
  const block = `${start}\n${renderMarkdown(r)}${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const next =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + end.length)
      : text.replace('<!-- bench:results -->', `<!-- bench:results -->\n\n${block}`);
  writeFileSync(readmePath, next);
}

// `node bench/report.ts bench/results/<file>.json …` re-renders those results into bench/README.md.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { fileURLToPath } = await import('node:url');
  const readme = fileURLToPath(new URL('./README.md', import.meta.url));
  const { parseArgs } = await import('node:util');
  for (const f of parseArgs({ allowPositionals: true }).positionals)
    updateReadme(readme, JSON.parse(readFileSync(f, 'utf8')) as BenchResult);
}
