// DataHub's OpenAPI doors over HTTP on a real Neo4j: v3 entity ingest (POST/PATCH/DELETE), batchGet,
// relationships v1 (and the Rest.li GET /relationships), and the v3 lineage scroll. Happy paths in
// the SDK's own wire shapes, 4xx answers as {"error": …}, all-or-nothing batches, idempotence,
// authorization, paging contracts and the /gms, /api/gms prefixes.
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

let svc: RunningIngestion;
let admin: string, reader: string, editor: string;
const ns = namespace('oapi');

beforeAll(async () => {
  svc = await startIngestion();
  admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(svc.store, ns.user('reader'), 'Reader');
  editor = await tokenFor(svc.store, ns.user('editor'), 'Editor');
});
afterAll(async () => {
  await svc.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function call(method: string, path: string, body?: unknown, token: string | null = admin): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(svc.baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const sm = {
  lastObserved: 1_700_000_000_000,
  runId: 'no-run-id-provided',
  lastRunId: 'no-run-id-provided',
  properties: { clientId: 'acryl-datahub', clientVersion: '1.7.0.17' },
};
/** One element of the v3 envelope, as the SDK's emitter builds it. */
const element = (urn: string, aspects: Record<string, unknown>) => ({
  urn,
  ...Object.fromEntries(Object.entries(aspects).map(([name, value]) => [name, { value, systemMetadata: sm, headers: {} }])),
});
const upstreams = (...urns: string[]) => ({
  upstreams: urns.map((u) => ({ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: u, type: 'TRANSFORMED' })),
});
const enc = encodeURIComponent;

async function batchGet(urns: string[], aspects: string[] = [], query = '') {
  const r = await call(
    'POST',
    `/openapi/v3/entity/dataset/batchGet${query}`,
    urns.map((urn) => ({ urn, ...Object.fromEntries(aspects.map((a) => [a, {}])) })),
  );
  expect(r.status).toBe(200);
  return r.body as Array<Record<string, any>>;
}

/** An OpenAPI error: the taxonomy's status, {"error": message}, no Rest.li markers. */
function expectOpenApiError(r: Answer, status: number, message?: RegExp) {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(typeof r.body.error).toBe('string');
  if (message) expect(r.body.error).toMatch(message);
  expect(r.headers.get('x-restli-error-response')).toBeNull();
}

describe('POST /openapi/v3/entity/{entityType}', () => {
  const a = ns.dataset('post_a');
  const b = ns.dataset('post_b');

  test('async=false: 200, one object per urn with its aspects merged; the values are stored', async () => {
    const r = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      element(a, { status: { removed: false } }),
      element(b, { datasetProperties: { name: 'post_b', description: 'b', customProperties: {} } }),
      element(a, { datasetProperties: { name: 'post_a', description: 'a', customProperties: { k: 'v' } } }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        urn: a,
        status: { value: { removed: false } },
        datasetProperties: { value: { name: 'post_a', description: 'a', customProperties: { k: 'v' } } },
      },
      { urn: b, datasetProperties: { value: { name: 'post_b', description: 'b', customProperties: {} } } },
    ]);
    const got = await batchGet([a, b], ['status', 'datasetProperties']);
    expect(got).toEqual(r.body);
  });

  test('async=true answers 202 with the same list, and the write is already visible', async () => {
    const c = ns.dataset('post_async');
    const r = await call('POST', '/openapi/v3/entity/dataset?async=true', [element(c, { status: { removed: false } })]);
    expect(r.status).toBe(202);
    expect(r.body).toEqual([{ urn: c, status: { value: { removed: false } } }]);
    expect(await batchGet([c], ['status'])).toEqual([{ urn: c, status: { value: { removed: false } } }]);
  });

  test('elements apply in order: a repeated urn and aspect ends with the last value', async () => {
    const r = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      element(a, { datasetProperties: { description: 'first' } }),
      element(a, { datasetProperties: { description: 'second' } }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ urn: a, datasetProperties: { value: { description: 'second' } } }]);
    expect((await batchGet([a], ['datasetProperties']))[0]!.datasetProperties.value).toEqual({ description: 'second' });
  });

  test('the same POST twice leaves the same state and adds no version', async () => {
    const d = ns.dataset('post_idem');
    const batch = [element(d, { datasetProperties: { description: 'same' }, status: { removed: false } })];
    expect((await call('POST', '/openapi/v3/entity/dataset?async=false', batch)).status).toBe(200);
    const first = await batchGet([d]);
    expect((await call('POST', '/openapi/v3/entity/dataset?async=false', batch)).status).toBe(200);
    expect(await batchGet([d])).toEqual(first);
    expect((await call('GET', `/aspects/${enc(d)}?aspect=datasetProperties&version=1`)).status).toBe(404);
  });

  test('an aspect the catalog does not model is stored like the Rest.li door stores it, not dropped', async () => {
    const r = await call('POST', '/openapi/v3/entity/dataset?async=false', [element(a, { myTeamNotes: { text: 'kept' } })]);
    expect(r.status).toBe(200);
    expect((await batchGet([a], ['myTeamNotes']))[0]!.myTeamNotes).toEqual({ value: { text: 'kept' } });
  });

  test("an invalid aspect name or value is the write path's 422", async () => {
    expectOpenApiError(
      await call('POST', '/openapi/v3/entity/dataset?async=false', [element(a, { 'Bad-Name': { x: 1 } })]),
      422,
      /aspect name/,
    );
    expectOpenApiError(
      await call('POST', '/openapi/v3/entity/dataset?async=false', [element(a, { status: { removed: 'yes' } })]),
      422,
      /status/,
    );
  });

  test('one invalid element rejects the whole batch: nothing is written', async () => {
    const fresh = ns.dataset('post_atomic');
    const r = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      element(fresh, { status: { removed: false } }),
      element(b, { datasetProperties: { description: 'changed by a failed batch' } }),
      element(a, { upstreamLineage: { upstreams: [{ dataset: ns.chart('not_a_dataset'), type: 'TRANSFORMED' }] } }),
    ]);
    expect(r.status).toBe(422);
    expect(await batchGet([fresh])).toEqual([]);
    expect((await batchGet([b], ['datasetProperties']))[0]!.datasetProperties.value.description).toBe('b');
    // An envelope mistake late in the batch is caught before anything is written, too.
    const r2 = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      element(fresh, { status: { removed: false } }),
      { urn: 'urn:li:dataset:(broken' },
    ]);
    expectOpenApiError(r2, 400, /element \[1\].*Invalid urn/);
    expect(await batchGet([fresh])).toEqual([]);
  });

  test('malformed bodies and envelopes are 400s naming the problem', async () => {
    const post = (body: unknown) => call('POST', '/openapi/v3/entity/dataset?async=false', body);
    expectOpenApiError(await post('[{"urn": '), 400, /not valid JSON/);
    expectOpenApiError(await post({ urn: a }), 400, /JSON array/);
    expectOpenApiError(await post(''), 400, /empty/);
    expectOpenApiError(await post(['x']), 400, /element \[0\]/);
    expectOpenApiError(await post([{ status: { value: { removed: false } } }]), 400, /Missing `urn`/);
    expectOpenApiError(await post([{ urn: 'not-a-urn', status: { value: {} } }]), 400, /Invalid urn/);
    expectOpenApiError(await post([{ urn: a }]), 400, /names no aspect/);
    expectOpenApiError(await post([{ urn: a, status: { removed: false } }]), 400, /Missing `value`.*status/);
    expectOpenApiError(await post([{ urn: a, status: 'x' }]), 400, /status must be an object/);
    expectOpenApiError(await post([element(ns.chart('c'), { status: { removed: false } })]), 400, /entity type 'chart', not 'dataset'/);
    expectOpenApiError(await call('POST', '/openapi/v3/entity/dataset?async=maybe', []), 400, /async/);
  });
});

