// Operator CLI: the logical import (docs/operations.md §Import) of a file in DataHub's format — an
// export of this catalog, or a file DataHub's `file` sink wrote — into the catalog at NEO4J_URI.
//
//   npm run import -- FILE[.gz] [--batch-size N] [--strict] [--resume] [--checkpoint FILE]
//   npm run import -- FILE[.gz] --offline [--home DIR] [--overwrite]
//
// The file is read as a stream (constant memory). After every committed batch the position goes
// to a checkpoint file; after a crash, --resume continues where it stopped (the first lines say
// where). A bad record stops the import with its index and what is wrong; the store then holds
// exactly the records before the checkpoint's position. Exit 0 done, 2 usage error or failure.
//
// --offline loads an export of this catalog into the embedded Neo4j of a stopped `npm start`
// (default home: .data/neo4j) with Neo4j's bulk importer (tools/offline-import.ts): the first load
// of a new machine, through Neo4j's bulk importer; no checkpoint (a failed run is run again).
import { createReadStream, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { dataDir, neo4jHome } from './embedded.ts';
import { offlineImport, OfflineImportError } from './offline-import.ts';
import { CatalogError } from '../catalog/src/model/errors.ts';
import { createGunzip } from 'node:zlib';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { storeFromEnv } from './store-from-env.ts';
import { importRecords, emptyImportProgress, DEFAULT_IMPORT_BATCH, type ImportProgress } from '../catalog/src/operations/backup/import.ts';
import { readJsonArray } from '../catalog/src/operations/backup/json-array.ts';

const USAGE = 'usage: npm run import -- FILE[.gz] [--batch-size N] [--strict] [--resume] [--checkpoint FILE] [--actor URN] [--quiet]\n' +
  '       npm run import -- FILE[.gz] --offline [--home DIR] [--overwrite] [--quiet]';

interface Checkpoint {
  file: { path: string; size: number; mtimeMs: number };
  progress: ImportProgress;
  updatedAt: string;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'batch-size': { type: 'string' },
      strict: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      checkpoint: { type: 'string', default: join(dataDir, 'import-checkpoint.json') },
      actor: { type: 'string', default: 'urn:li:corpuser:datahub' },
      quiet: { type: 'boolean', default: false },
      offline: { type: 'boolean', default: false },
      home: { type: 'string', default: neo4jHome },
      overwrite: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }));
} catch (e) {
  fail((e as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (positionals.length !== 1) fail('exactly one FILE to import');
const path = resolve(positionals[0]!);
let stat;
try {
  stat = statSync(path);
} catch {
  fail(`cannot read ${path}`);
}

if (values.offline) {
  for (const online of ['batch-size', 'strict', 'resume'] as const) {
    if (values[online] !== undefined && values[online] !== false) fail(`--${online} belongs to the online import; --offline loads the whole file at once`);
  }
  const bar = new cliProgress.SingleBar({
    format: 'records [{bar}] {percentage}% | {records} records, {entities} entities | ETA {eta_formatted}', etaBuffer: 50, hideCursor: true,
  }, cliProgress.Presets.shades_classic);
  if (!values.quiet) bar.start(stat.size, 0, { records: 0, entities: 0 });
  try {
    const r = await offlineImport({
      file: path, home: values.home, overwrite: values.overwrite, verbose: !values.quiet,
      progress: (p) => { if (!values.quiet) bar.update(p.bytesRead, { records: p.records, entities: p.entities }); },
    });
    if (!values.quiet) bar.stop();
    process.stdout.write(`${r.records} records loaded offline into ${resolve(values.home)}: ${r.entities} entities, ${r.ghosts} ghost endpoints, ` +
      `${r.aspects} aspect rows, ${r.edges} edges (${r.lineage} lineage) in ${r.seconds.total} s (${Math.round(r.records / Math.max(r.seconds.total, 0.001))} records/s; ` +
      `files ${r.seconds.files} s, ghosts ${r.seconds.ghosts} s, neo4j-admin ${r.seconds.neo4jAdmin} s, schema ${r.seconds.schema} s). Start it with npm start.\n`);
    process.exit(0);
  } catch (e) {
    if (!values.quiet) bar.stop();
    if (e instanceof OfflineImportError || e instanceof CatalogError) {
      process.stderr.write(`offline import failed: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

const batchSize = values['batch-size'] === undefined ? DEFAULT_IMPORT_BATCH : Number(values['batch-size']);
if (!Number.isInteger(batchSize) || batchSize < 1) fail('--batch-size must be a positive integer');
const checkpointFile = resolve(values.checkpoint);
const identity = { path, size: stat.size, mtimeMs: stat.mtimeMs };

let from: ImportProgress | undefined;
if (values.resume) {
  let cp: Checkpoint;
  try {
    cp = JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint;
  } catch {
    fail(`--resume: no readable checkpoint at ${checkpointFile}`);
  }
  if (JSON.stringify(cp.file) !== JSON.stringify(identity)) {
    fail(`--resume: the checkpoint is for ${cp.file.path} (${cp.file.size} bytes, modified ${new Date(cp.file.mtimeMs).toISOString()}), not this file`);
  }
  from = cp.progress;
  process.stderr.write(`resuming: ${from.records} records were committed (phase ${from.phase}` +
    `${from.phase === 'derive' ? `, derived state rebuilt up to ${JSON.stringify(from.deriveCursor ?? null)}` : ''}); continuing with record ${from.records}\n`);
}

function writeCheckpoint(progress: ImportProgress): void {
  mkdirSync(dirname(checkpointFile), { recursive: true });
  writeFileSync(`${checkpointFile}.tmp`, JSON.stringify({ file: identity, progress, updatedAt: new Date().toISOString() } satisfies Checkpoint, null, 2));
  renameSync(`${checkpointFile}.tmp`, checkpointFile);
}

const store = storeFromEnv();
// The bar counts compressed bytes read: a file's record count is unknown until it is read.
const bar = new cliProgress.SingleBar({
  format: '{phase} [{bar}] {percentage}% | {records} records, {rate} records/s | ETA {eta_formatted}',
  etaBuffer: 50,
  hideCursor: true,
}, cliProgress.Presets.shades_classic);
const t0 = Date.now();
let bytesRead = 0;
/** When the records phase ended (the derived-state phase, if any, follows). */
let recordsDoneAt: number | null = null;
const startRecords = from?.records ?? 0;
try {
  const version = await store.applySchema();
  if (version.version < version.current) fail(`the target store is at schema version ${version.version}; run npm run migrate first`);
  if (!values.quiet) bar.start(stat.size, 0, { phase: 'records', records: startRecords, rate: 0 });
  const raw = createReadStream(path);
  raw.on('data', (chunk) => { bytesRead += chunk.length; });
  const text = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const records = readJsonArray(text, { skip: from?.records ?? 0 });
  const result = await importRecords(store, records, {
    actor: values.actor, existenceMode: values.strict ? 'strict' : 'relaxed', batchSize, from,
    onProgress: (p) => {
      writeCheckpoint(p);
      if (p.phase !== 'records' && recordsDoneAt === null) recordsDoneAt = Date.now();
      if (values.quiet) return;
      const seconds = Math.max((Date.now() - t0) / 1000, 0.001);
      if (p.phase === 'records') bar.update(bytesRead, { phase: 'records', records: p.records, rate: Math.round((p.records - startRecords) / seconds) });
      else bar.update(stat.size, { phase: `derived state (${p.deriveRows ?? 0} rows)`, records: p.records, rate: Math.round((p.records - startRecords) / seconds) });
    },
  });
  if (!values.quiet) bar.stop();
  rmSync(checkpointFile, { force: true });
  const end = Date.now();
  const seconds = Math.max((end - t0) / 1000, 0.001);
  const recordsSeconds = ((recordsDoneAt ?? end) - t0) / 1000;
  // Batches derive their own rows; only a checkpoint from an older import has a separate pass.
  const phases = result.needsDerive
    ? `; records phase ${recordsSeconds.toFixed(1)} s, derived state ${((end - (recordsDoneAt ?? end)) / 1000).toFixed(1)} s`
    : '';
  process.stdout.write(`${result.records} records imported (${result.rows} backup rows with their derived state, ` +
    `${result.changes} proposals through the write path` +
    `${result.needsDerive ? `, derived state rebuilt from ${result.deriveRows ?? 0} rows` : ''}) in ${seconds.toFixed(1)} s ` +
    `(${Math.round((result.records - startRecords) / seconds)} records/s${phases})\n`);
} catch (e) {
  if (!values.quiet) bar.stop();
  process.stderr.write(`import failed: ${(e as Error).message}\n`);
  let committed = from?.records ?? 0;
  try {
    committed = (JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint).progress.records;
  } catch {
    // no batch was committed in this run
  }
  process.stderr.write(`the store holds records 0..${committed - 1} of this file (checkpoint ${checkpointFile}); ` +
    `fix the cause and rerun with --resume to continue from record ${committed}\n`);
  await store.close();
  process.exit(2);
}
await store.close();
