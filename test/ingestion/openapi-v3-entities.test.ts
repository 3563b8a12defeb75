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

// Issue 51 item 5: what DataHub's v3 controllers answer to a client generated from their OpenAPI spec.
describe('aspect names, versions and If-Version-Match as DataHub answers them', () => {
  test('an aspect in the path resolves whatever its case (the spec lower-cases them); the answer names it as stored', async () => {
    const lower = await call('GET', `/openapi/v3/entity/dataset/${a}/datasetproperties`);
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual({ value: { name: 'fct_orders' } });
    expect((await call('GET', `/openapi/v3/entity/dataset/${a}/SUBTYPES`)).body).toEqual({ value: { typeNames: ['Table'] } });
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${a}/subtypes`)).status).toBe(204);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${a}/globaltags`)).status).toBe(404);
    const u = ns.dataset('lowercase_writes');
    const tags = { tags: [{ tag: 'urn:li:tag:pii' }] };
    const written = await call('POST', `/openapi/v3/entity/dataset/${u}/globaltags`, { value: tags });
    expect(written.status).toBe(200);
    expect(written.body).toEqual({ urn: u, globalTags: { value: tags } });
    expect((await call('GET', `/openapi/v3/entity/dataset/${u}/globalTags`)).body).toEqual({ value: tags });
    expect(Object.keys((await call('GET', `/openapi/v3/entity/dataset/${u}`)).body).sort()).toEqual(['datasetKey', 'globalTags', 'urn']);
    // The batch envelope resolves its aspect keys the same way, and echoes them as stored.
    const batch = await call('POST', '/openapi/v3/entity/dataset?async=false', [el(u, { subtypes: { typeNames: ['View'] } })]);
    expect(batch.body).toEqual([{ urn: u, subTypes: { value: { typeNames: ['View'] } } }]);
    expect((await call('GET', `/openapi/v3/entity/dataset/${u}/subTypes`)).body).toEqual({ value: { typeNames: ['View'] } });
    expect((await call('DELETE', `/openapi/v3/entity/dataset/${u}/globaltags`)).status).toBe(200);
    expect((await call('GET', `/openapi/v3/entity/dataset/${u}/globalTags`)).status).toBe(404);
  });

  test('?version=N reads the N-th version written; a version that does not exist is a 404, a malformed one a 400', async () => {
    const u = ns.dataset('versioned');
    const path = `/openapi/v3/entity/dataset/${u}/datasetProperties`;
    for (const name of ['v1', 'v2', 'v3']) expect((await call('POST', path, { value: { name } })).status).toBe(200);
    expect((await call('GET', `${path}?version=1`)).body).toEqual({ value: { name: 'v1' } });
    expect((await call('GET', `/openapi/v3/entity/dataset/${u}/datasetproperties?version=2`)).body).toEqual({ value: { name: 'v2' } });
    expect((await call('GET', `${path}?version=0`)).body).toEqual({ value: { name: 'v3' } });
    expect((await call('GET', `${path}?version=2&systemMetadata=true`)).body.systemMetadata.version).toBe('2');
    expect((await call('GET', `${path}?systemMetadata=true`)).body.systemMetadata.version).toBe('3');
    // The latest is version 0, so versions 1..2 are the history and version 3 is no row (as in DataHub).
    for (const v of [3, 99]) {
      const missing = await call('GET', `${path}?version=${v}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe(`No version ${v} of aspect datasetProperties for ${u}`);
    }
    expect((await call('GET', `/openapi/v3/entity/dataset/${u}/ownership?version=1`)).status).toBe(404);
    const bad = await call('GET', `${path}?version=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Query parameter 'version' must be a non-negative integer, got '-1'/);
  });

  test('If-Version-Match is compared as text: any value but the current version is a 412 and writes nothing', async () => {
    const u = ns.dataset('version_match');
    const path = `/openapi/v3/entity/dataset/${u}/datasetProperties`;
    expect((await call('POST', path, { value: { name: 'v1' } })).status).toBe(200);
    for (const value of ['-10000', 'abc', '01', '']) {
      const body = { value: { name: 'x' }, headers: { 'If-Version-Match': value } };
      const r = await call('POST', path, body);
      expect([value, r.status]).toEqual([value, 412]);
      expect(r.body.error).toBe(`Precondition failed for datasetProperties of ${u}: Expected version ${value}, actual version 1`);
    }
    expect((await call('POST', path, { value: { name: 'x' } }, admin, { 'If-Version-Match': '-10000' })).status).toBe(412);
    const batch = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      { urn: u, datasetProperties: { value: { name: 'x' }, headers: { 'If-Version-Match': '-10000' } } },
    ]);
    expect(batch.status).toBe(412);
    const patch = await call('PATCH', '/openapi/v3/entity/dataset?async=false', [
      { urn: u, datasetProperties: { value: { patch: [{ op: 'add', path: '/name', value: 'x' }] }, headers: { 'If-Version-Match': '7' } } },
    ]);
    expect(patch.status).toBe(412);
    expect((await call('GET', path)).body).toEqual({ value: { name: 'v1' } });
    expect((await call('POST', path, { value: { name: 'v2' }, headers: { 'If-Version-Match': '1' } })).status).toBe(200);
    const typed = await call('POST', path, { value: { name: 'x' }, headers: { 'If-Version-Match': 1 } });
    expect(typed.status).toBe(400);
    expect(typed.body.error).toMatch(/header 'If-Version-Match' must be a string/);
  });
});

