// Federation that federates, on a real Neo4j: a subgraph of the test's own (@apollo/subgraph) adds
// fields to Dataset and DataJob, the gateway composes it beside the lineage subgraph from
// GATEWAY_EXTRA_SUBGRAPHS, and one operation through the front door reads lineage with those fields
// (the gateway resolving them through each subgraph's `_entities`), with the caller's Authorization
// and request id reaching the extra subgraph. A subgraph still starting is waited for; one that
// conflicts, is unreachable or is no subgraph stops the gateway with an error naming it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { buildSchema, graphql, parse, type GraphQLSchema } from 'graphql';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { createLineageSubgraph, type LineageSubgraph } from '../../lineage-service/src/app.ts';
import { GRAPHQL_PATH } from '../../service-kit/src/graphql-http.ts';
import { instrumentServer } from '../../service-kit/src/service-runtime.ts';
import { createGateway, gatewayRouteTemplate, type Gateway } from '../../gateway/src/app.ts';
import { SupergraphError } from '../../gateway/src/supergraph.ts';
import { listen, testConfig, tokenFor } from '../support/services.ts';
import { namespace, testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

const ns = namespace('fed');
const raw = ns.dataset('raw_orders'),
  clean = ns.dataset('clean_orders'),
  unscored = ns.dataset('unscored');
const flow = ns.flow('nightly');
const job = ns.job(flow, 'clean');
const logger = createLogger('federation-test', 'silent');

/** What the quality team's subgraph knows: a score and checks per dataset, a cost per job. */
const scores = new Map([
  [raw, 0.25],
  [clean, 0.75],
]);
const checks = new Map([[clean, ['not_null(id)', 'unique(id)']]]);
const costs = new Map([[job, 12.5]]);

const QUALITY_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])
  type Dataset @key(fields: "urn") {
    urn: String!
    qualityScore: Float
    qualityChecks: [String!]!
  }
  type DataJob @key(fields: "urn") {
    urn: String!
    monthlyCostUsd: Float
  }
  type Query {
    "The best-scored datasets, best first."
    qualityLeaders(count: Int!): [Dataset!]!
  }
