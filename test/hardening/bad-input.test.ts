// Issue 7 item 1: a corpus of malformed requests against every endpoint of the three services
// (corpus/rest.ts, corpus/graphql.ts). Every one gets a 4xx — or a GraphQL error with a 4xx code
// or a ValidationError/InvalidSyntax classification — whose message names the problem; none gets a
// 5xx; and nothing is written: the namespace's nodes, aspect rows and edges hash the same before
// and after, and no row or edge anywhere carries the corpus caller's stamp.
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { fixturesOf, INJECTIONS, type Fixtures } from './corpus/fixtures.ts';
import { restCases, mcp, type RestCase } from './corpus/rest.ts';
import { graphqlCases, type GraphqlCase } from './corpus/graphql.ts';
import { openApiCases, type OpenApiCase } from './corpus/openapi.ts';
import { graphql, send, snapshot, startHarness, type Harness, type Reply, type Snapshot } from './corpus/harness.ts';

const ns = namespace('bad');
const fx: Fixtures = fixturesOf(ns);
const caller = ns.user('admin');
const rest = restCases(fx);
const gql = graphqlCases(fx);
const openapi = openApiCases(fx);

let h: Harness;
let admin: string;
let before: Snapshot;

const SYSTEM = { actor: 'urn:li:corpuser:__datahub_system', existenceMode: 'strict' as const };
const upsert = (urn: string, aspectName: string, value: unknown) => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT' as const,
  value,
});