describe('the generic routes: several entity types in one call, delete by urn', () => {
  const g = namespace('oav3g');
  const d1 = g.dataset('generic_one');
  const d2 = g.dataset('generic_two');
  const ch = g.chart('generic_chart');
  const chartInfo = {
    title: 'G',
    description: '',
    lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
  };

  test('POST /openapi/v3/entity/generic writes every type of the body and answers keyed as asked (202 unless async=false)', async () => {
    const body = {
      dataset: [el(d1, { datasetProperties: { name: 'one' } }), el(d2, { status: { removed: false } })],
      Chart: [el(ch, { chartInfo })],
    };
    const r = await call('POST', '/openapi/v3/entity/generic?async=false', body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      dataset: [
        { urn: d1, datasetProperties: { value: { name: 'one' } } },
        { urn: d2, status: { value: { removed: false } } },
      ],
      Chart: [{ urn: ch, chartInfo: { value: chartInfo } }],
    });
    expect((await call('GET', `/openapi/v3/entity/dataset/${d1}/datasetProperties`)).body).toEqual({ value: { name: 'one' } });
    expect((await call('GET', `/openapi/v3/entity/chart/${ch}/chartInfo`)).body).toEqual({ value: chartInfo });
    const later = await call('POST', '/openapi/v3/entity/generic', { dataset: [el(d2, { datasetProperties: { name: 'two' } })] });
    expect(later.status).toBe(202);
    expect(later.body).toEqual({ dataset: [{ urn: d2, datasetProperties: { value: { name: 'two' } } }] });
    expect((await call('POST', '/openapi/v3/entity/generic', {})).body).toEqual({});
  });

  test('PATCH /openapi/v3/entity/generic patches through the same path', async () => {
    const r = await call('PATCH', '/openapi/v3/entity/generic?async=false', {
      dataset: [{ urn: d1, datasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'patched' }] } } }],
    });
    expect(r.status).toBe(200);
    expect((await call('GET', `/openapi/v3/entity/dataset/${d1}/datasetProperties`)).body).toEqual({
      value: { name: 'one', description: 'patched' },
    });
  });

  test('POST /openapi/v3/entity/generic/batchGet reads several types in one call, keyed as asked', async () => {
    const r = await call('POST', '/openapi/v3/entity/generic/batchGet', {
      dataset: [{ urn: d1, datasetproperties: {} }, { urn: g.dataset('generic_absent') }],
      chart: [{ urn: ch, chartInfo: {} }],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      dataset: [{ urn: d1, datasetProperties: { value: { name: 'one', description: 'patched' } } }],
      chart: [{ urn: ch, chartInfo: { value: chartInfo } }],
    });
    expect((await call('POST', '/openapi/v3/entity/generic/batchGet', { dataset: { urn: d1 } })).body.error).toBe(
      "Value of property 'dataset' must be an array of entities",
    );
    expect((await call('POST', '/openapi/v3/entity/generic/batchGet', { dataset: [{ urn: d1 }] }, null)).status).toBe(401);
  });

  test('bad input is a 400 naming it, and a failing element writes nothing of any type; writing needs the privilege', async () => {
    const notArray = await call('POST', '/openapi/v3/entity/generic', { dataset: el(d1, { status: { removed: true } }) });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error).toBe("Value of property 'dataset' must be an array of entities");
    const unknown = await call('POST', '/openapi/v3/entity/generic', { widgetz: [] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Unknown entity type 'widgetz' in the request body");
    const wrongType = await call('POST', '/openapi/v3/entity/generic', { chart: [el(d1, { status: { removed: true } })] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/urn .* is of entity type 'dataset', not 'chart'/);
    expect((await call('POST', '/openapi/v3/entity/generic', [])).status).toBe(400);
    const d3 = g.dataset('generic_never');
    const invalid = await call('POST', '/openapi/v3/entity/generic?async=false', {
      dataset: [el(d3, { datasetProperties: { name: 'never' } })],
      chart: [el(g.chart('never'), { chartInfo: { title: 7 } })],
    });
    expect(invalid.status).toBe(422);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${d3}`)).status).toBe(404);
    const denied = await call('POST', '/openapi/v3/entity/generic', { dataset: [el(d3, { status: { removed: false } })] }, reader);
    expect(denied.status).toBe(403);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${d3}`)).status).toBe(404);
  });

  test('GET, HEAD and DELETE under /openapi/v3/entity/generic/{urn} take the type from the urn', async () => {
    expect((await call('GET', `/openapi/v3/entity/generic/${ch}/chartinfo`)).body).toEqual({ value: chartInfo });
    expect((await call('HEAD', `/openapi/v3/entity/generic/${d1}`)).status).toBe(204);
    expect((await call('DELETE', `/openapi/v3/entity/generic/${d1}`, undefined, reader)).status).toBe(403);
    expect((await call('DELETE', `/openapi/v3/entity/generic/${d2}/status`)).status).toBe(200);
    expect((await call('GET', `/openapi/v3/entity/dataset/${d2}/status`)).status).toBe(404);
    expect((await call('GET', `/openapi/v3/entity/dataset/${d2}/datasetProperties`)).status).toBe(200);
    expect((await call('DELETE', `/openapi/v3/entity/generic/${d1}`)).status).toBe(200);
    expect((await call('HEAD', `/openapi/v3/entity/dataset/${d1}`)).status).toBe(404);
    expect((await call('HEAD', `/openapi/v3/entity/chart/${ch}`)).status).toBe(204);
    // Writing one aspect names its type, as DataHub's createAspect looks it up.
    const post = await call('POST', `/openapi/v3/entity/generic/${d2}/status`, { value: { removed: false } });
    expect(post.status).toBe(404);
    expect(post.body.error).toMatch(/Unknown entity type 'generic'/);
  });
});

