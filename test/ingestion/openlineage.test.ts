// The OpenLineage door over HTTP on a real Neo4j, through the front door and directly: RunEvents,
// JobEvents and DatasetEvents become the entities, aspects and lineage docs/lineage-model.md
// §OpenLineage describes; gzip bodies; the batch route's partial success; malformed events refused
// with nothing written; the same event twice and COMPLETE before START leave the same graph; a FAIL
// records the run and takes back what its run added; restoreIndices rebuilds what the events derived.
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

let stack: Stack;
let admin: string, reader: string, editor: string;
const ns = namespace('ol');
const pg = `postgres://${ns.platform}.example.com:5432`;
const T0 = Date.parse('2026-11-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow';
const enc = encodeURIComponent;

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${ns.platform}.${name},PROD)`;
const field = (name: string, col: string) => `urn:li:schemaField:(${ds(name)},${col})`;
const flowOf = (dag: string) => `urn:li:dataFlow:(airflow,${dag},${ns.platform})`;
const jobOf = (dag: string, task: string) => `urn:li:dataJob:(${flowOf(dag)},${dag}.${task})`;

interface EventOptions {
  eventType?: string;
  time?: number;
  runId?: string;
  dag: string;
  task: string;
  inputs?: string[];
  outputs?: Array<string | { name: string; columns?: Record<string, Array<[string, string]>>; schema?: string[] }>;
  runFacets?: Record<string, unknown>;
}

const facet = (fields: Record<string, unknown>) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/X.json',
  ...fields,
});

function runEvent(o: EventOptions): Record<string, any> {
  return {
    eventType: o.eventType ?? 'COMPLETE',
    eventTime: iso(o.time ?? T0),
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: {
      runId: o.runId ?? randomUUID(),
      facets: { parent: facet({ run: { runId: randomUUID() }, job: { namespace: ns.platform, name: o.dag } }), ...o.runFacets },
    },
    job: {
      namespace: ns.platform,
      name: `${o.dag}.${o.task}`,
      facets: { jobType: facet({ processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }) },
    },
    inputs: (o.inputs ?? []).map((name) => ({ namespace: pg, name: `${ns.platform}.${name}` })),
    outputs: (o.outputs ?? []).map((out) => {
      const { name, columns, schema } = typeof out === 'string' ? { name: out, columns: undefined, schema: undefined } : out;
      return {
        namespace: pg,
        name: `${ns.platform}.${name}`,
        facets: {
          ...(schema ? { schema: facet({ fields: schema.map((c) => ({ name: c, type: 'INTEGER' })) }) } : {}),
          ...(columns
            ? {
                columnLineage: facet({
                  fields: Object.fromEntries(
                    Object.entries(columns).map(([col, ups]) => [
                      col,
                      { inputFields: ups.map(([t, c]) => ({ namespace: pg, name: `${ns.platform}.${t}`, field: c, transformations: [] })) },
                    ]),
                  ),
                }),
              }
            : {}),
          custom_stats: facet({ rows: 42 }),
        },
      };
    }),
  };
}

async function post(path: string, body: unknown, options: { token?: string | null; gzip?: boolean; base?: string } = {}) {
  const token = options.token === undefined ? admin : options.token;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | Uint8Array = JSON.stringify(body);
  if (options.gzip) {
    payload = gzipSync(payload);
    headers['content-encoding'] = 'gzip';
  }
  const res = await fetch(`${options.base ?? stack.ingestion.baseUrl}${path}`, { method: 'POST', headers, body: payload });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function aspect(urn: string, name: string, version = 0): Promise<any> {
  const res = await fetch(`${stack.ingestion.baseUrl}/aspects/${enc(urn)}?aspect=${name}&version=${version}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  if (res.status === 404) return undefined;
  const body = (await res.json()) as { aspect: Record<string, unknown> };
  return Object.values(body.aspect)[0];
}

