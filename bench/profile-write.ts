// Where the write path's time goes: loads a generated graph through writeAspects (the function the
// ingestion service calls for ingestProposalBatch) with every named statement timed, and prints
// time, calls and rows per statement plus the JS time between statements, per phase.
//
//   node bench/profile-write.ts --size 10k [--uri bolt://…] [--batch 500] [--limit-batches N] [--trace <statement>]
//
// Without --uri it starts a throwaway Neo4j.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../tools/cli/command-line.ts';
import { startNeo4j, freePort, type RunningNeo4j } from '../tools/neo4j/neo4j-server.ts';
import { createStore, DEFAULT_MAX_EDGES_PER_WRITE, type Store, type Tx, toPlain } from '../catalog/src/store/store.ts';
import { writeAspects, writeAspectsInTx, type AspectChange } from '../catalog/src/write/aspect-writer.ts';
import neo4j from 'neo4j-driver';
import { parseUrn } from '../catalog/src/model/urn.ts';
import type { StatementName } from '../catalog/src/store/cypher.ts';
import { generate, parseSize } from './generate.ts';
import { proposalBatches } from './proposals.ts';
import { cpuSeconds, threadCpuSeconds } from './lib/memory.ts';

const { values: args } = commandLine(
  'node bench/profile-write.ts --size 10k [--uri bolt://…] [--batch 500] [--limit-batches N] [--trace <statement>]',
  {
    options: {
      size: { type: 'string', default: '10k' },
      uri: { type: 'string' },
      batch: { type: 'string', default: '500' },
      'limit-batches': { type: 'string' },
      trace: { type: 'string', description: 'print every call of this statement (ms, rows)' },
    },
  },
);

interface Stat {
  ms: number;
  calls: number;
  rows: number;
}

function timedStore(store: Store, stats: Map<string, Stat>): Store {
  const wrap = (tx: Tx): Tx => ({
    changeLog: tx.changeLog,
    maxEdgesPerWrite: tx.maxEdgesPerWrite,
    record: (records) => tx.record(records),
    each: (name, params, onRow) => tx.each(name, params, onRow),
    async run<T>(name: StatementName, params: Record<string, unknown> = {}) {
      const t = performance.now();
      const out = await tx.run<T>(name, params);
      const s = stats.get(name) ?? { ms: 0, calls: 0, rows: 0 };
      s.ms += performance.now() - t;
      s.calls++;
      const first = Object.values(params).find(Array.isArray);
      s.rows += first ? first.length : 0;
      if (name === args.trace)
        console.log(`  ${name} call ${s.calls}: ${(performance.now() - t).toFixed(1)} ms, ${first?.length ?? 0} rows`);
      stats.set(name, s);
      return out;
    },
  });
  return { ...store, write: (work, o) => store.write((tx) => work(wrap(tx)), o), read: (work, o) => store.read((tx) => work(wrap(tx)), o) };
}

interface PlanNode {
  operatorType: string;
  dbHits?: number;
  rows?: number;
  time?: number;
  arguments?: Record<string, unknown>;
  children: PlanNode[];
}

