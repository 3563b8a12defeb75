// Marquez 0.51's read API (docs/marquez-compatibility.md) over a graph written through the OpenLineage door:
// namespaces, datasets (fields from the schema facet, facets kept), jobs with their inputs, outputs,
// latest run and type, runs with Marquez's states and durations, paging, Marquez's error body, and
// lineage with Marquez's semantics (undirected, depth in job hops, a dataset no job touches alone).
//
//   raw ──► [stage] ──► stg ──► [mart] ──► mart ──► [report] ──► report
//                                  └──────► s3://<bucket>/exports/orders.parquet
//   lonely ──► [broken]   (its only run failed: no lineage)
import { randomUUID } from 'node:crypto';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

type Json = Record<string, any>;

let stack: Stack;
let admin: string;
let reader: string;
const ns = namespace('mqread');
const jobNs = ns.platform;
const dsNs = `${ns.platform}db`;
const bucketNs = `s3://${ns.platform}-bucket`;
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow';
const enc = encodeURIComponent;
const ds = (name: string, facets: Json = {}) => ({ namespace: dsNs, name, facets });
const schemaFacet = {
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
  fields: [
    { name: 'id', type: 'INTEGER', description: 'order id' },
    { name: 'amount', type: 'DECIMAL(10,2)' },
  ],
};
const qualityFacet = { _producer: producer, _schemaURL: 'https://example.com/QualityFacet.json', rowCount: 42 };
const runs = { stage: randomUUID(), mart1: randomUUID(), mart2: randomUUID(), report: randomUUID(), broken: randomUUID() };

function event(
  eventType: string,
  runId: string,
  job: string,
  time: string,
  o: { inputs?: Json[]; outputs?: Json[]; jobFacets?: Json; runFacets?: Json } = {},
): Json {
  return {
    eventType,
    eventTime: time,
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId, facets: o.runFacets ?? {} },
    job: {
      namespace: jobNs,
      name: job,
      facets: o.jobFacets ?? {
        jobType: {
          _producer: producer,
          _schemaURL: 'https://x/JobTypeJobFacet.json',
          processingType: 'BATCH',
          integration: 'AIRFLOW',
          jobType: 'TASK',
        },
      },
    },
    inputs: o.inputs ?? [],
    outputs: o.outputs ?? [],
  };
}