async function lineage(urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM', types?: string[]) {
  const r = await stack.graphql(
    `query q($input: ScrollAcrossLineageInput!) {
    scrollAcrossLineage(input: $input) { searchResults { degree entity { urn } } } }`,
    admin,
    { variables: { input: { urn, direction, count: 200, ...(types ? { types } : {}) } } },
  );
  expect(r.body.errors).toBeUndefined();
  return (r.body.data.scrollAcrossLineage.searchResults as Array<{ degree: number; entity: { urn: string } }>)
    .map((h) => `${h.degree} ${h.entity.urn}`)
    .sort();
}

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  editor = await tokenFor(stack.store, ns.user('editor'), 'Editor');
});
afterAll(async () => {
  await stack.close();
});

describe('a RunEvent', () => {
  const dag = 'daily';
  const event = runEvent({
    dag,
    task: 'totals',
    inputs: ['orders'],
    outputs: [
      {
        name: 'totals',
        schema: ['order_id', 'total'],
        columns: {
          order_id: [['orders', 'id']],
          total: [
            ['orders', 'amount'],
            ['rates', 'rate'],
          ],
        },
      },
    ],
  });

  test('makes the flow, the job, the run and the datasets, with lineage at entity and column level', async () => {
    const r = await post('/api/v1/lineage', event, { token: editor });
    expect(r).toEqual({
      status: 200,
      body: { status: 'success', summary: { received: 1, successful: 1, failed: 0, retriable: 0, non_retriable: 0 }, failed_events: [] },
    });

    const job = jobOf(dag, 'totals');
    expect(await aspect(job, 'dataJobInfo')).toMatchObject({ name: `${dag}.totals`, type: 'TASK' });
    expect(await aspect(flowOf(dag), 'dataFlowInfo')).toEqual({ name: dag });
    const io = await aspect(job, 'dataJobInputOutput');
    expect(io.inputDatasetEdges.map((e: any) => e.destinationUrn)).toEqual([ds('orders')]);
    expect(io.outputDatasetEdges.map((e: any) => e.destinationUrn)).toEqual([ds('totals')]);
    expect(io.outputDatasetEdges[0].lastModified.time).toBe(T0);
    // The schema facet as schemaMetadata; the output's column lineage on its upstreamLineage,
    // with its dataset-level upstreams those of the columns (rates appears only there).
    expect((await aspect(ds('totals'), 'schemaMetadata')).fields.map((f: any) => [f.fieldPath, f.nativeDataType])).toEqual([
      ['order_id', 'INTEGER'],
      ['total', 'INTEGER'],
    ]);
    const up = await aspect(ds('totals'), 'upstreamLineage');
    expect(up.upstreams.map((u: any) => u.dataset).sort()).toEqual([ds('orders'), ds('rates')].sort());
    expect(up.fineGrainedLineages).toEqual([
      {
        upstreamType: 'FIELD_SET',
        upstreams: [field('orders', 'id')],
        downstreamType: 'FIELD',
        downstreams: [field('totals', 'order_id')],
        confidenceScore: 1,
      },
      {
        upstreamType: 'FIELD_SET',
        upstreams: [field('orders', 'amount'), field('rates', 'rate')],
        downstreamType: 'FIELD',
        downstreams: [field('totals', 'total')],
        confidenceScore: 1,
      },
    ]);
    // The run, its state and its place.
    const run = `urn:li:dataProcessInstance:${event.run.runId}`;
    expect(await aspect(run, 'dataProcessInstanceRunEvent')).toEqual({
      timestampMillis: T0,
      status: 'COMPLETE',
      result: { type: 'SUCCESS', nativeResultType: 'COMPLETE' },
    });
    expect(await aspect(run, 'dataProcessInstanceRelationships')).toMatchObject({ parentTemplate: job });
    // Facets the mapping does not interpret, kept as sent.
    expect((await aspect(ds('totals'), 'openLineage')).facets.custom_stats).toMatchObject({ rows: 42 });

    expect(await lineage(ds('orders'), 'DOWNSTREAM')).toEqual([`1 ${job}`, `1 ${ds('totals')}`]);
    expect(await lineage(ds('rates'), 'DOWNSTREAM')).toEqual([`1 ${ds('totals')}`]);
    // A column's impact reaches only the columns made from it (lifted onto their datasets).
    expect(await lineage(field('orders', 'amount'), 'DOWNSTREAM')).toEqual([`1 ${ds('totals')}`]);
    expect(await lineage(field('orders', 'id'), 'DOWNSTREAM')).toEqual([`1 ${ds('totals')}`]);
    expect(await lineage(field('totals', 'total'), 'UPSTREAM')).toEqual([`1 ${ds('orders')}`, `1 ${ds('rates')}`]);
  });

  test("sent again, gzipped, to DataHub's path through the front door, it changes nothing", async () => {
    const before = await aspect(jobOf(dag, 'totals'), 'dataJobInputOutput');
    const r = await post('/openapi/openlineage/api/v1/lineage', event, { gzip: true, base: stack.gatewayUrl });
    expect(r.status).toBe(200);
    expect(await aspect(jobOf(dag, 'totals'), 'dataJobInputOutput')).toEqual(before);
    // Still one version of each aspect it wrote.
    expect(await aspect(jobOf(dag, 'totals'), 'dataJobInputOutput', 1)).toBeUndefined();
    expect(await aspect(ds('totals'), 'upstreamLineage', 1)).toBeUndefined();
  });
});