`;

function qualitySchema(): GraphQLSchema {
  type Ref = { urn: string };
  return buildSubgraphSchema([
    {
      typeDefs: parse(QUALITY_SDL),
      resolvers: {
        Query: {
          qualityLeaders: (_: unknown, { count }: { count: number }) =>
            [...scores.entries()]
              .sort((a, b) => b[1] - a[1])
              .slice(0, count)
              .map(([urn]) => ({ urn })),
        },
        Dataset: {
          __resolveReference: (ref: Ref) => ({ urn: ref.urn }),
          qualityScore: (ref: Ref) => scores.get(ref.urn) ?? null,
          qualityChecks: (ref: Ref) => checks.get(ref.urn) ?? [],
        },
        DataJob: {
          __resolveReference: (ref: Ref) => ({ urn: ref.urn }),
          monthlyCostUsd: (ref: Ref) => costs.get(ref.urn) ?? null,
        },
      },
    },
  ]);
}

interface Received {
  headers: IncomingHttpHeaders;
  query: string;
}

/**
 * A GraphQL server over `schema` on an ephemeral port, recording every request. While `starting()`
 * says so it answers 503, as a subgraph behind a proxy does before it is up.
 */
async function serveSubgraph(schema: GraphQLSchema, starting: () => boolean = () => false) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (starting()) {
        res.writeHead(503).end('starting');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
      received.push({ headers: req.headers, query: body.query });
      void graphql({ schema, source: body.query, variableValues: body.variables ?? null }).then((result) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    });
  });
  const url = `${await listen(server)}/graphql`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let store: Store;
let lineage: LineageSubgraph;
let lineageUrl: string;
let reader: string;
const opened: Array<() => Promise<void>> = [];

/** The gateway over `extra` (GATEWAY_EXTRA_SUBGRAPHS), instrumented as runService does it (request ids). */
async function startGateway(extra: string, overrides: Record<string, string> = {}): Promise<{ gateway: Gateway; url: string }> {
  const config = testConfig({ GATEWAY_EXTRA_SUBGRAPHS: extra, ...overrides });
  const gateway = await createGateway({ config, logger, store, lineageUrl, ingestionUrl: 'http://127.0.0.1:1' });
  instrumentServer(gateway.httpServer, { service: 'gateway', logger, store, routeTemplate: gatewayRouteTemplate });
  const url = await listen(gateway.httpServer);
  opened.push(() => gateway.close());
  return { gateway, url };
}

/** Writes `[urn, aspect, value]` rows as one strict write (the entities they name exist by then). */
const seed = (rows: Array<[string, string, unknown]>) =>
  writeAspects(
    store,
    rows.map(([urn, aspectName, value]) => ({ urn: parseUrn(urn), aspectName, changeType: 'UPSERT' as const, value })),
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' },
  );

beforeAll(async () => {
  store = testStore();
  lineage = await createLineageSubgraph({ store, config: testConfig(), logger });
  lineageUrl = `${await listen(lineage.httpServer)}${GRAPHQL_PATH}`;
  reader = await tokenFor(store, ns.user('reader'), 'Reader');
  // raw_orders → the job → clean_orders → unscored.
  await seed([
    [raw, 'datasetProperties', { name: 'raw_orders' }],
    [clean, 'datasetProperties', { name: 'clean_orders' }],
    [unscored, 'datasetProperties', { name: 'unscored' }],
    [flow, 'dataFlowInfo', { name: 'nightly' }],
  ]);
  await seed([
    [job, 'dataJobInfo', { name: 'clean', type: 'COMMAND' }],
    [job, 'dataJobInputOutput', { inputDatasets: [raw], outputDatasets: [clean] }],
    [unscored, 'upstreamLineage', { upstreams: [{ dataset: clean, type: 'TRANSFORMED' }] }],
  ]);
});
afterAll(async () => {
  for (const close of opened.reverse()) await close();
  await lineage.close();
  await store.close();
});

async function post(url: string, query: string, headers: Record<string, string>) {
  const res = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: Array<{ message: string }> } };
}

describe('an extra subgraph', () => {
  let quality: Awaited<ReturnType<typeof serveSubgraph>>;
  let front: string;

  beforeAll(async () => {
    quality = await serveSubgraph(qualitySchema());
    opened.push(quality.close);
    front = (await startGateway(`quality=${quality.url}`)).url;
  });

  test('one operation reads lineage with its fields on Dataset and DataJob, and its own root field with lineage fields', async () => {
    const requestId = `fed-${ns.platform}`;
    quality.received.length = 0;
    const r = await post(
      front,
      `{ scrollAcrossLineage(input: { urn: "${raw}", direction: DOWNSTREAM, count: 10,
           orFilters: [{ and: [{ field: "degree", values: ["1", "2", "3+"] }] }] }) {
           total searchResults { entity { urn type
             ... on Dataset { properties { name } qualityScore qualityChecks }
             ... on DataJob { monthlyCostUsd } } } }
         qualityLeaders(count: 2) { urn qualityScore properties { name } } }`,
      { authorization: `Bearer ${reader}`, 'x-request-id': requestId },
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const results = r.body.data.scrollAcrossLineage.searchResults as Array<{ entity: { urn: string } }>;
    expect(r.body.data.scrollAcrossLineage.total).toBe(3);
    expect(results.map((x) => x.entity).sort((a, b) => (a.urn < b.urn ? -1 : 1))).toEqual(
      [
        { urn: job, type: 'DATA_JOB', monthlyCostUsd: 12.5 },
        {
          urn: clean,
          type: 'DATASET',
          properties: { name: 'clean_orders' },
          qualityScore: 0.75,
          qualityChecks: ['not_null(id)', 'unique(id)'],
        },
        { urn: unscored, type: 'DATASET', properties: { name: 'unscored' }, qualityScore: null, qualityChecks: [] },
      ].sort((a, b) => (a.urn < b.urn ? -1 : 1)),
    );
    // The extra subgraph's root field answers references; their names come from the lineage subgraph.
    expect(r.body.data.qualityLeaders).toEqual([
      { urn: clean, qualityScore: 0.75, properties: { name: 'clean_orders' } },
      { urn: raw, qualityScore: 0.25, properties: { name: 'raw_orders' } },
    ]);
    // The quality subgraph was called for its root field and for the lineage results' entities.
    expect(quality.received.some((q) => q.query.includes('qualityLeaders'))).toBe(true);
    expect(quality.received.some((q) => q.query.includes('_entities'))).toBe(true);
    for (const q of quality.received) {
      expect(q.headers.authorization).toBe(`Bearer ${reader}`);
      expect(q.headers['x-request-id']).toBe(requestId);
    }
  });

  test("the catalog's own headers stay with the lineage subgraph", async () => {
    quality.received.length = 0;
    const r = await post(front, `{ qualityLeaders(count: 1) { urn qualityScore } }`, {
      authorization: `Bearer ${reader}`,
      'x-lineage-plan': 'true',
    });
    expect(r.body).toEqual({ data: { qualityLeaders: [{ urn: clean, qualityScore: 0.75 }] }, extensions: {} });
    expect(quality.received.map((q) => q.headers['x-lineage-plan'])).toEqual([undefined]);
  });

  test('without a token the door answers 401 before any subgraph is called', async () => {
    quality.received.length = 0;
    const res = await fetch(`${front}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ qualityLeaders(count: 1) { urn } }' }),
    });
    expect(res.status).toBe(401);
    expect(quality.received).toEqual([]);
  });
});

