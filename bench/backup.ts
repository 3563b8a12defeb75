// The backup drill at scale (issue 28; docs/operations.md): `node bench/backup.ts --size 10k|100k|1M`.
//
// 1. The bench graph (bench/generate.ts) is written as a DataHub file (a JSON array of proposals,
//    what a `file` sink writes) and loaded with the import into catalog A (through the write path).
// 2. A is exported (gzip) while a writer keeps upserting a separate set of datasets.
// 3. The export is imported into an empty catalog B (rows, then restoreIndices).
// 4. Check: B re-exported equals A's export record for record (the moment header aside), and
//    restoreIndices --dry-run finds no drift on B.
// Time, rate, file size and this process's peak RSS per step go to bench/results/<date>-backup-<size>.json.
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startNeo4j, freePort } from '../tools/neo4j/neo4j-server.ts';
import { createStore, type Store } from '../catalog/src/store/store.ts';
import { parseUrn } from '../catalog/src/model/urn.ts';
import { writeAspects } from '../catalog/src/write/aspect-writer.ts';
import { prepareExport } from '../catalog/src/operations/backup/export.ts';
import { importRecords } from '../catalog/src/operations/backup/import.ts';
import { readJsonArray } from '../catalog/src/operations/backup/json-array.ts';
import { restoreIndices, hasDrift } from '../catalog/src/operations/restore/restore-indices.ts';
import { generate, proposalBatches, SIZES } from './generate.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { size: { type: 'string', default: '10k' }, heap: { type: 'string', default: '1g' }, 'page-cache': { type: 'string', default: '512m' } } });
const edges = SIZES[values.size!];
if (!edges) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);

let peak = 0;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100);
async function step<T>(name: string, work: () => Promise<T>): Promise<{ value: T; ms: number; peakRssMb: number }> {
  peak = process.memoryUsage().rss;
  const t0 = Date.now();
  const value = await work();
  const ms = Date.now() - t0;
  const peakRssMb = Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20);
  process.stderr.write(`[backup-bench] ${name}: ${(ms / 1000).toFixed(1)} s, peak RSS ${peakRssMb} MB\n`);
  return { value, ms, peakRssMb };
}

const work = mkdtempSync(join(tmpdir(), 'lineage-backup-bench-'));
const [a, b] = await Promise.all([
  startNeo4j({ home: join(work, 'a'), boltPort: await freePort(), heap: values.heap!, pageCache: values['page-cache']! }),
  startNeo4j({ home: join(work, 'b'), boltPort: await freePort(), heap: values.heap!, pageCache: values['page-cache']! }),
]);
const storeA = createStore({ uri: a.uri, database: 'neo4j' });
const storeB = createStore({ uri: b.uri, database: 'neo4j' });
const readFile = (file: string) => readJsonArray(file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file));
const ACTOR = 'urn:li:corpuser:bench';

async function exportTo(store: Store, file: string, onRows?: (n: number) => void) {
  const exp = await prepareExport(store, { onProgress: (p) => onRows?.(p.rows) });
  await pipeline(Readable.from(exp.chunks()), createGzip(), createWriteStream(file));
  return exp;
}

try {
  await storeA.applySchema();
  await storeB.applySchema();
  const g = generate(edges);
  const seedFile = join(work, 'seed.json');
  const out = createWriteStream(seedFile);
  out.write('[');
  let proposals = 0;
  for (const batch of proposalBatches(g, 1000)) for (const p of batch.proposals) { out.write(`${proposals++ ? ',' : ''}\n${JSON.stringify(p)}`); }
  out.write('\n]\n');
  await new Promise((r) => out.end(r));

  const seed = await step('load A from a DataHub file (write path)', () => importRecords(storeA, readFile(seedFile), { actor: ACTOR, batchSize: 1000 }));

  let writes = 0;
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:benchload,t${i % 50},PROD)`;
      await writeAspects(storeA, [{ urn: parseUrn(urn), aspectName: 'datasetProperties', changeType: 'UPSERT', value: { name: `t${i % 50}`, description: `write ${i}` } }],
        { actor: ACTOR, existenceMode: 'relaxed' });
      writes++;
    }
  })();
  const exportFile = join(work, 'export.json.gz');
  const exported = await step('export A under write load', () => exportTo(storeA, exportFile));
  stop = true;
  await writer;
  let exportedRows = 0;
  for await (const _ of readFile(exportFile)) exportedRows++;

  const imported = await step('import into empty B', () => importRecords(storeB, readFile(exportFile), { actor: ACTOR, batchSize: 1000 }));
  const drift = await step('restoreIndices --dry-run on B', () => restoreIndices(storeB, { dryRun: true, batchSize: 2000 }));
  const again = join(work, 'again.json.gz');
  await exportTo(storeB, again);
  const strip = (s: string) => s.replace(/"lineageCatalog\.asOf":"\d+"/g, '');
  const text = async (f: string) => { const parts: Buffer[] = []; for await (const c of createReadStream(f).pipe(createGunzip())) parts.push(c as Buffer); return Buffer.concat(parts).toString('utf8'); };
  const equal = strip(await text(again)) === strip(await text(exportFile));

  const result = {
    file: `${new Date().toISOString().slice(0, 10)}-backup-${values.size}.json`,
    size: { label: values.size, edges },
    machine: { cores: cpus().length, loadAvg: loadavg(), node: process.version },
    seed: { proposals, ms: seed.ms, mcpPerSec: Math.round(proposals / (seed.ms / 1000)), peakRssMb: seed.peakRssMb },
    export: {
      rows: exportedRows, ms: exported.ms, rowsPerSec: Math.round(exportedRows / (exported.ms / 1000)), gzipBytes: statSync(exportFile).size,
      peakRssMb: exported.peakRssMb, concurrentWrites: writes,
    },
    import: {
      records: imported.value.records, ms: imported.ms, recordsPerSec: Math.round(imported.value.records / (imported.ms / 1000)),
      derivedRows: imported.value.deriveRows ?? 0, peakRssMb: imported.peakRssMb,
    },
    check: { reexportIdentical: equal, driftOnB: hasDrift(drift.value), restoreDryRunMs: drift.ms },
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', result.file), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!equal || hasDrift(drift.value)) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  await storeA.close();
  await storeB.close();
  await Promise.all([a.stop(), b.stop()]);
  rmSync(work, { recursive: true, force: true });
}
