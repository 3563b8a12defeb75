// Operator CLI: the logical export (docs/operations.md §Export) — every stored aspect row, all
// versions, as DataHub's file format, consistent as of one moment while writes continue.
//
//   npm run export -- --out FILE[.gz] [--urn-like PATTERN] [--page-size N] [--skew-margin-ms N]
//
// Flags, environment and exit codes: docs/operators.md (`--help`). Writes FILE.partial and renames
// it when complete, so a file named FILE is always a whole export.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Option, type Command } from 'commander';
import {
  addOptions,
  createProgram,
  integerAtLeast,
  neo4jOptions,
  quietOption,
  urnLikeOption,
  type Neo4jConnection,
} from './cli/program.ts';
import { progressBar } from './cli/progress.ts';
import { storeOf } from './store-from-env.ts';
import { prepareExport } from '../catalog/src/operations/backup/export.ts';

/** A failed export exits 2, as it always has (docs/operators.md). */
const EXPORT_FAILED = 2;

interface ExportOptions extends Neo4jConnection {
  out?: string;
  urnLike?: string;
  pageSize?: number;
  skewMarginMs?: number;
  quiet: boolean;
}

const program: Command = addOptions(
  createProgram('export', "Write every stored aspect row, all versions, as DataHub's file format (FILE.gz is gzipped)."),
  [
    new Option('--out <file>', 'the export file (required); written as FILE.partial and renamed when complete'),
    urnLikeOption('are exported'),
    new Option('--page-size <n>', 'rows read per page').argParser(integerAtLeast(0)),
    new Option('--skew-margin-ms <n>', 'how far behind the clock the consistent moment is taken').argParser(integerAtLeast(0)),
    quietOption(),
    ...neo4jOptions(),
  ],
);
const values = program.parse().opts<ExportOptions>();
// Checked here rather than by commander, which would report it before an unknown option.
if (values.out === undefined) program.error('--out FILE is required');
const out = resolve(values.out);
const partial = `${out}.partial`;

const store = storeOf(values);
const bar = progressBar('export [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | {entities} entities', values);
const t0 = Date.now();
let rows = 0;
let entities = 0;
try {
  const exp = await prepareExport(store, {
    urnLike: values.urnLike,
    pageSize: values.pageSize,
    skewMarginMs: values.skewMarginMs,
    onProgress: (p) => {
      rows = p.rows;
      entities = p.entities;
      bar.update(Math.min(p.rows, Math.max(bar.getTotal(), p.rows)), {
        rate: Math.round(p.rows / Math.max((Date.now() - t0) / 1000, 0.001)),
        entities: p.entities,
      });
    },
  });
  process.stderr.write(`export consistent as of ${new Date(exp.asOf).toISOString()} (${exp.asOf})\n`);
  bar.start(exp.totalRows, 0, { rate: 0, entities: 0 });
  const sink = createWriteStream(partial);
  const source = Readable.from(exp.chunks());
  if (out.endsWith('.gz')) await pipeline(source, createGzip(), sink);
  else await pipeline(source, sink);
  bar.stop();
  renameSync(partial, out);
  const seconds = Math.max((Date.now() - t0) / 1000, 0.001);
  process.stdout.write(
    `${rows} rows of ${entities} entities exported to ${out} in ${seconds.toFixed(1)} s ` +
      `(${Math.round(rows / seconds)} rows/s); consistent as of ${exp.asOf}\n`,
  );
} catch (e) {
  bar.stop();
  rmSync(partial, { force: true });
  process.stderr.write(`export failed: ${(e as Error).message}\n`);
  await store.close();
  process.exit(EXPORT_FAILED);
}
await store.close();