test('a subgraph still starting (answering 503) is waited for, then composed', async () => {
  let looks = 0;
  // "Up" after three looks at its SDL: the gateway must look again rather than give up.
  const quality = await serveSubgraph(qualitySchema(), () => ++looks <= 3);
  opened.push(quality.close);
  const { url } = await startGateway(`late=${quality.url}`);
  expect(looks).toBe(4);
  const r = await post(url, `{ dataset(urn: "${clean}") { qualityScore } }`, { authorization: `Bearer ${reader}` });
  expect(r.body).toEqual({ data: { dataset: { qualityScore: 0.75 } }, extensions: {} });
});

test("an extra subgraph gone after the start fails its own fields as unavailable, naming it; the lineage subgraph's still answer", async () => {
  const quality = await serveSubgraph(qualitySchema());
  const { url } = await startGateway(`quality=${quality.url}`);
  await quality.close();
  const r = await post(url, `{ dataset(urn: "${clean}") { properties { name } qualityScore } }`, { authorization: `Bearer ${reader}` });
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual({ dataset: { properties: { name: 'clean_orders' }, qualityScore: null } });
  expect(r.body.errors).toEqual([
    expect.objectContaining({
      message: 'The subgraph "quality" could not be reached; retry later.',
      extensions: { code: 503, type: 'SERVICE_UNAVAILABLE', classification: 'DataFetchingException' },
    }),
  ]);
});

describe('the gateway refuses to start', () => {
  test('on a conflicting type, listing every composition error with the subgraphs it involves', async () => {
    const conflicting = buildSubgraphSchema(
      parse(`extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])
        type Dataset @key(fields: "urn") { urn: String! name: Int }
        type Query { anything: Dataset }`),
    );
    const sub = await serveSubgraph(conflicting);
    opened.push(sub.close);
    const started = startGateway(`conflicting=${sub.url}`);
    await expect(started).rejects.toThrow(SupergraphError);
    const message = await started.then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toMatch(/^Supergraph composition of subgraphs "lineage", "conflicting" failed with 2 error\(s\):\n/);
    const lines = message.split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^ {2}\[FIELD_TYPE_MISMATCH\] Type of field "Dataset\.name" is incompatible across subgraphs: .*"Int" in subgraph "conflicting".* \(in subgraph "conflicting"\)$/,
    );
    expect(lines[1]).toMatch(
      /^ {2}\[INVALID_FIELD_SHARING\] Non-shareable field "Dataset\.name" is resolved from multiple subgraphs: .* \(in subgraph "conflicting"\)$/,
    );
  });

  test('on a subgraph that never comes up within GATEWAY_SUBGRAPH_WAIT_MS, naming it and what it saw', async () => {
    const dead = await serveSubgraph(qualitySchema());
    await dead.close();
    await expect(startGateway(`gone=${dead.url}`, { GATEWAY_SUBGRAPH_WAIT_MS: '1500' })).rejects.toThrow(
      new RegExp(
        `^The gateway cannot read the SDL of every configured subgraph:\\n  Subgraph "gone" \\(${dead.url}, GATEWAY_EXTRA_SUBGRAPHS\\) did not answer \\{ _service \\{ sdl \\} \\} within 1500 ms \\(GATEWAY_SUBGRAPH_WAIT_MS; \\d+ looks\\); last seen: ECONNREFUSED$`,
      ),
    );
  });

  test('on a GraphQL server that is no federation subgraph, at once', async () => {
    // A schema without federation's _service: what an ordinary GraphQL server answers.
    const ordinary = await serveSubgraph(buildSchema('type Query { hello: String }'));
    opened.push(ordinary.close);
    const t0 = Date.now();
    await expect(startGateway(`ordinary=${ordinary.url}`)).rejects.toThrow(
      'Subgraph "ordinary" (' +
        ordinary.url +
        ', GATEWAY_EXTRA_SUBGRAPHS) is not a federation subgraph: HTTP 200 without _service.sdl: Cannot query field "_service" on type "Query".',
    );
    // Not the five-minute default wait: an answer that is not a subgraph's is final.
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});
