// Operator CLI: rebuild derived indices (edges, :LINEAGE, search fields) from the stored aspect
// rows, for one urn, a LIKE pattern or the whole store.
//
//   npm run restore-indices -- [--urn U | --urn-like P] [--aspect A] [--batch-size N] [--resume]
//                              [--dry-run] [--clean] [--checkpoint FILE]
//
// Uses NEO4J_URI (default bolt://127.0.0.1:7687, the embedded default), NEO4J_USER,
// NEO4J_PASSWORD, NEO4J_DATABASE. After every committed batch the cursor goes to a checkpoint file,
// so --resume continues after a crash. --dry-run writes nothing, prints the drift report and exits
// 1 when anything differs (for monitoring). Exit 2 = bad usage or failure.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { dataDir } from './embedded.ts';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { storeFromEnv } from './store-from-env.ts';
import { parseUrn } from '../catalog/src/model/urn.ts';
import { countRestoreRows, DEFAULT_BATCH_SIZE, restoreIndices } from '../catalog/src/operations/restore/restore-indices.ts';
import type { RestoreArgs, RestoreCursor } from '../catalog/src/operations/restore/restore-args.ts';
import { hasDrift, type RestoreResult } from '../catalog/src/operations/restore/restore-report.ts';

const USAGE = `usage: npm run restore-indices -- [--urn U | --urn-like P] [--aspect A] [--batch-size N] [--resume] [--dry-run] [--clean] [--checkpoint FILE]`;

interface Checkpoint {
  scope: { urn: string | null; urnLike: string | null; aspect: string | null; clean: boolean };
  cursor: RestoreCursor;
  rowsDone: number;
  updatedAt: string;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function writeCheckpoint(file: string, cp: Checkpoint): void {
  mkdirSync(dirname(file), { recursive: true });
  // Write-then-rename: a crash mid-write never leaves a torn checkpoint.
  writeFileSync(`${file}.tmp`, JSON.stringify(cp, null, 2));
  renameSync(`${file}.tmp`, file);
}

function printDrift(r: RestoreResult): void {
  const d = r.drift;
  const section = (title: string, count: number, examples: unknown[]) => {
    process.stdout.write(`${title}: ${count}\n`);
    for (const e of examples) process.stdout.write(`  ${JSON.stringify(e)}\n`);
  };
  section('missing edges', d.missingEdges.count, d.missingEdges.examples);
  section('extra edges', d.extraEdges.count, d.extraEdges.examples);
  section('changed edges', d.changedEdges.count, d.changedEdges.examples);
  section('search fields', d.searchFields.count, d.searchFields.examples);
  if (r.clean) section('orphan nodes', d.orphanNodes.count, d.orphanNodes.examples);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        urn: { type: 'string' },
        'urn-like': { type: 'string' },
        aspect: { type: 'string' },
        'batch-size': { type: 'string' },
        resume: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        clean: { type: 'boolean', default: false },
        checkpoint: { type: 'string', default: join(dataDir, 'restore-checkpoint.json') },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.urn !== undefined && values['urn-like'] !== undefined) fail('--urn and --urn-like are exclusive');
  const batchSize = values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1) fail('--batch-size must be a positive integer');
  let urn: string | undefined;
  if (values.urn !== undefined) {
    try {
      urn = parseUrn(values.urn).text;
    } catch (e) {
      fail((e as Error).message);
    }
  }
  const scope: Checkpoint['scope'] = { urn: urn ?? null, urnLike: values['urn-like'] ?? null, aspect: values.aspect ?? null, clean: values.clean };
  const checkpointFile = resolve(values.checkpoint);
  const dryRun = values['dry-run'];

  let after: RestoreCursor | undefined;
  let rowsDoneBefore = 0;
  if (values.resume) {
    let cp: Checkpoint;
    try {
      cp = JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint;
    } catch {
      fail(`--resume: no readable checkpoint at ${checkpointFile}`);
    }
    if (JSON.stringify(cp.scope) !== JSON.stringify(scope)) {
      fail(`--resume: the checkpoint was written for another scope ${JSON.stringify(cp.scope)}`);
    }
    after = cp.cursor;
    rowsDoneBefore = cp.rowsDone;
    process.stderr.write(`resuming after ${JSON.stringify(after)} (${rowsDoneBefore} rows done before)\n`);
  }

  const store = storeFromEnv();
  const args: RestoreArgs = {
    urn, urnLike: values['urn-like'], aspect: values.aspect, batchSize, clean: values.clean, dryRun, after,
  };
  const bar = new cliProgress.SingleBar({
    format: '{phase} [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | +{added} -{removed} ~{changed} edges, {fields} fields',
    etaBuffer: 50,
    hideCursor: true,
  }, cliProgress.Presets.shades_classic);
  const t0 = Date.now();
  let result: RestoreResult;
  try {
    const total = await countRestoreRows(store, args);
    bar.start(Math.max(total, rowsDoneBefore), rowsDoneBefore, { phase: 'rows', rate: 0, added: 0, removed: 0, changed: 0, fields: 0 });
    result = await restoreIndices(store, args, (p) => {
      const rowsDone = rowsDoneBefore + p.result.rowsScanned;
      const seconds = (Date.now() - t0) / 1000;
      const counts = dryRun
        ? { added: p.result.drift.missingEdges.count, removed: p.result.drift.extraEdges.count, changed: p.result.drift.changedEdges.count, fields: p.result.drift.searchFields.count }
        : { added: p.result.edgesAdded, removed: p.result.edgesRemoved, changed: p.result.edgesChanged, fields: p.result.searchFieldsRewritten };
      if (p.phase === 'rows') {
        bar.update(rowsDone, { phase: 'rows', rate: Math.round(p.result.rowsScanned / Math.max(seconds, 0.001)), ...counts });
      } else {
        // Clean passes have no cheap total: show the pass and how far it got.
        bar.update(rowsDone, { phase: `${p.phase} (${p.done} scanned, at ${p.cursor.urn.slice(0, 60)})`, ...counts });
      }
      if (!dryRun) writeCheckpoint(checkpointFile, { scope, cursor: p.cursor, rowsDone, updatedAt: new Date().toISOString() });
    });
    bar.stop();
  } catch (e) {
    bar.stop();
    process.stderr.write(`restore-indices failed: ${(e as Error).message}\n`);
    if (!dryRun) process.stderr.write(`progress is in ${checkpointFile}; rerun with --resume to continue\n`);
    await store.close();
    process.exit(2);
  }
  await store.close();
  if (!dryRun) rmSync(checkpointFile, { force: true });

  const r = result;
  const seconds = Math.max(r.timeMs / 1000, 0.001);
  process.stdout.write(
    `${dryRun ? 'dry run: ' : ''}${r.rowsScanned} rows scanned, ${r.rowsMigrated} restored, ${r.ignored} ignored ` +
    `in ${(r.timeMs / 1000).toFixed(1)} s (${Math.round(r.rowsScanned / seconds)} rows/s); ` +
    `edges +${r.edgesAdded} -${r.edgesRemoved} ~${r.edgesChanged}, search fields rewritten ${r.searchFieldsRewritten}` +
    `${r.clean ? `, nodes removed ${r.nodesRemoved}` : ''}; last ${r.lastUrn ?? '-'} ${r.lastAspect ?? ''}\n`,
  );
  for (const i of r.ignoredRows) process.stdout.write(`ignored ${i.urn} ${i.aspect}: ${i.reason}\n`);
  if (dryRun) {
    printDrift(r);
    if (hasDrift(r)) process.exit(1);
  }
}

await main();
