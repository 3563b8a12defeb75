// The benchmark runner: `npm run bench -- --size 10k|100k|1M|10M|<n>M [options]`.
//
// Starts its own throwaway Neo4j (heap and page cache sized for the run) and the real services
// (tools/stack.ts, ephemeral: ingestion service, lineage subgraph, gateway) against it, then runs
// W-ingest (raw UNWIND bound, then the API), W-query, W-restore, sampling memory per workload, and
// writes bench/results/<date>-<size>.json plus the size's table in bench/README.md.
//
// Resumable: the Neo4j store and a state file live in --workdir (default $TMPDIR/lineage-bench-<size>);
// after a crash, Ctrl-C or SIGTERM, `--resume` restarts Neo4j on the same store, keeps finished workloads'
// results and continues the API load after the last committed batch.
import { tmpdir } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from '../tools/cli/command-line.ts';
import { startNeo4j, freePort, instanceDefaults, type RunningNeo4j } from '../tools/neo4j/neo4j-server.ts';
import { startStack, type RunningStack } from '../tools/stack.ts';
import { createStore, type Store } from '../catalog/src/store/store.ts';
import { lineageLimitsFromConfig } from '../catalog/src/read/lineage/query.ts';
import { loadConfig } from '../catalog/src/runtime/config.ts';
import { generateWarehouse, shapeOf } from './generate-warehouse.ts';
import { generate, countProposals, adjacency, bfs, parseSize, type Graph } from './generate.ts';
import { childPids, watchMemory, type WatchedProcess } from './lib/memory.ts';
import { ingestRaw, ingestViaApi, dropRaw } from './workloads/ingest.ts';
import { runQueries } from './workloads/query.ts';
import { restoreFull, restoreWindows } from './workloads/restore.ts';
import { ingestOpenLineageWorkload } from './workloads/openlineage.ts';
import { updateReadme, checkTargets } from './report.ts';
import type { BenchResult, IngestSegment } from './result.ts';
import { machineFacts } from './lib/machine.ts';

const here = dirname(fileURLToPath(import.meta.url));

interface State {
  key: string;
  result: BenchResult;
  /** API batches below this index are committed. */
  ingestNextBatch: number;
  done: string[];
  /**
   * The API load's earlier runs when it was stopped and resumed: batches [fromBatch, toBatch) in
   * `ms` of load. The result's `ingest.api` then covers the last run only; these say what the others did.
   */
  ingestSegments?: IngestSegment[];
}