describe('PATCH /openapi/v3/entity/{entityType}', () => {
  const p = ns.dataset('patch_target');
  const up = ns.dataset('patch_up');

  beforeAll(async () => {
    const r = await call('POST', '/openapi/v3/entity/dataset?async=false', [
      element(p, { datasetProperties: { name: 'patch_target', customProperties: {} } }),
      element(up, { status: { removed: false } }),
    ]);
    expect(r.status).toBe(200);
  });

  test('sync: 200 echoing the patch document; the patch engine applies it', async () => {
    const patch = {
      patch: [
        { op: 'add', path: '/customProperties/team', value: 'lineage' },
        { op: 'add', path: '/description', value: 'patched' },
      ],
    };
    const r = await call('PATCH', '/openapi/v3/entity/dataset?async=false', [
      { urn: p, datasetProperties: { value: patch, systemMetadata: sm, headers: {} } },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ urn: p, datasetProperties: { value: patch } }]);
    expect((await batchGet([p], ['datasetProperties']))[0]!.datasetProperties.value).toEqual({
      name: 'patch_target',
      customProperties: { team: 'lineage' },
      description: 'patched',
    });
  });

  test('the GenericJsonPatch envelope with arrayPrimaryKeys (SDK 1.7 tags) works', async () => {
    const tag = `urn:li:tag:${ns.platform}_pii`;
    const value = {
      arrayPrimaryKeys: { tags: ['attribution\u241fsource', 'tag'] },
      patch: [{ op: 'add', path: `/tags//${tag}`, value: { tag } }],
    };
    const r = await call('PATCH', '/openapi/v3/entity/dataset?async=false', [
      { urn: p, globalTags: { value, systemMetadata: sm, headers: {} } },
    ]);
    expect(r.status).toBe(200);
    expect((await batchGet([p], ['globalTags']))[0]!.globalTags.value.tags).toEqual([{ tag }]);
  });

  test('async=true: 202 with an empty body; a lineage patch makes the edge', async () => {
    const value = {
      patch: [
        {
          op: 'add',
          path: `/upstreams/${up}`,
          value: { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: up, type: 'VIEW' },
        },
      ],
    };
    const r = await call('PATCH', '/openapi/v3/entity/dataset?async=true', [
      { urn: p, upstreamLineage: { value, systemMetadata: sm, headers: {} } },
    ]);
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
    const rel = await call('GET', `/openapi/relationships/v1/?urn=${enc(p)}&direction=OUTGOING&relationshipTypes=DownstreamOf`);
    expect(rel.body.entities).toEqual([{ relationshipType: 'DownstreamOf', urn: up, via: null }]);
  });

  test('a value without a patch array is a 400 naming `patch`; nothing is applied', async () => {
    const before = await batchGet([p], ['datasetProperties']);
    const bad = (value: unknown) =>
      call('PATCH', '/openapi/v3/entity/dataset?async=false', [
        { urn: p, datasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'not applied' }] } } },
        { urn: p, datasetProperties: { value } },
      ]);
    expectOpenApiError(await bad({ description: 'x' }), 400, /Missing `patch`/);
    expectOpenApiError(await bad([{ op: 'add', path: '/description', value: 'x' }]), 400, /Missing `patch`/);
    expectOpenApiError(await bad({ patch: { op: 'add' } }), 400, /patch must be an array/);
    expect(await batchGet([p], ['datasetProperties'])).toEqual(before);
  });

  test('a patch the engine refuses is a 422, not a 5xx', async () => {
    const r = await call('PATCH', '/openapi/v3/entity/dataset?async=false', [
      { urn: p, datasetProperties: { value: { patch: [{ op: 'jump', path: '/x' }] } } },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/datasetProperties/);
  });
});

