// Provisions and runs a real Neo4j 5.26 LTS Community server without Docker: the jars come from
// Maven Central (see pom.xml beside this file), the configuration is written here, and the JVM is
// started directly on the server entry point, as the official image does. See docs/neo4j.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readdirSync, writeFileSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { waitFor, type WaitOptions } from '../wait.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');

/** Where the resolved jars live; shared by every instance (persistent and throwaway). */
export const defaultLibDir = join(repoRoot, '.neo4j', 'lib');

export interface Neo4jInstanceOptions {
  /** Instance home: conf/, data/, logs/, run/ are created below it. */
  home: string;
  boltPort: number;
  heap?: string;
  pageCache?: string;
  txMemoryMax?: string;
  /**
   * `db.checkpoint.interval.time`. Transaction logs are pruned only at a checkpoint, so under a
   * sustained load they grow by what 15 minutes (Neo4j's default) write: ≈ 10 GB in the 4M bench
   * load. A bulk load on a tight disk checkpoints more often, and faster (bench/README.md §The
   * warehouse shape at 10M).
   */
  checkpointInterval?: string;
  /** `db.checkpoint.iops.limit`: Neo4j's default 600 writes ≈ 5 MB/s of dirty pages; -1 = unlimited. */
  checkpointIopsLimit?: number;
  libDir?: string;
  /** Forward the server's console output to this process's stderr. */
  verbose?: boolean;
}

export interface RunningNeo4j {
  uri: string;
  home: string;
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL, for fault tests. */
  kill(): void;
}

function pinnedVersion(): string {
  const pom = readFileSync(join(here, 'pom.xml'), 'utf8');
  const m = /<neo4j\.version>([^<]+)<\/neo4j\.version>/.exec(pom);
  if (!m?.[1]) throw new Error('tools/neo4j/pom.xml has no <neo4j.version>');
  return m[1];
}

function installedVersion(libDir = defaultLibDir): string | undefined {
  if (!existsSync(libDir)) return undefined;
  const jar = readdirSync(libDir).find((f) => /^neo4j-5\.26\.\d+\.jar$/.test(f));
  return jar?.replace(/^neo4j-/, '').replace(/\.jar$/, '');
}

/** Resolve the server jars with Maven (cached in ~/.m2) unless the pinned version is present. */
export function ensureJars(libDir = defaultLibDir, log: (s: string) => void = (s) => process.stderr.write(s + '\n')): string {
  const version = pinnedVersion();
  if (installedVersion(libDir) === version) return version;
  log(`neo4j: resolving Neo4j ${version} community jars from Maven Central into ${libDir} (first run only)…`);
  rmSync(libDir, { recursive: true, force: true });
  mkdirSync(libDir, { recursive: true });
  const mvn = spawnSync(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      join(here, 'pom.xml'),
      // A bare `dependency:` goal resolves to the ancient 2.8 plugin pinned by Maven 3.8's super POM.
      'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies',
      // runtime = compile + runtime: record storage and the import tool are runtime-scoped.
      '-DincludeScope=runtime',
      `-DoutputDirectory=${libDir}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (mvn.error) throw new Error(`neo4j: could not run mvn (${mvn.error.message}); Java 17 and Maven are required`);
  if (mvn.status !== 0) throw new Error(`neo4j: mvn exited with ${mvn.status} while resolving the Neo4j jars`);
  const got = installedVersion(libDir);
  if (got !== version) throw new Error(`neo4j: expected neo4j-${version}.jar in ${libDir}, found ${got ?? 'none'}`);
  return version;
}

function log4jXml(file: string, console: boolean): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="ERROR">
  <Appenders>
    <File name="F" fileName="${file}"><PatternLayout pattern="%d %-5p %m%n"/></File>
${console ? '    <Console name="C" target="SYSTEM_OUT"><PatternLayout pattern="%d %-5p %m%n"/></Console>\n' : ''}  </Appenders>
  <Loggers><Root level="INFO"><AppenderRef ref="F"/>${console ? '<AppenderRef ref="C"/>' : ''}</Root></Loggers>
</Configuration>
`;
}

/** Writes conf/ for an instance. No inline comments: Neo4j would read them as part of the value. */
export function writeConfig(opts: Required<Omit<Neo4jInstanceOptions, 'verbose'>>): void {
  const h = opts.home;
  for (const d of ['conf', 'data', 'logs', 'run', 'plugins', 'import']) mkdirSync(join(h, d), { recursive: true });
  const conf = [
    `server.directories.data=${h}/data`,
    `server.directories.logs=${h}/logs`,
    `server.directories.run=${h}/run`,
    `server.directories.plugins=${h}/plugins`,
    `server.directories.import=${h}/import`,
    `server.directories.lib=${opts.libDir}`,
    'server.default_listen_address=127.0.0.1',
    'server.bolt.enabled=true',
    `server.bolt.listen_address=127.0.0.1:${opts.boltPort}`,
    `server.bolt.advertised_address=127.0.0.1:${opts.boltPort}`,
    'server.bolt.tls_level=DISABLED',
    'server.http.enabled=false',
    'server.https.enabled=false',
    'dbms.security.auth_enabled=false',
    `server.memory.heap.initial_size=${opts.heap}`,
    `server.memory.heap.max_size=${opts.heap}`,
    `server.memory.pagecache.size=${opts.pageCache}`,
    'dbms.memory.transaction.total.max=0',
    `db.memory.transaction.max=${opts.txMemoryMax}`,
    'db.tx_log.rotation.retention_policy=1 files',
    'db.tx_log.rotation.size=16M',
    'db.tx_log.preallocate=false',
    `db.checkpoint.interval.time=${opts.checkpointInterval}`,
    `db.checkpoint.iops.limit=${opts.checkpointIopsLimit}`,
    'dbms.usage_report.enabled=false',
    // A store starts empty: the first plans of the write path's statements are made for zero
    // relationships (edges/merge then scans all relationships per row) and Neo4j only
    // replans once a plan is 10 s old. 1 s lets an initial load leave those plans quickly.
    'dbms.cypher.min_replan_interval=1s',
    // Every node with more than one relationship stores them grouped by type and direction, so the
    // lineage BFS reads only a node's outgoing (or incoming) :LINEAGE chain instead of stepping over
    // its HAS_ASPECT and typed edges: the hub's first page at 100k edges went from 66 to 35 ms and
    // ingestion got no slower (bench/README.md). Applies to nodes as they are written.
    'db.relationship_grouping_threshold=1',
    'initial.dbms.default_database=neo4j',
    '',
  ].join('\n');
  writeFileSync(join(h, 'conf', 'neo4j.conf'), conf);
  writeFileSync(join(h, 'conf', 'user-logs.xml'), log4jXml(`${h}/logs/neo4j.log`, true));
  writeFileSync(join(h, 'conf', 'server-logs.xml'), log4jXml(`${h}/logs/debug.log`, false));
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

export async function portInUse(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(true));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(false)));
  });
}