describe('entity scroll slices', () => {
  const s = namespace('oav3s');
  const urns = Array.from({ length: 12 }, (_, i) => s.dataset(`slice_${String(i).padStart(2, '0')}`));
  const bySlice = { filter: { and: [{ criteria: [{ field: 'platform', values: [s.platform], condition: 'EQUAL' }] }] } };
  beforeAll(async () => {
    const w = await call(
      'POST',
      '/openapi/v3/entity/dataset?async=false',
      urns.map((u) => el(u, { status: { removed: false } })),
    );
    expect(w.status).toBe(200);
  });

  test('sliceId/sliceMax give disjoint slices that together cover the set, each paged and counted on its own', async () => {
    const slices: string[][] = [];
    for (const id of [0, 1, 2]) {
      const r = await call('POST', `/openapi/v3/entity/scroll?count=100&sliceId=${id}&sliceMax=3`, { entities: ['dataset'], ...bySlice });
      expect(r.status).toBe(200);
      expect(r.body.totalCount).toBe(r.body.entities.length);
      slices.push(r.body.entities.map((e: any) => e.urn));
    }
    expect(slices.flat().sort()).toEqual([...urns].sort());
    expect(slices.filter((x) => x.length > 0).length).toBeGreaterThan(1);
    // Paging one slice by its scrollId gives that slice, and the GET door slices alike.
    const paged: string[] = [];
    let scrollId: string | null = null;
    do {
      const q: string = `count=2&sliceId=1&sliceMax=3${scrollId ? `&scrollId=${scrollId}` : ''}`;
      const r = await call('POST', `/openapi/v3/entity/scroll?${q}`, { entities: ['dataset'], ...bySlice });
      paged.push(...r.body.entities.map((e: any) => e.urn));
      scrollId = r.body.scrollId;
    } while (scrollId);
    expect(paged).toEqual(slices[1]);
    const viaGet = await call('GET', `/openapi/v3/entity/dataset?query=${s.platform}&count=100&sliceId=2&sliceMax=3&aspects=status`);
    expect(viaGet.body.entities.map((e: any) => e.urn)).toEqual(slices[2]);
    const whole = await call('POST', '/openapi/v3/entity/scroll?count=100&sliceId=0&sliceMax=1', { entities: ['dataset'], ...bySlice });
    expect(whole.body.entities.map((e: any) => e.urn)).toEqual([...urns].sort());
  });

  test('bad slices are 400s naming the problem', async () => {
    const cases: Array<[string, RegExp]> = [
      ['sliceId=3&sliceMax=3', /Query parameter 'sliceId' must be less than 'sliceMax' \(3\), got 3/],
      ['sliceId=1', /Query parameter 'sliceMax' is required with 'sliceId'/],
      ['sliceMax=2', /Query parameter 'sliceId' is required with 'sliceMax'/],
      ['sliceId=-1&sliceMax=2', /Query parameter 'sliceId' must be a non-negative integer, got '-1'/],
      ['sliceId=0&sliceMax=x', /Query parameter 'sliceMax' must be a non-negative integer, got 'x'/],
      ['sliceId=0&sliceMax=0', /Query parameter 'sliceMax' must be at least 1/],
    ];
    for (const [q, message] of cases) {
      const r = await call('POST', `/openapi/v3/entity/scroll?${q}`, { entities: ['dataset'] });
      expect([q, r.status]).toEqual([q, 400]);
      expect(r.body.error).toMatch(message);
      expect((await call('GET', `/openapi/v3/entity/dataset?${q}`)).status).toBe(400);
    }
  });
});

