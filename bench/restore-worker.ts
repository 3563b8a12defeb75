// Child process of the runner for W-restore: a full restoreIndices over the whole store (the same
// domain function the CLI tools/restore-indices.ts drives), in its own process so its peak RSS is
// its own. Prints one JSON line per committed batch ({t, done}) and a final {result, hwmMb}.
//
//   node bench/restore-worker.ts <bolt uri> <batchSize>
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createStore } from '../catalog/src/store/store.ts';
import { restoreIndices } from '../catalog/src/operations/restore/restore-indices.ts';

const {
  positionals: [uri, batchSizeText],
} = parseArgs({ allowPositionals: true });
const store = createStore({ uri: uri!, database: 'neo4j' });
const out = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
const t0 = performance.now();
try {
  const result = await restoreIndices(store, { batchSize: Number(batchSizeText ?? 500) }, (p) => {
    out({ t: performance.now() - t0, done: p.done });
  });
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  const { drift: _drift, ignoredRows, ...summary } = result;
  out({ result: { ...summary, ignoredRows: ignoredRows.slice(0, 5) }, hwmMb: Math.round(Number(hwm) / 1024) });
} finally {
  await store.close();
}
