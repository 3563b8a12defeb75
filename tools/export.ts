// Operator CLI: the logical export (docs/operations.md §Export) — every stored aspect row, all
// versions, as DataHub's file format, consistent as of one moment while writes continue.
//
//   npm run export -- --out FILE[.gz] [--urn-like PATTERN] [--page-size N] [--skew-margin-ms N]
//
// Uses NEO4J_URI (default the embedded bolt://127.0.0.1:7687), NEO4J_USER, NEO4J_PASSWORD,
// NEO4J_DATABASE. Writes FILE.partial and renames it when complete, so a file named FILE is always
// a whole export. Exit 0 done, 2 usage error or failure.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { storeFromEnv } from './store-from-env.ts';
import { prepareExport } from '../catalog/src/operations/backup/export.ts';

const USAGE = 'usage: npm run export -- --out FILE[.gz] [--urn-like PATTERN] [--page-size N] [--skew-margin-ms N] [--quiet]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      out: { type: 'string' },
      'urn-like': { type: 'string' },
      'page-size': { type: 'string' },
      'skew-margin-ms': { type: 'string' },
      quiet: { type: 'boolean', default: false },
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
if (!values.out) fail('--out FILE is required');
const positiveInt = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer`);
  return n;
};
const pageSize = positiveInt('page-size', values['page-size']);
const skewMarginMs = positiveInt('skew-margin-ms', values['skew-margin-ms']);
const out = resolve(values.out);
const partial = `${out}.partial`;

const store = storeFromEnv();
const bar = new cliProgress.SingleBar({
  format: 'export [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | {entities} entities',
  etaBuffer: 50,
  hideCursor: true,
  noTTYOutput: false,
}, cliProgress.Presets.shades_classic);
const t0 = Date.now();
let rows = 0;
let entities = 0;
try {
  const exp = await prepareExport(store, {
    urnLike: values['urn-like'], pageSize, skewMarginMs,
    onProgress: (p) => {
      rows = p.rows;
      entities = p.entities;
      if (!values.quiet) bar.update(Math.min(p.rows, Math.max(bar.getTotal(), p.rows)), { rate: Math.round(p.rows / Math.max((Date.now() - t0) / 1000, 0.001)), entities: p.entities });
    },
  });
  process.stderr.write(`export consistent as of ${new Date(exp.asOf).toISOString()} (${exp.asOf})\n`);
  if (!values.quiet) bar.start(exp.totalRows, 0, { rate: 0, entities: 0 });
  const sink = createWriteStream(partial);
  const source = Readable.from(exp.chunks());
  if (out.endsWith('.gz')) await pipeline(source, createGzip(), sink);
  else await pipeline(source, sink);
  if (!values.quiet) bar.stop();
  renameSync(partial, out);
  const seconds = Math.max((Date.now() - t0) / 1000, 0.001);
  process.stdout.write(`${rows} rows of ${entities} entities exported to ${out} in ${seconds.toFixed(1)} s ` +
    `(${Math.round(rows / seconds)} rows/s); consistent as of ${exp.asOf}\n`);
} catch (e) {
  if (!values.quiet) bar.stop();
  rmSync(partial, { force: true });
  process.stderr.write(`export failed: ${(e as Error).message}\n`);
  await store.close();
  process.exit(2);
}
await store.close();
