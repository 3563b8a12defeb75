// Operator CLI: rebuild derived indices (edges, :LINEAGE, search fields) from the stored aspect
// rows, for one urn, a LIKE pattern or the whole store.
//
//   npm run restore-indices -- [--urn U | --urn-like P] [--aspect A] [--batch-size N] [--resume]
//                              [--dry-run] [--clean] [--checkpoint FILE]
//
// Works on the Neo4j of --neo4j-uri / NEO4J_URI (default: the embedded one). After every committed
// batch the cursor goes to a checkpoint file, so --resume continues after a crash. --dry-run writes
// nothing, prints the drift report and exits 1 when anything differs (for monitoring). Flags and
// exit codes: docs/operators.md (`--help`).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import {
  addOptions,
  batchSizeOption,
  checkpoint,
  createProgram,
  dataDirOption,
  neo4jOptions,
  quietOption,
  urnLikeOption,
  type Neo4jConnection,
} from './cli/program.ts';
import { progressBar } from './cli/progress.ts';
import { storeOf } from './store-from-env.ts';
import { parseUrn } from '../catalog/src/model/urn.ts';
import { countRestoreRows, DEFAULT_BATCH_SIZE, restoreIndices } from '../catalog/src/operations/restore/restore-indices.ts';
import type { RestoreArgs, RestoreCursor } from '../catalog/src/operations/restore/restore-args.ts';
import { hasDrift, type RestoreResult } from '../catalog/src/operations/restore/restore-report.ts';

/** --dry-run found drift (for monitoring); a failure exits 2, as it always has (docs/operators.md). */
const DRIFT_FOUND = 1;
const RESTORE_FAILED = 2;

interface RestoreOptions extends Neo4jConnection {
  urn?: string;
  urnLike?: string;
  aspect?: string;
  batchSize: number;
  resume: boolean;
  dryRun: boolean;
  clean: boolean;
  checkpoint?: string;
  dataDir: string;
  quiet: boolean;
}

interface Checkpoint {
  scope: { urn: string | null; urnLike: string | null; aspect: string | null; clean: boolean };
  cursor: RestoreCursor;
  rowsDone: number;
  updatedAt: string;
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
  const program: Command = addOptions(
    createProgram(
      'restore-indices',
      'Rebuild derived indices (edges, :LINEAGE, search fields) from the stored aspect rows: one urn, a LIKE pattern or the whole store.',
    ),
    [
      new Option('--urn <urn>', 'only this entity').conflicts('urnLike'),
      urnLikeOption('are restored'),
      new Option('--aspect <name>', 'only rows of this aspect'),
      batchSizeOption(DEFAULT_BATCH_SIZE, 'rows'),
      new Option('--dry-run', 'write nothing: print the drift report, exit 1 when anything differs').default(false),
      new Option('--clean', 'also remove derived edges, fields and nodes no stored row justifies').default(false),
      ...checkpoint.options('restore-checkpoint.json'),
      dataDirOption(),
      quietOption(),
      ...neo4jOptions(),
    ],
  );
  const values = program.parse().opts<RestoreOptions>();
  const batchSize = values.batchSize;
  let urn: string | undefined;
  if (values.urn !== undefined) {
    try {
      urn = parseUrn(values.urn).text;
    } catch (e) {
      program.error((e as Error).message);
    }
  }
  const scope: Checkpoint['scope'] = {
    urn: urn ?? null,
    urnLike: values.urnLike ?? null,
    aspect: values.aspect ?? null,
    clean: values.clean,
  };
  const checkpointFile = resolve(values.checkpoint ?? join(values.dataDir, 'restore-checkpoint.json'));
  const dryRun = values.dryRun;

  let after: RestoreCursor | undefined;
  let rowsDoneBefore = 0;
  if (values.resume) {
    const cp = checkpoint.read<Checkpoint>(program, checkpointFile);
    if (JSON.stringify(cp.scope) !== JSON.stringify(scope)) {
      program.error(`--resume: the checkpoint was written for another scope ${JSON.stringify(cp.scope)}`);
    }
    after = cp.cursor;
    rowsDoneBefore = cp.rowsDone;
    process.stderr.write(`resuming after ${JSON.stringify(after)} (${rowsDoneBefore} rows done before)\n`);
  }

  const store = storeOf(values);
  const args: RestoreArgs = {
    urn,
    urnLike: values.urnLike,
    aspect: values.aspect,
    batchSize,
    clean: values.clean,
    dryRun,
    after,
  };
  const bar = progressBar(
    '{phase} [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | +{added} -{removed} ~{changed} edges, {fields} fields',
    values,
  );
  const t0 = Date.now();
  let result: RestoreResult;
  try {
    const total = await countRestoreRows(store, args);
    bar.start(Math.max(total, rowsDoneBefore), rowsDoneBefore, { phase: 'rows', rate: 0, added: 0, removed: 0, changed: 0, fields: 0 });
    result = await restoreIndices(store, args, (p) => {
      const rowsDone = rowsDoneBefore + p.result.rowsScanned;
      const seconds = (Date.now() - t0) / 1000;
      const counts = dryRun
        ? {
            added: p.result.drift.missingEdges.count,
            removed: p.result.drift.extraEdges.count,
            changed: p.result.drift.changedEdges.count,
            fields: p.result.drift.searchFields.count,
          }
        : {
            added: p.result.edgesAdded,
            removed: p.result.edgesRemoved,
            changed: p.result.edgesChanged,
            fields: p.result.searchFieldsRewritten,
          };
      if (p.phase === 'rows') {
        bar.update(rowsDone, { phase: 'rows', rate: Math.round(p.result.rowsScanned / Math.max(seconds, 0.001)), ...counts });
      } else {
        // Clean passes have no cheap total: show the pass and how far it got.
        bar.update(rowsDone, { phase: `${p.phase} (${p.done} scanned, at ${p.cursor.urn.slice(0, 60)})`, ...counts });
      }
      if (!dryRun)
        checkpoint.save(checkpointFile, { scope, cursor: p.cursor, rowsDone, updatedAt: new Date().toISOString() } satisfies Checkpoint);
    });
    bar.stop();
  } catch (e) {
    bar.stop();
    process.stderr.write(`restore-indices failed: ${(e as Error).message}\n`);
    if (!dryRun) process.stderr.write(`progress is in ${checkpointFile}; rerun with --resume to continue\n`);
    await store.close();
    process.exit(RESTORE_FAILED);
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
    if (hasDrift(r)) process.exit(DRIFT_FOUND);
  }
}

await main();
