// Fault (b): kill -9 of the ingestion service in the middle of a 10,000-MCP load (100 batches of
// 100 MCPs, 6 in flight). After a restart every acknowledged MCP is stored with its edges, every
// batch is all-or-nothing, restore-indices --dry-run finds zero drift, every committed batch has its
// change events and no uncommitted one has any, and the client's retry of what was not acknowledged
// completes the load.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../tools/neo4j/neo4j-server.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import {
  adminToken,
  cypher,
  dataset,
  faultStore,
  log,
  mcp,
  post,
  restoreDryRun,
  serviceEnv,
  spawnService,
  stateOf,
  throwawayNeo4j,
  type ServiceProcess,
  type ThrowawayNeo4j,
  stopService,
} from './support.ts';

const PLATFORM = 'killtest';
const DATASETS = 5_000;
const PER_BATCH = 50; // datasets per batch: 2 MCPs each → 100 MCPs
const BATCHES = DATASETS / PER_BATCH;
const IN_FLIGHT = 6;
const KILL_AFTER_ACKS = 35;

const urnOf = (i: number) => dataset(PLATFORM, `t${i}`);
const upstreamsOf = (i: number) => (i >= 3 ? [urnOf(i - 3), urnOf(i - 1)] : []).sort();
const propsOf = (i: number) => ({ name: `t${i}`, description: `dataset ${i}`, customProperties: {} });
const lineageOf = (i: number) => ({ upstreams: upstreamsOf(i).map((d) => ({ dataset: d, type: 'TRANSFORMED' })) });
const datasetsOf = (b: number) => Array.from({ length: PER_BATCH }, (_, k) => b * PER_BATCH + k);
const batchBody = (b: number) => ({
  proposals: datasetsOf(b).flatMap((i) => [mcp(urnOf(i), 'datasetProperties', propsOf(i)), mcp(urnOf(i), 'upstreamLineage', lineageOf(i))]),
});

let db: ThrowawayNeo4j;
let store: Store;
let token: string;
let port: number;
let env: Record<string, string>;
let logDir: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  db = await throwawayNeo4j();
  store = faultStore(db.uri);
  token = await adminToken(db.uri);
  port = await freePort();
  logDir = mkdtempSync(join(tmpdir(), 'lineage-faults-logs-'));
  env = serviceEnv(db.uri, { INGESTION_PORT: String(port), LINEAGE_EXISTENCE_MODE: 'relaxed' });
});

afterAll(async () => {
  await stopService(service);
  await store?.close();
  await db?.dispose();
});

/** Is batch b fully stored (true), not at all (false), or partly (throws: a torn batch)? */
async function batchStored(b: number): Promise<boolean> {
  const urns = datasetsOf(b).map(urnOf);
  const state = await stateOf(store, urns);
  let complete = 0;
  let empty = 0;
  for (const [k, i] of datasetsOf(b).entries()) {
    const s = state.get(urns[k]!)!;
    const full =
      JSON.stringify(s.aspects.get('datasetProperties')) === JSON.stringify(propsOf(i)) &&
      JSON.stringify(s.aspects.get('upstreamLineage')) === JSON.stringify(lineageOf(i)) &&
      JSON.stringify(s.typed) === JSON.stringify(upstreamsOf(i)) &&
      JSON.stringify(s.lineage) === JSON.stringify(upstreamsOf(i));
    if (full) complete++;
    else if (s.aspects.size === 0 && s.typed.length === 0 && s.lineage.length === 0) empty++;
  }
  if (complete === PER_BATCH) return true;
  if (empty === PER_BATCH) return false;
  throw new Error(`batch ${b} is torn: ${complete} datasets complete, ${empty} empty, ${PER_BATCH - complete - empty} partial`);
}