beforeAll(async () => {
  h = await startHarness();
  await writeAspects(
    h.store,
    [
      upsert(fx.chart, 'status', { removed: false }),
      upsert(fx.job, 'status', { removed: false }),
      upsert(fx.a, 'datasetProperties', { name: 'a', customProperties: {} }),
      upsert(fx.b, 'datasetProperties', { name: 'b', customProperties: {} }),
      upsert(fx.b, 'upstreamLineage', { upstreams: [{ dataset: fx.a, type: 'TRANSFORMED' }] }),
      upsert(fx.chart, 'chartInfo', {
        title: 'c',
        description: '',
        lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
        inputEdges: [{ destinationUrn: fx.a }],
      }),
      upsert(fx.flow, 'dataFlowInfo', { name: 'flow', customProperties: {} }),
      upsert(fx.job, 'dataJobInputOutput', { inputDatasets: [], outputDatasets: [], inputDatasetEdges: [{ destinationUrn: fx.a }] }),
    ],
    SYSTEM,
  );
  admin = await tokenFor(h.store, caller, 'Admin');
  before = await snapshot(h.store, ns.platform, [caller]);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const STACK_TRACE = /\n\s+at |\bat [\w.<>]+ \(.*:\d+:\d+\)|node:internal|\/work\/|"stacktrace"/;

function expectCleanBody(r: Reply) {
  expect(r.text).not.toMatch(STACK_TRACE);
  expect(r.text).not.toContain(admin);
}

describe('the corpus', () => {
  test('has at least 200 requests covering every endpoint', () => {
    expect(rest.length + gql.length).toBeGreaterThanOrEqual(200);
    const endpoints = new Set([...rest.map((c) => c.endpoint), ...gql.map((c) => c.endpoint.replace(/ \(.*\)$/, ''))]);
    for (const e of [
      'ingestProposal',
      'ingestProposalBatch',
      'entities.ingest',
      'entities.batchIngest',
      'entities.exists',
      'entities.delete',
      'getCount',
      'aspects.restoreIndices',
      'operations.restoreIndices',
      'GET /aspects',
      'GET /entitiesV2',
      'updateLineage',
      'scrollAcrossLineage',
      'searchAcrossLineage',
      'entity',
      'dataset',
      'entities',
      'entityExists',
      'createAccessToken',
      'revokeAccessToken',
      'transport',
      'syntax',
      'validation',
      'variables',
    ]) {
      expect(endpoints).toContain(e);
    }
  });
});

describe('Rest.li: every malformed request is a 4xx naming the problem', () => {
  test.each(rest.map((c) => [c.id, c] as const))('%s', async (_id, c: RestCase) => {
    const r = await send(h.ingestionUrl + c.path, {
      method: c.method,
      body: c.body,
      token: admin,
      ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
    });
    expect({ status: r.status, message: r.json?.message }).toEqual({ status: c.status, message: expect.stringMatching(c.message) });
    expect(r.json).toMatchObject({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', stackTrace: '', status: c.status });
    expect(r.headers.get('x-restli-error-response')).toBe('true');
    expectCleanBody(r);
  });
});

const urlOf = (c: GraphqlCase) =>
  c.target === 'gateway' ? `${h.gatewayUrl}/api/graphql` : c.target === 'subgraph' ? h.subgraphUrl : `${h.ingestionUrl}/api/graphql`;

describe('GraphQL: every malformed request is a bare 4xx or an error with a 4xx code / validation classification', () => {
  test.each(gql.map((c) => [`${c.id} [${c.target}]`, c] as const))('%s', async (_id, c: GraphqlCase) => {
    const r = await graphql(urlOf(c), admin, c);
    expectCleanBody(r);
    if (c.expect.kind === 'http') {
      expect({ status: r.status, message: r.json?.message }).toEqual({
        status: c.expect.status,
        message: expect.stringMatching(c.expect.message),
      });
      expect(r.json).not.toHaveProperty('errors');
      return;
    }
    expect(r.status).toBe(200);
    expect(r.json?.extensions).toEqual({});
    const [first] = r.json?.errors ?? [];
    expect(first).toBeDefined();
    expect(first.message).toMatch(c.expect.message);
    if (c.expect.classification === 'DataFetchingException') {
      expect(first.extensions).toEqual({ code: c.expect.code, type: 'BAD_REQUEST', classification: 'DataFetchingException' });
    } else {
      // DataHub's graphql-java answers parse failures as InvalidSyntax or ValidationError.
      expect(first.extensions).toEqual({ classification: c.expect.classification });
    }
  });
});

describe('OpenAPI v3, relationships and the lineage scroll: every malformed request is a 4xx naming the problem', () => {
  test.each(openapi.map((c) => [c.id, c] as const))('%s', async (_id, c: OpenApiCase) => {
    const r = await send(h.ingestionUrl + c.path, { method: c.method, body: c.body, token: admin });
    const message = c.restli ? r.json?.message : r.json?.error;
    expect({ status: r.status, message }).toEqual({ status: c.status, message: expect.stringMatching(c.message) });
    // A refused urn is quoted, never echoed whole: a 1 MiB urn does not make a 1 MiB answer.
    expect(r.text.length).toBeLessThan(2_000);
    expectCleanBody(r);
  });
});

describe('after the corpus', () => {
  test('nothing was written: the namespace and every row/edge the caller could stamp are unchanged', async () => {
    const after = await snapshot(h.store, ns.platform, [caller]);
    expect(after).toEqual(before);
    expect(before.nodes).toBeGreaterThanOrEqual(6);
  });

  test('no prototype was polluted', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('no request was logged as an unexpected (5xx) failure', () => {
    const failures = h.logLines().filter((l) => JSON.parse(l).level >= 50);
    expect(failures).toEqual([]);
  });
});

// Hostile strings that are nonetheless well-formed are data: stored verbatim, never interpreted.
describe('well-formed hostile input is stored as data, not interpreted', () => {
  const enc = encodeURIComponent;
  test.each(INJECTIONS.map((s) => [s] as const))('name %s', async (s) => {
    const urn = ns.dataset(`t${s.replace(/[(),]/g, '')}`);
    const value = { name: s, description: `${s} \u202e\u{1F600} \u200f`, customProperties: { [s]: s } };
    const w = await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
      body: { proposal: mcp(urn, 'datasetProperties', value) },
      token: admin,
    });
    expect(w.status).toBe(200);
    const r = await send(`${h.ingestionUrl}/aspects/${enc(urn)}?aspect=datasetProperties`, { token: admin });
    expect(r.json.aspect['com.linkedin.dataset.DatasetProperties']).toEqual(value);
    const count = await send(`${h.ingestionUrl}/aspects?action=getCount`, {
      body: { aspect: 'datasetProperties', urnLike: `%${s}%` },
      token: admin,
    });
    expect(count.status).toBe(200);
    expect(count.json.value).toBeGreaterThanOrEqual(0);
    // The fixtures are still there.
    const exists = await send(`${h.ingestionUrl}/entities?action=exists`, { body: { urn: fx.b }, token: admin });
    expect(exists.json).toEqual({ value: true });
  });

  test('emoji and RTL marks in names round-trip through the urn and GraphQL', async () => {
    const urn = ns.dataset('t\u{1F600}\u200f\u05d0');
    expect(
      (
        await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
          body: { proposal: mcp(urn, 'status', { removed: false }) },
          token: admin,
        })
      ).status,
    ).toBe(200);
    const r = await graphql(`${h.gatewayUrl}/api/graphql`, admin, {
      query: 'query d($u: String!) { dataset(urn: $u) { urn name exists } }',
      variables: { u: urn },
    });
    expect(r.json.data.dataset).toEqual({ urn, name: 't\u{1F600}\u200f\u05d0', exists: true });
  });
});
