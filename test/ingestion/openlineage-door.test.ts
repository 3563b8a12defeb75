// The OpenLineage door judges each event (docs/wire-contract.md §OpenLineage): names the urn
// grammar refuses (control characters, lone surrogates, a name of only '/', urns over the length
// limit: a 10 KB namespace, a 100 KB input name, a 1 MiB job name) are that event's 4xx, or its entry
// in `failed_events`, never a 500, and the good events of the same batch are written — on every route,
// directly and through the front door. Events producers really send are accepted as DataHub and
// Marquez accept them: no schemaURL, a facet that fails its schema (kept verbatim, not interpreted),
// an eventTime without an offset (read as UTC); each said in `warnings`.
import { randomUUID } from 'node:crypto';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

let stack: Stack;
let admin: string;
const ns = namespace('oldoor');
const pg = `postgres://${ns.platform}.example.com:5432`;
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow';
const enc = encodeURIComponent;
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${name},PROD)`;
const jobOf = (dag: string, task: string) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,${dag},${ns.platform}),${dag}.${task})`;

type Json = Record<string, any>;

function runEvent(
  dag: string,
  task: string,
  o: { inputs?: Json[]; outputs?: Json[]; jobName?: string; jobNamespace?: string; runFacets?: Json; time?: string } = {},
): Json {
  return {
    eventType: 'COMPLETE',
    eventTime: o.time ?? '2026-11-02T08:00:00.000Z',
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: randomUUID(), facets: { ...o.runFacets } },
    job: {
      namespace: o.jobNamespace ?? ns.platform,
      name: o.jobName ?? `${dag}.${task}`,
      facets: { jobType: { processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' } },
    },
    inputs: o.inputs ?? [{ namespace: pg, name: `${ns.platform}.${dag}_in` }],
    outputs: o.outputs ?? [{ namespace: pg, name: `${ns.platform}.${dag}_${task}_out` }],
  };
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = { text };
  }
  return { status: res.status, body: json };
}

async function aspect(urn: string, name: string): Promise<any> {
  const res = await fetch(`${stack.ingestion.baseUrl}/aspects/${enc(urn)}?aspect=${name}&version=0`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  if (res.status === 404) return undefined;
  return Object.values(((await res.json()) as { aspect: Record<string, unknown> }).aspect)[0];
}

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
}, 300_000);
afterAll(async () => {
  await stack.close();
});

/** Events the urn grammar refuses, each with what the refusal must say. */
const BAD: Array<{ label: string; event: (dag: string) => Json; reason: RegExp }> = [
  {
    label: 'a dataset name with U+0007',
    event: (dag) => runEvent(dag, 'bell', { inputs: [{ namespace: pg, name: `${ns.platform}.a\u0007b` }] }),
    reason: /control character/,
  },
  {
    label: 'a dataset name with a lone U+DC00',
    event: (dag) => runEvent(dag, 'surrogate', { outputs: [{ namespace: pg, name: `${ns.platform}.x\udc00y` }] }),
    reason: /surrogate/,
  },
  {
    label: "namespace file:// with name '/'",
    event: (dag) => runEvent(dag, 'root', { inputs: [{ namespace: 'file://', name: '/' }] }),
    reason: /invalid urn/,
  },
  {
    label: 'a symlink name with a control character',
    event: (dag) =>
      runEvent(dag, 'symlink', {
        inputs: [
          {
            namespace: 'file',
            name: '/warehouse/t',
            facets: { symlinks: { identifiers: [{ namespace: 'hive://h:9083', name: 'db.t\u001b', type: 'TABLE' }] } },
          },
        ],
      }),
    reason: /control character/,
  },
  { label: 'a 10 KB job namespace', event: (dag) => runEvent(dag, 'longns', { jobNamespace: 'n'.repeat(10_000) }), reason: /invalid urn/ },
  // A namespace without a scheme is the dataset's platform.
  {
    label: 'a 10 KB dataset namespace',
    event: (dag) => runEvent(dag, 'longdsns', { inputs: [{ namespace: 'n'.repeat(10_000), name: 'db.t' }] }),
    reason: /invalid urn/,
  },
  {
    label: 'a 100 KB input name',
    event: (dag) => runEvent(dag, 'longin', { inputs: [{ namespace: pg, name: 'i'.repeat(100_000) }] }),
    reason: /invalid urn/,
  },
  {
    label: 'a 1 MiB job name',
    event: (dag) => runEvent(dag, 'longjob', { jobName: `${dag}.${'j'.repeat(1 << 20)}` }),
    reason: /invalid urn/,
  },
  {
    label: 'a column-lineage field with a control character',
    event: (dag) =>
      runEvent(dag, 'column', {
        outputs: [
          {
            namespace: pg,
            name: `${ns.platform}.${dag}_col_out`,
            facets: {
              columnLineage: { fields: { c: { inputFields: [{ namespace: pg, name: `${ns.platform}.${dag}_in`, field: 'c\u0000' }] } } },
            },
          },
        ],
      }),
    reason: /control character/,
  },
];

