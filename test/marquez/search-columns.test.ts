// Marquez 0.51's column lineage, search, tags and sources (docs/marquez-compatibility.md) over a
// graph written through the OpenLineage door (and tags through the write path):
//
//   <u>_src (a, b) ──► [<u>_load] ──► <u>_mid (x ← a; y ← a, b) ──► [<u>_agg] ──► <u>_out (total ← x, y)
import { randomUUID } from 'node:crypto';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

type Json = Record<string, any>;

let stack: Stack;
let admin: string;
const ns = namespace('mqcol');
const u = ns.platform;
const jobNs = `${u}jobs`;
const dsNs = `${u}db`;
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/spark';
const enc = encodeURIComponent;
const schema = (fields: Array<[string, string]>) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
  fields: fields.map(([name, type]) => ({ name, type })),
});
const columns = (fields: Record<string, string[]>, from: string) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
  fields: Object.fromEntries(
    Object.entries(fields).map(([out, ins]) => [
      out,
      {
        inputFields: ins.map((field) => ({
          namespace: dsNs,
          name: from,
          field,
          transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
        })),
      },
    ]),
  ),
});
const dataSource = {
  _producer: producer,
  _schemaURL: 'https://x/DatasourceDatasetFacet.json',
  name: `${u}_wh`,
  uri: 'postgres://wh:5432/db',
};

function complete(job: string, time: string, inputs: Json[], outputs: Json[]): Json {
  return {
    eventType: 'COMPLETE',
    eventTime: time,
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: randomUUID(), facets: {} },
    job: { namespace: jobNs, name: job, facets: {} },
    inputs,
    outputs,
  };
}