/**
 * Waits until `RETURN 1` runs on database neo4j (an open port is not enough), polling with the
 * driver. Default bound: tools/wait.ts (HARNESS_WAIT_MS).
 */
async function waitForBolt(uri: string, options: WaitOptions = {}): Promise<void> {
  const driver = neo4j.driver(uri, undefined, {
    // One attempt per look: waitFor does the retrying, and a look must not outlast the bound by the driver's 30 s.
    connectionTimeout: 5_000,
    connectionAcquisitionTimeout: 15_000,
    maxConnectionPoolSize: 1,
    maxTransactionRetryTime: 0,
  });
  try {
    await waitFor(
      `neo4j at ${uri} to run RETURN 1 on database neo4j`,
      async () => {
        await driver.executeQuery('RETURN 1', {}, { database: 'neo4j' });
        return { met: true, value: undefined };
      },
      { intervalMs: 500, ...options },
    );
  } finally {
    await driver.close();
  }
}

/** What an instance gets unless told otherwise: the embedded default's memory, Neo4j's own checkpoints. */
export const instanceDefaults = {
  heap: '1g',
  pageCache: '1g',
  txMemoryMax: '512m',
  checkpointInterval: '15m',
  checkpointIopsLimit: 600,
} as const satisfies Partial<Neo4jInstanceOptions>;

export async function startNeo4j(options: Neo4jInstanceOptions): Promise<RunningNeo4j> {
  const opts = {
    ...instanceDefaults,
    libDir: defaultLibDir,
    ...options,
    home: resolve(options.home),
  };
  ensureJars(opts.libDir);
  writeConfig(opts);
  if (await portInUse(opts.boltPort)) {
    throw new Error(
      `neo4j: port ${opts.boltPort} on 127.0.0.1 is already in use (another Neo4j? set NEO4J_URI to use it, or NEO4J_BOLT_PORT to pick another port)`,
    );
  }
  const h = opts.home;
  const out = openSync(join(h, 'logs', 'console.log'), 'a');
  const child: ChildProcess = spawn(
    'java',
    [
      `-Xms${opts.heap}`,
      `-Xmx${opts.heap}`,
      '-XX:+UseG1GC',
      '-XX:-OmitStackTraceInFastThrow',
      '-XX:+UnlockExperimentalVMOptions',
      '-XX:+TrustFinalNonStaticFields',
      '-XX:+DisableExplicitGC',
      '-Djdk.nio.maxCachedBufferSize=1024',
      '-Dio.netty.tryReflectionSetAccessible=true',
      '-Djdk.tls.ephemeralDHKeySize=2048',
      '-Djdk.tls.rejectClientInitiatedRenegotiation=true',
      '--add-opens=java.base/java.nio=ALL-UNNAMED',
      '--add-opens=java.base/java.io=ALL-UNNAMED',
      '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
      '--enable-native-access=ALL-UNNAMED',
      '-Dlog4j2.disable.jmx=true',
      '-Dlog4j.layout.jsonTemplate.maxStringLength=32768',
      '-Dfile.encoding=UTF-8',
      '-cp',
      `${h}/plugins/*:${h}/conf/*:${opts.libDir}/*`,
      'org.neo4j.server.CommunityEntryPoint',
      `--home-dir=${h}`,
      `--config-dir=${h}/conf`,
      '--console-mode',
    ],
    { stdio: ['ignore', options.verbose ? 'inherit' : out, options.verbose ? 'inherit' : out], detached: false },
  );
  closeSync(out);
  let exited = false;
  let exitCode: number | null = null;
  const exitedPromise = new Promise<void>((r) =>
    child.once('exit', (code) => {
      exited = true;
      exitCode = code;
      r();
    }),
  );
  const uri = `bolt://127.0.0.1:${opts.boltPort}`;
  try {
    await waitForBolt(uri, {
      // Neo4j's exit codes: 1 = startup error, 2 = database error such as a locked store, 3 = invalid configuration.
      gone: () => (exited ? `the server process exited during startup with code ${exitCode}` : undefined),
      // console.log has the JVM's own errors too; with verbose output it is not written.
      logFile: join(h, 'logs', options.verbose ? 'neo4j.log' : 'console.log'),
    });
  } catch (e) {
    if (!exited) child.kill('SIGKILL');
    throw e;
  }
  return {
    uri,
    home: h,
    pid: child.pid ?? -1,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exitedPromise;
      clearTimeout(timer);
    },
    kill() {
      if (!exited) child.kill('SIGKILL');
    },
  };
}