const SINGLE = ['/api/v1/lineage', '/openapi/openlineage/api/v1/lineage'];
const routes = () => [
  ...SINGLE.map((path) => ({ base: stack.ingestion.baseUrl, path, label: `${path} (ingestion)` })),
  ...SINGLE.map((path) => ({ base: stack.gatewayUrl, path: `/api/gms${path}`, label: `/api/gms${path} (front door)` })),
];

describe('one bad event', () => {
  test.each(BAD.map((b, i) => [b.label, i] as const))(
    '%s: a 4xx naming the problem on every route, nothing of it written',
    async (_label, i) => {
      const bad = BAD[i]!;
      for (const [r, route] of routes().entries()) {
        const dag = `single${i}r${r}`;
        const e = bad.event(dag);
        const res = await post(route.base, route.path, e);
        expect({ route: route.label, status: res.status }).toEqual({ route: route.label, status: 422 });
        expect(res.body.error).toMatch(bad.reason);
        // The message quotes a bounded part of the name, never the megabyte.
        expect(res.body.error.length).toBeLessThan(1000);
        const task = String(e.job.name).length < 200 ? String(e.job.name).slice(dag.length + 1) : undefined;
        if (task) expect(await aspect(jobOf(dag, task), 'dataJobInfo')).toBeUndefined();
        for (const d of [...e.inputs, ...e.outputs]) {
          if (/^[\w.]{1,200}$/.test(d.name) && d.namespace === pg) expect(await aspect(ds(d.name), 'datasetKey')).toBeUndefined();
        }
      }
    },
    300_000,
  );
});

describe('a mixed batch', () => {
  test.each(['/api/v1/lineage/batch', '/openapi/openlineage/api/v1/lineage/batch'])(
    'on %s, directly and through the front door: the bad events named, every good one written',
    async (path) => {
      for (const [b, base] of [stack.ingestion.baseUrl, `${stack.gatewayUrl}/api/gms`].entries()) {
        const dag = `mixed${path.length}b${b}`;
        // good, bad, good, bad, … good
        const body: Json[] = [];
        const goodAt: number[] = [];
        BAD.forEach((bad, i) => {
          goodAt.push(body.length);
          body.push(runEvent(dag, `good${i}`));
          body.push(bad.event(`${dag}x`));
        });
        goodAt.push(body.length);
        body.push(runEvent(dag, 'last'));
        const res = await post(base, path, body);
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('partial_success');
        expect(res.body.summary).toEqual({
          received: body.length,
          successful: goodAt.length,
          failed: BAD.length,
          retriable: 0,
          non_retriable: BAD.length,
        });
        expect(res.body.failed_events.map((f: Json) => f.index)).toEqual(BAD.map((_, i) => 2 * i + 1));
        res.body.failed_events.forEach((f: Json, i: number) => expect(f.reason).toMatch(BAD[i]!.reason));
        for (const i of goodAt) {
          const task = body[i]!.job.name.slice(dag.length + 1);
          const io = await aspect(jobOf(dag, task), 'dataJobInputOutput');
          expect(io?.outputDatasetEdges.map((e: Json) => e.destinationUrn)).toEqual([ds(`${ns.platform}.${dag}_${task}_out`)]);
        }
      }
    },
    300_000,
  );

  test('a batch of only bad events is a 400 with the report, nothing written', async () => {
    const res = await post(
      stack.ingestion.baseUrl,
      '/api/v1/lineage/batch',
      BAD.slice(0, 3).map((b) => b.event('allbad')),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'failure', summary: { received: 3, failed: 3 } });
    expect(await aspect(ds(`${ns.platform}.allbad_in`), 'datasetKey')).toBeUndefined();
  });
});

