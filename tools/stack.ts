// The whole product as child processes: Neo4j (unless a URI is given), the ingestion service, the
// lineage subgraph and the gateway, plus a freshly minted Admin token. `npm start` runs the
// persistent embedded default; `npm run test:interop` runs an ephemeral copy (throwaway Neo4j in a
// temp dir, free ports, generated secrets that are never written to .data/) and removes it after.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pinoPretty from 'pino-pretty';
import { startNeo4j, repoRoot, freePort, type RunningNeo4j } from './neo4j/neo4j-server.ts';
import { embeddedEnv, neo4jHome, defaultBoltPort } from './embedded.ts';
import { exitOf, waitForHttpOk } from './wait.ts';
import { changeLogTopicsOf, loadLauncherConfig } from '../catalog/src/runtime/config.ts';
import { createStore } from '../catalog/src/store/store.ts';
import { migrateStore } from '../catalog/src/operations/backup/migrate.ts';

/** `npm start` keeps its own store current (docs/operations.md §Schema versions); a newer store stops it. */
async function migrateEmbedded(uri: string, log: (s: string) => void): Promise<void> {
  const store = createStore({ uri, database: 'neo4j' });
  try {
    const r = await migrateStore(store, {
      by: 'npm start',
      onStep: (s) => log(`Migrating the store to schema version ${s.to}: ${s.what} …`),
    });
    if (r.steps.length) log(`Store migrated from schema version ${r.from} to ${r.to}.`);
  } finally {
    await store.close();
  }
}
import { issueAccessToken } from '../catalog/src/operations/auth/access-tokens.ts';

// heapMb: V8's old-space limit. Node's default lets a service grow to 400+ MB before it collects
// (bench/README.md, "each service ≤ 256 MB RSS"); none of them holds much: ingestion parses one
// batch at a time, the lineage service keeps a page, a window of hits and counts however large the
// reach (docs/lineage-model.md §Results; test/faults/lineage-heap.fault.ts holds it to this), the
// gateway a query plan cache. semiSpaceMb: V8 sizes the young generation from the heap limit, and at
// 160 MB it becomes so small that ingestion promotes every batch and spends 3× the CPU in GC
// (bench/README.md): its semi-space is pinned at 16 MB, Node's default for large heaps. The lineage
// service's garbage is rows that die at once: 4 MB semi-spaces keep a hub's streamed walk ~35 MB
// lower in RSS at no measurable cost in time (bench/README.md §Each service ≤ 256 MB RSS). NODE_OPTIONS from the
// environment comes after these and wins.
const SERVICES = [
  { name: 'ingestion-service', entry: 'ingestion-service/src/main.ts', portKey: 'INGESTION_PORT', heapMb: 160, semiSpaceMb: 16 },
  { name: 'lineage-service', entry: 'lineage-service/src/main.ts', portKey: 'LINEAGE_PORT', heapMb: 160, semiSpaceMb: 4 },
  { name: 'gateway', entry: 'gateway/src/main.ts', portKey: 'GATEWAY_PORT', heapMb: 128, semiSpaceMb: 16 },
] as const;
const STOP_GRACE_MS = 10_000;

type ServiceName = (typeof SERVICES)[number]['name'];

export interface StackOptions {
  /** Throwaway everything: temp Neo4j home, free ports, fresh secrets; `stop()` deletes the temp dir. */
  ephemeral?: boolean;
  /** Use this Neo4j instead of starting one (default: NEO4J_URI unless ephemeral, else start one). */
  neo4jUri?: string;
  /** Progress lines (default: stdout). */
  log?: (line: string) => void;
  /**
   * Service output: inherited as the services write it (JSON lines), `pretty` (one readable line per
   * record, prefixed with the service: npm start on a terminal), or written to
   * <logDir>/<service>.log (default for ephemeral).
   */
  serviceOutput?: 'inherit' | 'pretty' | 'files';
  /** Called when a service dies on its own; the default stops everything and exits 1 (npm start). */
  onServiceExit?: (name: ServiceName, code: number | null) => void;
  /** Extra environment for the services (wins over everything else). */
  env?: Record<string, string>;
  /** Name and lifetime of the minted token. */
  tokenName?: string;
  tokenDuration?: 'ONE_HOUR' | 'ONE_DAY';
  /** Filled in at once with a stop function, so a signal during startup can stop what already runs. */
  control?: { stop?: () => Promise<void> };
  /**
   * Processes per service (default 1). Replica 0 is the stack as with one; every other replica
   * listens on a free port. Gateway i uses subgraph i and ingestion service i, and ingestion service
   * i relays GraphQL to gateway i: a front that alternates between the gateways alternates between
   * whole replicas (test/scale-out). Their logs go to <logDir>/<service>-<i>.log.
   */
  replicas?: number;
}

/** Where one replica of each service listens. */
interface StackReplica {
  ingestionUrl: string;
  lineageUrl: string;
  gatewayUrl: string;
}