async function get(path: string, token: string | null = admin) {
  const res = await fetch(`${stack.ingestion.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${stack.ingestion.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  const src = {
    namespace: dsNs,
    name: `${u}_src`,
    facets: {
      schema: schema([
        ['a', 'INTEGER'],
        ['b', 'INTEGER'],
      ]),
      dataSource,
    },
  };
  const mid = (facets: Json) => ({ namespace: dsNs, name: `${u}_mid`, facets });
  const events = [
    complete(
      `${u}_load`,
      '2026-11-02T08:00:00.000Z',
      [src],
      [
        mid({
          schema: schema([
            ['x', 'INTEGER'],
            ['y', 'BIGINT'],
          ]),
          columnLineage: columns({ x: ['a'], y: ['a', 'b'] }, `${u}_src`),
        }),
      ],
    ),
    complete(
      `${u}_agg`,
      '2026-11-02T09:00:00.000Z',
      [mid({})],
      [
        {
          namespace: dsNs,
          name: `${u}_out`,
          facets: { schema: schema([['total', 'BIGINT']]), columnLineage: columns({ total: ['x', 'y'] }, `${u}_mid`) },
        },
      ],
    ),
  ];
  expect((await post('/api/v1/lineage/batch', events)).body).toMatchObject({ status: 'success' });
  // A tag entity with a description, and a tag put on a dataset with no entity of its own.
  const tag = `urn:li:tag:${u}_pii`;
  const out = `urn:li:dataset:(urn:li:dataPlatform:${dsNs},${u}_out,PROD)`;
  await writeAspects(
    stack.store,
    [
      { urn: parseUrn(tag), aspectName: 'tagProperties', changeType: 'UPSERT', value: { name: `${u}_pii`, description: 'personal' } },
      { urn: parseUrn(out), aspectName: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag }, { tag: `urn:li:tag:${u}_ghost` }] } },
    ],
    { actor: 'urn:li:corpuser:datahub', existenceMode: 'strict' },
  );
}, 300_000);
afterAll(async () => {
  await stack.close();
});

const field = (ds: string, f: string) => `datasetField:${dsNs}:${u}_${ds}:${f}`;
/** A graph as [node id, its input field ids, its inEdges' destinations, its outEdges' destinations]. */
const shape = (graph: Json[]) =>
  graph.map((n) => [
    n.id,
    n.data.inputFields.map((i: Json) => `datasetField:${i.namespace}:${i.dataset}:${i.field}`),
    n.inEdges.map((e: Json) => (e.origin === n.id ? e.destination : `bad origin ${e.origin}`)),
    n.outEdges.map((e: Json) => (e.origin === n.id ? e.destination : `bad origin ${e.origin}`)),
  ]);

describe('column lineage', () => {
  test("a dataset's columns and everything upstream of them, in Marquez's node shape", async () => {
    const { status, body } = await get(`/api/v1/column-lineage?nodeId=${enc(`dataset:${dsNs}:${u}_out`)}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['graph']);
    expect(shape(body.graph)).toEqual([
      [field('mid', 'x'), [field('src', 'a')], [field('src', 'a')], [field('out', 'total')]],
      [field('mid', 'y'), [field('src', 'a'), field('src', 'b')], [field('src', 'a'), field('src', 'b')], [field('out', 'total')]],
      [field('out', 'total'), [field('mid', 'x'), field('mid', 'y')], [field('mid', 'x'), field('mid', 'y')], []],
      [field('src', 'a'), [], [], [field('mid', 'x'), field('mid', 'y')]],
      [field('src', 'b'), [], [], [field('mid', 'y')]],
    ]);
    const total = body.graph.find((n: Json) => n.id === field('out', 'total'));
    expect(total).toMatchObject({
      type: 'DATASET_FIELD',
      data: {
        namespace: dsNs,
        dataset: `${u}_out`,
        datasetVersion: null,
        field: 'total',
        fieldType: 'BIGINT',
        transformationDescription: null,
        transformationType: null,
      },
    });
    expect(total.data.inputFields[0]).toEqual({
      namespace: dsNs,
      dataset: `${u}_mid`,
      datasetVersion: null,
      field: 'x',
      transformationDescription: null,
      transformationType: null,
    });
    // A column only read is a node with no type and no inputs, as Marquez renders it.
    expect(body.graph.find((n: Json) => n.id === field('src', 'b')).data).toMatchObject({ fieldType: '', inputFields: [] });
  });

  test('depth counts edges; a job starts from its outputs; a column with nothing upstream has an empty graph', async () => {
    const one = await get(`/api/v1/column-lineage?nodeId=${enc(`dataset:${dsNs}:${u}_out`)}&depth=1`);
    expect(one.body.graph.map((n: Json) => n.id)).toEqual([field('mid', 'x'), field('mid', 'y'), field('out', 'total')]);
    const job = await get(`/api/v1/column-lineage?nodeId=${enc(`job:${jobNs}:${u}_agg`)}`);
    const dataset = await get(`/api/v1/column-lineage?nodeId=${enc(`dataset:${dsNs}:${u}_out`)}`);
    expect(job.body).toEqual(dataset.body);
    expect((await get(`/api/v1/column-lineage?nodeId=${enc(field('src', 'a'))}&withDownstream=true`)).body).toEqual({ graph: [] });
  });

  test('withDownstream follows each edge downstream too, from the columns the walk reached', async () => {
    const up = await get(`/api/v1/column-lineage?nodeId=${enc(field('mid', 'x'))}`);
    expect(shape(up.body.graph)).toEqual([
      [field('mid', 'x'), [field('src', 'a')], [field('src', 'a')], []],
      [field('src', 'a'), [], [], [field('mid', 'x')]],
    ]);
    const both = await get(`/api/v1/column-lineage?nodeId=${enc(field('mid', 'x'))}&withDownstream=true`);
    // mid.y shares src.a but is reached by no edge from mid.x's: Marquez's walk leaves it out too.
    expect(shape(both.body.graph)).toEqual([
      [field('mid', 'x'), [field('src', 'a')], [field('src', 'a')], [field('out', 'total')]],
      [field('out', 'total'), [field('mid', 'x')], [field('mid', 'x')], []],
      [field('src', 'a'), [], [], [field('mid', 'x')]],
    ]);
  });

  test('bad input is a 400 naming the problem, an unknown node a 404', async () => {
    const cl = (q: string) => get(`/api/v1/column-lineage?${q}`);
    expect(await cl('')).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/nodeId/) } });
    expect(await cl(`nodeId=run:${dsNs}:x`)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/nodeId/) } });
    expect(await cl(`nodeId=${enc(`dataset:${dsNs}:${u}_out`)}&depth=-1`)).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/depth/) },
    });
    expect(await cl(`nodeId=${enc(`dataset:${dsNs}:${u}_out`)}&withDownstream=maybe`)).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/withDownstream/) },
    });
    expect(await cl(`nodeId=${enc(`dataset:${dsNs}:${u}_out#v1`)}&withDownstream=true`)).toMatchObject({
      status: 400,
      body: { message: 'Node version cannot be specified when withDownstream is true' },
    });
    for (const missing of [`dataset:${dsNs}:nope`, field('out', 'nope'), `job:${jobNs}:nope`, `dataset:${dsNs}:${u}_out#v1`])
      expect(await cl(`nodeId=${enc(missing)}`)).toMatchObject({ status: 404, body: { code: 404, message: 'Could not find node' } });
  });
});

