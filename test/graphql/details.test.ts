// The explorer's details and start-page reads through the front door (schema/details.graphql): a
// job's runs from its stored dataProcessInstances, per-column lineage counts, the most connected and
// most recently changed entities, and a count out of range refused as a client mistake.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqd');
const source = ns.dataset('orders');
const target = ns.dataset('orders_daily');
const flow = ns.flow('nightly');
const job = ns.job(flow, 'load_orders');
const run = (id: string) => `urn:li:dataProcessInstance:${ns.platform}_${id}`;
const T = Date.parse('2026-11-20T02:00:00Z');

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const field = (urn: string, path: string) => `urn:li:schemaField:(${urn},${path})`;
const schema = (fields: string[]) => ({
  schemaName: 's',
  platform: `urn:li:dataPlatform:${ns.platform}`,
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: fields.map((fieldPath) => ({ fieldPath, type: { type: { 'com.linkedin.schema.NumberType': {} } }, nativeDataType: 'bigint' })),
});

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  const stamp = { time: T, actor: 'urn:li:corpuser:seeder' };
  const runAspects = (id: string, start: number, status: string, result: string | null, end: number) => [
    upsert(run(id), 'dataProcessInstanceProperties', {
      name: id,
      type: 'BATCH_AD_HOC',
      created: { time: start, actor: 'urn:li:corpuser:seeder' },
      customProperties: {},
    }),
    upsert(run(id), 'dataProcessInstanceRelationships', { parentTemplate: job, upstreamInstances: [] }),
    upsert(run(id), 'dataProcessInstanceRunEvent', {
      timestampMillis: end,
      status,
      ...(result ? { result: { type: result, nativeResultType: result } } : {}),
    }),
  ];
  await writeAspects(
    stack.store,
    [
      upsert(source, 'schemaMetadata', schema(['id', 'amount'])),
      upsert(target, 'schemaMetadata', schema(['id', 'total'])),
      upsert(job, 'dataJobInfo', { name: 'load_orders', type: 'COMMAND' }),
      ...runAspects('r1', T, 'COMPLETE', 'SUCCESS', T + 95_000),
      ...runAspects('r2', T + 86_400_000, 'COMPLETE', 'FAILURE', T + 86_400_000 + 30_000),
      ...runAspects('r3', T + 2 * 86_400_000, 'STARTED', null, T + 2 * 86_400_000),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );
  await writeAspects(
    stack.store,
    [
      upsert(target, 'upstreamLineage', {
        upstreams: [{ auditStamp: stamp, dataset: source, type: 'TRANSFORMED' }],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            upstreams: [field(source, 'amount')],
            downstreamType: 'FIELD',
            downstreams: [field(target, 'total')],
          },
          {
            upstreamType: 'FIELD_SET',
            upstreams: [field(source, 'id')],
            downstreamType: 'FIELD',
            downstreams: [field(target, 'id'), field(target, 'total')],
          },
        ],
      }),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );
  // Starting the gateway and the subgraph on a loaded shared machine can take more than the default.
}, 180_000);
afterAll(async () => {
  await stack.close();
});

test("a job's runs, latest start first, with state, start and duration", async () => {
  const r = await stack.graphql(
    `query($urn: String!) { dataJobRuns(urn: $urn, count: 2) { total runs { urn status result startTimeMillis durationMillis } } }`,
    reader,
    { variables: { urn: job } },
  );
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataJobRuns).toEqual({
    total: 3,
    runs: [
      { urn: run('r3'), status: 'STARTED', result: null, startTimeMillis: T + 2 * 86_400_000, durationMillis: null },
      { urn: run('r2'), status: 'COMPLETE', result: 'FAILURE', startTimeMillis: T + 86_400_000, durationMillis: 30_000 },
    ],
  });
});

test('column-level lineage one hop either way, per column', async () => {
  const counts = async (urn: string) => {
    const r = await stack.graphql(`query($urn: String!) { columnLineageCounts(urn: $urn) { fieldPath upstream downstream } }`, reader, {
      variables: { urn },
    });
    expect(r.body.errors).toBeUndefined();
    return r.body.data.columnLineageCounts;
  };
  expect(await counts(target)).toEqual([
    { fieldPath: 'id', upstream: 1, downstream: 0 },
    { fieldPath: 'total', upstream: 2, downstream: 0 },
  ]);
  expect(await counts(source)).toEqual([
    { fieldPath: 'amount', upstream: 0, downstream: 1 },
    { fieldPath: 'id', upstream: 0, downstream: 2 },
  ]);
});

test('start page: most connected (most links first) and recently changed (newest first)', async () => {
  const r = await stack.graphql(
    `{ mostConnectedEntities(count: 5) { links entity { urn } } recentlyChangedEntities(count: 5) { changedAt entity { urn } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  const connected: Array<{ links: number }> = r.body.data.mostConnectedEntities;
  const recent: Array<{ changedAt: number }> = r.body.data.recentlyChangedEntities;
  expect(connected.length).toBeGreaterThan(0);
  expect(connected.length).toBeLessThanOrEqual(5);
  expect(connected.map((c) => c.links)).toEqual([...connected.map((c) => c.links)].sort((a, b) => b - a));
  expect(recent.length).toBeGreaterThan(0);
  expect(recent.map((c) => c.changedAt)).toEqual([...recent.map((c) => c.changedAt)].sort((a, b) => b - a));
});

test('a count out of range and a malformed urn are client mistakes, named', async () => {
  const big = await stack.graphql('{ mostConnectedEntities(count: 101) { links } }', reader);
  expect(big.body.errors?.[0]?.message).toMatch(/count must be an integer from 0 to 100, got 101/);
  expect(big.body.errors?.[0]?.extensions?.code).toBe(400);
  const bad = await stack.graphql('{ dataJobRuns(urn: "not-a-urn") { total } }', reader);
  expect(bad.body.errors?.[0]?.message).toMatch(/Invalid urn: not-a-urn/);
  expect(bad.body.errors?.[0]?.extensions?.code).toBe(400);
});