describe('accepted as producers send them, with warnings', () => {
  test('no schemaURL', async () => {
    const e = runEvent('noschema', 't');
    delete e.schemaURL;
    const res = await post(stack.ingestion.baseUrl, '/api/v1/lineage', e);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([{ index: 0, message: expect.stringMatching(/schemaURL is missing/) }]);
    expect(await aspect(jobOf('noschema', 't'), 'dataJobInfo')).toMatchObject({ name: 'noschema.t' });
  });

  test('facets that fail their schema are kept verbatim and not interpreted; the event is written', async () => {
    const nominal = { nominalStartTime: '2020-01-01', nominalEndTime: '2020-01-02' };
    const brokenColumns = { fields: { c: { inputFieldz: [] } } };
    const e = runEvent('facets', 't', {
      runFacets: { nominalTime: nominal },
      outputs: [
        { namespace: pg, name: `${ns.platform}.facets_out`, facets: { columnLineage: brokenColumns, symlinks: { identifiers: 'db.t' } } },
      ],
    });
    const res = await post(stack.ingestion.baseUrl, '/openapi/openlineage/api/v1/lineage', e);
    expect(res.status).toBe(200);
    expect(res.body.warnings.map((w: Json) => w.message)).toEqual([
      expect.stringMatching(/^run\.facets\.nominalTime\.nominalStartTime must be an RFC 3339 date-time.*not interpreted/),
      expect.stringMatching(/^outputs\[0\]\.facets\.columnLineage\.fields\.c\.inputFields is required.*not interpreted/),
      expect.stringMatching(/^outputs\[0\]\.facets\.symlinks\.identifiers .*not interpreted/),
    ]);
    const out = ds(`${ns.platform}.facets_out`);
    // Not interpreted: no symlink followed, no column lineage, the run not scheduled.
    expect(await aspect(jobOf('facets', 't'), 'dataJobInputOutput')).toMatchObject({
      outputDatasetEdges: [expect.objectContaining({ destinationUrn: out })],
    });
    expect(await aspect(out, 'upstreamLineage')).toBeUndefined();
    // Kept verbatim.
    expect((await aspect(out, 'openLineage')).facets).toEqual({ columnLineage: brokenColumns, symlinks: { identifiers: 'db.t' } });
    const run = `urn:li:dataProcessInstance:${e.run.runId}`;
    expect((await aspect(run, 'openLineage')).facets).toEqual({ nominalTime: nominal });
    expect(await aspect(run, 'dataProcessInstanceProperties')).toMatchObject({ type: 'BATCH_AD_HOC' });
  });

  test('an eventTime without an offset is read as UTC; one in another format is refused', async () => {
    const e = runEvent('naive', 't', { time: '2026-11-02T09:30:00.123456' });
    const res = await post(stack.ingestion.baseUrl, '/api/v1/lineage', e);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([{ index: 0, message: 'eventTime has no offset: read as UTC' }]);
    expect(await aspect(`urn:li:dataProcessInstance:${e.run.runId}`, 'dataProcessInstanceRunEvent')).toMatchObject({
      timestampMillis: Date.parse('2026-11-02T09:30:00.123Z'),
    });
    for (const time of ['Tue, 30 Apr 2024 10:00:00 GMT', '2024-05-01 10:00:00Z', '2024-05-01T10:00Z']) {
      const refused = await post(stack.ingestion.baseUrl, '/api/v1/lineage', runEvent('naive', 'refused', { time }));
      expect({ time, status: refused.status }).toEqual({ time, status: 400 });
      expect(refused.body.error).toMatch(/eventTime must be an RFC 3339 date-time with an offset/);
    }
    expect(await aspect(jobOf('naive', 'refused'), 'dataJobInfo')).toBeUndefined();
  });

  test('in a batch, warnings name their event', async () => {
    const a = runEvent('warnbatch', 'a');
    const b = runEvent('warnbatch', 'b');
    delete b.schemaURL;
    const res = await post(stack.ingestion.baseUrl, '/api/v1/lineage/batch', [a, { ...b, producer: '' }, b]);
    expect(res.status).toBe(200);
    expect(res.body.failed_events.map((f: Json) => f.index)).toEqual([1]);
    expect(res.body.warnings).toEqual([{ index: 2, message: expect.stringMatching(/schemaURL is missing/) }]);
  });
});

test("column lineage through symlinks reaches the output table's columns, with no stray file upstreams", async () => {
  const table = (name: string) => ({
    symlinks: { identifiers: [{ namespace: `hive://${ns.platform}:9083`, name: `${ns.platform}.${name}`, type: 'TABLE' }] },
  });
  const hive = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${ns.platform}.${name},PROD)`;
  const e = runEvent('cll', 't', {
    inputs: [{ namespace: 'file', name: `/tmp/${ns.platform}/src`, facets: table('src') }],
    outputs: [
      {
        namespace: 'file',
        name: `/tmp/${ns.platform}/dst`,
        facets: {
          ...table('dst'),
          columnLineage: { fields: { id: { inputFields: [{ namespace: 'file', name: `/tmp/${ns.platform}/src`, field: 'id' }] } } },
        },
      },
    ],
  });
  expect((await post(stack.ingestion.baseUrl, '/api/v1/lineage', e)).status).toBe(200);
  const up = await aspect(hive('dst'), 'upstreamLineage');
  expect(up.upstreams.map((u: Json) => u.dataset)).toEqual([hive('src')]);
  expect(up.fineGrainedLineages.map((f: Json) => [f.upstreams, f.downstreams])).toEqual([
    [[`urn:li:schemaField:(${hive('src')},id)`], [`urn:li:schemaField:(${hive('dst')},id)`]],
  ]);
  const r = await stack.graphql(
    `query q($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) { searchResults { degree entity { urn } } } }`,
    admin,
    { variables: { input: { urn: hive('src'), direction: 'DOWNSTREAM', count: 50 } } },
  );
  expect(r.body.errors).toBeUndefined();
  const reached = r.body.data.scrollAcrossLineage.searchResults.map((h: Json) => h.entity.urn);
  expect(reached).toContain(hive('dst'));
  expect(reached.filter((u: string) => u.includes('dataPlatform:file'))).toEqual([]);
});
