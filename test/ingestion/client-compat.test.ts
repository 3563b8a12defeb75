// What the real acryl-datahub client needs from the ingestion service beyond DataHub's Rest.li
// resources, found by the interop suite (test/interop, `npm run test:interop`) and pinned here on a
// real stack: DataHubGraph.execute_graphql posts to <gms>/api/graphql — DataHub GMS serves GraphQL
// itself — so a client pointed at the ingestion service directly needs /api/graphql there. The
// service relays it to the front door unchanged (ingestion → gateway → lineage subgraph, as in
// production; docs/wire-contract.md §Rest.li, `POST /api/graphql`).
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { createLineageSubgraph, type LineageSubgraph } from '../../lineage-service/src/app.ts';
import { GRAPHQL_PATH } from '../../service-kit/src/graphql-http.ts';
import { createGateway, type Gateway } from '../../gateway/src/app.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { freePort } from '../../tools/neo4j/neo4j-server.ts';
import { listen, testConfig, tokenFor } from '../support/services.ts';
import { namespace, testStore } from '../support/context.ts';

const ns = namespace('compat');
const ghost = ns.dataset('never_ingested');
const logger = createLogger('client-compat-test', 'silent');

let store: Store;
let subgraph: LineageSubgraph;
let gateway: Gateway;
let ingestionUrl: string;
let admin: string;
const servers: Server[] = [];

async function startIngestionApp(graphqlUrl: string): Promise<{ server: Server; url: string }> {
  const server = createIngestionApp({ store, config: testConfig(), logger, graphqlUrl }).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  servers.push(server);
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  store = testStore();
  const config = testConfig();
  subgraph = await createLineageSubgraph({ store, config, logger });
  const subgraphUrl = `${await listen(subgraph.httpServer)}${GRAPHQL_PATH}`;
  // Each side needs the other's address: reserve the gateway's port first.
  const gatewayPort = await freePort();
  ({ url: ingestionUrl } = await startIngestionApp(`http://127.0.0.1:${gatewayPort}/api/graphql`));
  gateway = await createGateway({ config, logger, store, lineageUrl: subgraphUrl, ingestionUrl });
  await new Promise<void>((r) => gateway.httpServer.listen(gatewayPort, '127.0.0.1', () => r()));
  admin = await tokenFor(store, 'urn:li:corpuser:datahub');
});

afterAll(async () => {
  await gateway.close();
  await new Promise<void>((r) => (gateway.httpServer.listening ? gateway.httpServer.close(() => r()) : r()));
  await subgraph.close();
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  await store.close();
});

async function post(base: string, path: string, body: string, token: string | null = admin) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const doc = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, ...(variables ? { variables } : {}) });

describe('GraphQL on the ingestion service (execute_graphql pointed at GMS)', () => {
  test.each(['/api/graphql', '/api/v2/graphql', '/gms/api/graphql', '/api/gms/api/graphql'])(
    "POST %s answers with the front door's envelope",
    async (path) => {
      const r = await post(ingestionUrl, path, doc(`{ entityExists(urn: "${ghost}") }`));
      expect(r.status).toBe(200);
      expect(r.type).toMatch(/^application\/json/);
      expect(r.text.trim()).toBe('{"data":{"entityExists":false},"extensions":{}}');
    },
  );

  test('a resolver error arrives unchanged (the client raises GraphError with our message)', async () => {
    const r = await post(
      ingestionUrl,
      '/api/graphql',
      doc('mutation add($input: UpdateLineageInput!) { updateLineage(input: $input) }', {
        input: { edgesToAdd: [{ downstreamUrn: ghost, upstreamUrn: ns.dataset('up') }], edgesToRemove: [] },
      }),
    );
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text);
    expect(body.data).toEqual({ updateLineage: null });
    expect(body.errors[0]).toMatchObject({
      message: `Cannot upsert lineage as downstream urn ${ghost} doesn't exist`,
      path: ['updateLineage'],
      extensions: { code: 400, type: 'BAD_REQUEST' },
    });
    expect(body.extensions).toEqual({});
  });

  test('variables and operationName are passed through', async () => {
    const r = await post(
      ingestionUrl,
      '/api/graphql',
      JSON.stringify({
        query: 'query a($u: String!) { entityExists(urn: $u) } query b { __typename }',
        variables: { u: ghost },
        operationName: 'a',
      }),
    );
    expect(JSON.parse(r.text)).toEqual({ data: { entityExists: false }, extensions: {} });
  });

  test('without a token it is a Rest.li 401 and nothing is relayed', async () => {
    const r = await post(ingestionUrl, '/api/graphql', doc('{ __typename }'), null);
    expect(r.status).toBe(401);
    expect(JSON.parse(r.text)).toMatchObject({ status: 401, exceptionClass: 'com.linkedin.restli.server.RestLiServiceException' });
  });

  test('GET is 405, as on the front door', async () => {
    const res = await fetch(`${ingestionUrl}/api/graphql`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(405);
  });

  test("an unparseable body gets the front door's bare 400", async () => {
    const r = await post(ingestionUrl, '/api/graphql', '{"query": ');
    expect(r.status).toBe(400);
  });

  test('front door down: 503 with a message saying where GraphQL lives, never a 500', async () => {
    const port = await freePort();
    const { url } = await startIngestionApp(`http://127.0.0.1:${port}/api/graphql`);
    const r = await post(url, '/api/graphql', doc('{ __typename }'));
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toMatchObject({
      status: 503,
      message: `GraphQL is served by the front door, which is unreachable at http://127.0.0.1:${port}/api/graphql`,
    });
  });
});
