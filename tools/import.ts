// Operator CLI: the logical import (docs/operations.md §Import) of a file in DataHub's format — an
// export of this catalog, or a file DataHub's `file` sink wrote — into the catalog at NEO4J_URI.
//
//   npm run import -- FILE[.gz] [--batch-size N] [--strict] [--resume] [--checkpoint FILE]
//   npm run import -- FILE[.gz] --offline [--home DIR] [--overwrite]
//
// The file is read as a stream (constant memory). After every committed batch the position goes
// to a checkpoint file; after a crash, --resume continues where it stopped (the first lines say
// where). A bad record stops the import with its index and what is wrong; the store then holds
// exactly the records before the checkpoint's position. Flags, environment and exit codes:
// docs/operators.md (`--help`).
//
// --offline loads an export of this catalog into the embedded Neo4j of a stopped `npm start`
// (default home: .data/neo4j) with Neo4j's bulk importer (tools/offline-import.ts): the first load
// of a new machine, through Neo4j's bulk importer; no checkpoint (a failed run is run again).
import { createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { offlineImport, OfflineImportError } from './offline-import.ts';
import { Option, type Command } from 'commander';
import {
  actorOption,
  addOptions,
  batchSizeOption,
  checkpoint,
  createProgram,
  dataDirOption,
  homeOption,
  neo4jOptions,
  quietOption,
  type Neo4jConnection,
} from './cli/program.ts';
import { progressBar } from './cli/progress.ts';
import { storeOf } from './store-from-env.ts';
import { CatalogError } from '../catalog/src/model/errors.ts';
import { importRecords, DEFAULT_IMPORT_BATCH, type ImportProgress } from '../catalog/src/operations/backup/import.ts';
import { readJsonArray } from '../catalog/src/operations/backup/json-array.ts';

/** A failed import exits 2, as it always has (docs/operators.md). */
const IMPORT_FAILED = 2;

interface Checkpoint {
  file: { path: string; size: number; mtimeMs: number };
  progress: ImportProgress;
  updatedAt: string;
}

interface ImportOptions extends Neo4jConnection {
  batchSize: number;
  strict: boolean;
  resume: boolean;
  checkpoint?: string;
  actor: string;
  quiet: boolean;
  offline: boolean;
  home?: string;
  overwrite: boolean;
  dataDir: string;
}

const program: Command = addOptions(
  createProgram(
    'import',
    "Import a file in DataHub's format (an export, or DataHub's file sink output; FILE.gz is gunzipped) into the catalog.",
  ).argument('<file>', 'the file to import'),
  [
    batchSizeOption(DEFAULT_IMPORT_BATCH, 'records'),
    new Option('--strict', 'write proposals in strict existence mode (default relaxed: files come in any order)').default(false),
    actorOption('who the proposals are stamped with'),
    ...checkpoint.options('import-checkpoint.json'),
    new Option('--offline', 'load into the stopped embedded Neo4j with neo4j-admin (the first load of a new catalog)').default(false),
    homeOption('with --offline: the Neo4j home (default: <data-dir>/neo4j)'),
    new Option('--overwrite', 'with --offline: replace the database the home holds').default(false),
    dataDirOption(),
    quietOption(),
    ...neo4jOptions(),
  ],
);
program.parse();
const values = program.opts<ImportOptions>();
const path = resolve(program.args[0]!);
let stat;
try {
  stat = statSync(path);
} catch {
  program.error(`cannot read ${path}`);
}

if (values.offline) {
  for (const online of ['batchSize', 'strict', 'resume'] as const) {
    if (program.getOptionValueSource(online) === 'cli')
      program.error(
        `--${online === 'batchSize' ? 'batch-size' : online} belongs to the online import; --offline loads the whole file at once`,
      );
  }
  const home = resolve(values.home ?? join(values.dataDir, 'neo4j'));
  const bar = progressBar('records [{bar}] {percentage}% | {records} records, {entities} entities | ETA {eta_formatted}', values);
  bar.start(stat.size, 0, { records: 0, entities: 0 });
  try {
    const r = await offlineImport({
      file: path,
      home,
      overwrite: values.overwrite,
      verbose: !values.quiet,
      progress: (p) => bar.update(p.bytesRead, { records: p.records, entities: p.entities }),
    });
    bar.stop();
    process.stdout.write(
      `${r.records} records loaded offline into ${home}: ${r.entities} entities, ${r.ghosts} ghost endpoints, ` +
        `${r.aspects} aspect rows, ${r.edges} edges (${r.lineage} lineage) in ${r.seconds.total} s (${Math.round(r.records / Math.max(r.seconds.total, 0.001))} records/s; ` +
        `files ${r.seconds.files} s, ghosts ${r.seconds.ghosts} s, neo4j-admin ${r.seconds.neo4jAdmin} s, schema ${r.seconds.schema} s). Start it with npm start.\n`,
    );
    process.exit(0);
  } catch (e) {
    bar.stop();
    if (e instanceof OfflineImportError || e instanceof CatalogError) {
      process.stderr.write(`offline import failed: ${e.message}\n`);
      process.exit(IMPORT_FAILED);
    }
    throw e;
  }
}

const batchSize = values.batchSize;
const checkpointFile = resolve(values.checkpoint ?? join(values.dataDir, 'import-checkpoint.json'));
const identity = { path, size: stat.size, mtimeMs: stat.mtimeMs };

let from: ImportProgress | undefined;
if (values.resume) {
  const cp = checkpoint.read<Checkpoint>(program, checkpointFile);
  if (JSON.stringify(cp.file) !== JSON.stringify(identity)) {
    program.error(
      `--resume: the checkpoint is for ${cp.file.path} (${cp.file.size} bytes, modified ${new Date(cp.file.mtimeMs).toISOString()}), not this file`,
    );
  }
  from = cp.progress;
  process.stderr.write(
    `resuming: ${from.records} records were committed (phase ${from.phase}` +
      `${from.phase === 'derive' ? `, derived state rebuilt up to ${JSON.stringify(from.deriveCursor ?? null)}` : ''}); continuing with record ${from.records}\n`,
  );
}

function writeCheckpoint(progress: ImportProgress): void {
  checkpoint.save(checkpointFile, { file: identity, progress, updatedAt: new Date().toISOString() } satisfies Checkpoint);
}

const store = storeOf(values);
// The bar counts compressed bytes read: a file's record count is unknown until it is read.
const bar = progressBar('{phase} [{bar}] {percentage}% | {records} records, {rate} records/s | ETA {eta_formatted}', values);
const t0 = Date.now();
let bytesRead = 0;
/** When the records phase ended (the derived-state phase, if any, follows). */
let recordsDoneAt: number | null = null;
const startRecords = from?.records ?? 0;
try {
  const version = await store.applySchema();
  if (version.version < version.current) {
    process.stderr.write(`import failed: the target store is at schema version ${version.version}; run npm run migrate first\n`);
    await store.close();
    process.exit(IMPORT_FAILED);
  }
  bar.start(stat.size, 0, { phase: 'records', records: startRecords, rate: 0 });
  const raw = createReadStream(path);
  raw.on('data', (chunk) => {
    bytesRead += chunk.length;
  });
  const text = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const records = readJsonArray(text, { skip: from?.records ?? 0 });
  const result = await importRecords(store, records, {
    actor: values.actor,
    existenceMode: values.strict ? 'strict' : 'relaxed',
    batchSize,
    from,
    onProgress: (p) => {
      writeCheckpoint(p);
      if (p.phase !== 'records' && recordsDoneAt === null) recordsDoneAt = Date.now();
      const seconds = Math.max((Date.now() - t0) / 1000, 0.001);
      if (p.phase === 'records')
        bar.update(bytesRead, { phase: 'records', records: p.records, rate: Math.round((p.records - startRecords) / seconds) });
      else
        bar.update(stat.size, {
          phase: `derived state (${p.deriveRows ?? 0} rows)`,
          records: p.records,
          rate: Math.round((p.records - startRecords) / seconds),
        });
    },
  });
  bar.stop();
  rmSync(checkpointFile, { force: true });
  const end = Date.now();
  const seconds = Math.max((end - t0) / 1000, 0.001);
  const recordsSeconds = ((recordsDoneAt ?? end) - t0) / 1000;
  // Batches derive their own rows; only a checkpoint from an older import has a separate pass.
  const phases = result.needsDerive
    ? `; records phase ${recordsSeconds.toFixed(1)} s, derived state ${((end - (recordsDoneAt ?? end)) / 1000).toFixed(1)} s`
    : '';
  process.stdout.write(
    `${result.records} records imported (${result.rows} backup rows with their derived state, ` +
      `${result.changes} proposals through the write path` +
      `${result.needsDerive ? `, derived state rebuilt from ${result.deriveRows ?? 0} rows` : ''}) in ${seconds.toFixed(1)} s ` +
      `(${Math.round((result.records - startRecords) / seconds)} records/s${phases})\n`,
  );
} catch (e) {
  bar.stop();
  process.stderr.write(`import failed: ${(e as Error).message}\n`);
  let committed = from?.records ?? 0;
  try {
    committed = (JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint).progress.records;
  } catch {
    // no batch was committed in this run
  }
  process.stderr.write(
    `the store holds records 0..${committed - 1} of this file (checkpoint ${checkpointFile}); ` +
      `fix the cause and rerun with --resume to continue from record ${committed}\n`,
  );
  await store.close();
  process.exit(IMPORT_FAILED);
}
await store.close();