describe('search', () => {
  const search = (q: string) => get(`/api/v1/search?${q}`);
  const rows = (body: Json) => body.results.map((r: Json) => [r.type, r.namespace, r.name, r.nodeId]);

  test('datasets and jobs whose name holds q, in any case, in name order, 10 at most', async () => {
    const { status, body } = await search(`q=${u.toUpperCase()}`);
    expect(status).toBe(200);
    expect(rows(body)).toEqual([
      ['JOB', jobNs, `${u}_agg`, `job:${jobNs}:${u}_agg`],
      ['JOB', jobNs, `${u}_load`, `job:${jobNs}:${u}_load`],
      ['DATASET', dsNs, `${u}_mid`, `dataset:${dsNs}:${u}_mid`],
      ['DATASET', dsNs, `${u}_out`, `dataset:${dsNs}:${u}_out`],
      ['DATASET', dsNs, `${u}_src`, `dataset:${dsNs}:${u}_src`],
    ]);
    expect(body.totalCount).toBe(5);
    expect(Object.keys(body.results[0])).toEqual(['type', 'name', 'updatedAt', 'namespace', 'nodeId']);
    expect(body.results[0].updatedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  test('filter, namespace, limit, sort and dates narrow or order the results', async () => {
    expect(rows((await search(`q=${u}&filter=JOB`)).body).map((r: string[]) => r[2])).toEqual([`${u}_agg`, `${u}_load`]);
    expect(rows((await search(`q=${u}&namespace=${dsNs}&limit=2`)).body).map((r: string[]) => r[2])).toEqual([`${u}_mid`, `${u}_out`]);
    expect((await search(`q=${u}&limit=2`)).body.totalCount).toBe(2);
    const byUpdate = (await search(`q=${u}&sort=UPDATE_AT`)).body.results.map((r: Json) => r.updatedAt);
    expect(byUpdate).toHaveLength(5);
    expect([...byUpdate].sort().reverse()).toEqual(byUpdate);
    expect((await search(`q=${u}&after=2999-01-01`)).body).toEqual({ totalCount: 0, results: [] });
    expect((await search(`q=${u}&before=2999-01-01`)).body.totalCount).toBe(5);
    expect((await search(`q=${u}_nothing`)).body).toEqual({ totalCount: 0, results: [] });
  });

  test('bad input is a 400 naming the parameter', async () => {
    for (const [q, name] of [
      ['', 'q'],
      ['q=%20', 'q'],
      [`q=${u}&filter=TABLE`, 'filter'],
      [`q=${u}&sort=SIZE`, 'sort'],
      [`q=${u}&limit=-1`, 'limit'],
      [`q=${u}&before=2026-1-1`, 'before'],
      [`q=${u}&after=yesterday`, 'after'],
    ])
      expect(await search(q!)).toMatchObject({ status: 400, body: { code: 400, message: expect.stringContaining(`'${name}'`) } });
  });
});

describe('tags and sources', () => {
  test('tags: the tag entities and the tags put on something, with their descriptions, in name order', async () => {
    const { status, body } = await get('/api/v1/tags?limit=100000');
    expect(status).toBe(200);
    expect(body.tags.filter((t: Json) => t.name.startsWith(`${u}_`))).toEqual([
      { name: `${u}_ghost`, description: null },
      { name: `${u}_pii`, description: 'personal' },
    ]);
    expect(await get('/api/v1/tags?offset=-1')).toMatchObject({ status: 400, body: { message: expect.stringContaining("'offset'") } });
  });

  test("sources: each dataSource facet's name and uri", async () => {
    const { status, body } = await get('/api/v1/sources?limit=100000');
    expect(status).toBe(200);
    const ours = body.sources.find((s: Json) => s.name === `${u}_wh`);
    expect(ours).toEqual({
      type: 'POSTGRESQL',
      name: `${u}_wh`,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      connectionUrl: 'postgres://wh:5432/db',
      description: null,
    });
    expect(await get(`/api/v1/sources/${u}_wh`)).toMatchObject({ status: 200, body: ours });
    expect(await get(`/api/v1/sources/${u}_nope`)).toMatchObject({
      status: 404,
      body: { code: 404, message: `Source '${u}_nope' not found.` },
    });
    // The datasets that name no source are Marquez's 'default' source's.
    expect(body.sources.find((s: Json) => s.name === 'default')).toMatchObject({ connectionUrl: '' });
  });

  test('the front door relays them', async () => {
    const direct = await get(`/api/v1/search?q=${u}`);
    const res = await fetch(`${stack.gatewayUrl}/api/v1/search?q=${u}`, { headers: { authorization: `Bearer ${admin}` } });
    expect([res.status, await res.json()]).toEqual([200, direct.body]);
    const cl = `/api/v1/column-lineage?nodeId=${enc(`dataset:${dsNs}:${u}_out`)}`;
    const viaFront = await fetch(`${stack.gatewayUrl}${cl}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(await viaFront.json()).toEqual((await get(cl)).body);
  });

  test('every new route needs a token', async () => {
    for (const path of [
      '/api/v1/search?q=x',
      `/api/v1/column-lineage?nodeId=dataset:${dsNs}:x`,
      '/api/v1/tags',
      '/api/v1/sources',
      '/api/v1/sources/default',
    ])
      expect((await get(path, null)).status).toBe(401);
  });
});