const { values: args } = commandLine('npm run bench -- --size 10k|100k|1M|10M|<n>M [options]', {
  options: {
    size: { type: 'string', default: '10k' },
    shape: { type: 'string', default: 'synthetic', description: 'synthetic (generate.ts) or warehouse (generate-warehouse.ts)' },
    seed: { type: 'string', default: '42' },
    batch: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '2' },
    runs: { type: 'string', default: '10' },
    heap: { type: 'string' },
    'page-cache': { type: 'string' },
    'checkpoint-interval': {
      type: 'string',
      default: instanceDefaults.checkpointInterval,
      description: 'Neo4j db.checkpoint.interval.time: transaction logs are pruned only at checkpoints',
    },
    'checkpoint-iops': {
      type: 'string',
      default: String(instanceDefaults.checkpointIopsLimit),
      description: 'Neo4j db.checkpoint.iops.limit (-1 = unlimited)',
    },
    'naive-timeout': { type: 'string', description: 'seconds' },
    workdir: { type: 'string' },
    resume: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false, description: 'record that the machine was quiet (no other load)' },
    skip: { type: 'string', default: '', description: 'comma list of raw,query,http,restore,openlineage' },
    events: {
      type: 'string',
      default: 'on',
      description:
        "on|lineage|off: the change log (EVENTS_API_ENABLED, EVENTS_TOPICS) of the services and the runner's writes; lineage = PlatformEvent_v1 only",
    },
    'no-readme': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false, description: 'keep the Neo4j store in --workdir after a successful run' },
    'service-node-options': { type: 'string', description: 'NODE_OPTIONS for the services, e.g. --max-old-space-size=160' },
    ports: { type: 'string', description: "BOLT,FIRST: Neo4j's bolt port, and the first of three for the services (default: free ports)" },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'npm run bench -- --size 10k|100k|1M|10M|<n>M [--shape synthetic|warehouse] [--seed 42] [--batch 500] [--concurrency 2] [--runs 10] [--heap 4g] [--page-cache 4g] [--checkpoint-interval 15m] [--checkpoint-iops 600] [--naive-timeout 30] [--workdir DIR] [--resume] [--quiet] [--skip raw,query,http,restore,openlineage] [--events on|lineage|off] [--no-readme] [--keep] [--service-node-options "--max-old-space-size=160"] [--ports 43601,43602]',
  );
  process.exit(0);
}
const { name: sizeName, edges } = parseSize(args.size!);
if (args.shape !== 'synthetic' && args.shape !== 'warehouse') throw new Error(`--shape must be synthetic or warehouse, got ${args.shape}`);
const warehouse = args.shape === 'warehouse';
/** Fixed ports when several runs share the machine: Neo4j's bolt port, then the services' first of three. */
const ports = args.ports ? args.ports.split(',').map(Number) : undefined;
if (ports && (ports.length !== 2 || ports.some((p) => !Number.isInteger(p) || p <= 0)))
  throw new Error(`--ports takes BOLT,FIRST, got ${args.ports}`);
/** Names the results file, the README block and the work directory: `100k`, `100k-warehouse`. */
const sizeLabel = warehouse ? `${sizeName}-warehouse` : sizeName;
if (!Number.isFinite(edges) || edges < 1000)
  throw new Error(`--size must be 10k, 100k, 1M, 4M, 10M (k, M) or a number ≥ 1000, got ${args.size}`);
const big = edges >= 500_000;
const mid = edges >= 50_000;
const heap = args.heap ?? (big ? '4g' : mid ? '2g' : '1g');
const pageCache = args['page-cache'] ?? (big ? '4g' : mid ? '2g' : '1g');
const checkpointInterval = args['checkpoint-interval']!;
if (!/^\d+(ms|s|m|h)$/.test(checkpointInterval))
  throw new Error(`--checkpoint-interval takes a duration such as 2m or 15m, got ${checkpointInterval}`);
const checkpointIopsLimit = Number(args['checkpoint-iops']);
if (!Number.isInteger(checkpointIopsLimit) || checkpointIopsLimit < -1)
  throw new Error(`--checkpoint-iops takes a whole number ≥ -1, got ${args['checkpoint-iops']}`);
const naiveTimeoutMs = Number(args['naive-timeout'] ?? (big ? 60 : 20)) * 1000;
const seed = Number(args.seed);
const batch = Number(args.batch);
const concurrency = Number(args.concurrency);
const runs = Number(args.runs);
const skip = new Set(args.skip!.split(',').filter(Boolean));
const EVENT_MODES = { on: ['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1'], lineage: ['PlatformEvent_v1'], off: [] } as const;
if (!Object.hasOwn(EVENT_MODES, args.events!)) throw new Error(`--events must be on, lineage or off, got ${args.events}`);
const eventMode = args.events as keyof typeof EVENT_MODES;
const changeLog = EVENT_MODES[eventMode];
const workdir = args.workdir ?? join(tmpdir(), `lineage-bench-${sizeLabel}`);
const stateFile = join(workdir, 'state.json');
const stateKey = JSON.stringify({ edges, seed, batch, shape: args.shape });