describe('DELETE /openapi/v3/entity/{entityType}/{urn}', () => {
  test('a raw urn in the path hard-deletes the entity: 200, empty body', async () => {
    const d = ns.dataset('delete_raw');
    expect((await call('POST', '/openapi/v3/entity/dataset?async=false', [element(d, { status: { removed: false } })])).status).toBe(200);
    // What the SDK sends: the urn unencoded, and a body of [].
    const r = await call('DELETE', `/openapi/v3/entity/dataset/${d}`, []);
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(await batchGet([d])).toEqual([]);
  });

  test('a percent-encoded urn works under /gms too; naming aspects deletes only those', async () => {
    const d = ns.dataset('delete_enc');
    expect(
      (
        await call('POST', '/openapi/v3/entity/dataset?async=false', [
          element(d, { status: { removed: false }, datasetProperties: { description: 'x' } }),
        ])
      ).status,
    ).toBe(200);
    expect((await call('DELETE', `/gms/openapi/v3/entity/dataset/${enc(d)}?aspects=datasetProperties`)).status).toBe(200);
    expect(Object.keys((await batchGet([d]))[0]!).sort()).toEqual(['datasetKey', 'status', 'urn']);
    expect((await call('DELETE', `/api/gms/openapi/v3/entity/dataset/${enc(d)}`)).status).toBe(200);
    expect(await batchGet([d])).toEqual([]);
  });

  test('a bad urn or another entity type is a 400', async () => {
    expectOpenApiError(await call('DELETE', '/openapi/v3/entity/dataset/urn:li:dataset:(oops'), 400, /Invalid urn/);
    expectOpenApiError(await call('DELETE', `/openapi/v3/entity/chart/${ns.dataset('x')}`), 400, /not 'chart'/);
  });
});