export interface RunningStack {
  neo4jUri: string;
  /** Where this machine reaches the ingestion service (its listen port on loopback). */
  ingestionUrl: string;
  /** The subgraph endpoint the gateway uses (LINEAGE_URL, else derived from the port). */
  lineageUrl: string;
  /** The front door (GraphQL at /api/graphql, Rest.li under /api/gms). */
  gatewayUrl: string;
  /** Every replica, replica 0 first (its URLs are the three above). */
  replicas: StackReplica[];
  /** Services that were started and answered /health (once per replica). */
  running: ServiceName[];
  /** Services whose entry file does not exist (ephemeral mode starts the rest and reports these). */
  missing: ServiceName[];
  /** A stored Admin token for urn:li:corpuser:datahub. */
  token: string;
  /** The environment the services got (secrets included): for `npm run token` against this stack. */
  env: Record<string, string>;
  /** Where service logs go in 'files' mode. */
  logDir?: string;
  stop(): Promise<void>;
}

/**
 * The explorer page signed in with `token` (and opened on `urn`): the token rides in the URL's
 * fragment, which the browser never sends to a server; the page reads it and drops it from the
 * address bar (explorer/src/sign-in.ts).
 */
export function signInLink(gatewayUrl: string, token: string, urn?: string): string {
  return `${gatewayUrl}/#${new URLSearchParams({ token, ...(urn ? { urn } : {}) }).toString()}`;
}

/**
 * Pino's JSON lines as one readable line each (time, level, service, message and the record's
 * fields); lines that are not JSON pass through unchanged.
 */
function prettyLogStream(service: string, destination: NodeJS.WritableStream): NodeJS.WritableStream {
  return pinoPretty({
    destination,
    colorize: (destination as { isTTY?: boolean }).isTTY === true,
    translateTime: 'HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    messageFormat: `${service.padEnd(17)} {msg}`,
    singleLine: true,
    sync: true,
  });
}