describe('relationship scroll edgeFilter', () => {
  const ends = { sourceFilter: { and: [{ criteria: [{ field: 'urn', values: [b, chart], condition: 'EQUAL' }] }] } };
  const edges = (criteria: unknown[]) => ({ ...ends, edgeFilter: { and: [{ criteria }] } });
  const typesOf = (r: Answer) => r.body.results.map((x: any) => `${x.relationshipType} ${x.source.urn}`).sort();

  test('relationshipType criteria select edges: EQUAL, negated, several clauses, with relationshipTypes', async () => {
    const consumes = await call(
      'POST',
      '/openapi/v3/relationship/scroll',
      edges([{ field: 'relationshipType', values: ['Consumes'], condition: 'EQUAL' }]),
    );
    expect(consumes.status).toBe(200);
    expect(consumes.body.results).toEqual([
      { relationshipType: 'Consumes', source: { urn: chart, entityType: 'chart' }, destination: { urn: b, entityType: 'dataset' } },
    ]);
    const notDownstream = await call(
      'POST',
      '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf&relationshipTypes=Consumes',
      edges([{ field: 'relationshipType', values: ['DownstreamOf'], negated: true }]),
    );
    expect(typesOf(notDownstream)).toEqual([`Consumes ${chart}`]);
    const either = await call('POST', '/openapi/v3/relationship/scroll', {
      ...ends,
      edgeFilter: {
        or: [
          { and: [{ field: 'relationshipType', values: ['Consumes'] }] },
          { and: [{ field: 'relationshipType', values: ['DownstreamOf'] }] },
        ],
      },
    });
    expect(typesOf(either)).toEqual([`Consumes ${chart}`, `DownstreamOf ${b}`]);
    const disjoint = await call(
      'POST',
      '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf',
      edges([{ field: 'relationshipType', values: ['Consumes'] }]),
    );
    expect(disjoint.body).toEqual({ scrollId: null, results: [] });
    const prefix = await call(
      'POST',
      '/openapi/v3/relationship/scroll',
      edges([{ field: 'relationshipType', values: ['Down'], condition: 'START_WITH' }]),
    );
    expect(typesOf(prefix)).toEqual([`DownstreamOf ${b}`]);
  });

  test('sliceId/sliceMax split the edges into disjoint slices that cover them; bad slices are 400s', async () => {
    const all = await call('POST', '/openapi/v3/relationship/scroll?count=100', { ...ends });
    expect(typesOf(all)).toEqual([`Consumes ${chart}`, `DownstreamOf ${b}`]);
    const sliced: string[] = [];
    for (const id of [0, 1, 2]) {
      const r = await call('POST', `/openapi/v3/relationship/scroll?count=100&sliceId=${id}&sliceMax=3`, { ...ends });
      expect(r.status).toBe(200);
      sliced.push(...typesOf(r));
    }
    expect(sliced.sort()).toEqual(typesOf(all));
    const bad = await call('POST', '/openapi/v3/relationship/scroll?sliceId=2&sliceMax=2', { ...ends });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Query parameter 'sliceId' must be less than 'sliceMax' (2), got 2");
    expect((await call('POST', '/openapi/v3/relationship/scroll?sliceMax=2', { ...ends })).body.error).toBe(
      "Query parameter 'sliceId' is required with 'sliceMax'",
    );
  });

  test('an edge field other than relationshipType is a 400 naming it', async () => {
    const r = await call('POST', '/openapi/v3/relationship/scroll', edges([{ field: 'via', values: ['x'] }]));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("Unknown filter field 'via' in edgeFilter: edges are filtered on relationshipType");
  });
});