test('kill -9 during a 10k-MCP batch load: acknowledged MCPs survive, no batch is torn, zero drift', async () => {
  service = await spawnService('ingestion-service/src/main.ts', env, port, join(logDir, 'ingestion-1.log'));
  const url = () => `${service!.baseUrl}/aspects?action=ingestProposalBatch`;
  const acked = new Set<number>();
  const failed = new Map<number, string>();
  let next = 0;
  let killedAt = -1;
  let inFlightAtKill = 0;
  let inFlight = 0;
  const t0 = Date.now();
  const worker = async () => {
    while (next < BATCHES) {
      const b = next++;
      inFlight++;
      const r = await post(url(), batchBody(b), token, 60_000);
      inFlight--;
      if (r.status === 200) acked.add(b);
      else failed.set(b, r.error ?? `HTTP ${r.status}`);
      if (acked.size >= KILL_AFTER_ACKS && killedAt < 0) {
        killedAt = Date.now() - t0;
        inFlightAtKill = inFlight;
        service!.child.kill('SIGKILL');
      }
      if (killedAt >= 0) return; // the client notices the outage and stops sending
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const exit = await service.exited;
  expect(exit.signal).toBe('SIGKILL');
  log(
    `killed after ${killedAt} ms: ${acked.size} batches acknowledged (${acked.size * 100} MCPs), ${inFlightAtKill} in flight, ${failed.size} failed: ${[...new Set(failed.values())].join(', ')}`,
  );
  expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(acked.size).toBeLessThan(BATCHES);
  expect(inFlightAtKill).toBeGreaterThan(0);
  // Nothing but the kill failed: no 4xx/5xx before it.
  for (const reason of failed.values()) expect(reason).not.toMatch(/^HTTP/);

  // Restart on the same port; Neo4j never went away.
  service = await spawnService('ingestion-service/src/main.ts', env, port, join(logDir, 'ingestion-2.log'));

  let torn = 0;
  const sent = [...acked, ...failed.keys()];
  const storedUnacked: number[] = [];
  for (const b of sent) {
    let stored: boolean;
    try {
      stored = await batchStored(b);
    } catch (e) {
      torn++;
      log((e as Error).message);
      continue;
    }
    if (acked.has(b)) expect([b, stored]).toEqual([b, true]);
    else if (stored) storedUnacked.push(b);
  }
  expect(torn).toBe(0);
  log(
    `after restart: all ${acked.size * 100} acknowledged MCPs present; ${storedUnacked.length} of ${failed.size} unacknowledged batches had committed before the kill`,
  );

  // The change log (docs/change-events.md): every committed batch has its events — one LINEAGE ADD
  // per upstream edge, one MetadataChangeLog per row (the key aspect, properties, lineage) — and a
  // batch that did not commit has none. Offsets are gap-free.
  const committed = new Set([...acked, ...storedUnacked]);
  const events = await cypher<{ topic: string; urn: string; n: number }>(
    store,
    'MATCH (b:ChangeBatch) WHERE b.entityUrn STARTS WITH $prefix RETURN b.topic AS topic, b.entityUrn AS urn, sum(size(b.items)) AS n',
    { prefix: `urn:li:dataset:(urn:li:dataPlatform:${PLATFORM},` },
  );
  const countOf = new Map(events.map((e) => [`${e.topic} ${e.urn}`, Number(e.n)]));
  let missingEvents = 0;
  let strayEvents = 0;
  for (let b = 0; b < BATCHES; b++) {
    for (const i of datasetsOf(b)) {
      const lineage = countOf.get(`PlatformEvent_v1 ${urnOf(i)}`) ?? 0;
      const logs = countOf.get(`MetadataChangeLog_Versioned_v1 ${urnOf(i)}`) ?? 0;
      if (committed.has(b)) {
        if (lineage !== upstreamsOf(i).length || logs !== 3) missingEvents++;
      } else if (lineage || logs) strayEvents++;
    }
  }
  const [span] = await cypher<{ n: number; lo: number; hi: number }>(
    store,
    'MATCH (b:ChangeBatch) RETURN sum(size(b.items)) AS n, min(b.offset) AS lo, max(b.last) AS hi',
    {},
  );
  log(
    `change log: ${Number(span!.n)} events, offsets ${Number(span!.lo)}..${Number(span!.hi)}; ${missingEvents} committed datasets without their events, ${strayEvents} uncommitted with events`,
  );
  expect({ missingEvents, strayEvents }).toEqual({ missingEvents: 0, strayEvents: 0 });
  expect(Number(span!.hi) - Number(span!.lo) + 1).toBe(Number(span!.n));

  const dry = await restoreDryRun(db.uri);
  log(
    `restore-indices --dry-run: exit ${dry.code}; ${dry.output
      .split('\n')
      .filter((l) => /rows scanned|edges:|search fields:/.test(l))
      .join(' | ')}`,
  );
  expect(dry.code).toBe(0);
  expect(dry.output).toMatch(/missing edges: 0/);
  expect(dry.output).toMatch(/extra edges: 0/);

  // The client retries what was not acknowledged (UPSERTs are idempotent), then sends the rest.
  const remaining = Array.from({ length: BATCHES }, (_, b) => b).filter((b) => !acked.has(b));
  let cursor = 0;
  const retryWorker = async () => {
    while (cursor < remaining.length) {
      const b = remaining[cursor++]!;
      const r = await post(url(), batchBody(b), token, 60_000);
      expect([b, r.status]).toEqual([b, 200]);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, retryWorker));
  const [count] = await cypher<{ n: number }>(
    store,
    `MATCH (a:Aspect {version: 0}) WHERE a.urn STARTS WITH $prefix AND a.name IN ['datasetProperties', 'upstreamLineage'] RETURN count(a) AS n`,
    { prefix: `urn:li:dataset:(urn:li:dataPlatform:${PLATFORM},` },
  );
  expect(Number(count!.n)).toBe(DATASETS * 2);
  log(`load completed after restart: ${DATASETS * 2} MCPs stored in ${Date.now() - t0} ms overall`);
}, 300_000);
