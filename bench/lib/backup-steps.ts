// The backup bench's measured steps (bench/backup.ts): operator CLIs run as child processes with
// their time and peak RSS, store sizes, export files compared line by line, and the damage the
// rebuild measurement starts from.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { RunningNeo4j } from '../../tools/neo4j/neo4j-server.ts';
import type { Store } from '../../catalog/src/store/store.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---------------------------------------------------------------------------------------------
// Child processes, measured

interface Measured {
  ms: number;
  peakRssMb: number;
  stdout: string;
  stderr: string;
}

/** The node flags package.json gives a script (`"import": "node --max-old-space-size=160 … tools/import.ts"`). */
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
export function nodeFlagsOf(script: string): string[] {
  const line = Object.values(scripts).find((s) => s.startsWith('node ') && s.endsWith(` ${script}`));
  return line ? line.split(/\s+/).slice(1, -1) : [];
}

/** Runs `node <script> ...args` as `npm run` would (same node flags), sampling its VmHWM until it exits. */
export function runNode(script: string, args: string[], env: Record<string, string>): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [...nodeFlagsOf(script), join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.length > 1e6) stderr = stderr.slice(-1e5);
    });
    let hwmKb = 0;
    const sample = () => {
      try {
        const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
      } catch {
        /* exited */
      }
    };
    const timer = setInterval(sample, 200);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const r = { ms: Date.now() - t0, peakRssMb: Math.round(hwmKb / 1024), stdout, stderr };
      if (code === 0) resolve(r);
      else reject(new Error(`${script} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}
export const storeBytes = (neo: RunningNeo4j) => dirBytes(join(neo.home, 'data'));
export const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

// ---------------------------------------------------------------------------------------------
// Comparing exports line by line (one record per line, as the export writes them)

export function lines(file: string): AsyncIterator<string> {
  const raw = createReadStream(file);
  return createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity })[Symbol.asyncIterator]();
}
const ASOF = /"lineageCatalog\.asOf":"\d+"/;
/** A record line without what a round trip may change (the moment) and without its separator. */
const normal = (line: string) => line.replace(ASOF, '').replace(/,$/, '');

export async function compare(a: string, b: string, skip: (line: string) => boolean = () => false) {
  const [x, y] = [lines(a), lines(b)];
  const next = async (it: AsyncIterator<string>) => {
    for (;;) {
      const r = await it.next();
      if (r.done) return null;
      if (!skip(r.value)) return r.value;
    }
  };
  let compared = 0;
  let bytes = 0;
  for (;;) {
    const [l, r] = await Promise.all([next(x), next(y)]);
    if (l === null && r === null) return { identical: true, compared, uncompressedBytes: bytes };
    if (l === null || r === null || normal(l) !== normal(r)) {
      return {
        identical: false,
        compared,
        uncompressedBytes: bytes,
        firstDifference: { line: compared, a: l?.slice(0, 400) ?? null, b: r?.slice(0, 400) ?? null },
      };
    }
    compared++;
    bytes += Buffer.byteLength(l) + 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Damage for the rebuild measurement

/**
 * Drops every derived relationship (all but HAS_ASPECT, which ties a row to its entity): what a
 * store whose edges were lost looks like. Bench harness damage, as the restore tests make theirs,
 * not a product statement; returns how many went.
 */
export async function dropDerivedEdges(store: Store): Promise<number> {
  const session = store.driver.session({ database: store.database });
  try {
    const r = await session.run(
      "MATCH ()-[r]->() WHERE type(r) <> 'HAS_ASPECT' CALL { WITH r DELETE r } IN TRANSACTIONS OF 10000 ROWS RETURN count(*) AS n",
    );
    return Number(r.records[0]!.get('n'));
  } finally {
    await session.close();
  }
}