describe('POST /openapi/v3/entity/{entityType}/batchGet', () => {
  const g = ns.dataset('get_me');
  beforeAll(async () => {
    expect(
      (
        await call('POST', '/openapi/v3/entity/dataset?async=false', [
          element(g, { status: { removed: false }, datasetProperties: { description: 'g' } }),
        ])
      ).status,
    ).toBe(200);
  });

  test('named aspects only; missing urns and aspects are left out', async () => {
    const got = await batchGet([g, ns.dataset('never_written')], ['datasetProperties', 'ownership']);
    expect(got).toEqual([{ urn: g, datasetProperties: { value: { description: 'g' } } }]);
  });

  test('no aspect names: every aspect, the key aspect included', async () => {
    const [e] = await batchGet([g]);
    expect(Object.keys(e!).sort()).toEqual(['datasetKey', 'datasetProperties', 'status', 'urn']);
    expect(e!.datasetKey.value).toEqual({ platform: `urn:li:dataPlatform:${ns.platform}`, name: 'get_me', origin: 'PROD' });
  });

  test('?systemMetadata=true adds systemMetadata beside each value', async () => {
    const [e] = await batchGet([g], ['status'], '?systemMetadata=true');
    expect(e!.status.value).toEqual({ removed: false });
    expect(e!.status.systemMetadata).toMatchObject({
      lastObserved: sm.lastObserved,
      runId: 'no-run-id-provided',
      properties: sm.properties,
    });
    const [plain] = await batchGet([g], ['status']);
    expect(plain!.status.systemMetadata).toBeUndefined();
  });

  test("If-Version-Match in an aspect's headers answers that version, as the MCP server's aspect history asks", async () => {
    const h = ns.dataset('history');
    for (const description of ['first', 'second', 'third']) {
      expect(
        (await call('POST', '/openapi/v3/entity/dataset?async=false', [element(h, { datasetProperties: { description } })])).status,
      ).toBe(200);
    }
    const at = async (version: string, aspects: Record<string, unknown> = {}) => {
      const r = await call('POST', '/openapi/v3/entity/dataset/batchGet?systemMetadata=true', [
        { urn: h, datasetProperties: { headers: { 'If-Version-Match': version } }, ...aspects },
      ]);
      expect(r.status).toBe(200);
      return r.body as Array<Record<string, any>>;
    };
    // The latest reports how many values were written; 1 and 2 are the older ones, 3 is the latest itself.
    const [latest] = await at('0');
    expect(latest!.datasetProperties.value).toEqual({ description: 'third' });
    expect(latest!.datasetProperties.systemMetadata.version).toBe('3');
    expect(latest!.datasetProperties.auditStamp.actor).toBe('urn:li:corpuser:datahub');
    const values = await Promise.all(['1', '2', '3'].map(async (v) => (await at(v))[0]!.datasetProperties));
    expect(values.map((d) => d.value.description)).toEqual(['first', 'second', 'third']);
    expect(values.map((d) => d.systemMetadata.version)).toEqual(['1', '2', '3']);
    // No such version: the aspect is left out, the other asked aspects are not.
    expect(await at('4')).toEqual([]);
    expect(Object.keys((await at('9', { datasetKey: {} }))[0]!).sort()).toEqual(['datasetKey', 'urn']);
    // Without ?systemMetadata the value alone, as for the latest.
    const r = await call('POST', '/openapi/v3/entity/dataset/batchGet', [
      { urn: h, datasetProperties: { headers: { 'If-Version-Match': '1' } } },
    ]);
    expect(r.body).toEqual([{ urn: h, datasetProperties: { value: { description: 'first' } } }]);
    expectOpenApiError(
      await call('POST', '/openapi/v3/entity/dataset/batchGet', [
        { urn: h, datasetProperties: { headers: { 'If-Version-Match': 'abc' } } },
      ]),
      400,
      /If-Version-Match must be an aspect version/,
    );
  });

  test('bad requests are 400s', async () => {
    expectOpenApiError(await call('POST', '/openapi/v3/entity/dataset/batchGet', { urn: g }), 400, /JSON array/);
    expectOpenApiError(await call('POST', '/openapi/v3/entity/dataset/batchGet', [{ urn: 'urn:li:dataset:(x' }]), 400, /Invalid urn/);
    expectOpenApiError(await call('POST', '/openapi/v3/entity/chart/batchGet', [{ urn: g }]), 400, /not 'chart'/);
  });
});

