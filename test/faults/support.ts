// Fault scenarios own everything they break: a throwaway Neo4j (temp home, free port) and service
// processes started from their real entry points, so a stop, a restart or a kill -9 hits exactly
// what production runs. Not a test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, startNeo4j, type RunningNeo4j } from '../../tools/neo4j/neo4j-server.ts';
import { exitOf, waitForHttpOk } from '../../tools/wait.ts';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { issueAccessToken } from '../../catalog/src/operations/auth/access-tokens.ts';

export const log = (line: string) => process.stderr.write(`[faults] ${line}\n`);

export interface ThrowawayNeo4j {
  uri: string;
  home: string;
  port: number;
  server: RunningNeo4j;
  /** Starts it again on the same home and port (after stop or kill). */
  restart(): Promise<void>;
  /** Stops it (if running) and deletes its home. */
  dispose(): Promise<void>;
}

export async function throwawayNeo4j(): Promise<ThrowawayNeo4j> {
  const dir = mkdtempSync(join(tmpdir(), 'lineage-faults-'));
  const home = join(dir, 'neo4j');
  const port = await freePort();
  const start = () => startNeo4j({ home, boltPort: port, heap: '768m', pageCache: '256m' });
  const t0 = Date.now();
  const db: ThrowawayNeo4j = {
    uri: `bolt://127.0.0.1:${port}`,
    home,
    port,
    server: await start(),
    async restart() {
      db.server = await start();
    },
    async dispose() {
      await db.server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  log(`throwaway Neo4j at ${db.uri} up in ${Date.now() - t0} ms`);
  const store = createStore({ uri: db.uri, database: 'neo4j' });
  try {
    await store.applySchema();
  } finally {
    await store.close();
  }
  return db;
}

export const SECRETS = { signingKey: randomBytes(32).toString('base64url'), salt: randomBytes(16).toString('base64url') };

export function serviceEnv(neo4jUri: string, extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  for (const k of ['INGESTION_URL', 'LINEAGE_URL', 'NEO4J_USER', 'NEO4J_PASSWORD']) delete inherited[k];
  return {
    ...inherited,
    NEO4J_URI: neo4jUri,
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: SECRETS.signingKey,
    DATAHUB_TOKEN_SERVICE_SALT: SECRETS.salt,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  logFile: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a service's main.ts as its own process and waits until /health/live answers. */
export async function spawnService(entry: string, env: Record<string, string>, port: number, logFile: string): Promise<ServiceProcess> {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(repoRoot, entry)], { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttpOk(`${entry} to come up`, `${baseUrl}/health/live`, { gone: () => exitOf(child), logFile, intervalMs: 200 });
  } catch (e) {
    // A service that never came up must not outlive the test that gave up on it.
    child.kill('SIGKILL');
    throw e;
  }
  return { child, baseUrl, logFile, exited };
}

/** SIGTERM a service process that is still running and wait for it to exit. */
export async function stopService(service: ServiceProcess | undefined): Promise<void> {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
}

export async function adminToken(uri: string): Promise<string> {
  const store = createStore({ uri, database: 'neo4j' });
  try {
    return (
      await issueAccessToken(store, SECRETS, {
        actorUrn: 'urn:li:corpuser:datahub',
        ownerUrn: 'urn:li:corpuser:datahub',
        name: 'faults',
        duration: 'ONE_DAY',
      })
    ).accessToken;
  } finally {
    await store.close();
  }
}

export function faultStore(uri: string): Store {
  return createStore({ uri, database: 'neo4j' });
}

export async function cypher<T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await store.driver.executeQuery(query, params, { database: 'neo4j' });
  return r.records.map((x) => x.toObject() as T);
}

export const dataset = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

export function mcp(urn: string, aspectName: string, value: unknown) {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  };
}

export interface Reply {
  status: number;
  retryAfter: string | null;
  ms: number;
  /** Set when no HTTP answer came: connection refused or reset, or our own timeout. */
  error?: string;
}

export async function post(url: string, body: unknown, token: string, timeoutMs: number): Promise<Reply> {
  const t0 = Date.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - t0 };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return {
      status: 0,
      retryAfter: null,
      ms: Date.now() - t0,
      error: err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.message),
    };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Rest.li `ingestProposalBatch` of a body already made (so that several can be sent together); its status and message. */
export async function postProposalBatch(ingestionUrl: string, token: string, body: string): Promise<{ status: number; message: string }> {
  const res = await fetch(`${ingestionUrl}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0', authorization: `Bearer ${token}` },
    body,
    signal: AbortSignal.timeout(120_000),
  });
  const answer = (await res.json()) as { message?: string };
  return { status: res.status, message: answer.message ?? '' };
}

/** Owned DownstreamOf targets and incoming LINEAGE sources of each dataset, and its latest rows. */
export async function stateOf(store: Store, urns: string[]) {
  const rows = await cypher<{ urn: string; name: string; value: string }>(
    store,
    'UNWIND $urns AS u MATCH (:Entity {urn: u})-[:HAS_ASPECT]->(a:Aspect {version: 0}) RETURN a.urn AS urn, a.name AS name, a.value AS value',
    { urns },
  );
  const typed = await cypher<{ urn: string; up: string }>(
    store,
    'UNWIND $urns AS u MATCH (:Entity {urn: u})-[r:DownstreamOf {owner: u}]->(y) RETURN u AS urn, y.urn AS up',
    { urns },
  );
  const lineage = await cypher<{ urn: string; up: string }>(
    store,
    'UNWIND $urns AS u MATCH (y)-[r:LINEAGE {owner: u}]->(:Entity {urn: u}) RETURN u AS urn, y.urn AS up',
    { urns },
  );
  const out = new Map(urns.map((u) => [u, { aspects: new Map<string, unknown>(), typed: [] as string[], lineage: [] as string[] }]));
  for (const r of rows) out.get(r.urn)!.aspects.set(r.name, JSON.parse(r.value));
  for (const r of typed) out.get(r.urn)!.typed.push(r.up);
  for (const r of lineage) out.get(r.urn)!.lineage.push(r.up);
  for (const s of out.values()) {
    s.typed.sort();
    s.lineage.sort();
  }
  return out;
}

/** `npm run restore-indices -- --dry-run` against a Neo4j: exit code and output. */
export async function restoreDryRun(uri: string): Promise<{ code: number | null; output: string }> {
  const npm = spawn('npm', ['run', '--silent', 'restore-indices', '--', '--dry-run'], {
    cwd: repoRoot,
    env: { ...process.env, NEO4J_URI: uri, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  npm.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const code = await new Promise<number | null>((r) => npm.once('exit', (c) => r(c)));
  return { code, output };
}
