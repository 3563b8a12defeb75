// The OpenAPI v3 routes the SDK calls beyond ingest (docs/wire-contract.md §OpenAPI), over HTTP on a
// real Neo4j: the entity scroll (POST …/entity/scroll and GET …/entity/{type}), one entity
// (GET/HEAD), one aspect (GET/HEAD/POST/DELETE), conditional writes (412, nothing written), the
// relationship scroll, unknown types in the path (404) and unknown filter/sort fields (400).
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

let svc: RunningIngestion;
let admin: string, reader: string;
const ns = namespace('oav3');
const a = ns.dataset('fct_orders');
const b = ns.dataset('fct_revenue');
const c = ns.dataset('stg_gone');
const chart = ns.chart('weekly');

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}
async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = admin,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(svc.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
const el = (urn: string, aspects: Record<string, unknown>) => ({
  urn,
  ...Object.fromEntries(Object.entries(aspects).map(([n, value]) => [n, { value }])),
});
const upstream = (u: string) => ({
  upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: u, type: 'TRANSFORMED' }],
});
const mine = { filter: { and: [{ criteria: [{ field: 'platform', values: [ns.platform], condition: 'EQUAL' }] }] } };

beforeAll(async () => {
  svc = await startIngestion();
  admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(svc.store, ns.user('reader'), 'Reader');
  const w = await call('POST', '/openapi/v3/entity/dataset?async=false', [
    el(a, { datasetProperties: { name: 'fct_orders' }, subTypes: { typeNames: ['Table'] } }),
    el(b, { datasetProperties: { name: 'fct_revenue' }, upstreamLineage: upstream(a) }),
    el(c, { datasetProperties: { name: 'stg_gone' }, status: { removed: true } }),
  ]);
  expect(w.status).toBe(200);
  expect(
    (
      await call('POST', '/openapi/v3/entity/chart?async=false', [
        el(chart, {
          chartInfo: {
            title: 'Weekly',
            description: '',
            lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
            inputEdges: [{ destinationUrn: b }],
          },
        }),
      ])
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await svc.close();
});

describe('entity scroll', () => {
  test('POST /openapi/v3/entity/scroll pages by scrollId in urn order, with the asked aspects and totalCount', async () => {
    const first = await call('POST', '/openapi/v3/entity/scroll?count=1', {
      entities: ['dataset'],
      aspects: ['datasetProperties'],
      ...mine,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      totalCount: 2,
      entities: [{ urn: [a, b].sort()[0], datasetProperties: { value: { name: expect.any(String) } } }],
    });
    expect(Object.keys(first.body.entities[0]).sort()).toEqual(['datasetProperties', 'urn']);
    expect(typeof first.body.scrollId).toBe('string');
    const second = await call('POST', `/openapi/v3/entity/scroll?count=1&scrollId=${first.body.scrollId}`, {
      entities: ['dataset'],
      aspects: ['datasetProperties'],
      ...mine,
    });
    expect(second.body.entities.map((e: any) => e.urn)).toEqual([[a, b].sort()[1]]);
    expect(second.body.scrollId).toBeNull();
  });

  test('no aspects: urns only; [] = every aspect; includeSoftDelete, query, sort and systemMetadata', async () => {
    const bare = await call('POST', '/openapi/v3/entity/scroll', { entities: ['dataset'], ...mine });
    expect(bare.body.entities).toEqual([a, b].sort().map((urn) => ({ urn })));
    const all = await call('POST', '/openapi/v3/entity/scroll?systemMetadata=true&query=orders', { aspects: [], ...mine });
    expect(all.body.entities).toHaveLength(1);
    expect(Object.keys(all.body.entities[0]).sort()).toEqual(['datasetKey', 'datasetProperties', 'subTypes', 'urn']);
    expect(all.body.entities[0].datasetProperties.systemMetadata.version).toBe('1');
    const withRemoved = await call('POST', '/openapi/v3/entity/scroll?includeSoftDelete=true', { entities: ['dataset'], ...mine });
    expect(withRemoved.body.totalCount).toBe(3);
    const desc = await call('POST', '/openapi/v3/entity/scroll', {
      entities: ['dataset'],
      sortCriteria: [{ field: 'urn', order: 'DESCENDING' }],
      ...mine,
    });
    expect(desc.body.entities.map((e: any) => e.urn)).toEqual([a, b].sort().reverse());
  });

  test('GET /openapi/v3/entity/{type}: every aspect unless named; an unknown type is a 404 naming it', async () => {
    const r = await call('GET', `/openapi/v3/entity/chart?query=${ns.platform}`);
    expect(r.status).toBe(200);
    expect(r.body.entities).toEqual([
      { urn: chart, chartKey: { value: expect.any(Object) }, chartInfo: { value: expect.objectContaining({ title: 'Weekly' }) } },
    ]);
    const named = await call('GET', `/openapi/v3/entity/chart?query=${ns.platform}&aspects=chartKey`);
    expect(Object.keys(named.body.entities[0]).sort()).toEqual(['chartKey', 'urn']);
    const unknown = await call('GET', '/openapi/v3/entity/widgetz');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/Unknown entity type 'widgetz'/);
    expect((await call('POST', '/openapi/v3/entity/widgetz?async=false', [])).status).toBe(404);
  });

  test('bad input: unknown filter field, unknown sort field, unknown entity type, bad scrollId are 400s naming them', async () => {
    const field = await call('POST', '/openapi/v3/entity/scroll', {
      filter: { and: [{ criteria: [{ field: 'colour', values: ['x'] }] }] },
    });
    expect(field.status).toBe(400);
    expect(field.body.error).toMatch(/Unknown filter field 'colour'/);
    const sort = await call('POST', '/openapi/v3/entity/scroll', { sortCriteria: [{ field: 'lastModified', order: 'ASCENDING' }] });
    expect(sort.status).toBe(400);
    expect(sort.body.error).toMatch(/Unknown sort field 'lastModified'/);
    expect((await call('GET', '/openapi/v3/entity/dataset?sort=size')).body.error).toMatch(/Unknown sort field 'size'/);
    const type = await call('POST', '/openapi/v3/entity/scroll', { entities: ['tablez'] });
    expect(type.status).toBe(400);
    expect(type.body.error).toMatch(/Unknown entity type 'tablez'/);
    expect((await call('POST', '/openapi/v3/entity/scroll?scrollId=nope', {})).status).toBe(400);
    expect((await call('POST', '/openapi/v3/entity/scroll', { entities: ['dataset'], bogus: 1 })).body.error).toMatch(
      /Unknown field 'bogus'/,
    );
  });

  test('needs READ', async () => {
    expect((await call('POST', '/openapi/v3/entity/scroll', {}, null)).status).toBe(401);
    expect((await call('POST', '/openapi/v3/entity/scroll', mine, reader)).status).toBe(200);
  });
});

describe('one entity and one aspect', () => {
  const enc = encodeURIComponent;
  test('GET entity (raw or encoded urn), 404 for an entity that does not exist; HEAD 204/404', async () => {
    for (const u of [a, enc(a)]) {
      const r = await call('GET', `/openapi/v3/entity/dataset/${u}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        urn: a,
        datasetProperties: { value: { name: 'fct_orders' } },
        datasetKey: { value: expect.any(Object) },
      });
    }
    const missing = ns.dataset('never');
    expect((await call('GET', `/openapi/v3/entity/dataset/${missing}`)).status).toBe(404);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${a}`)).status).toBe(204);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${missing}`)).status).toBe(404);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${c}`)).status).toBe(204);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${c}?includeSoftDelete=false`)).status).toBe(404);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${a}/subTypes`)).status).toBe(204);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${a}/ownership`)).status).toBe(404);
    expect((await call('GET', `/openapi/v3/entity/chart/${a}`)).status).toBe(400);
  });

  test('GET / POST / DELETE one aspect; conditional writes answer 412 and write nothing', async () => {
    const u = ns.dataset('conditional');
    const path = `/openapi/v3/entity/dataset/${u}/datasetProperties`;
    expect((await call('GET', path)).status).toBe(404);
    // If-Version-Match -1: only while the aspect has no version.
    const created = await call('POST', `${path}?systemMetadata=true`, { value: { name: 'v1' }, headers: { 'If-Version-Match': '-1' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ urn: u, datasetProperties: { value: { name: 'v1' }, systemMetadata: { version: '1' } } });
    const stale = await call('POST', path, { value: { name: 'v2' } }, admin, { 'If-Version-Match': '-1' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatch(/Expected version -1, actual version 1/);
    expect((await call('POST', path, { value: { name: 'v2' } }, admin, { 'If-None-Match': '*' })).status).toBe(412);
    expect((await call('GET', path)).body).toEqual({ value: { name: 'v1' } });
    expect((await call('POST', path, { value: { name: 'v2' }, headers: { 'If-Version-Match': '1' } })).status).toBe(200);
    expect((await call('GET', `${path}?systemMetadata=true`)).body).toMatchObject({
      value: { name: 'v2' },
      systemMetadata: { version: '2' },
    });
    // The batch envelope's per-aspect headers: the whole request fails, nothing of it is written.
    const other = ns.dataset('conditional_other');
    const batch = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      el(other, { datasetProperties: { name: 'x' } }),
      { urn: u, datasetProperties: { value: { name: 'v3' }, headers: { 'If-Version-Match': '1' } } },
    ]);
    expect(batch.status).toBe(412);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${other}`)).status).toBe(404);
    expect((await call('POST', path, { value: { name: 'x' }, headers: { 'If-None-Match': 'abc' } })).status).toBe(400);
    expect((await call('DELETE', path)).status).toBe(200);
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${u}`)).status).toBe(204);
  });

  test('privileges: a reader reads but may not write an aspect', async () => {
    expect((await call('GET', `/openapi/v3/entity/dataset/${a}`, undefined, reader)).status).toBe(200);
    expect((await call('POST', `/openapi/v3/entity/dataset/${a}/status`, { value: { removed: false } }, reader)).status).toBe(403);
    expect((await call('DELETE', `/openapi/v3/entity/dataset/${a}/status`, undefined, reader)).status).toBe(403);
  });
});

describe('relationship scroll', () => {
  test('scroll_relationships: by type, source urns and destination filters, paged by scrollId', async () => {
    const body = { sourceFilter: { and: [{ criteria: [{ field: 'urn', values: [b, chart], condition: 'EQUAL' }] }] } };
    const r = await call('POST', '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf&relationshipTypes=Consumes&count=1', body);
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(1);
    const next = await call(
      'POST',
      `/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf&relationshipTypes=Consumes&count=1&scrollId=${r.body.scrollId}`,
      body,
    );
    expect(next.body.scrollId).toBeNull();
    const all = [...r.body.results, ...next.body.results].sort((x: any, y: any) => x.relationshipType.localeCompare(y.relationshipType));
    expect(all).toEqual([
      { relationshipType: 'Consumes', source: { urn: chart, entityType: 'chart' }, destination: { urn: b, entityType: 'dataset' } },
      { relationshipType: 'DownstreamOf', source: { urn: b, entityType: 'dataset' }, destination: { urn: a, entityType: 'dataset' } },
    ]);
    const toA = await call('POST', `/openapi/v3/relationship/scroll?sourceTypes=dataset`, {
      destinationFilter: { and: [{ criteria: [{ field: 'urn', values: [a] }] }] },
    });
    expect(toA.body.results.map((x: any) => x.source.urn)).toEqual([b]);
    const incoming = await call('POST', '/openapi/v3/relationship/scroll?direction=INCOMING&relationshipTypes=DownstreamOf', {
      sourceFilter: { and: [{ criteria: [{ field: 'urn', values: [a] }] }] },
    });
    expect(incoming.body.results).toEqual([
      { relationshipType: 'DownstreamOf', source: { urn: b, entityType: 'dataset' }, destination: { urn: a, entityType: 'dataset' } },
    ]);
  });

  test('bad input: unknown filter fields (ends and edge), directions and types are 400s naming them', async () => {
    const end = await call('POST', '/openapi/v3/relationship/scroll', {
      sourceFilter: { and: [{ criteria: [{ field: 'glossaryTerms', values: ['x'] }] }] },
    });
    expect(end.status).toBe(400);
    expect(end.body.error).toMatch(/Unknown filter field 'glossaryTerms'/);
    const edge = await call('POST', '/openapi/v3/relationship/scroll', {
      edgeFilter: { and: [{ criteria: [{ field: 'createdOn', values: ['1'] }] }] },
    });
    expect(edge.body.error).toMatch(/Unknown filter field 'createdOn' in edgeFilter/);
    expect((await call('POST', '/openapi/v3/relationship/scroll?direction=UP', {})).status).toBe(400);
    expect((await call('POST', '/openapi/v3/relationship/scroll?sourceTypes=tablez', {})).body.error).toMatch(
      /Unknown entity type 'tablez'/,
    );
    expect((await call('POST', '/openapi/v3/relationship/scroll', {}, null)).status).toBe(401);
  });
});
