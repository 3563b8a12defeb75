// The offline first load (docs/operations.md §Offline first load), `npm run import -- FILE --offline`:
// an export of this catalog into the embedded Neo4j of a stopped `npm start`, through Neo4j's bulk
// importer instead of transactions.
//
//  1. The records become neo4j-admin's CSV input (catalog/src/operations/backup/offline-import.ts):
//     entities with their search fields, aspect rows, derived edges — derived as the online import
//     derives them.
//  2. Ghost nodes: the edge endpoints no record describes, found with sort(1) and comm(1) on disk,
//     so memory stays constant whatever the file's size.
//  3. `neo4j-admin database import full` writes a new database from those files.
//  4. The server is started once: the schema version is stamped, constraints and indexes are
//     created and populated, and the server is stopped again; `npm start` then serves the catalog.
//
// The home is not touched until the input files are complete: a bad record stops it with the home
// as it was. neo4j-admin then writes the database in place: if it fails, that database is unusable
// (and one it was replacing under --overwrite is not kept), and the message says to run it again with
// --overwrite. There is no checkpoint to resume from: a run costs minutes, not hours.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { BulkCsvWriter, type BulkLoadStats } from '../catalog/src/store/bulk-csv.ts';
import { createStore, int } from '../catalog/src/store/store.ts';
import { SCHEMA_VERSION } from '../catalog/src/store/schema-version.ts';
import { writeGhostNodes, writeOfflineLoadFiles, type OfflineLoadProgress } from '../catalog/src/operations/backup/offline-import.ts';
import { readJsonArray } from '../catalog/src/operations/backup/json-array.ts';
import { neo4jAdmin } from './neo4j/admin.ts';
import { freePort, startNeo4j } from './neo4j/neo4j-server.ts';

export interface OfflineImportOptions {
  file: string;
  /** The Neo4j home of the embedded server (npm start's .data/neo4j). */
  home: string;
  /** Replace a database that exists already. */
  overwrite: boolean;
  /** Progress lines (the records phase, then neo4j-admin's own output). */
  progress?: ((p: OfflineLoadProgress & { bytesRead: number }) => void) | undefined;
  /** Show neo4j-admin's output as it runs (else only when it fails). */
  verbose?: boolean;
  /**
   * neo4j-admin's memory: its JVM heap and `--max-off-heap-memory` (its caches; Neo4j's default is
   * 90% of the free memory, right for a machine given to the load).
   */
  adminMemory?: { heap: string; offHeap: string } | undefined;
  /** The server started for the schema step (default: the embedded default's 1g heap and page cache). */
  serverMemory?: { heap: string; pageCache: string } | undefined;
  /** Where the CSV files go (default: beside the home, on the same disk as the database). */
  workDir?: string | undefined;
}

export interface OfflineImportResult extends BulkLoadStats {
  records: number;
  seconds: { files: number; ghosts: number; neo4jAdmin: number; schema: number; total: number };
}

/** Fails with a message for the operator (the CLI prints it and exits 2). */
export class OfflineImportError extends Error {}

/** Starts a command with LC_ALL=C (bytewise sort order); `done` rejects with its stderr on failure. */
function started(command: string, args: string[], stdout: 'pipe' | 'ignore' = 'ignore') {
  const child = spawn(command, args, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<void>((res, rej) => {
    child.on('error', rej);
    child.on('close', (code) =>
      code === 0 ? res() : rej(new OfflineImportError(`${command} ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
  return { child, done };
}

export function databaseDirOf(home: string): string {
  return join(resolve(home), 'data', 'databases', 'neo4j');
}

export async function offlineImport(o: OfflineImportOptions): Promise<OfflineImportResult> {
  const home = resolve(o.home);
  if (existsSync(databaseDirOf(home)) && !o.overwrite) {
    throw new OfflineImportError(
      `${home} holds a database already. The offline load replaces it entirely: stop the server, ` +
        'keep a copy if you need one (npm run neo4j -- dump), and run again with --overwrite; or load into it with the online import (without --offline).',
    );
  }
  const t0 = Date.now();
  const base = o.workDir ?? dirname(home);
  mkdirSync(base, { recursive: true });
  const work = mkdtempSync(join(base, 'offline-load-'));
  try {
    // 1. The records.
    const writer = new BulkCsvWriter(work);
    const raw = createReadStream(o.file);
    let bytesRead = 0;
    raw.on('data', (chunk) => {
      bytesRead += chunk.length;
    });
    const text = o.file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
    const phase1 = await writeOfflineLoadFiles(readJsonArray(text), writer, (p) => o.progress?.({ ...p, bytesRead }));
    const t1 = Date.now();

    // 2. Ghosts: endpoints (deduplicated) minus the described urns, both sorted bytewise.
    const sortArgs = ['-S', '64M', '-T', work];
    await started('sort', [...sortArgs, '-u', '-o', join(work, 'endpoints.sorted'), phase1.endpointUrns]).done;
    await started('sort', [...sortArgs, '-o', join(work, 'described.sorted'), phase1.describedUrns]).done;
    const comm = started('comm', ['-23', join(work, 'endpoints.sorted'), join(work, 'described.sorted')], 'pipe');
    await writeGhostNodes(createInterface({ input: comm.child.stdout! }), writer);
    await comm.done;
    const stats = await writer.close();
    const t2 = Date.now();

    // 3. neo4j-admin.
    const admin = neo4jAdmin(
      home,
      [
        'database',
        'import',
        'full',
        'neo4j',
        ...writer.importArguments(),
        ...(o.overwrite ? ['--overwrite-destination=true'] : []),
        ...(o.adminMemory ? [`--max-off-heap-memory=${o.adminMemory.offHeap}`] : []),
      ],
      undefined,
      { echo: o.verbose ?? false, ...(o.adminMemory ? { heap: o.adminMemory.heap } : {}) },
    );
    if (admin.status !== 0) {
      throw new OfflineImportError(
        `neo4j-admin database import failed (exit ${admin.status}); the database it was writing in ${home} is ` +
          'unusable (do not start it): fix the cause and run again with --overwrite. ' +
          (o.verbose ? 'Its output is above.' : `Its output ends:\n${admin.output.split('\n').slice(-25).join('\n')}`),
      );
    }
    const t3 = Date.now();

    // 4. Schema: stamped first (a store with entities and no stamp would read as older than versions).
    const server = await startNeo4j({ home, boltPort: await freePort(), ...o.serverMemory });
    const store = createStore({ uri: server.uri, database: 'neo4j' });
    try {
      await store.stampSchemaVersion(SCHEMA_VERSION, 'offline-import');
      await store.applySchema();
      await store.read((tx) => tx.run('schema/await-indexes', { seconds: int(24 * 3600) }), { timeoutMs: 24 * 3600 * 1000 });
    } finally {
      await store.close();
      await server.stop();
    }
    const t4 = Date.now();
    const s = (a: number, b: number) => Math.round((b - a) / 100) / 10;
    return {
      ...stats,
      records: phase1.records,
      seconds: { files: s(t0, t1), ghosts: s(t1, t2), neo4jAdmin: s(t2, t3), schema: s(t3, t4), total: s(t0, t4) },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