const t0 = Date.now();
const log = (s: string) => process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(5)} s] ${s}\n`);

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return total;
}

function saveState(s: State): void {
  writeFileSync(`${stateFile}.tmp`, JSON.stringify(s));
  renameSync(`${stateFile}.tmp`, stateFile);
}

async function main(): Promise<void> {
  let state: State | null = null;
  if (args.resume && existsSync(stateFile)) {
    const s = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
    if (s.key !== stateKey) throw new Error(`--resume: ${stateFile} belongs to another run (${s.key})`);
    state = s;
    log(`resuming: done ${state.done.join(', ') || 'nothing'}; API load continues at batch ${state.ingestNextBatch}`);
  } else {
    rmSync(workdir, { recursive: true, force: true });
  }
  mkdirSync(workdir, { recursive: true });

  log(`generating ${sizeLabel} (${edges} lineage edges, seed ${seed}) …`);
  const g: Graph = warehouse ? generateWarehouse(edges, seed) : generate(edges, seed);
  const proposals = countProposals(g);
  const totalMcps = proposals.phase1 + proposals.phase2;
  const hubReach = bfs(adjacency(g.entities.length, g.up, g.down), g.sources.hub, 1000).order.length;
  log(`graph: ${g.stats.lineageEdges} lineage edges, ${g.stats.entities} entities, ${totalMcps} MCPs; hub reaches ${hubReach}`);

  let neo: RunningNeo4j | undefined;
  let stack: RunningStack | undefined;
  let store: Store | undefined;
  const stopAll = async () => {
    await store?.close().catch(() => {});
    await stack?.stop().catch(() => {});
    await neo?.stop().catch(() => {});
  };
  /** The API load in progress, so that a stop records how far it got (State.ingestSegments). */
  let loading: { st: State; fromBatch: number; t0: number } | undefined;
  const recordSegment = (stoppedBy: string) => {
    if (!loading) return;
    const { st, fromBatch, t0 } = loading;
    loading = undefined;
    (st.ingestSegments ??= []).push({ fromBatch, toBatch: st.ingestNextBatch, ms: Math.round(performance.now() - t0), stoppedBy });
    saveState(st);
  };
  // A stop by signal — Ctrl-C, `kill`, a disk guard — takes Neo4j and the services down with the run:
  // Neo4j is a child process, and a signal to this process alone would leave it running on the store.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      recordSegment(signal);
      void stopAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  try {
    log(
      `starting Neo4j (heap ${heap}, page cache ${pageCache}, checkpoint every ${checkpointInterval}, at most ${checkpointIopsLimit} IO/s) in ${workdir}/neo4j …`,
    );
    neo = await startNeo4j({
      home: join(workdir, 'neo4j'),
      boltPort: ports ? ports[0]! : await freePort(),
      heap,
      pageCache,
      checkpointInterval,
      checkpointIopsLimit,
    });
    log('starting the services (ingestion, lineage subgraph, gateway) …');
    stack = await startStack({
      ephemeral: true,
      neo4jUri: neo.uri,
      log: (s) => log(s),
      serviceOutput: 'files',
      tokenName: 'bench',
      tokenDuration: 'ONE_DAY',
      env: {
        ...(args['service-node-options'] ? { NODE_OPTIONS: args['service-node-options'] } : {}),
        EVENTS_API_ENABLED: String(changeLog.length > 0),
        ...(changeLog.length ? { EVENTS_TOPICS: changeLog.join(',') } : {}),
        ...(ports ? { INGESTION_PORT: String(ports[1]), LINEAGE_PORT: String(ports[1]! + 1), GATEWAY_PORT: String(ports[1]! + 2) } : {}),
      },
    });
    const procs = (): WatchedProcess[] => {
      const list: WatchedProcess[] = [
        { name: 'neo4j', pid: neo!.pid },
        { name: 'bench runner', pid: process.pid },
      ];
      for (const c of childPids(process.pid)) {
        const svc = /(ingestion-service|lineage-service|gateway)\/src\/main\.ts/.exec(c.cmdline)?.[1];
        if (svc) list.push({ name: svc, pid: c.pid });
      }
      return list;
    };
    log(
      `services: ${procs()
        .map((p) => `${p.name}=${p.pid}`)
        .join(' ')}`,
    );
    store = createStore({ uri: neo.uri, database: 'neo4j', changeLog });
    const components = await store.driver.executeQuery(
      'CALL dbms.components() YIELD name, versions, edition RETURN versions[0] AS v, edition',
      {},
      { database: 'neo4j' },
    );
    const neo4jVersion = `${components.records[0]!.get('v')} ${components.records[0]!.get('edition')}`;

    // A run that skipped workloads must not overwrite a complete result of the same day.
    const fileName = `${new Date(t0).toISOString().slice(0, 10)}-${sizeLabel}${eventMode === 'on' ? '' : `-events-${eventMode}`}${skip.size ? `-partial-${[...skip].sort().join('-')}` : ''}.json`;
    const result: BenchResult = state?.result ?? {
      file: fileName,
      startedAt: new Date(t0).toISOString(),
      totalMs: 0,
      size: { label: sizeLabel, edges },
      config: {
        seed,
        batch,
        concurrency,
        runs,
        heap,
        pageCache,
        checkpointInterval,
        checkpointIopsLimit,
        naiveTimeoutMs,
        quiet: args.quiet!,
        resumed: false,
        events: eventMode,
        ...(args['service-node-options'] ? { serviceNodeOptions: args['service-node-options'] } : {}),
      },
      machine: { ...machineFacts(), neo4j: neo4jVersion },
      graph: { ...g.stats, mcps: totalMcps, ...(warehouse ? shapeOf(g) : {}) },
      hubReach,
      memory: {},
    };
    if (state) result.config.resumed = true;
    const st: State = state ?? { key: stateKey, result, ingestNextBatch: 0, done: [] };
    st.result = result;
    saveState(st);
    const workload = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
      if (st.done.includes(name)) {
        log(`${name}: done in an earlier run, kept`);
        return undefined;
      }
      log(`${name} …`);
      const watch = watchMemory(procs, store!.driver);
      let value: T;
      try {
        value = await fn();
      } finally {
        result.memory[name] = await watch.stop();
      }
      st.done.push(name);
      saveState(st);
      return value;
    };

    // W-ingest: raw bound first (same rows, empty store), dropped again, then the API load.
    if (!skip.has('raw')) {
      await workload('W-ingest raw', async () => {
        const raw = await ingestRaw(g, store!.driver, { batchSize: batch, concurrency, totalMcps, progress: log });
        log(`raw UNWIND: ${raw.mcpPerSec} MCP/s`);
        (result.ingest ??= {}).raw = { ...raw, dropMs: 0 };
      });
      if (result.ingest?.raw && !result.ingest.raw.dropMs) {
        // Outside the workload: dropping the copy is not part of its cost.
        log('dropping the raw copy …');
        result.ingest.raw.dropMs = await dropRaw(store.driver);
        saveState(st);
      }
    }
    await workload('W-ingest API', async () => {
      const from = st.ingestNextBatch;
      let savedNextBatch = from;
      loading = { st, fromBatch: from, t0: performance.now() };
      const api = await ingestViaApi(g, {
        url: stack!.ingestionUrl,
        token: stack!.token,
        batchSize: batch,
        concurrency,
        fromBatch: from,
        totalMcps,
        progress: log,
        onDone: (next) => {
          // In memory at once (a stop records it), on disk every 20 batches.
          st.ingestNextBatch = next;
          if (next - savedNextBatch >= 20) {
            savedNextBatch = next;
            saveState(st);
          }
        },
      });
      loading = undefined;
      (result.ingest ??= {}).api = { ...api, ...(st.ingestSegments?.length ? { earlierSegments: st.ingestSegments } : {}) };
      log(`API ingest: ${api.mcpPerSec} MCP/s (${api.mcps} MCPs in ${(api.ms / 1000).toFixed(1)} s)`);
    });
    const counts = await store.driver.executeQuery(
      `CALL { MATCH (n:Entity) WHERE n.exists RETURN count(n) AS entities }
       CALL { MATCH ()-[l:LINEAGE]->() RETURN count(l) AS lineage }
       CALL { MATCH (a:Aspect) RETURN count(a) AS aspects }
       CALL { MATCH (b:ChangeBatch) RETURN count(b) AS changeBatches, coalesce(sum(size(b.items)), 0) AS changeEvents,
         coalesce(sum(reduce(n = 0, i IN b.items | n + size(i))), 0) AS changeEventChars }
       RETURN entities, lineage, aspects, changeBatches, changeEvents, changeEventChars`,
      {},
      { database: 'neo4j' },
    );
    const rec = counts.records[0]!;
    result.loaded = {
      entities: Number(rec.get('entities')),
      lineageEdges: Number(rec.get('lineage')),
      aspectRows: Number(rec.get('aspects')),
      expectedLineageEdges: g.stats.lineageEdges!,
      storeMb: Math.round(dirBytes(join(workdir, 'neo4j', 'data')) / 1048576),
      changeEvents: Number(rec.get('changeEvents')),
      changeBatches: Number(rec.get('changeBatches')),
      changeEventChars: Number(rec.get('changeEventChars')),
    };
    log(`loaded: ${JSON.stringify(result.loaded)}`);
    saveState(st); // a run stopped during the next workloads keeps the counts
    if (result.loaded.lineageEdges !== g.stats.lineageEdges)
      log(`WARNING: ${result.loaded.lineageEdges} :LINEAGE edges in the store, the generator made ${g.stats.lineageEdges}`);

    if (!skip.has('query')) {
      await workload('W-query', async () => {
        const config = loadConfig(stack!.env);
        result.query = await runQueries(g, {
          store: store!,
          limits: lineageLimitsFromConfig(config),
          gatewayGraphql: skip.has('http') ? null : `${stack!.gatewayUrl}/api/graphql`,
          token: stack!.token,
          runs,
          caseBudgetMs: big ? 30_000 : 10_000,
          naiveTimeoutMs,
          progress: log,
        });
      });
    }
    if (!skip.has('restore')) {
      await workload('W-restore', async () => {
        const full = await restoreFull(neo!.uri, 500, log, () => {});
        log(`restore: ${full.rowsPerSec} rows/s over ${full.rows} rows`);
        const windows = await restoreWindows(stack!.ingestionUrl, stack!.token, full.rows, 1000, 10);
        result.restore = { full, windows };
      });
    }

    // Last: its events add their own graph to the store the workloads above measured.
    if (!skip.has('openlineage')) {
      await workload('W-openlineage', async () => {
        result.openlineage = await ingestOpenLineageWorkload(Math.min(edges, 100_000), seed, {
          url: stack!.ingestionUrl,
          token: stack!.token,
          batchSize: batch,
          concurrency,
          progress: log,
        });
      });
    }

    result.totalMs = (result.totalMs ?? 0) + (Date.now() - t0);
    result.targets = checkTargets(result);
    mkdirSync(join(here, 'results'), { recursive: true });
    writeFileSync(join(here, 'results', result.file), JSON.stringify(result, null, 2) + '\n');
    if (!args['no-readme']) updateReadme(join(here, 'README.md'), result);
    log(`wrote bench/results/${result.file}${args['no-readme'] ? '' : ' and the table in bench/README.md'}`);
    for (const t of result.targets) log(`${t.met === null ? '  –' : t.met ? ' ok' : 'MISS'}  ${t.target}: ${t.measured}`);
  } catch (e) {
    recordSegment(String((e as Error).message ?? e).slice(0, 300));
    throw e;
  } finally {
    await stopAll();
  }
  // Finished: the store is not needed for a resume any more.
  if (args.keep) log(`kept the store: node tools/neo4j/cli.ts start --home ${workdir}/neo4j …`);
  else rmSync(workdir, { recursive: true, force: true });
}

await main();
