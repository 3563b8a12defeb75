// Operability on a real Neo4j: one request id from the front door through the subgraph and the
// ingestion service into Neo4j transaction metadata and every log line; liveness vs readiness;
// /metrics; and graceful shutdown of the real service processes (drains, then exits 0).
import { createServer, type Server } from 'node:http';
import { openSync, readFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect } from '../../catalog/src/read/aspect-reader.ts';
import { createStore, type QueryEvent, type Store } from '../../catalog/src/store/store.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { runInRequest } from '../../catalog/src/runtime/request-context.ts';
import { processMetrics } from '../../service-kit/src/metrics.ts';
import { instrumentServer } from '../../service-kit/src/service-runtime.ts';
import { gmsRouteTemplate } from '../../service-kit/src/gms-routes.ts';
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { createLineageSubgraph, type LineageSubgraph } from '../../lineage-service/src/app.ts';
import { GRAPHQL_PATH } from '../../service-kit/src/graphql-http.ts';
import { createGateway, gatewayRouteTemplate, type Gateway } from '../../gateway/src/app.ts';
import { freePort } from '../../tools/neo4j/neo4j-server.ts';
import { startStack as startProcesses, type RunningStack } from '../../tools/stack.ts';
import { listen, testConfig, tokenFor } from '../support/services.ts';
import { namespace, testStore } from '../support/context.ts';

const ns = namespace('op');
type LogLine = Record<string, unknown> & { requestId?: string; msg?: string; route?: string };

function capturingLogger(name: string) {
  const lines: LogLine[] = [];
  const logger = createLogger(name, 'debug', {
    write: (s: string) => {
      lines.push(JSON.parse(s) as LogLine);
    },
  });
  return { logger, lines };
}

interface Service {
  base: string;
  store: Store;
  events: QueryEvent[];
  lines: LogLine[];
}

let ingestion: Service & { server: Server };
let subgraph: Service & { sg: LineageSubgraph };
let gateway: Service & { gw: Gateway };
let token: string;
const config = testConfig({ LOG_LEVEL: 'debug' });

function instrumentedStore(events: QueryEvent[]) {
  // As runService wires it (metrics), plus a copy for the assertions.
  return createStore({
    uri: process.env.TEST_NEO4J_URI!,
    database: 'neo4j',
    onQuery: (e) => {
      events.push(e);
      processMetrics().observeQuery(e);
    },
  });
}

beforeAll(async () => {
  const mk = (name: string) => {
    const events: QueryEvent[] = [];
    const { logger, lines } = capturingLogger(name);
    return { events, lines, logger, store: instrumentedStore(events) };
  };
  const i = mk('ingestion-service');
  const server = createServer(createIngestionApp({ store: i.store, config, logger: i.logger }).callback());
  instrumentServer(server, { service: 'ingestion-service', logger: i.logger, store: i.store, routeTemplate: gmsRouteTemplate });
  ingestion = { base: await listen(server), store: i.store, events: i.events, lines: i.lines, server };
  const s = mk('lineage-service');
  const sg = await createLineageSubgraph({ store: s.store, config, logger: s.logger });
  instrumentServer(sg.httpServer, {
    service: 'lineage-service',
    logger: s.logger,
    store: s.store,
    routeTemplate: (url) => (url.split('?', 1)[0] === GRAPHQL_PATH ? GRAPHQL_PATH : 'unmatched'),
  });
  subgraph = { base: await listen(sg.httpServer), store: s.store, events: s.events, lines: s.lines, sg };
  const g = mk('gateway');
  const gw = await createGateway({
    config,
    logger: g.logger,
    store: g.store,
    lineageUrl: `${subgraph.base}${GRAPHQL_PATH}`,
    ingestionUrl: ingestion.base,
  });
  instrumentServer(gw.httpServer, {
    service: 'gateway',
    logger: g.logger,
    store: g.store,
    readyPaths: ['/health', '/health/ready', '/api/health'],
    routeTemplate: gatewayRouteTemplate,
  });
  gateway = { base: await listen(gw.httpServer), store: g.store, events: g.events, lines: g.lines, gw };
  token = await tokenFor(ingestion.store, ns.user('editor'), 'Editor');
});

