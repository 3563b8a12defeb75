// W-restore: (1) a full restoreIndices pass over every latest row (the operator's whole-store
// rebuild, keyset-paged, one transaction per batch) in a child process, reporting rows/s and the
// latency of every batch; (2) API windows — POST /operations?action=restoreIndices with
// {start, batchSize, limit} at offsets spread over the store, as DataHub's restore jobs send them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { summarize, type Summary } from '../lib/stats.ts';

export interface RestoreRun {
  rows: number;
  ms: number;
  rowsPerSec: number;
  batchSize: number;
  batchMs: Summary;
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  searchFieldsRewritten: number;
  workerPeakRssMb: number | null;
}

export interface RestoreWindows {
  windowRows: number;
  windows: number;
  windowMs: Summary;
  rowsPerSec: number;
  offsets: number[];
}

const worker = fileURLToPath(new URL('../restore-worker.ts', import.meta.url));

export async function restoreFull(
  uri: string,
  batchSize: number,
  progress: (s: string) => void,
  onPid: (pid: number) => void,
): Promise<RestoreRun> {
  const child = spawn(process.execPath, [worker, uri, String(batchSize)], { stdio: ['ignore', 'pipe', 'inherit'] });
  onPid(child.pid!);
  const batchMs: number[] = [];
  let prev = 0;
  let lastReport = 0;
  let final: { result: Record<string, number>; hwmMb: number } | null = null;
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const msg = JSON.parse(line);
    if (msg.result) {
      final = msg;
      continue;
    }
    batchMs.push(msg.t - prev);
    prev = msg.t;
    if (msg.t - lastReport > 5000) {
      lastReport = msg.t;
      progress(`restore: ${msg.done.toLocaleString()} rows, ${Math.round(msg.done / (msg.t / 1000))} rows/s`);
    }
  }
  const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r)));
  if (code !== 0 || !final) throw new Error(`restore worker exited with ${code}`);
  const r = final.result;
  return {
    rows: r.rowsScanned!,
    ms: r.timeMs!,
    rowsPerSec: Math.round(r.rowsScanned! / (r.timeMs! / 1000)),
    batchSize,
    batchMs: summarize(batchMs),
    edgesAdded: r.edgesAdded!,
    edgesRemoved: r.edgesRemoved!,
    edgesChanged: r.edgesChanged!,
    searchFieldsRewritten: r.searchFieldsRewritten!,
    workerPeakRssMb: final.hwmMb,
  };
}

export async function restoreWindows(
  ingestionUrl: string,
  token: string,
  totalRows: number,
  windowRows: number,
  windows: number,
): Promise<RestoreWindows> {
  const offsets = Array.from({ length: windows }, (_, i) =>
    Math.floor((i * Math.max(0, totalRows - windowRows)) / Math.max(1, windows - 1)),
  );
  const samples: number[] = [];
  let rows = 0;
  for (const start of offsets) {
    const t = performance.now();
    const res = await fetch(`${ingestionUrl}/operations?action=restoreIndices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0', authorization: `Bearer ${token}` },
      body: JSON.stringify({ start, batchSize: windowRows, limit: windowRows }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`restoreIndices window at ${start}: HTTP ${res.status}: ${text.slice(0, 300)}`);
    samples.push(performance.now() - t);
    rows += (JSON.parse(text) as { rowsScanned: number }).rowsScanned;
  }
  const ms = samples.reduce((a, b) => a + b, 0);
  return { windowRows, windows, windowMs: summarize(samples), rowsPerSec: Math.round(rows / (ms / 1000)), offsets };
}