async function get(path: string, token: string | null = admin, base = stack.ingestion.baseUrl) {
  const res = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(stack.store, `urn:li:corpuser:${ns.platform}_reader`, 'Reader');
  const streaming = {
    jobType: { _producer: producer, _schemaURL: 'https://x/JobTypeJobFacet.json', processingType: 'STREAMING', integration: 'FLINK' },
  };
  const events = [
    event('START', runs.stage, 'etl.stage', '2026-11-02T08:00:00.000Z', { inputs: [ds('raw.orders')], outputs: [ds('stg.orders')] }),
    event('COMPLETE', runs.stage, 'etl.stage', '2026-11-02T08:00:05.000Z', {
      inputs: [ds('raw.orders')],
      outputs: [
        ds('stg.orders', {
          schema: schemaFacet,
          documentation: { _producer: producer, _schemaURL: 'https://x/Doc.json', description: 'staged orders' },
          quality: qualityFacet,
        }),
      ],
    }),
    event('START', runs.mart1, 'etl.mart', '2026-11-02T09:00:00.000Z', { inputs: [ds('stg.orders')], outputs: [ds('mart.orders')] }),
    event('COMPLETE', runs.mart1, 'etl.mart', '2026-11-02T09:01:00.000Z', {
      inputs: [ds('stg.orders')],
      outputs: [ds('mart.orders'), { namespace: bucketNs, name: 'exports/orders.parquet' }],
    }),
    event('START', runs.mart2, 'etl.mart', '2026-11-03T09:00:00.000Z', { inputs: [ds('stg.orders')] }),
    event('FAIL', runs.mart2, 'etl.mart', '2026-11-03T09:00:30.000Z', {
      runFacets: {
        errorMessage: { _producer: producer, _schemaURL: 'https://x/Err.json', message: 'boom', programmingLanguage: 'python' },
      },
    }),
    event('COMPLETE', runs.report, 'etl.report', '2026-11-02T10:00:00.000Z', {
      inputs: [ds('mart.orders')],
      outputs: [ds('report.daily')],
      jobFacets: streaming,
    }),
    event('START', runs.broken, 'etl.broken', '2026-11-02T11:00:00.000Z', { inputs: [ds('lonely')] }),
    event('FAIL', runs.broken, 'etl.broken', '2026-11-02T11:00:01.000Z'),
  ];
  const res = await fetch(`${stack.ingestion.baseUrl}/api/v1/lineage/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(events),
  });
  expect(await res.json()).toMatchObject({ status: 'success' });
}, 300_000);
afterAll(async () => {
  await stack.close();
});

const names = (xs: Json[]) => xs.map((x) => x.name);

describe('namespaces', () => {
  test("the jobs' namespace, the datasets' platform and the object store's bucket are namespaces", async () => {
    const { status, body } = await get('/api/v1/namespaces?limit=10000');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['namespaces']);
    const ours = body.namespaces.filter((n: Json) => [jobNs, dsNs, bucketNs].includes(n.name));
    expect(names(ours).sort()).toEqual([bucketNs, jobNs, dsNs].sort());
    expect(ours[0]).toEqual({
      name: expect.any(String),
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      ownerName: 'anonymous',
      description: null,
      isHidden: false,
    });
  });

  test("one namespace, an unknown one a 404 in Marquez's shape", async () => {
    expect((await get(`/api/v1/namespaces/${enc(bucketNs)}`)).body.name).toBe(bucketNs);
    expect(await get(`/api/v1/namespaces/${dsNs}nope`)).toMatchObject({
      status: 404,
      body: { code: 404, message: `Namespace '${dsNs}nope' not found.` },
    });
    // Below an unknown namespace, the namespace is what is not found, as Marquez checks it first.
    for (const below of ['datasets', 'datasets/raw.orders', 'jobs', 'jobs/etl.stage', 'jobs/etl.stage/runs']) {
      expect(await get(`/api/v1/namespaces/${dsNs}nope/${below}`)).toMatchObject({
        status: 404,
        body: { code: 404, message: `Namespace '${dsNs}nope' not found.` },
      });
    }
    // A namespace with jobs only has no datasets.
    expect((await get(`/api/v1/namespaces/${jobNs}/datasets`)).body).toEqual({ totalCount: 0, datasets: [] });
  });
});

describe('datasets', () => {
  test("the namespace's datasets in name order, with totalCount and paging", async () => {
    const all = await get(`/api/v1/namespaces/${dsNs}/datasets`);
    expect(all.body.totalCount).toBe(5);
    expect(names(all.body.datasets)).toEqual(['lonely', 'mart.orders', 'raw.orders', 'report.daily', 'stg.orders']);
    const page = await get(`/api/v1/namespaces/${dsNs}/datasets?limit=2&offset=1`);
    expect(page.body).toMatchObject({ totalCount: 5 });
    expect(names(page.body.datasets)).toEqual(['mart.orders', 'raw.orders']);
    expect(names((await get(`/api/v1/namespaces/${enc(bucketNs)}/datasets`)).body.datasets)).toEqual(['exports/orders.parquet']);
  });

  test('one dataset: fields from the schema facet, description, facets as kept', async () => {
    const { status, body } = await get(`/api/v1/namespaces/${dsNs}/datasets/stg.orders`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: { namespace: dsNs, name: 'stg.orders' },
      type: 'DB_TABLE',
      name: 'stg.orders',
      physicalName: 'stg.orders',
      namespace: dsNs,
      sourceName: dsNs,
      fields: [
        { name: 'id', type: 'INTEGER', tags: [], description: 'order id' },
        { name: 'amount', type: 'DECIMAL(10,2)', tags: [], description: null },
      ],
      tags: [],
      description: 'staged orders',
      deleted: false,
      facets: { quality: qualityFacet },
    });
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const s3 = await get(`/api/v1/namespaces/${enc(bucketNs)}/datasets/${enc('exports/orders.parquet')}`);
    expect(s3.body.id).toEqual({ namespace: bucketNs, name: 'exports/orders.parquet' });
  });

  test('an unknown dataset is a 404; a bad limit or offset a 400 naming it', async () => {
    expect(await get(`/api/v1/namespaces/${dsNs}/datasets/nope`)).toMatchObject({
      status: 404,
      body: { code: 404, message: "Dataset 'nope' not found." },
    });
    expect(await get(`/api/v1/namespaces/${dsNs}/datasets?limit=-1`)).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringContaining("'limit'") },
    });
    expect(await get(`/api/v1/namespaces/${dsNs}/datasets?offset=x`)).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringContaining("'offset'") },
    });
  });
});

describe('jobs and runs', () => {
  test("the namespace's jobs in name order; /jobs lists them too", async () => {
    const { body } = await get(`/api/v1/namespaces/${jobNs}/jobs`);
    expect(body.totalCount).toBe(4);
    expect(names(body.jobs)).toEqual(['etl.broken', 'etl.mart', 'etl.report', 'etl.stage']);
    expect(names((await get(`/api/v1/namespaces/${jobNs}/jobs?limit=1&offset=2`)).body.jobs)).toEqual(['etl.report']);
    const every = await get('/api/v1/jobs?limit=100000');
    expect(names(every.body.jobs.filter((j: Json) => j.namespace === jobNs))).toEqual([
      'etl.broken',
      'etl.mart',
      'etl.report',
      'etl.stage',
    ]);
  });

  test('one job: inputs and outputs of its current lineage, latest run, type', async () => {
    const { body } = await get(`/api/v1/namespaces/${jobNs}/jobs/etl.mart`);
    expect(body).toMatchObject({
      id: { namespace: jobNs, name: 'etl.mart' },
      type: 'BATCH',
      name: 'etl.mart',
      namespace: jobNs,
      parentJobName: null,
      inputs: [{ namespace: dsNs, name: 'stg.orders' }],
      outputs: [
        { namespace: dsNs, name: 'mart.orders' },
        { namespace: bucketNs, name: 'exports/orders.parquet' },
      ],
      latestRun: { id: runs.mart2, state: 'FAILED' },
    });
    expect(body.latestRuns.map((r: Json) => r.id)).toEqual([runs.mart2, runs.mart1]);
    expect((await get(`/api/v1/namespaces/${jobNs}/jobs/etl.report`)).body.type).toBe('STREAM');
    expect(await get(`/api/v1/namespaces/${jobNs}/jobs/nope`)).toMatchObject({
      status: 404,
      body: { code: 404, message: "Job 'nope' not found." },
    });
  });

  test("a job's runs, latest first, with Marquez's states and durations; one run by id", async () => {
    const { body } = await get(`/api/v1/namespaces/${jobNs}/jobs/etl.mart/runs`);
    expect(body.totalCount).toBe(2);
    expect(body.runs.map((r: Json) => [r.id, r.state, r.durationMs])).toEqual([
      [runs.mart2, 'FAILED', 30_000],
      [runs.mart1, 'COMPLETED', 60_000],
    ]);
    expect(body.runs[0].facets.errorMessage.message).toBe('boom');
    expect((await get(`/api/v1/namespaces/${jobNs}/jobs/etl.mart/runs?limit=1&offset=1`)).body.runs.map((r: Json) => r.id)).toEqual([
      runs.mart1,
    ]);
    const one = await get(`/api/v1/jobs/runs/${runs.stage}`);
    expect(one.body).toMatchObject({
      id: runs.stage,
      state: 'COMPLETED',
      startedAt: '2026-11-02T08:00:00.000Z',
      endedAt: '2026-11-02T08:00:05.000Z',
      durationMs: 5000,
      createdAt: '2026-11-02T08:00:00.000Z',
      nominalStartTime: null,
      args: {},
      inputDatasetVersions: [],
      outputDatasetVersions: [],
    });
    expect(await get(`/api/v1/jobs/runs/${randomUUID()}`)).toMatchObject({ status: 404, body: { code: 404 } });
  });

  test("a run's facets, or its job's, as {runId, facets}; the type is required", async () => {
    const run = await get(`/api/v1/jobs/runs/${runs.mart2}/facets?type=run`);
    expect(run.status).toBe(200);
    expect(Object.keys(run.body)).toEqual(['runId', 'facets']);
    expect(run.body.runId).toBe(runs.mart2);
    expect(run.body.facets.errorMessage).toEqual({
      _producer: producer,
      _schemaURL: 'https://x/Err.json',
      message: 'boom',
      programmingLanguage: 'python',
    });
    expect(run.body.facets).toEqual((await get(`/api/v1/jobs/runs/${runs.mart2}`)).body.facets);
    const job = await get(`/api/v1/jobs/runs/${runs.mart2}/facets?type=JOB`);
    expect(job.body).toEqual({ runId: runs.mart2, facets: (await get(`/api/v1/namespaces/${jobNs}/jobs/etl.mart`)).body.facets });
    const dataset = await fetch(`${stack.ingestion.baseUrl}/api/v1/jobs/runs/${runs.mart2}/facets?type=dataset`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect([dataset.status, await dataset.text()]).toEqual([204, '']);
    for (const bad of ['', '?type=', '?type=column'])
      expect(await get(`/api/v1/jobs/runs/${runs.mart2}/facets${bad}`)).toMatchObject({
        status: 400,
        body: { code: 400, message: expect.stringContaining("'type'") },
      });
    for (const type of ['run', 'dataset'])
      expect(await get(`/api/v1/jobs/runs/${randomUUID()}/facets?type=${type}`)).toMatchObject({ status: 404, body: { code: 404 } });
    expect((await get(`/api/v1/jobs/runs/${runs.mart2}/facets?type=run`, null)).status).toBe(401);
    expect((await get(`/api/v1/jobs/runs/${runs.mart2}/facets?type=run`, reader)).status).toBe(200);
  });
});

describe('lineage', () => {
  const lineage = async (nodeId: string, depth?: number) => {
    const r = await get(`/api/v1/lineage?nodeId=${enc(nodeId)}${depth === undefined ? '' : `&depth=${depth}`}`);
    expect(r.status).toBe(200);
    return r.body.graph as Json[];
  };
  const ids = (graph: Json[]) => graph.map((n) => n.id);
  const job = (name: string) => `job:${jobNs}:${name}`;
  const dataset = (name: string, nsName = dsNs) => `dataset:${nsName}:${name}`;

  test('depth counts job hops, the walk is undirected, and every dataset of a reached job is a node', async () => {
    expect(ids(await lineage(job('etl.stage'), 0))).toEqual([dataset('raw.orders'), dataset('stg.orders'), job('etl.stage')]);
    expect(ids(await lineage(job('etl.stage'), 1))).toEqual(
      [
        dataset('exports/orders.parquet', bucketNs),
        dataset('mart.orders'),
        dataset('raw.orders'),
        dataset('stg.orders'),
        job('etl.mart'),
        job('etl.stage'),
      ].sort(),
    );
    const two = await lineage(job('etl.stage'), 2);
    expect(ids(two)).toContain(job('etl.report'));
    expect(ids(two)).toContain(dataset('report.daily'));
    // Upstream too: from the report, two hops reach the stage job.
    expect(ids(await lineage(job('etl.report'), 2))).toContain(job('etl.stage'));
    expect(ids(await lineage(job('etl.report')))).toEqual(ids(two));
  });

  test('nodes carry {id, type, data, inEdges, outEdges} as Marquez builds them', async () => {
    const graph = await lineage(job('etl.stage'), 1);
    const byId = new Map(graph.map((n) => [n.id, n]));
    expect(Object.keys(byId.get(job('etl.stage'))!)).toEqual(['id', 'type', 'data', 'inEdges', 'outEdges']);
    expect(byId.get(job('etl.stage'))).toMatchObject({
      type: 'JOB',
      data: { id: { namespace: jobNs, name: 'etl.stage' }, type: 'BATCH', latestRun: { id: runs.stage, state: 'COMPLETED' } },
      inEdges: [{ origin: dataset('raw.orders'), destination: job('etl.stage') }],
      outEdges: [{ origin: job('etl.stage'), destination: dataset('stg.orders') }],
    });
    expect(byId.get(dataset('stg.orders'))).toMatchObject({
      type: 'DATASET',
      data: { id: { namespace: dsNs, name: 'stg.orders' }, fields: [{ name: 'id' }, { name: 'amount' }] },
      inEdges: [{ origin: job('etl.stage'), destination: dataset('stg.orders') }],
      outEdges: [{ origin: dataset('stg.orders'), destination: job('etl.mart') }],
    });
  });

  test('a dataset starts from the job that writes it; a dataset no job touches is answered alone', async () => {
    expect(ids(await lineage(dataset('mart.orders'), 0))).toEqual(
      [dataset('exports/orders.parquet', bucketNs), dataset('mart.orders'), dataset('stg.orders'), job('etl.mart')].sort(),
    );
    expect(ids(await lineage(dataset('raw.orders'), 0))).toEqual([dataset('raw.orders'), dataset('stg.orders'), job('etl.stage')]);
    const alone = await lineage(dataset('lonely'));
    expect(alone).toEqual([
      { id: dataset('lonely'), type: 'DATASET', data: expect.objectContaining({ name: 'lonely' }), inEdges: [], outEdges: [] },
    ]);
  });

  test("bad nodeIds and depths are 400s, unknown nodes 404s, in Marquez's shape", async () => {
    for (const q of [
      '',
      'nodeId=table:x:y',
      `nodeId=${enc(`job:${jobNs}`)}`,
      `nodeId=${enc(job('etl.stage'))}&depth=-1`,
      `nodeId=${enc(job('etl.stage'))}&depth=1001`,
    ]) {
      expect(await get(`/api/v1/lineage?${q}`)).toMatchObject({ status: 400, body: { code: 400, message: expect.any(String) } });
    }
    expect(await get(`/api/v1/lineage?nodeId=${enc(job('nope'))}`)).toMatchObject({ status: 404, body: { code: 404 } });
    expect(await get(`/api/v1/lineage?nodeId=${enc(dataset('nope'))}`)).toMatchObject({ status: 404, body: { code: 404 } });
  });
});

describe('auth and the front door', () => {
  test('every read needs a token; a Reader may read', async () => {
    expect(await get(`/api/v1/namespaces/${jobNs}`, null)).toMatchObject({ status: 401, body: { code: 401 } });
    expect((await get(`/api/v1/namespaces/${jobNs}/jobs/etl.stage`, reader)).status).toBe(200);
  });

  test('the front door relays the reads', async () => {
    const viaFront = await get(`/api/v1/namespaces/${jobNs}/jobs/etl.stage/runs`, reader, stack.gatewayUrl);
    expect(viaFront).toMatchObject({ status: 200, body: { totalCount: 1, runs: [{ id: runs.stage }] } });
    expect((await get(`/api/v1/lineage?nodeId=${enc(`dataset:${dsNs}:lonely`)}`, reader, stack.gatewayUrl)).body.graph).toHaveLength(1);
  });
});
