// A throwaway PostgreSQL for test suites (the interop suite's `postgres` connector, anything else
// that needs a real one): the Debian packages, a cluster initialised into a temp dir, a server on
// 127.0.0.1 with a password-protected superuser, one database, and a stop() that removes it all.
// No Docker: the server is the distribution's own binaries, started with pg_ctl.
//
//   node tools/postgres.ts [--port N] [--database NAME]   prints the connection as JSON, runs until
//                                                          SIGINT/SIGTERM, then stops and cleans up
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnessWaitMs, logTail } from './wait.ts';

export interface RunningPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgresql://user:password@host:port/database */
  url: string;
  /** The cluster's directory (data, socket and log); removed by stop(). */
  dir: string;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** Listen on this port; default: a free one. */
  port?: number;
  /** The database to create; default "lineage". */
  database?: string;
  /** Progress lines (package install, start); default stderr. */
  log?: (line: string) => void;
}

const PG_ROOT = '/usr/lib/postgresql';
const USER = 'lineage';

/** The newest installed server's bin directory, or undefined. */
function findBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(PG_ROOT, versions[0], 'bin');
}

function run(cmd: string, args: string[], what: string, opts: SpawnSyncOptions = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.error) throw new Error(`postgres: could not run ${cmd} (${what}): ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(
      `postgres: ${what} failed (${cmd} exited ${r.status}): ${String(r.stderr ?? '').trim() || String(r.stdout ?? '').trim()}`,
    );
  }
  return String(r.stdout ?? '');
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Install the Debian packages when no server is present (CI starts from a fresh machine, as root). */
export function ensurePostgresInstalled(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): string {
  const found = findBinDir();
  if (found) return found;
  if (!isRoot()) throw new Error(`postgres: no ${PG_ROOT}/*/bin/initdb and not root; install it with: apt-get install -y postgresql`);
  log('postgres: installing the Debian packages (apt-get install -y postgresql)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const first = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env });
  if (first.status !== 0) {
    // A fresh machine may have no package lists yet.
    run('apt-get', ['update'], 'apt-get update', { stdio: 'inherit', env });
    run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], 'apt-get install postgresql', { stdio: 'inherit', env });
  }
  const bin = findBinDir();
  if (!bin) throw new Error(`postgres: apt-get install postgresql succeeded but ${PG_ROOT}/*/bin/initdb is still missing`);
  return bin;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(run('id', ['-u', 'postgres'], 'look up the postgres user').trim());
  const gid = Number(run('id', ['-g', 'postgres'], 'look up the postgres group').trim());
  return { uid, gid };
}

/** Start a throwaway server. The caller must call stop(). */
export async function startPostgres(opts: PostgresOptions = {}): Promise<RunningPostgres> {
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const bin = ensurePostgresInstalled(log);
  const database = opts.database ?? 'lineage';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database))
    throw new Error(`postgres: database name ${JSON.stringify(database)} is not a plain identifier`);
  const port = opts.port ?? (await freePort());
  const password = randomBytes(12).toString('hex');

  // initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user.
  const asRoot = isRoot();
  const wrap = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];

  const dir = mkdtempSync(join(tmpdir(), 'lineage-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pwfile');
  const logFile = join(dir, 'server.log');
  writeFileSync(pwfile, password + '\n', { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }

  let started = false;
  const ctl = (args: string[], what: string): string => run(...wrap(join(bin, 'pg_ctl'), args), what);
  const stop = async (): Promise<void> => {
    if (started) {
      started = false;
      try {
        ctl(['stop', '-D', data, '-m', 'fast', '-w'], 'stop the server');
      } catch (e) {
        log(String((e as Error).message));
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // Local (socket) connections trusted so setup needs no password; TCP requires the password.
    run(
      ...wrap(join(bin, 'initdb'), [
        '-D',
        data,
        '-U',
        USER,
        `--pwfile=${pwfile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]),
      'initdb',
    );
    rmSync(pwfile, { force: true });
    const serverOpts = [
      `-p ${port}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=50',
    ].join(' ');
    // pg_ctl -w waits on the server's own readiness; the bound is the harness's (tools/wait.ts).
    const waitSeconds = String(Math.ceil(harnessWaitMs() / 1000));
    try {
      ctl(
        ['start', '-D', data, '-l', logFile, '-w', '-t', waitSeconds, '-o', serverOpts],
        `start on 127.0.0.1:${port} (waiting up to ${waitSeconds} s)`,
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}\n--- last lines of ${logFile} ---\n${logTail(logFile)}`);
    }
    started = true;
    run(...wrap(join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', USER, database]), `create database ${database}`);
  } catch (e) {
    await stop();
    throw e;
  }
  const host = '127.0.0.1';
  log(`postgres: ${host}:${port}/${database} (cluster in ${dir})`);
  return {
    host,
    port,
    user: USER,
    password,
    database,
    dir,
    url: `postgresql://${USER}:${password}@${host}:${port}/${database}`,
    stop,
  };
}

async function cli(argv: string[]): Promise<void> {
  const opts: PostgresOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--database') opts.database = argv[++i];
    else throw new Error(`usage: node tools/postgres.ts [--port N] [--database NAME] (unknown argument ${a})`);
  }
  const pg = await startPostgres(opts);
  const { stop, ...conn } = pg;
  process.stdout.write(JSON.stringify(conn) + '\n');
  const done = (): void => {
    void stop().then(() => process.exit(0));
  };
  process.once('SIGINT', done);
  process.once('SIGTERM', done);
  // Keep the event loop alive until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  cli(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  });
}
