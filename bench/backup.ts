// The backup drill at scale (issue 28; docs/operations.md §Measured):
//
//   npm run bench:backup -- --size 10k|100k|1M [--ports 42601,42602] [--heap 2g] [--page-cache 1g] [--keep]
//
// 1. Catalog A (a throwaway Neo4j) is loaded with the bench graph (bench/generate.ts) written as a
//    DataHub file — a JSON array of proposals, what a `file` sink writes — by `npm run import`, i.e.
//    through the write path (relaxed: the file is in entity order, as a connector writes it). One
//    dataset in ten then gets a second datasetProperties, so the store holds archived versions.
// 2. The restore rate on A: a full restoreIndices pass (bench/restore-worker.ts, batch 500, the
//    bench's W-restore), its own process.
// 3. A fixed probe set of lineage answers is read from A (hub, sink hub, mid, leaf, column; both
//    directions; every degree and degree "1"; first page of 100 and a later page).
// 4. `npm run export` of A while a writer keeps upserting (and every third write deleting) properties
//    and lineage of a separate set of datasets (platform `benchload`); when it is done the writer stops
//    and A is exported again.
// 5. A is stopped; an empty catalog B is started and `npm run import` loads the export (each batch
//    of rows commits with its derived state), then restoreIndices --dry-run on B, the probes on B,
//    and B is exported. Then B's derived edges are dropped and the same full restoreIndices pass
//    rebuilds them: the restore rate when restore writes, which is what an import is compared with
//    like for like (step 2's pass on a consistent store only reads); the probes must still agree.
// 5c. The offline first load (`npm run import -- FILE --offline`, docs/operations.md §Offline first
//    load): the same export into a third, stopped home C through neo4j-admin; C is then started,
//    probed and exported. Its rate is compared with both restore rates, as the online import's is.
// 6. Checks, streamed line by line (the files are larger than a string may be):
//      - B's export equals A's export record for record, byte for byte (the `asOf` header aside);
//      - A's export equals A's later export except the records of the writer's datasets (the rows
//        the writer did not touch are in the file exactly as stored);
//      - no drift on B; every probe answer identical on A and B;
//      - the same for C: its export equals A's export, no drift, the same probe answers.
// The export and the import run as `npm run export|import` runs them (the node flags package.json
// gives them): their time and peak RSS (VmHWM, polled from /proc) are theirs alone.
// Everything goes to bench/results/<date>-backup-<size>.json; exit 1 when a check fails.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from '../tools/cli/command-line.ts';
import { startNeo4j, type RunningNeo4j } from '../tools/neo4j/neo4j-server.ts';
import { createStore, type Store } from '../catalog/src/store/store.ts';
import { parseUrn } from '../catalog/src/model/urn.ts';
import { writeAspects } from '../catalog/src/write/aspect-writer.ts';
import { restoreIndices } from '../catalog/src/operations/restore/restore-indices.ts';
import { hasDrift } from '../catalog/src/operations/restore/restore-report.ts';
import { searchLineage, type LineageQuery } from '../catalog/src/read/lineage/service.ts';
import { generate, SIZES } from './generate.ts';
import { entityProposals, lineageProposals, type Proposal } from './proposals.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = commandLine('npm run bench:backup -- --size 10k|100k|1M [--ports 42601,42602] [--heap 2g] [--page-cache 1g] [--keep]', {
  options: {
    size: { type: 'string', default: '10k' },
    ports: { type: 'string', default: '42601,42602' },
    heap: { type: 'string' },
    'page-cache': { type: 'string' },
    keep: { type: 'boolean', default: false },
    workdir: { type: 'string' },
  },
});
const edges = SIZES[values.size!];
if (!edges) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
const big = edges >= 1_000_000;
const heap = values.heap ?? (big ? '3g' : edges >= 100_000 ? '2g' : '1g');
const pageCache = values['page-cache'] ?? (big ? '3g' : edges >= 100_000 ? '1g' : '512m');
const [portA, portB] = values.ports!.split(',').map(Number) as [number, number];
const log = (s: string) => process.stderr.write(`[backup-bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const ACTOR = 'urn:li:corpuser:bench';
const LOAD_PLATFORM = 'benchload';

import { compare, dropDerivedEdges, lines, mb, nodeFlagsOf, runNode, storeBytes } from './lib/backup-steps.ts';

// ---------------------------------------------------------------------------------------------
// The run

const work = values.workdir ?? mkdtempSync(join(tmpdir(), `lineage-backup-bench-${values.size}-`));
mkdirSync(work, { recursive: true });
const seedFile = join(work, 'seed.json');
const exportFile = join(work, 'export.json.gz');
const laterFile = join(work, 'a-later.json.gz');
const againFile = join(work, 'b-export.json.gz');
const offlineFile = join(work, 'c-export.json.gz');

log(`generating the ${values.size} graph and writing it as a DataHub file …`);
let g: ReturnType<typeof generate> | null = generate(edges);
const stats = g.stats;
const src = g.sources;
const sourceUrns = {
  hub: g.entities[src.hub]!.urn,
  sinkHub: g.entities[src.sinkHub]!.urn,
  mid: g.entities[src.mid]!.urn,
  leaf: g.entities[src.leaf]!.urn,
  field: g.fieldUrns[src.field]!,
};
let seedRecords = 0;
let versionUpdates = 0;
{
  const out = createWriteStream(seedFile);
  const write = (p: Proposal) =>
    new Promise<void>((r) => {
      if (out.write(`${seedRecords++ ? ',' : ''}\n${JSON.stringify(p)}`)) r();
      else out.once('drain', r);
    });
  out.write('[');
  for (let id = 0; id < g.entities.length; id++) for (const p of entityProposals(g, id)) await write(p);
  for (let id = 0; id < g.entities.length; id++) for (const p of lineageProposals(g, id)) await write(p);
  // A second version of one dataset's properties in ten: the store then holds archived rows.
  for (let id = 0; id < g.entities.length; id += 10) {
    for (const p of entityProposals(g, id)) {
      if (p.aspectName !== 'datasetProperties') continue;
      const v = JSON.parse(p.aspect.value) as Record<string, unknown>;
      await write({
        ...p,
        aspect: { ...p.aspect, value: JSON.stringify({ ...v, description: `${String(v.description)} (revised)` }) },
        systemMetadata: { ...p.systemMetadata, runId: 'bench-revision' },
      });
      versionUpdates++;
    }
  }
  out.write('\n]\n');
  await new Promise((r) => out.end(r));
}
g = null; // the bench process holds no graph from here on

const limits = { maxHops: 1000, maxResults: 1_000_000, deadlineMs: 120_000 };
const PROBES: Array<{ name: string; q: LineageQuery; start: number }> = [];
for (const [name, urn] of Object.entries(sourceUrns)) {
  for (const direction of ['DOWNSTREAM', 'UPSTREAM'] as const) {
    PROBES.push({ name: `${name} ${direction} all`, q: { urn, direction }, start: 0 });
    PROBES.push({
      name: `${name} ${direction} degree 1`,
      q: { urn, direction, orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }] },
      start: 0,
    });
    PROBES.push({
      name: `${name} ${direction} 3+ page 2`,
      q: { urn, direction, orFilters: [{ and: [{ field: 'degree', values: ['3+'] }] }] },
      start: 100,
    });
  }
}
async function probe(store: Store): Promise<string[]> {
  const out: string[] = [];
  for (const p of PROBES) {
    const r = await searchLineage(store, p.q, { start: p.start, count: 100 }, limits);
    out.push(JSON.stringify({ name: p.name, total: r.total, hits: r.hits.map((h) => [h.urn, h.degree]), facets: r.facets }));
  }
  return out;
}

let a: RunningNeo4j | undefined;
let b: RunningNeo4j | undefined;
let c: RunningNeo4j | undefined;
let storeA: Store | undefined;
let storeB: Store | undefined;
// A stop by signal (Ctrl-C, `kill`) skips the `finally` below: stop the drill's Neo4j instances here,
// or they keep running on its work directory.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([a?.stop(), b?.stop(), c?.stop()]).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}
try {
  // 1–3: A
  log(`starting catalog A (heap ${heap}, page cache ${pageCache}) on ${portA} …`);
  a = await startNeo4j({ home: join(work, 'a'), boltPort: portA, heap, pageCache });
  storeA = createStore({ uri: a.uri, database: 'neo4j' });
  await storeA.applySchema();
  const envA = { NEO4J_URI: a.uri };
  log(`loading A from the DataHub file (${seedRecords} proposals, write path) …`);
  const seed = await runNode(
    'tools/import.ts',
    [seedFile, '--quiet', '--checkpoint', join(work, 'seed-checkpoint.json'), '--actor', ACTOR],
    envA,
  );
  log(`  ${seed.stdout.trim()}`);

  log('restore rate on A: full restoreIndices (batch 500) …');
  const restore = await runNode('bench/restore-worker.ts', [a.uri, '500'], {});
  const restoreOut = JSON.parse(restore.stdout.trim().split('\n').at(-1)!) as {
    result: { rowsScanned: number; timeMs: number };
    hwmMb: number;
  };
  const restoreRate = Math.round(restoreOut.result.rowsScanned / (restoreOut.result.timeMs / 1000));
  log(`  ${restoreOut.result.rowsScanned} rows in ${(restoreOut.result.timeMs / 1000).toFixed(1)} s = ${restoreRate} rows/s`);

  log('probes on A …');
  const probesA = await probe(storeA);

  log('export of A under write load …');
  let writes = 0;
  let deletes = 0;
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const urn = (k: number) => `urn:li:dataset:(urn:li:dataPlatform:${LOAD_PLATFORM},t${k % 50},PROD)`;
      // Every third write deletes an aspect (the next round writes it again): rows deleted while the
      // export runs are what its hold keeps (docs/operations.md §Consistency).
      const change =
        i % 3 === 2
          ? { urn: parseUrn(urn(i)), aspectName: i % 2 === 0 ? 'datasetProperties' : 'upstreamLineage', changeType: 'DELETE' as const }
          : i % 2 === 0
            ? {
                urn: parseUrn(urn(i)),
                aspectName: 'datasetProperties',
                changeType: 'UPSERT' as const,
                value: { name: `t${i % 50}`, description: `write ${i}` },
              }
            : {
                urn: parseUrn(urn(i)),
                aspectName: 'upstreamLineage',
                changeType: 'UPSERT' as const,
                value: { upstreams: [{ dataset: urn(i + 7), type: 'TRANSFORMED', auditStamp: { time: i, actor: ACTOR } }] },
              };
      await writeAspects(storeA, [change], { actor: ACTOR, existenceMode: 'relaxed' });
      writes++;
      if (change.changeType === 'DELETE') deletes++;
    }
  })();
  const storeABytes = storeBytes(a);
  const exported = await runNode('tools/export.ts', ['--out', exportFile, '--quiet'], envA);
  stop = true;
  await writer;
  log(`  ${exported.stdout.trim()} (${writes} writes beside it)`);
  const exportedRows = Number(/^(\d+) rows/.exec(exported.stdout)?.[1]);
  // The export ended its hold and dropped what it held.
  const [afterExport] = (
    await storeA.driver.executeQuery(
      'OPTIONAL MATCH (h:ExportHold) WITH count(h) AS holds OPTIONAL MATCH (r:HeldRow) RETURN holds, count(r) AS held',
      {},
      { database: 'neo4j' },
    )
  ).records;
  const holdsLeft = Number(afterExport?.get('holds') ?? -1);
  const heldLeft = Number(afterExport?.get('held') ?? -1);
  const later = await runNode('tools/export.ts', ['--out', laterFile, '--quiet'], envA);
  await storeA.close();
  storeA = undefined;
  await a.stop();
  a = undefined;

  // 5: B
  log(`starting empty catalog B on ${portB}, importing …`);
  b = await startNeo4j({ home: join(work, 'b'), boltPort: portB, heap, pageCache });
  storeB = createStore({ uri: b.uri, database: 'neo4j' });
  const envB = { NEO4J_URI: b.uri };
  await runNode('tools/migrate.ts', ['--quiet'], envB);
  const imported = await runNode(
    'tools/import.ts',
    [exportFile, '--quiet', '--checkpoint', join(work, 'import-checkpoint.json'), '--actor', ACTOR],
    envB,
  );
  log(`  ${imported.stdout.trim()}`);
  const importedRecords = Number(/^(\d+) records imported/.exec(imported.stdout)?.[1]);
  const drift = await restoreIndices(storeB, { dryRun: true, batchSize: 2000 });
  const probesB = await probe(storeB);
  await runNode('tools/export.ts', ['--out', againFile, '--quiet'], envB);
  const storeBBytes = storeBytes(b);

  // 5b: the restore rate when restore has work to do. Step 2's pass runs on a consistent store, so it
  // only reads and compares; an import writes every row, edge and search field. Here B's derived
  // edges are dropped (the damage restoreIndices exists to repair: rows intact, edges gone) and the
  // same full pass rebuilds them, then the probes must answer on B as they did on A.
  log("restore rate when it rebuilds: B's derived edges dropped, full restoreIndices (batch 500) …");
  const dropped = await dropDerivedEdges(storeB);
  const rebuild = await runNode('bench/restore-worker.ts', [b.uri, '500'], {});
  const rebuildOut = JSON.parse(rebuild.stdout.trim().split('\n').at(-1)!) as {
    result: { rowsScanned: number; timeMs: number; edgesAdded: number };
    hwmMb: number;
  };
  const rebuildRate = Math.round(rebuildOut.result.rowsScanned / (rebuildOut.result.timeMs / 1000));
  log(
    `  ${dropped} edges dropped; ${rebuildOut.result.rowsScanned} rows, ${rebuildOut.result.edgesAdded} edges added in ${(rebuildOut.result.timeMs / 1000).toFixed(1)} s = ${rebuildRate} rows/s`,
  );
  const probesRebuilt = await probe(storeB);
  await storeB.close();
  storeB = undefined;
  await b.stop();
  b = undefined;

  // 5c: C, loaded offline from the same export
  log('offline load of the export into a new home C …');
  const offline = await runNode('tools/import.ts', [exportFile, '--offline', '--home', join(work, 'c', 'neo4j'), '--quiet'], {});
  log(`  ${offline.stdout.trim()}`);
  const offlineRecords = Number(/^(\d+) records loaded offline/.exec(offline.stdout)?.[1]);
  const offlinePhases = /files ([\d.]+) s, ghosts ([\d.]+) s, neo4j-admin ([\d.]+) s, schema ([\d.]+) s/.exec(offline.stdout);
  c = await startNeo4j({ home: join(work, 'c', 'neo4j'), boltPort: portB, heap, pageCache });
  let storeC: Store | undefined = createStore({ uri: c.uri, database: 'neo4j' });
  let driftC;
  let probesC: string[];
  let storeCBytes: number;
  try {
    driftC = await restoreIndices(storeC, { dryRun: true, batchSize: 2000 });
    probesC = await probe(storeC);
    await runNode('tools/export.ts', ['--out', offlineFile, '--quiet'], { NEO4J_URI: c.uri });
    storeCBytes = storeBytes(c);
  } finally {
    await storeC.close();
    storeC = undefined;
    await c.stop();
  }

  // 6: checks
  log('comparing …');
  const offlineRoundTrip = await compare(exportFile, offlineFile);
  const probeDiffsC = PROBES.map((p, i) => (probesA[i] === probesC[i] ? null : p.name)).filter((x) => x !== null);
  const roundTrip = await compare(exportFile, againFile);
  const isLoad = (l: string) => l.includes(`urn:li:dataPlatform:${LOAD_PLATFORM},`);
  const untouched = await compare(exportFile, laterFile, isLoad);
  let loadRecords = 0;
  for (let it = lines(exportFile), r = await it.next(); !r.done; r = await it.next()) if (isLoad(r.value)) loadRecords++;
  const probeDiffs = PROBES.map((p, i) => (probesA[i] === probesB[i] ? null : p.name)).filter((x) => x !== null);
  const rebuiltDiffs = PROBES.map((p, i) => (probesA[i] === probesRebuilt[i] ? null : p.name)).filter((x) => x !== null);

  const result = {
    file: `${new Date().toISOString().slice(0, 10)}-backup-${values.size}.json`,
    size: { label: values.size, edges },
    graph: { lineageEdges: stats.lineageEdges, entities: stats.entities, seedProposals: seedRecords, versionUpdates },
    machine: { cores: cpus().length, memGb: Math.round(totalmem() / 2 ** 30), loadAvgAtEnd: loadavg(), node: process.version },
    neo4j: { heap, pageCache, storeAMb: mb(storeABytes), storeBMb: mb(storeBBytes), storeCMb: mb(storeCBytes) },
    seed: { proposals: seedRecords, ms: seed.ms, mcpPerSec: Math.round(seedRecords / (seed.ms / 1000)), peakRssMb: seed.peakRssMb },
    restore: {
      rows: restoreOut.result.rowsScanned,
      ms: Math.round(restoreOut.result.timeMs),
      rowsPerSec: restoreRate,
      peakRssMb: restoreOut.hwmMb,
    },
    restoreRebuild: {
      edgesDropped: dropped,
      rows: rebuildOut.result.rowsScanned,
      edgesAdded: rebuildOut.result.edgesAdded,
      ms: Math.round(rebuildOut.result.timeMs),
      rowsPerSec: rebuildRate,
      peakRssMb: rebuildOut.hwmMb,
    },
    memoryCap: {
      serviceRssMb: 256,
      exportFlags: nodeFlagsOf('tools/export.ts').join(' '),
      importFlags: nodeFlagsOf('tools/import.ts').join(' '),
    },
    export: {
      rows: exportedRows,
      ms: exported.ms,
      rowsPerSec: Math.round(exportedRows / (exported.ms / 1000)),
      gzipMb: +(statSync(exportFile).size / 2 ** 20).toFixed(2),
      jsonMb: mb(roundTrip.uncompressedBytes),
      peakRssMb: exported.peakRssMb,
      concurrentWrites: writes,
      concurrentDeletes: deletes,
      writerRecordsInFile: loadRecords,
      idleRerunMs: later.ms,
      idleRerunPeakRssMb: later.peakRssMb,
    },
    import: {
      records: importedRecords,
      ms: imported.ms,
      recordsPerSec: Math.round(importedRecords / (imported.ms / 1000)),
      peakRssMb: imported.peakRssMb,
      versusRestoreRate: +(importedRecords / (imported.ms / 1000) / restoreRate).toFixed(2),
      versusRestoreRebuildRate: +(importedRecords / (imported.ms / 1000) / rebuildRate).toFixed(2),
    },
    offlineImport: {
      records: offlineRecords,
      ms: offline.ms,
      recordsPerSec: Math.round(offlineRecords / (offline.ms / 1000)),
      peakRssMb: offline.peakRssMb,
      phasesS: offlinePhases
        ? { files: +offlinePhases[1]!, ghosts: +offlinePhases[2]!, neo4jAdmin: +offlinePhases[3]!, schema: +offlinePhases[4]! }
        : null,
      versusRestoreRate: +(offlineRecords / (offline.ms / 1000) / restoreRate).toFixed(2),
      versusRestoreRebuildRate: +(offlineRecords / (offline.ms / 1000) / rebuildRate).toFixed(2),
      versusOnlineImport: +(offlineRecords / offline.ms / (importedRecords / imported.ms)).toFixed(1),
    },
    check: {
      reexportOfBIdentical: roundTrip.identical,
      recordsCompared: roundTrip.compared,
      ...(roundTrip.identical ? {} : { difference: roundTrip.firstDifference }),
      untouchedRowsOfAIdentical: untouched.identical,
      ...(untouched.identical ? {} : { untouchedDifference: untouched.firstDifference }),
      driftOnB: hasDrift(drift),
      probes: PROBES.length,
      probeAnswersDiffering: probeDiffs,
      rebuiltEdgesEqualDropped: rebuildOut.result.edgesAdded === dropped,
      probeAnswersDifferingAfterRebuild: rebuiltDiffs,
      holdsAndHeldRowsLeftAfterExport: holdsLeft + heldLeft,
      reexportOfCIdentical: offlineRoundTrip.identical,
      ...(offlineRoundTrip.identical ? {} : { offlineDifference: offlineRoundTrip.firstDifference }),
      driftOnC: hasDrift(driftC),
      probeAnswersDifferingOnC: probeDiffsC,
    },
  };
  const ok =
    roundTrip.identical &&
    untouched.identical &&
    !hasDrift(drift) &&
    probeDiffs.length === 0 &&
    rebuildOut.result.edgesAdded === dropped &&
    rebuiltDiffs.length === 0 &&
    holdsLeft + heldLeft === 0 &&
    offlineRoundTrip.identical &&
    !hasDrift(driftC) &&
    probeDiffsC.length === 0;
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', result.file), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  log(ok ? 'drill passed' : 'DRILL FAILED');
  if (!ok) process.exitCode = 1;
} finally {
  await storeA?.close();
  await storeB?.close();
  await a?.stop();
  await b?.stop();
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}