export async function startStack(opts: StackOptions = {}): Promise<RunningStack> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const ephemeral = opts.ephemeral ?? false;
  const output = opts.serviceOutput ?? (ephemeral ? 'files' : 'inherit');
  const children: { name: ServiceName; child: ChildProcess }[] = [];
  let neo4j: RunningNeo4j | undefined;
  let tempDir: string | undefined;
  let stopping = false;

  const stop = async () => {
    stopping = true;
    const exited = children.map(({ child }) =>
      child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined,
    );
    for (const { child } of [...children].reverse()) if (child.exitCode === null) child.kill('SIGTERM');
    // A service whose graceful shutdown hangs (open keep-alive connections) must not hang us.
    const escalate = setTimeout(() => {
      for (const { name, child } of children) {
        if (child.exitCode === null && child.signalCode === null) {
          log(`${name} did not stop within ${STOP_GRACE_MS} ms of SIGTERM; killing it.`);
          child.kill('SIGKILL');
        }
      }
    }, STOP_GRACE_MS);
    await Promise.all(exited);
    clearTimeout(escalate);
    await neo4j?.stop();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  if (opts.control) opts.control.stop = stop;

  try {
    // Throwaway means throwaway: an ephemeral stack never writes into the NEO4J_URI server.
    let uri = opts.neo4jUri ?? (ephemeral ? undefined : process.env.NEO4J_URI);
    let env: Record<string, string>;
    if (ephemeral) {
      tempDir = mkdtempSync(join(tmpdir(), 'lineage-stack-'));
      if (!uri) {
        log(`Starting a throwaway Neo4j 5.26 (data in ${tempDir}/neo4j) …`);
        neo4j = await startNeo4j({ home: join(tempDir, 'neo4j'), boltPort: await freePort(), heap: '1g', pageCache: '512m' });
        uri = neo4j.uri;
      }
      const inherited = Object.fromEntries(
        Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
      );
      env = {
        ...inherited,
        NEO4J_URI: uri,
        DATAHUB_TOKEN_SERVICE_SIGNING_KEY: randomBytes(32).toString('base64url'),
        DATAHUB_TOKEN_SERVICE_SALT: randomBytes(16).toString('base64url'),
        INGESTION_PORT: String(await freePort()),
        LINEAGE_PORT: String(await freePort()),
        GATEWAY_PORT: String(await freePort()),
        HOST: '127.0.0.1',
      };
      // A caller's service URLs would point at some other stack.
      delete env.INGESTION_URL;
      delete env.LINEAGE_URL;
    } else {
      if (!uri) {
        log(`Starting Neo4j 5.26 (data in ${neo4jHome}) …`);
        neo4j = await startNeo4j({ home: neo4jHome, boltPort: defaultBoltPort });
        uri = neo4j.uri;
        await migrateEmbedded(uri, log);
      }
      env = embeddedEnv(uri);
    }
    Object.assign(env, opts.env ?? {});
    // What the launcher reads itself; each service checks the rest of its own config as it starts.
    const config = loadLauncherConfig(env);
    const base = (port: number) => `http://127.0.0.1:${port}`;
    const ingestionUrl = base(config.INGESTION_PORT);
    const lineageUrl = config.LINEAGE_URL ?? `${base(config.LINEAGE_PORT)}/graphql`;
    const gatewayUrl = base(config.GATEWAY_PORT);
    const serviceEnv: Record<string, string> = { ...env, INGESTION_URL: config.INGESTION_URL ?? ingestionUrl, LINEAGE_URL: lineageUrl };
    const logDir = output === 'files' ? (tempDir ?? mkdtempSync(join(tmpdir(), 'lineage-stack-logs-'))) : undefined;

    // Replica 0 runs with serviceEnv as it is; the others get their own ports and wiring.
    const replicaCount = Math.max(1, opts.replicas ?? 1);
    const replicaEnvs: Record<string, string>[] = [serviceEnv];
    const replicas: StackReplica[] = [{ ingestionUrl, lineageUrl, gatewayUrl }];
    for (let i = 1; i < replicaCount; i++) {
      const ports = { INGESTION_PORT: await freePort(), LINEAGE_PORT: await freePort(), GATEWAY_PORT: await freePort() };
      const replica = {
        ingestionUrl: base(ports.INGESTION_PORT),
        lineageUrl: `${base(ports.LINEAGE_PORT)}/graphql`,
        gatewayUrl: base(ports.GATEWAY_PORT),
      };
      replicas.push(replica);
      replicaEnvs.push({
        ...serviceEnv,
        INGESTION_PORT: String(ports.INGESTION_PORT),
        LINEAGE_PORT: String(ports.LINEAGE_PORT),
        GATEWAY_PORT: String(ports.GATEWAY_PORT),
        INGESTION_URL: replica.ingestionUrl,
        LINEAGE_URL: replica.lineageUrl,
        GATEWAY_URL: replica.gatewayUrl,
      });
    }

    const running: ServiceName[] = [];
    const missing: ServiceName[] = [];
    for (const svc of SERVICES) {
      if (ephemeral && !existsSync(join(repoRoot, svc.entry))) {
        log(`${svc.name}: ${svc.entry} does not exist; not started.`);
        missing.push(svc.name);
        continue;
      }
      for (const [i, replicaEnv] of replicaEnvs.entries()) {
        const label = replicaCount > 1 ? `${svc.name}-${i}` : svc.name;
        let stdio: ['ignore', 'inherit' | 'pipe' | number, 'inherit' | 'pipe' | number] = ['ignore', 'inherit', 'inherit'];
        let fd: number | undefined;
        const logFile = logDir ? join(logDir, `${label}.log`) : undefined;
        if (logFile) {
          fd = openSync(logFile, 'a');
          stdio = ['ignore', fd, fd];
        } else if (output === 'pretty') stdio = ['ignore', 'pipe', 'pipe'];
        const nodeOptions =
          `--max-old-space-size=${svc.heapMb} --max-semi-space-size=${svc.semiSpaceMb} ${replicaEnv['NODE_OPTIONS'] ?? ''}`.trim();
        const child = spawn(process.execPath, [join(repoRoot, svc.entry)], { env: { ...replicaEnv, NODE_OPTIONS: nodeOptions }, stdio });
        if (fd !== undefined) closeSync(fd);
        if (output === 'pretty') {
          child.stdout?.pipe(prettyLogStream(label, process.stdout));
          child.stderr?.pipe(prettyLogStream(label, process.stderr));
        }
        child.once('exit', (code) => {
          if (stopping) return;
          if (opts.onServiceExit) opts.onServiceExit(svc.name, code);
          else {
            console.error(`${label} exited with code ${code}; stopping everything.`);
            void stop().then(() => process.exit(1));
          }
        });
        children.push({ name: svc.name, child });
        await waitForHttpOk(`${label} to become healthy`, `${base(Number(replicaEnv[svc.portKey] ?? config[svc.portKey]))}/health`, {
          gone: () => exitOf(child),
          ...(logFile ? { logFile } : {}),
        });
        running.push(svc.name);
      }
    }

    const store = createStore({
      uri,
      user: config.NEO4J_USER,
      password: config.NEO4J_PASSWORD,
      database: config.NEO4J_DATABASE,
      changeLog: changeLogTopicsOf(config),
    });
    let token: string;
    try {
      token = (
        await issueAccessToken(
          store,
          { signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, salt: config.DATAHUB_TOKEN_SERVICE_SALT },
          {
            actorUrn: 'urn:li:corpuser:datahub',
            ownerUrn: 'urn:li:corpuser:datahub',
            name: opts.tokenName ?? (ephemeral ? 'ephemeral stack' : 'npm start'),
            duration: opts.tokenDuration ?? 'ONE_DAY',
          },
        )
      ).accessToken;
    } finally {
      await store.close();
    }
    return { neo4jUri: uri, ingestionUrl, lineageUrl, gatewayUrl, replicas, running, missing, token, env: serviceEnv, logDir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