describe('event order and event types', () => {
  const outputs = ['x_out', 'x_extra'];

  test('COMPLETE before START ends as START then COMPLETE does', async () => {
    const states = [];
    for (const [dag, order] of [
      ['inorder', ['START', 'COMPLETE']],
      ['reversed', ['COMPLETE', 'START']],
    ] as const) {
      const runId = randomUUID();
      const start = runEvent({ dag, task: 't', eventType: 'START', time: T0, runId, inputs: ['x_in'], outputs });
      const complete = runEvent({ dag, task: 't', eventType: 'COMPLETE', time: T0 + 60_000, runId, inputs: ['x_in'], outputs: ['x_out'] });
      for (const type of order) expect((await post('/api/v1/lineage', type === 'START' ? start : complete)).status).toBe(200);
      const io = await aspect(jobOf(dag, 't'), 'dataJobInputOutput');
      const run = await aspect(`urn:li:dataProcessInstance:${runId}`, 'dataProcessInstanceRunEvent');
      const props = await aspect(`urn:li:dataProcessInstance:${runId}`, 'dataProcessInstanceProperties');
      states.push({ outputs: io.outputDatasetEdges.map((e: any) => e.destinationUrn), run, created: props.created.time });
    }
    expect(states[0]).toEqual({
      outputs: [ds('x_out')],
      run: expect.objectContaining({ status: 'COMPLETE', timestampMillis: T0 + 60_000 }),
      created: T0,
    });
    expect(states[1]).toEqual(states[0]);
  });

  test("START and RUNNING add to the job's lineage, COMPLETE sets it, FAIL and ABORT record the run only", async () => {
    const dag = 'types';
    const job = jobOf(dag, 't');
    const outs = async () => (await aspect(job, 'dataJobInputOutput')).outputDatasetEdges.map((e: any) => e.destinationUrn).sort();
    await post('/api/v1/lineage', runEvent({ dag, task: 't', eventType: 'COMPLETE', time: T0, outputs: ['y1'] }));
    await post('/api/v1/lineage', runEvent({ dag, task: 't', eventType: 'START', time: T0 + 1000, outputs: ['y2'] }));
    await post('/api/v1/lineage', runEvent({ dag, task: 't', eventType: 'RUNNING', time: T0 + 2000, outputs: ['y3'] }));
    expect(await outs()).toEqual([ds('y1'), ds('y2'), ds('y3')].sort());
    const failed = runEvent({
      dag,
      task: 't',
      eventType: 'FAIL',
      time: T0 + 3000,
      outputs: ['y4'],
      runFacets: { errorMessage: facet({ message: 'boom', programmingLanguage: 'python' }) },
    });
    await post('/api/v1/lineage', failed);
    expect(await outs()).toEqual([ds('y1'), ds('y2'), ds('y3')].sort());
    const run = `urn:li:dataProcessInstance:${failed.run.runId}`;
    expect(await aspect(run, 'dataProcessInstanceRunEvent')).toMatchObject({
      status: 'COMPLETE',
      result: { type: 'FAILURE', nativeResultType: 'FAIL' },
    });
    expect((await aspect(run, 'dataProcessInstanceProperties')).customProperties).toEqual({ errorMessage: 'boom' });
    await post('/api/v1/lineage', runEvent({ dag, task: 't', eventType: 'COMPLETE', time: T0 + 4000, outputs: ['y2'] }));
    expect(await outs()).toEqual([ds('y2')]);
    // A START older than the COMPLETE that last set the lineage adds nothing.
    await post('/api/v1/lineage', runEvent({ dag, task: 't', eventType: 'START', time: T0 + 3500, outputs: ['y9'] }));
    expect(await outs()).toEqual([ds('y2')]);
  });

  test('a failed run changes no lineage: its FAIL takes back what its START added, an event of it after the FAIL adds nothing', async () => {
    const dag = 'failing';
    const job = jobOf(dag, 'load');
    const io = async () => {
      const v = await aspect(job, 'dataJobInputOutput');
      return {
        inputs: v.inputDatasetEdges.map((e: any) => e.destinationUrn).sort(),
        outputs: v.outputDatasetEdges.map((e: any) => e.destinationUrn).sort(),
      };
    };
    const fine = async () =>
      ((await aspect(ds('f_mart'), 'upstreamLineage'))?.fineGrainedLineages ?? [])
        .map((f: any) => [f.downstreams[0], [...f.upstreams].sort()])
        .sort();
    // A good run sets the lineage: f_orders → load → f_mart, column id ← f_orders.id.
    await post(
      '/api/v1/lineage',
      runEvent({ dag, task: 'load', time: T0, inputs: ['f_orders'], outputs: [{ name: 'f_mart', columns: { id: [['f_orders', 'id']] } }] }),
    );
    const good = {
      io: await io(),
      fine: await fine(),
      upstreams: (await aspect(ds('f_mart'), 'upstreamLineage')).upstreams.map((u: any) => u.dataset),
    };
    expect(good.io).toEqual({ inputs: [ds('f_orders')], outputs: [ds('f_mart')] });
    // A run that reads f_archive: its START adds it (a running task's lineage shows) …
    const runId = randomUUID();
    const started = (time: number) =>
      runEvent({
        dag,
        task: 'load',
        eventType: 'START',
        time,
        runId,
        inputs: ['f_orders', 'f_archive'],
        outputs: [{ name: 'f_mart', columns: { id: [['f_orders', 'id']], email: [['f_archive', 'email']] } }],
      });
    await post('/api/v1/lineage', started(T0 + 1000));
    expect((await io()).inputs).toEqual([ds('f_archive'), ds('f_orders')].sort());
    expect((await fine()).map(([d]: [string]) => d)).toContain(field('f_mart', 'email'));
    // … and its FAIL, which names no datasets, takes back everything that run added.
    const failed = runEvent({ dag, task: 'load', eventType: 'FAIL', time: T0 + 2000, runId });
    delete failed.inputs;
    delete failed.outputs;
    expect((await post('/api/v1/lineage', failed)).status).toBe(200);
    expect(await io()).toEqual(good.io);
    expect(await fine()).toEqual(good.fine);
    expect((await aspect(ds('f_mart'), 'upstreamLineage')).upstreams.map((u: any) => u.dataset)).toEqual(good.upstreams);
    expect(await aspect(`urn:li:dataProcessInstance:${runId}`, 'dataProcessInstanceRunEvent')).toMatchObject({
      status: 'COMPLETE',
      result: { type: 'FAILURE' },
    });
    // An event of the failed run that arrives after its FAIL (a RUNNING sent late) adds nothing.
    await post('/api/v1/lineage', { ...started(T0 + 1500), eventType: 'RUNNING' });
    expect(await io()).toEqual(good.io);
    expect(await fine()).toEqual(good.fine);
    // The lineage graph agrees: nothing downstream of f_archive.
    expect(await lineage(ds('f_archive'), 'DOWNSTREAM')).toEqual([]);
    expect(await lineage(field('f_mart', 'email'), 'UPSTREAM')).toEqual([]);
  });

  test("column lineage keeps each input field's transformations as the entry's transformOperation", async () => {
    const dag = 'transforms';
    const e = runEvent({
      dag,
      task: 't',
      inputs: ['tr_src'],
      outputs: [
        {
          name: 'tr_out',
          columns: {
            total: [
              ['tr_src', 'amount'],
              ['tr_src', 'customer'],
            ],
          },
        },
      ],
    });
    const fields = e.outputs[0].facets.columnLineage.fields.total.inputFields;
    fields[0].transformations = [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum(amount)', masking: false }];
    fields[1].transformations = [
      { type: 'INDIRECT', subtype: 'GROUP_BY', description: '', masking: false },
      { type: 'DIRECT', subtype: 'AGGREGATION' },
    ];
    expect((await post('/api/v1/lineage', e)).status).toBe(200);
    const [entry] = (await aspect(ds('tr_out'), 'upstreamLineage')).fineGrainedLineages;
    expect(entry).toMatchObject({
      downstreams: [field('tr_out', 'total')],
      upstreams: [field('tr_src', 'amount'), field('tr_src', 'customer')],
      transformOperation: 'DIRECT:AGGREGATION,INDIRECT:GROUP_BY',
    });
    // The same event again writes nothing new.
    expect((await post('/api/v1/lineage', e)).status).toBe(200);
    expect(await aspect(ds('tr_out'), 'upstreamLineage', 1)).toBeUndefined();
  });

  test("a JobEvent sets the job's lineage; a DatasetEvent describes a dataset", async () => {
    const jobEvent = {
      eventTime: iso(T0),
      producer,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: { namespace: ns.platform, name: 'static.design' },
      inputs: [{ namespace: pg, name: `${ns.platform}.s_in` }],
      outputs: [{ namespace: pg, name: `${ns.platform}.s_out` }],
    };
    expect((await post('/api/v1/lineage', jobEvent)).status).toBe(200);
    const job = `urn:li:dataJob:(urn:li:dataFlow:(airflow,static,${ns.platform}),static.design)`;
    expect((await aspect(job, 'dataJobInputOutput')).outputDatasetEdges.map((e: any) => e.destinationUrn)).toEqual([ds('s_out')]);
    const datasetEvent = {
      eventTime: iso(T0),
      producer,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: {
        namespace: pg,
        name: `${ns.platform}.described`,
        facets: { documentation: facet({ description: 'a described table' }), schema: facet({ fields: [{ name: 'a', type: 'VARCHAR' }] }) },
      },
    };
    expect((await post('/api/v1/lineage', datasetEvent)).status).toBe(200);
    expect(await aspect(ds('described'), 'datasetProperties')).toEqual({ description: 'a described table' });
    expect((await aspect(ds('described'), 'schemaMetadata')).fields[0]).toMatchObject({
      fieldPath: 'a',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
    });
  });
});

describe('refusals', () => {
  test('no token is 401, a Reader is 403', async () => {
    const e = runEvent({ dag: 'auth', task: 't', outputs: ['a1'] });
    expect((await post('/api/v1/lineage', e, { token: null })).status).toBe(401);
    const denied = await post('/api/v1/lineage', e, { token: reader });
    expect(denied).toEqual({ status: 403, body: { error: `User ${ns.user('reader')} is unauthorized to ingest OpenLineage events` } });
    expect(await aspect(ds('a1'), 'datasetKey')).toBeUndefined();
  });

  test.each([
    [
      'no eventTime',
      (e: any) => {
        delete e.eventTime;
      },
      /eventTime is required/,
    ],
    [
      'a runId that is not a UUID',
      (e: any) => {
        e.run.runId = 'run-1';
      },
      /run\.runId must be a UUID/,
    ],
    [
      'an unknown eventType',
      (e: any) => {
        e.eventType = 'DONE';
      },
      /eventType/,
    ],
    [
      'an eventTime in RFC 1123 form',
      (e: any) => {
        e.eventTime = 'Tue, 30 Apr 2024 10:00:00 GMT';
      },
      /eventTime must be an RFC 3339 date-time with an offset/,
    ],
    [
      'an eventTime that is a date only',
      (e: any) => {
        e.eventTime = '2024-05-01';
      },
      /eventTime must be an RFC 3339/,
    ],
    [
      'an eventTime on a day that does not exist',
      (e: any) => {
        e.eventTime = '2024-02-30T10:00:00Z';
      },
      /eventTime is not a valid date-time/,
    ],
    [
      'a dataset without a name',
      (e: any) => {
        delete e.inputs[0].name;
      },
      /inputs\[0\]\.name is required/,
    ],
  ])('%s: 400 naming the field, nothing written', async (_label, spoil, message) => {
    const e = runEvent({ dag: 'bad', task: 't', inputs: ['b_in'], outputs: [{ name: 'b_out', columns: { c: [['b_in', 'c']] } }] });
    spoil(e);
    const r = await post('/api/v1/lineage', e);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect(await aspect(ds('b_out'), 'datasetKey')).toBeUndefined();
    expect(await aspect(jobOf('bad', 't'), 'dataJobInfo')).toBeUndefined();
  });

  test('a body that is not JSON, or in an unknown encoding, is a 400', async () => {
    const res = await fetch(`${stack.ingestion.baseUrl}/api/v1/lineage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
    const br = await fetch(`${stack.ingestion.baseUrl}/api/v1/lineage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-encoding': 'br' },
      body: '{}',
    });
    expect(br.status).toBe(400);
    expect(((await br.json()) as { error: string }).error).toMatch(/Unsupported Content-Encoding 'br'/);
  });
});