async function profiledBatch(store: Store, changes: AspectChange[], traced: string): Promise<void> {
  const session = store.driver.session({ database: store.database, defaultAccessMode: neo4j.session.WRITE });
  try {
    await session.executeWrite(async (mtx) => {
      const tx: Tx = {
        changeLog: new Set(),
        maxEdgesPerWrite: DEFAULT_MAX_EDGES_PER_WRITE,
        record: () => {},
        each: () => Promise.reject(new Error('the write path does not stream rows')),
        async run<T>(name: StatementName, params: Record<string, unknown> = {}) {
          const text = store.statements[name];
          if (name !== traced) return (await mtx.run(text, params)).records.map((r) => toPlain(r.toObject()) as T);
          const t = performance.now();
          const r = await mtx.run(`PROFILE ${text}`, params);
          console.log(`  PROFILE ${name}: ${(performance.now() - t).toFixed(1)} ms`);
          const show = (p: PlanNode, depth: number): void => {
            console.log(
              `    ${'  '.repeat(depth)}${p.operatorType} rows=${p.rows ?? 0} dbHits=${p.dbHits ?? 0} ${String(p.arguments?.Details ?? '').slice(0, 90)}`,
            );
            p.children.forEach((c) => show(c, depth + 1));
          };
          show(r.summary.profile as unknown as PlanNode, 0);
          return r.records.map((x) => toPlain(x.toObject()) as T);
        },
      };
      await writeAspectsInTx(tx, changes, { actor: 'urn:li:corpuser:datahub', existenceMode: 'strict' });
    });
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  const g = generate(parseSize(args.size!).edges);
  let neo: RunningNeo4j | undefined;
  let home: string | undefined;
  let uri = args.uri;
  if (!uri) {
    home = mkdtempSync(join(tmpdir(), 'bench-profile-'));
    neo = await startNeo4j({ home, boltPort: await freePort(), heap: '1g', pageCache: '1g' });
    uri = neo.uri;
  }
  const store = createStore({ uri, database: 'neo4j' });
  try {
    await store.applySchema();
    const limit = args['limit-batches'] ? Number(args['limit-batches']) : Infinity;
    // CPU per MCP is the steady measure on a shared machine: this process (the write path's JS and
    // the driver) and, when this script started it, the Neo4j JVM.
    const perPhase = new Map<number, { stats: Map<string, Stat>; total: number; mcps: number; jsCpu: number; dbCpu: number }>();
    let n = 0;
    for (const b of proposalBatches(g, Number(args.batch))) {
      if (n++ >= limit) break;
      const p = perPhase.get(b.phase) ?? { stats: new Map(), total: 0, mcps: 0, jsCpu: 0, dbCpu: 0 };
      perPhase.set(b.phase, p);
      const changes: AspectChange[] = b.proposals.map((x) => ({
        urn: parseUrn(x.entityUrn),
        aspectName: x.aspectName,
        changeType: 'UPSERT',
        value: JSON.parse(x.aspect.value),
        systemMetadata: x.systemMetadata,
      }));
      const t = performance.now();
      const js0 = process.cpuUsage();
      const db0 = neo ? (cpuSeconds(neo.pid) ?? 0) : 0;
      if (args.trace && n % 5 === 3) {
        // Every fifth batch: the traced statement runs under PROFILE (operator tree printed).
        await profiledBatch(store, changes, args.trace);
      } else {
        await writeAspects(timedStore(store, p.stats), changes, { actor: 'urn:li:corpuser:datahub', existenceMode: 'strict' });
      }
      p.total += performance.now() - t;
      p.mcps += changes.length;
      const js = process.cpuUsage(js0);
      p.jsCpu += (js.user + js.system) / 1e6;
      p.dbCpu += neo ? (cpuSeconds(neo.pid) ?? 0) - db0 : 0;
    }
    for (const [phase, p] of perPhase) {
      const inDb = [...p.stats.values()].reduce((a, s) => a + s.ms, 0);
      console.log(
        `\nphase ${phase}: ${p.mcps} MCPs in ${(p.total / 1000).toFixed(1)} s = ${Math.round(p.mcps / (p.total / 1000))} MCP/s; statements ${(inDb / 1000).toFixed(1)} s, JS + commit ${((p.total - inDb) / 1000).toFixed(1)} s`,
      );
      const perMcp = (sec: number) => `${Math.round((sec / p.mcps) * 1e6)} µs/MCP`;
      console.log(
        `  CPU: this process ${p.jsCpu.toFixed(1)} s (${perMcp(p.jsCpu)})${neo ? `, Neo4j ${p.dbCpu.toFixed(1)} s (${perMcp(p.dbCpu)})` : ''}`,
      );
      for (const [name, s] of [...p.stats].sort((a, b) => b[1].ms - a[1].ms)) {
        console.log(
          `  ${name.padEnd(28)} ${(s.ms / 1000).toFixed(2).padStart(7)} s  ${String(s.calls).padStart(6)} calls  ${String(s.rows).padStart(8)} rows  ${((s.ms / Math.max(1, s.rows)) * 1000).toFixed(0).padStart(6)} µs/row`,
        );
      }
    }
    if (neo) {
      console.log('\nNeo4j CPU by thread group (whole run, s):');
      for (const [name, sec] of Object.entries(threadCpuSeconds(neo.pid))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)) {
        console.log(`  ${name.padEnd(24)} ${sec.toFixed(1).padStart(7)}`);
      }
    }
  } finally {
    await store.close();
    await neo?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

await main();