afterAll(async () => {
  await gateway.gw.close();
  await subgraph.sg.close();
  await new Promise<void>((r) => ingestion.server.close(() => r()));
  for (const s of [gateway, subgraph, ingestion]) await s.store.close();
});

const seed = (urns: string[]) =>
  writeAspects(
    ingestion.store,
    urns.map((u) => ({
      urn: parseUrn(u),
      aspectName: 'datasetProperties',
      changeType: 'UPSERT' as const,
      value: { name: u },
    })),
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );

async function gql(query: string, variables: Record<string, unknown>, requestId?: string) {
  const res = await fetch(`${gateway.base}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { res, body: (await res.json()) as any };
}

describe('request ids', () => {
  test('an x-request-id sent to the front door reaches the subgraph, its log lines and its Neo4j transactions', async () => {
    const [up, down] = [ns.dataset('rid_up'), ns.dataset('rid_down')];
    await seed([up, down]);
    const id = `chain-${ns.platform}`;
    const { res, body } = await gql(
      'mutation add($d: String!, $u: String!) { updateLineage(input: { edgesToAdd: [{ downstreamUrn: $d, upstreamUrn: $u }], edgesToRemove: [] }) }',
      { d: down, u: up },
      id,
    );
    expect(body).toEqual({ data: { updateLineage: true }, extensions: {} });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(gateway.lines.some((l) => l.requestId === id && l.msg === 'request' && l.route === '/api/graphql' && l.status === 200)).toBe(
      true,
    );
    expect(subgraph.lines.some((l) => l.requestId === id && l.msg === 'request' && l.route === '/graphql')).toBe(true);
    const writes = subgraph.events.filter((e) => e.metadata.requestId === id).map((e) => e.statement);
    expect(writes).toEqual(expect.arrayContaining(['aspects/lock-and-read', 'edges/merge']));
    expect(writes.some((s) => s === 'aspects/create-rows' || s === 'aspects/update-rows')).toBe(true);
    // Only this request's transactions carry its id.
    expect(ingestion.events.some((e) => e.metadata.requestId === id)).toBe(false);
  });

  test('without one, the front door mints an id and the ingestion service behind the proxy uses the same', async () => {
    const urn = ns.dataset('rid_rest');
    const res = await fetch(`${gateway.base}/api/gms/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: { value: JSON.stringify({ name: 'x' }), contentType: 'application/json' },
        },
      }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ingestion.lines.some((l) => l.requestId === id && l.route === '/aspects?action=ingestProposal' && l.status === 200)).toBe(true);
    expect(gateway.lines.some((l) => l.requestId === id && l.route === '/gms/aspects?action=ingestProposal')).toBe(true);
    expect(ingestion.events.filter((e) => e.metadata.requestId === id).map((e) => e.statement)).toContain('aspects/create-rows');
  });

  test('an unacceptable id (spaces, over 128 characters) is replaced, not logged', async () => {
    for (const bad of ['has spaces', 'x'.repeat(129), 'quote"d']) {
      const res = await fetch(`${gateway.base}/health/live`, { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).not.toBe(bad);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test('every log line written while serving a request carries its id', async () => {
    const id = `bad-${ns.platform}`;
    // A resolver error is logged by the subgraph's error formatter: that line must carry the id too.
    await gql('query q($u: String!) { entity(urn: $u) { urn } }', { u: 'not-a-urn' }, id);
    const during = subgraph.lines.filter((l) => l.requestId === id);
    expect(during.length).toBeGreaterThanOrEqual(1);
    await gql(
      'mutation add($d: String!, $u: String!) { updateLineage(input: { edgesToAdd: [{ downstreamUrn: $d, upstreamUrn: $u }], edgesToRemove: [] }) }',
      { d: ns.dataset('nope_d'), u: ns.dataset('nope_u') },
      id,
    );
    const warnOrError = subgraph.lines.filter((l) => (l.level as number) >= 40);
    for (const l of warnOrError) expect(typeof l.requestId).toBe('string');
  });

  test('Neo4j itself sees the request id in the transaction metadata', async () => {
    const store = testStore();
    const id = `neo4j-${ns.platform}`;
    let release!: () => void;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    try {
      const open = runInRequest({ requestId: id }, () =>
        store.read(async (tx) => {
          await tx.run('entities/exist', { rows: [] });
          await hold;
        }),
      );
      let seen: unknown[] = [];
      for (let i = 0; i < 40 && seen.length === 0; i++) {
        const r = await store.driver.executeQuery(
          'SHOW TRANSACTIONS YIELD metaData WHERE metaData.requestId = $id RETURN metaData',
          { id },
          { database: 'neo4j' },
        );
        seen = r.records.map((x) => x.get('metaData'));
        if (!seen.length) await new Promise((r2) => setTimeout(r2, 100));
      }
      release();
      await open;
      expect(seen).toEqual([{ requestId: id }]);
    } finally {
      release();
      await store.close();
    }
  });
});

describe('health', () => {
  test('live and ready are 200 with Neo4j up; /health stays compatible', async () => {
    for (const base of [gateway.base, subgraph.base, ingestion.base]) {
      for (const path of ['/health/live', '/health/ready', '/health']) {
        const res = await fetch(`${base}${path}`);
        expect([path, res.status]).toEqual([path, 200]);
        expect(await res.json()).toEqual({ status: 'ok' });
      }
    }
    expect((await fetch(`${gateway.base}/api/health`)).status).toBe(200);
    expect((await fetch(`${ingestion.base}/gms/health`)).status).toBe(200);
  });

  test('with Neo4j unreachable: live 200, ready and /health 503 with Retry-After', async () => {
    const deadUri = `bolt://127.0.0.1:${await freePort()}`;
    const store = createStore({ uri: deadUri, database: 'neo4j' });
    const logger = createLogger('test', 'silent');
    const server = createServer(createIngestionApp({ store, config: testConfig({ NEO4J_URI: deadUri }), logger }).callback());
    instrumentServer(server, { service: 'dead', logger, store });
    const base = await listen(server);
    try {
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      for (const path of ['/health/ready', '/health']) {
        const t0 = Date.now();
        const res = await fetch(`${base}${path}`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toEqual({ status: 'unavailable' });
        expect(Date.now() - t0).toBeLessThan(5_000);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await store.close();
    }
  });
});

describe('metrics', () => {
  test('route templates keep label values bounded', () => {
    expect(gmsRouteTemplate('/aspects/urn%3Ali%3Adataset%3A(x)?aspect=status')).toBe('/aspects/{urn}');
    expect(gmsRouteTemplate('/api/gms/entitiesV2/urn:li:corpuser:x')).toBe('/gms/entitiesV2/{urn}');
    expect(gmsRouteTemplate('/aspects?action=ingestProposal')).toBe('/aspects?action=ingestProposal');
    expect(gmsRouteTemplate('/aspects?action=dropEverything')).toBe('/aspects?action=other');
    expect(gmsRouteTemplate('/gms/aspects/?action=getCount')).toBe('/gms/aspects?action=getCount');
    expect(gmsRouteTemplate('/wp-admin/../../etc/passwd')).toBe('unmatched');
    expect(gmsRouteTemplate('/openapi/v3/entity/dataset?async=false')).toBe('/openapi/v3/entity/{entityType}');
    expect(gmsRouteTemplate('/gms/openapi/v3/entity/dataset/batchGet')).toBe('/gms/openapi/v3/entity/{entityType}/batchGet');
    expect(gmsRouteTemplate('/openapi/relationships/v1/?urn=x')).toBe('/openapi/relationships/v1');
  });

  test('/metrics reports requests per route, GraphQL operations, Neo4j statements and restore progress', async () => {
    const [a, b] = [ns.dataset('m_a'), ns.dataset('m_b')];
    await seed([a, b]);
    await gql(
      'mutation metricsProbe($d: String!, $u: String!) { updateLineage(input: { edgesToAdd: [{ downstreamUrn: $d, upstreamUrn: $u }], edgesToRemove: [] }) }',
      { d: b, u: a },
    );
    await gql('query brokenProbe { entity(urn: "not-a-urn") { urn } }', {});
    const admin = await tokenFor(ingestion.store, ns.user('admin'), 'Admin');
    const restore = await fetch(`${ingestion.base}/operations?action=restoreIndices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ urnLike: `urn:li:dataset:(urn:li:dataPlatform:${ns.platform},m\\_%`, batchSize: 1, limit: 10 }),
    });
    expect(restore.status).toBe(200);
    const res = await fetch(`${ingestion.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const has = (re: RegExp) => expect(text).toMatch(re);
    has(/^http_request_duration_seconds_count\{service="gateway",method="POST",route="\/api\/graphql",status="200"\} \d+/m);
    has(/^http_request_duration_seconds_count\{service="lineage-service",method="POST",route="\/graphql",status="200"\} \d+/m);
    has(
      /^http_request_duration_seconds_bucket\{le="0\.1",service="ingestion-service",method="POST",route="\/operations\?action=restoreIndices",status="200"\} \d+/m,
    );
    has(/^graphql_operation_duration_seconds_count\{server="gateway",operation="metricsProbe",outcome="ok"\} 1$/m);
    has(/^graphql_operation_duration_seconds_count\{server="subgraph",operation="metricsProbe",outcome="ok"\} 1$/m);
    has(/^graphql_operation_duration_seconds_count\{server="subgraph",operation="brokenProbe",outcome="error_400"\} 1$/m);
    has(/^neo4j_query_duration_seconds_count\{statement="aspects\/create-rows",outcome="ok"\} \d+/m);
    has(/^neo4j_query_duration_seconds_count\{statement="restore\/scan-rows",outcome="ok"\} \d+/m);
    has(/^restore_indices_rows_scanned_total [1-9]\d*$/m);
    has(/^restore_indices_running 0$/m);
    has(/^http_requests_in_flight\{service="ingestion-service"\} 1$/m); // this scrape itself
    has(/^process_resident_memory_bytes \d+/m);
  });
});

describe("the real processes (npm start's launcher)", () => {
  let stack: RunningStack | undefined;
  afterAll(async () => {
    await stack?.stop();
  });

  test('propagate request ids across processes, then drain an in-flight batch on SIGTERM and exit cleanly', async () => {
    stack = await startProcesses({ ephemeral: true, neo4jUri: process.env.TEST_NEO4J_URI!, log: () => {}, tokenName: 'operability test' });
    const { gatewayUrl, ingestionUrl, token: admin, logDir } = stack;
    const id = `proc-${ns.platform}`;
    const r = await fetch(`${gatewayUrl}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'x-request-id': id },
      body: JSON.stringify({ query: 'query probe { entityExists(urn: "urn:li:corpuser:datahub") }' }),
    });
    expect(r.status).toBe(200);
    await r.text();
    const gms = await fetch(`${gatewayUrl}/api/gms/config`, { headers: { 'x-request-id': `${id}-gms` } });
    expect(gms.status).toBe(200);
    await gms.text();

    // The batch is held in flight by a Neo4j lock, not by its size: a test transaction locks the
    // first entity the batch writes (as the write path's own lock-entities does) and lets go only
    // once the ingestion service has logged that it is draining. A big batch raced the machine's
    // load: under load it outlived the 8 s grace and the gateway cut the client's connection.
    const urns = Array.from({ length: 200 }, (_, i) => ns.dataset(`drain_${String(i).padStart(3, '0')}`));
    const proposals = urns.map((u) => ({
      entityType: 'dataset',
      entityUrn: u,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { value: JSON.stringify({ name: u }), contentType: 'application/json' },
    }));
    const lockStore = testStore();
    let lockHeld!: () => void;
    let releaseLock!: () => void;
    const held = new Promise<void>((r) => {
      lockHeld = r;
    });
    const released = new Promise<void>((r) => {
      releaseLock = r;
    });
    const holder = lockStore.write(async (tx) => {
      await tx.run('aspects/lock-entities', { rows: [{ urn: urns[0], entityType: 'dataset', label: 'Dataset' }] });
      lockHeld();
      await released;
    });
    const logFds = new Map<string, number>();
    try {
      await held;
      const batch = fetch(`${gatewayUrl}/api/gms/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ proposals }),
      }).then(async (res) => ({ status: res.status, body: await res.text() }));
      // Wait until the ingestion service is serving it (this scrape is the other request in flight).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const m = await (await fetch(`${ingestionUrl}/metrics`)).text();
        if (/^http_requests_in_flight\{service="ingestion-service"\} 2$/m.test(m)) break;
        if (Date.now() > deadline) throw new Error('the batch never reached the ingestion service');
        await new Promise((res) => setTimeout(res, 20));
      }
      // The launcher deletes its temp dir (logs included) on stop: keep the files open to read them after.
      for (const n of ['gateway', 'lineage-service', 'ingestion-service']) logFds.set(n, openSync(join(logDir!, `${n}.log`), 'r'));
      const t0 = Date.now();
      const stopping = stack.stop();
      stack = undefined;
      // The processes cannot exit while the batch waits on the lock, so the log is still there.
      const ingestionLog = join(logDir!, 'ingestion-service.log');
      while (!readFileSync(ingestionLog, 'utf8').includes('"msg":"draining requests"')) {
        if (Date.now() - t0 > 8_000) throw new Error('the ingestion service did not start draining');
        await new Promise((res) => setTimeout(res, 20));
      }
      releaseLock();
      await holder;
      const answered = await batch;
      await stopping;
      expect(answered).toEqual({ status: 200, body: '{"value":"success"}' });
      // Stopped without the launcher's SIGKILL (10 s): every service drained and closed its driver.
      expect(Date.now() - t0).toBeLessThan(10_000);
      const store = testStore();
      try {
        expect((await getAspect(store, parseUrn(urns.at(-1)!), 'datasetProperties'))?.value).toEqual({ name: urns.at(-1) });
      } finally {
        await store.close();
      }
      const logs = new Map(
        [...logFds].map(([n, fd]) => {
          const text = readFileSync(fd, 'utf8');
          closeSync(fd);
          logFds.delete(n);
          return [
            n,
            text
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .map((l) => JSON.parse(l) as LogLine),
          ];
        }),
      );
      const logOf = (name: string) => logs.get(name)!;
      const timeOf = (name: string, msg: string) => logOf(name).find((l) => l.msg === msg)?.time as number | undefined;
      for (const name of ['gateway', 'lineage-service', 'ingestion-service']) {
        expect([name, timeOf(name, 'draining requests') !== undefined, timeOf(name, 'stopped') !== undefined]).toEqual([name, true, true]);
      }
      // The batch was in flight when SIGTERM arrived and finished before the service stopped.
      const served = logOf('ingestion-service').find((l) => l.route === '/aspects?action=ingestProposalBatch')!;
      expect(served.status).toBe(200);
      expect(served.time).toBeGreaterThanOrEqual(timeOf('ingestion-service', 'draining requests')!);
      expect(served.time).toBeLessThanOrEqual(timeOf('ingestion-service', 'stopped')!);
      expect(logOf('ingestion-service').find((l) => l.msg === 'draining requests')!.inFlight).toBe(1);
      expect(logOf('gateway').some((l) => l.requestId === id && l.route === '/api/graphql')).toBe(true);
      expect(logOf('lineage-service').some((l) => l.requestId === id && l.route === '/graphql')).toBe(true);
      expect(logOf('ingestion-service').some((l) => l.requestId === `${id}-gms` && l.route === '/config')).toBe(true);
      expect(logOf('ingestion-service').some((l) => l.route === '/aspects?action=ingestProposalBatch' && l.status === 200)).toBe(true);
    } finally {
      releaseLock();
      await holder.catch(() => undefined);
      await lockStore.close();
      for (const fd of logFds.values()) closeSync(fd);
    }
  }, 120_000);
});