describe('relationships', () => {
  const down = ns.dataset('rel_down');
  const ups = [ns.dataset('rel_up1'), ns.dataset('rel_up2'), ns.dataset('rel_up3')];
  const group = `urn:li:mlModelGroup:(urn:li:dataPlatform:${ns.platform},group,PROD)`;
  const models = [1, 2, 3].map((i) => `urn:li:mlModel:(urn:li:dataPlatform:${ns.platform},model_${i},PROD)`);
  const flow = ns.flow('etl');
  const job = ns.job(flow, 'copy');
  const field = (d: string, f: string) => ns.field(d, f);

  beforeAll(async () => {
    const posts: Array<[string, unknown[]]> = [
      ['dataset', ups.map((u) => element(u, { status: { removed: false } }))],
      // In element order: the status creates the entity its lineage then hangs on (strict existence).
      [
        'dataset',
        [
          element(down, {
            status: { removed: false },
            upstreamLineage: {
              ...upstreams(...ups),
              fineGrainedLineages: [
                { upstreamType: 'FIELD_SET', upstreams: [field(ups[0]!, 'id')], downstreamType: 'FIELD', downstreams: [field(down, 'id')] },
              ],
            },
          }),
        ],
      ],
      ['mlModelGroup', [element(group, { mlModelGroupProperties: {} })]],
      ['mlModel', models.map((m) => element(m, { mlModelProperties: { groups: [group] } }))],
      ['dataJob', [element(job, { dataJobInfo: { name: 'copy', type: { string: 'COMMAND' } } })]],
      // The job declares the same field edge as the dataset: two owners, one relationship.
      [
        'dataJob',
        [
          element(job, {
            dataJobInputOutput: {
              inputDatasets: [down],
              outputDatasets: [],
              fineGrainedLineages: [
                { upstreamType: 'FIELD_SET', upstreams: [field(ups[0]!, 'id')], downstreamType: 'FIELD', downstreams: [field(down, 'id')] },
              ],
            },
          }),
        ],
      ],
    ];
    for (const [type, body] of posts) {
      const r = await call('POST', `/openapi/v3/entity/${type}?async=false`, body);
      if (r.status !== 200) throw new Error(`${type}: ${r.status} ${r.text}`);
    }
  });

  const related = (urn: string, direction: string, types: string[], extra = '') =>
    call(
      'GET',
      `/openapi/relationships/v1/?urn=${enc(urn)}&direction=${direction}${types.map((t) => `&relationshipTypes=${t}`).join('')}${extra}`,
    );

  test("INCOMING lists the sources of edges ending at the urn (the SDK's MemberOf case)", async () => {
    const r = await related(group, 'INCOMING', ['MemberOf'], '&start=0');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      start: 0,
      count: 3,
      total: 3,
      entities: models.map((urn) => ({ relationshipType: 'MemberOf', urn, via: null })),
    });
    expect((await related(group, 'OUTGOING', ['MemberOf'])).body).toEqual({ start: 0, count: 0, total: 0, entities: [] });
  });

  test('OUTGOING lists the destinations of edges leaving the urn; several types at once', async () => {
    const r = await related(down, 'OUTGOING', ['DownstreamOf', 'Consumes']);
    expect(r.body.entities.map((e: any) => e.urn)).toEqual(ups);
    const inc = await related(down, 'INCOMING', ['DownstreamOf', 'Consumes']);
    expect(inc.body.entities).toEqual([{ relationshipType: 'Consumes', urn: job, via: null }]);
  });

  test('paging: count is the number of entities on the page; start past the end is count 0', async () => {
    const p1 = await related(down, 'OUTGOING', ['DownstreamOf'], '&start=0&count=2');
    expect(p1.body).toMatchObject({ start: 0, count: 2, total: 3 });
    const p2 = await related(down, 'OUTGOING', ['DownstreamOf'], '&start=2&count=2');
    expect(p2.body).toMatchObject({ start: 2, count: 1, total: 3 });
    expect([...p1.body.entities, ...p2.body.entities].map((e: any) => e.urn)).toEqual(ups);
    // The SDK pages without count (default 200) until count is 0.
    expect((await related(down, 'OUTGOING', ['DownstreamOf'], '&start=3')).body).toEqual({ start: 3, count: 0, total: 3, entities: [] });
    expect((await related(down, 'OUTGOING', ['DownstreamOf'], '&start=99')).body).toEqual({ start: 99, count: 0, total: 3, entities: [] });
  });

  test('parallel edges of different owners collapse to one entry (with a via); derived LINEAGE edges are never listed', async () => {
    // The dataset's edge has no via, the job's is via the job: one entry, the via kept.
    const r = await related(field(down, 'id'), 'OUTGOING', ['DownstreamOf']);
    expect(r.body).toEqual({
      start: 0,
      count: 1,
      total: 1,
      entities: [{ relationshipType: 'DownstreamOf', urn: field(ups[0]!, 'id'), via: job }],
    });
    expect((await related(down, 'OUTGOING', ['LINEAGE', 'HAS_ASPECT'])).body).toEqual({ start: 0, count: 0, total: 0, entities: [] });
  });

  test('bad parameters are 400s naming them', async () => {
    expectOpenApiError(await related(down, 'SIDEWAYS', ['DownstreamOf']), 400, /direction/);
    expectOpenApiError(await call('GET', `/openapi/relationships/v1/?urn=${enc(down)}&relationshipTypes=DownstreamOf`), 400, /direction/);
    expectOpenApiError(await related(down, 'OUTGOING', []), 400, /relationshipTypes/);
    expectOpenApiError(await related('urn:li:dataset:(x', 'OUTGOING', ['DownstreamOf']), 400, /Invalid urn/);
    expectOpenApiError(await call('GET', '/openapi/relationships/v1/?direction=OUTGOING&relationshipTypes=DownstreamOf'), 400, /urn/);
    expectOpenApiError(await related(down, 'OUTGOING', ['DownstreamOf'], '&start=-1'), 400, /start/);
  });

  test('Rest.li GET /relationships: types=List(…), {start, count, total, relationships}, Rest.li errors', async () => {
    const r = await call('GET', `/relationships?urn=${enc(group)}&types=List(MemberOf,DownstreamOf)&direction=INCOMING&start=1&count=5`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      start: 1,
      count: 2,
      total: 3,
      relationships: models.slice(1).map((entity) => ({ entity, type: 'MemberOf' })),
    });
    const bad = await call('GET', `/relationships?urn=${enc(group)}&types=List(MemberOf)&direction=UP`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', status: 400 });
    expect(bad.body.message).toMatch(/direction/);
  });

  describe('POST /openapi/v3/lineage/scroll', () => {
    const scroll = (query: string, body: unknown = { urns: [down] }) => call('POST', `/openapi/v3/lineage/scroll${query}`, body);

    test("UPSTREAM of a urn: its upstream edges, with the typed edge's source and destination", async () => {
      const r = await scroll('?relationshipTypes=DownstreamOf&direction=UPSTREAM&count=10');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        scrollId: null,
        results: ups.map((u) => ({
          relationshipType: 'DownstreamOf',
          source: { urn: down, entityType: 'dataset' },
          destination: { urn: u, entityType: 'dataset' },
          upstream: u,
          downstream: down,
        })),
      });
    });

    test('DOWNSTREAM of a urn: the job consuming it (the job is the source, the dataset upstream)', async () => {
      expect((await scroll('?direction=DOWNSTREAM&relationshipTypes=LINEAGE')).body).toEqual({ scrollId: null, results: [] });
      expect((await scroll('?direction=DOWNSTREAM&relationshipTypes=DownstreamOf')).body).toEqual({ scrollId: null, results: [] });
      const r = await scroll('?direction=DOWNSTREAM');
      expect(r.body.results).toEqual([
        {
          relationshipType: 'Consumes',
          source: { urn: job, entityType: 'dataJob' },
          destination: { urn: down, entityType: 'dataset' },
          upstream: down,
          downstream: job,
        },
      ]);
    });

    test('keyset pages: each holds count edges, the last has no scrollId, together they are everything', async () => {
      const all = (await scroll('?count=100')).body.results;
      expect(all.map((e: any) => `${e.upstream}>${e.downstream}`).sort()).toEqual(
        [...ups.map((u) => `${u}>${down}`), `${down}>${job}`].sort(),
      );
      const seen: unknown[] = [];
      let scrollId: string | null = null;
      let pages = 0;
      do {
        const r: Answer = await scroll(`?count=2${scrollId ? `&scrollId=${scrollId}` : ''}`);
        expect(r.status).toBe(200);
        expect(r.body.results.length).toBe(r.body.scrollId ? 2 : all.length - seen.length);
        seen.push(...r.body.results);
        scrollId = r.body.scrollId;
        pages++;
      } while (scrollId);
      expect(pages).toBe(2);
      expect(seen).toEqual(all);
    });

    test('an edge between two anchors is listed once and does not end the scroll early', async () => {
      const seen: any[] = [];
      let scrollId: string | null = null;
      do {
        const r: Answer = await scroll(`?count=1${scrollId ? `&scrollId=${scrollId}` : ''}`, { urns: [down, job] });
        expect(r.body.results.length).toBe(1);
        seen.push(...r.body.results);
        scrollId = r.body.scrollId;
      } while (scrollId);
      expect(seen.map((e) => `${e.upstream}>${e.downstream}`)).toEqual([`${down}>${job}`, ...ups.map((u) => `${u}>${down}`)]);
    });

    test('without urns it scrolls every lineage edge; parallel field edges appear once', async () => {
      const mine: any[] = [];
      let scrollId: string | null = null;
      do {
        const r: Answer = await scroll(`?relationshipTypes=DownstreamOf&count=500${scrollId ? `&scrollId=${scrollId}` : ''}`, {});
        expect(r.status).toBe(200);
        mine.push(...r.body.results.filter((e: any) => e.downstream.includes(`${ns.platform},rel_down,`)));
        scrollId = r.body.scrollId;
      } while (scrollId);
      expect(mine.map((e) => e.upstream).sort()).toEqual([...ups, field(ups[0]!, 'id')].sort());
      expect(mine.find((e) => e.source.entityType === 'schemaField')).toMatchObject({
        source: { urn: field(down, 'id'), entityType: 'schemaField' },
        destination: { urn: field(ups[0]!, 'id'), entityType: 'schemaField' },
      });
    });

    test('sliceId/sliceMax: disjoint slices, each paged on its own, that together are every edge', async () => {
      const key = (e: any) => `${e.upstream}>${e.downstream}>${e.relationshipType}`;
      const all = (await scroll('?count=100')).body.results.map(key).sort();
      const slices: string[][] = [];
      for (const id of [0, 1, 2]) {
        const seen: string[] = [];
        let scrollId: string | null = null;
        do {
          const r: Answer = await scroll(`?count=1&sliceId=${id}&sliceMax=3${scrollId ? `&scrollId=${scrollId}` : ''}`);
          expect(r.status).toBe(200);
          expect(r.body.results.length).toBeLessThanOrEqual(1);
          seen.push(...r.body.results.map(key));
          scrollId = r.body.scrollId;
        } while (scrollId);
        slices.push(seen);
      }
      expect(slices.flat().sort()).toEqual(all);
      expect(new Set(slices.flat()).size).toBe(all.length);
      expectOpenApiError(await scroll('?sliceId=3&sliceMax=3'), 400, /sliceId/);
      expectOpenApiError(await scroll('?sliceId=0'), 400, /sliceMax/);
    });

    test('soft-deleted ends are left out unless includeSoftDelete=true', async () => {
      const gone = ups[2]!;
      expect((await call('POST', '/openapi/v3/entity/dataset?async=false', [element(gone, { status: { removed: true } })])).status).toBe(
        200,
      );
      try {
        const urnsOf = (r: Answer) => r.body.results.map((e: any) => e.upstream);
        expect(urnsOf(await scroll('?direction=UPSTREAM&relationshipTypes=DownstreamOf'))).toEqual(ups.slice(0, 2));
        expect(urnsOf(await scroll('?direction=UPSTREAM&relationshipTypes=DownstreamOf&includeSoftDelete=true'))).toEqual(ups);
      } finally {
        await call('POST', '/openapi/v3/entity/dataset?async=false', [element(gone, { status: { removed: false } })]);
      }
    });

    test('bad parameters are 400s', async () => {
      expectOpenApiError(await scroll('?direction=INCOMING'), 400, /UPSTREAM or DOWNSTREAM/);
      expectOpenApiError(await scroll('?scrollId=not-a-cursor'), 400, /scrollId/);
      expectOpenApiError(await scroll('', { urns: 'x' }), 400, /urns/);
      expectOpenApiError(await scroll('', { urns: ['nope'] }), 400, /Invalid urn/);
      expectOpenApiError(await scroll('?count=abc'), 400, /count/);
    });
  });
});