describe('the batch route', () => {
  test('keeps the good events and names the bad ones', async () => {
    const good = [
      runEvent({ dag: 'batch', task: 'a', outputs: ['p1'] }),
      runEvent({ dag: 'batch', task: 'b', inputs: ['p1'], outputs: ['p2'] }),
    ];
    const bad = { ...runEvent({ dag: 'batch', task: 'c', outputs: ['p3'] }), producer: '' };
    const r = await post('/api/v1/lineage/batch', [good[0], bad, good[1]], { gzip: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'partial_success',
      summary: { received: 3, successful: 2, failed: 1, retriable: 0, non_retriable: 1 },
      failed_events: [{ index: 1, reason: expect.stringMatching(/\[1\]: producer must not be empty/), retriable: false }],
    });
    expect(await lineage(ds('p1'), 'DOWNSTREAM')).toEqual([`1 ${jobOf('batch', 'b')}`, `2 ${ds('p2')}`]);
    expect(await aspect(ds('p3'), 'datasetKey')).toBeUndefined();
  });

  test('an empty batch succeeds; every event refused is a 400 with the report; not an array is a 400', async () => {
    expect((await post('/api/v1/lineage/batch', [])).body).toMatchObject({ status: 'success', summary: { received: 0 } });
    const all = await post('/api/v1/lineage/batch', [{}, { eventTime: 'x' }]);
    expect(all.status).toBe(400);
    expect(all.body).toMatchObject({
      status: 'failure',
      summary: { received: 2, failed: 2 },
      error: expect.stringMatching(/Every event was refused/),
    });
    expect((await post('/api/v1/lineage/batch', { events: [] })).status).toBe(400);
  });
});

test('restoreIndices rebuilds the lineage the events derived', async () => {
  const dag = 'restore';
  await post(
    '/api/v1/lineage',
    runEvent({ dag, task: 't', inputs: ['r_in'], outputs: [{ name: 'r_out', columns: { c: [['r_in', 'c']] } }] }),
  );
  const expected = await lineage(ds('r_in'), 'DOWNSTREAM');
  const run = (cypher: string) =>
    stack.store.driver.executeQuery(cypher, { urns: [ds('r_in'), ds('r_out'), jobOf(dag, 't')] }, { database: stack.store.database });
  await run('MATCH (n:Entity)-[r]-() WHERE n.urn IN $urns AND NOT type(r) = "HAS_ASPECT" DELETE r');
  expect(await lineage(ds('r_in'), 'DOWNSTREAM')).toEqual([]);
  for (const urn of [ds('r_out'), jobOf(dag, 't')]) {
    expect((await post('/operations?action=restoreIndices', { urn })).status).toBe(200);
  }
  expect(await lineage(ds('r_in'), 'DOWNSTREAM')).toEqual(expected);
});