describe('authentication, authorization, prefixes and error rendering', () => {
  const d = ns.dataset('auth_target');
  const routes: Array<[string, string, unknown?]> = [
    ['POST', '/openapi/v3/entity/dataset?async=false', [element(d, { status: { removed: false } })]],
    ['PATCH', '/openapi/v3/entity/dataset?async=false', [{ urn: d, status: { value: { patch: [] } } }]],
    ['DELETE', `/openapi/v3/entity/dataset/${d}`],
    ['POST', '/openapi/v3/entity/dataset/batchGet', [{ urn: d }]],
    ['GET', `/openapi/relationships/v1/?urn=${enc(d)}&direction=INCOMING&relationshipTypes=DownstreamOf`],
    ['POST', '/openapi/v3/lineage/scroll', { urns: [d] }],
  ];

  test('every route answers 401 {"error"} without a valid token', async () => {
    for (const [method, path, body] of routes) {
      expectOpenApiError(await call(method, path, body, null), 401);
      expectOpenApiError(await call(method, path, body, 'not.a.token'), 401);
    }
    const restli = await call('GET', `/relationships?urn=${enc(d)}&types=List(DownstreamOf)&direction=INCOMING`, undefined, null);
    expect(restli.status).toBe(401);
    expect(restli.body.exceptionClass).toBe('com.linkedin.restli.server.RestLiServiceException');
  });

  test('a Reader may read but not write (403); an Editor may write but not delete', async () => {
    expectOpenApiError(await call('POST', routes[0]![1], routes[0]![2], reader), 403, /unauthorized/);
    expectOpenApiError(await call('PATCH', routes[1]![1], routes[1]![2], reader), 403);
    expectOpenApiError(await call('DELETE', routes[2]![1], undefined, reader), 403);
    for (const [method, path, body] of routes.slice(3)) expect((await call(method, path, body, reader)).status).toBe(200);
    expect((await call('POST', routes[0]![1], routes[0]![2], editor)).status).toBe(200);
    expectOpenApiError(await call('DELETE', routes[2]![1], undefined, editor), 403);
    expect(await batchGet([d], ['status'])).toEqual([{ urn: d, status: { value: { removed: false } } }]);
  });

  test('/gms and /api/gms reach the same handlers, errors included', async () => {
    for (const prefix of ['/gms', '/api/gms']) {
      const r = await call('POST', `${prefix}/openapi/v3/entity/dataset/batchGet`, [{ urn: d, status: {} }]);
      expect(r.body).toEqual([{ urn: d, status: { value: { removed: false } } }]);
      const rel = await call('GET', `${prefix}/openapi/relationships/v1/?urn=${enc(d)}&direction=INCOMING&relationshipTypes=DownstreamOf`);
      expect(rel.body).toEqual({ start: 0, count: 0, total: 0, entities: [] });
      expectOpenApiError(await call('POST', `${prefix}/openapi/v3/entity/dataset?async=false`, { not: 'a list' }), 400, /JSON array/);
      expectOpenApiError(await call('GET', `${prefix}/openapi/v3/nothing-here`), 404);
    }
  });

  test('outside /openapi errors keep the Rest.li rendering', async () => {
    const r = await call('GET', `/aspects/${enc(d)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', status: 400 });
    expect(r.headers.get('x-restli-error-response')).toBe('true');
  });
});
