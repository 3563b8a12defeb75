// Entity reads through the front door on a real Neo4j, graphs seeded through the write path:
// key-derived and descriptive fields, existence, invalid and unsupported urns, typed relationships,
// one-hop lineage, fine-grained lineage, job ↔ flow, raw aspects.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqe');
const up = ns.dataset('upstream_table');
const ds = ns.dataset('orders', 'DEV');
const flow = ns.flow('nightly');
const job = ns.job(flow, 'load_orders');
const pk = ns.mlPrimaryKey('order_id');
const ghost = ns.dataset('never_ingested');
const T0 = 1_700_000_000_000;

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved: T0 },
});

const opts = { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' as const, now: T0 };

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await writeAspects(
    stack.store,
    [
      upsert(up, 'datasetProperties', { name: 'Upstream' }),
      upsert(flow, 'dataFlowInfo', { name: 'Nightly flow', description: 'runs at night' }),
    ],
    opts,
  );
  await writeAspects(
    stack.store,
    [
      upsert(ds, 'datasetProperties', {
        name: 'Orders',
        qualifiedName: 'db.orders',
        description: 'all orders',
        customProperties: { team: 'sales' },
      }),
      upsert(ds, 'upstreamLineage', {
        upstreams: [{ dataset: up, type: 'TRANSFORMED', auditStamp: { time: T0, actor: 'urn:li:corpuser:seeder' } }],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            upstreams: [ns.field(up, 'id')],
            downstreamType: 'FIELD',
            downstreams: [ns.field(ds, 'order_id')],
            transformOperation: 'IDENTITY',
          },
          { upstreamType: 'DATASET', upstreams: [up], downstreamType: 'FIELD', downstreams: [ns.field(ds, 'total')] },
        ],
      }),
      upsert(job, 'dataJobInfo', { name: 'Load orders', type: 'COMMAND' }),
    ],
    opts,
  );
  // An entity whose only aspect declares lineage needs its key first (strict existence mode).
  await writeAspects(stack.store, [upsert(pk, 'mlPrimaryKeyKey', { featureNamespace: ns.platform, name: 'order_id' })], opts);
  await writeAspects(stack.store, [upsert(pk, 'mlPrimaryKeyProperties', { description: 'the order key', sources: [ds] })], opts);
});
afterAll(async () => {
  await stack.close();
});

test('dataset description, schemaMetadata by version, and the platform instance an entity names', async () => {
  const schema = (hash: string, fields: Array<Record<string, unknown>>) =>
    upsert(ds, 'schemaMetadata', {
      schemaName: 'orders',
      platform: `urn:li:dataPlatform:${ns.platform}`,
      version: 3,
      hash,
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields,
    });
  await writeAspects(
    stack.store,
    [schema('h1', [{ fieldPath: 'id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } }])],
    opts,
  );
  await writeAspects(
    stack.store,
    [
      schema('h2', [
        { fieldPath: 'id', nativeDataType: 'int', nullable: true, type: { type: { 'com.linkedin.schema.NumberType': {} } } },
        {
          fieldPath: 'note',
          nativeDataType: 'text',
          description: 'free text',
          type: { type: { 'com.linkedin.pegasus2avro.schema.StringType': {} } },
        },
      ]),
      upsert(job, 'dataPlatformInstance', {
        platform: `urn:li:dataPlatform:${ns.platform}`,
        instance: `urn:li:dataPlatformInstance:(urn:li:dataPlatform:${ns.platform},eu)`,
      }),
    ],
    opts,
  );
  const r = await stack.graphql(
    `{ dataset(urn: "${ds}") { description dataPlatformInstance { urn }
      latest: schemaMetadata { aspectVersion name platformUrn version hash createdAt fields { fieldPath nullable type nativeDataType description } }
      first: schemaMetadata(version: 1) { hash fields { fieldPath } } }
    dataJob(urn: "${job}") { dataPlatformInstance { urn type instanceId platform { name } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataset).toEqual({
    description: 'all orders',
    dataPlatformInstance: null,
    latest: {
      aspectVersion: 0,
      name: 'orders',
      platformUrn: `urn:li:dataPlatform:${ns.platform}`,
      version: 3,
      hash: 'h2',
      createdAt: null,
      fields: [
        { fieldPath: 'id', nullable: true, type: 'NUMBER', nativeDataType: 'int', description: null },
        { fieldPath: 'note', nullable: false, type: 'STRING', nativeDataType: 'text', description: 'free text' },
      ],
    },
    first: { hash: 'h1', fields: [{ fieldPath: 'id' }] },
  });
  expect(r.body.data.dataJob.dataPlatformInstance).toEqual({
    urn: `urn:li:dataPlatformInstance:(urn:li:dataPlatform:${ns.platform},eu)`,
    type: 'DATA_PLATFORM_INSTANCE',
    instanceId: 'eu',
    platform: { name: ns.platform },
  });
});

test('a dataset: key fields from the urn, properties from datasetProperties', async () => {
  const r = await stack.graphql(
    `{ dataset(urn: "${ds}") {
    urn type exists name origin platform { urn type name }
    properties { name qualifiedName description customProperties { key value associatedUrn } }
    status { removed } } }`,
    reader,
  );
  expect(r.body).toEqual({
    data: {
      dataset: {
        urn: ds,
        type: 'DATASET',
        exists: true,
        name: 'orders',
        origin: 'DEV',
        platform: { urn: `urn:li:dataPlatform:${ns.platform}`, type: 'DATA_PLATFORM', name: ns.platform },
        properties: {
          name: 'Orders',
          qualifiedName: 'db.orders',
          description: 'all orders',
          customProperties: [{ key: 'team', value: 'sales', associatedUrn: ds }],
        },
        status: null,
      },
    },
    extensions: {},
  });
});

test('a never-ingested dataset resolves with exists: false and null aspects', async () => {
  const r = await stack.graphql(
    `{ dataset(urn: "${ghost}") { urn exists name properties { name } } entityExists(urn: "${ghost}") }`,
    reader,
  );
  expect(r.body.data).toEqual({ dataset: { urn: ghost, exists: false, name: 'never_ingested', properties: null }, entityExists: false });
  const e = await stack.graphql(`{ entityExists(urn: "${ds}") }`, reader);
  expect(e.body.data).toEqual({ entityExists: true });
});

test('a malformed urn is 400 "Invalid urn: <urn>"; an unsupported type is null', async () => {
  for (const bad of [
    'urn:li:dataset:(urn:li:dataPlatform:x,only_two)',
    'nonsense',
    'urn:li:dataset:(urn:li:dataPlatform:x,t,NOT_A_FABRIC)',
  ]) {
    const r = await stack.graphql(`query { dataset(urn: ${JSON.stringify(bad)}) { urn } }`, reader);
    expect(r.body.data).toEqual({ dataset: null });
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        message: `Invalid urn: ${bad}`,
        path: ['dataset'],
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
      }),
    ]);
  }
  const r = await stack.graphql('{ entity(urn: "urn:li:post:p1") { urn } chart: dataset(urn: "urn:li:chart:(looker,1)") { urn } }', reader);
  expect(r.body).toEqual({ data: { entity: null, chart: null }, extensions: {} });
});

test('entity() and entities() resolve concrete types through the Entity interface', async () => {
  const r = await stack.graphql(
    `{ entities(urns: ["${ds}", "${job}", "urn:li:post:p1", "${pk}"]) {
    urn type ... on Dataset { name } ... on DataJob { jobId } ... on MLPrimaryKey { name featureNamespace description } } }`,
    reader,
  );
  expect(r.body.data.entities).toEqual([
    { urn: ds, type: 'DATASET', name: 'orders' },
    { urn: job, type: 'DATA_JOB', jobId: 'load_orders' },
    null,
    { urn: pk, type: 'MLPRIMARY_KEY', name: 'order_id', featureNamespace: ns.platform, description: 'the order key' },
  ]);
});

test('DataJob.dataFlow and DataFlow.childJobs read the job ↔ flow link both ways', async () => {
  const r = await stack.graphql(
    `{ dataJob(urn: "${job}") { jobId properties { name } dataFlow { urn orchestrator flowId cluster properties { name description } } } }`,
    reader,
  );
  expect(r.body.data.dataJob).toEqual({
    jobId: 'load_orders',
    properties: { name: 'Load orders' },
    dataFlow: {
      urn: flow,
      orchestrator: ns.platform,
      flowId: 'nightly',
      cluster: 'PROD',
      properties: { name: 'Nightly flow', description: 'runs at night' },
    },
  });
  const f = await stack.graphql(
    `{ dataFlow(urn: "${flow}") { platform { urn } childJobs { total relationships { type direction entity { urn } } } } }`,
    reader,
  );
  expect(f.body.data.dataFlow).toEqual({
    platform: { urn: `urn:li:dataPlatform:${ns.platform}` },
    childJobs: { total: 1, relationships: [{ type: 'IsPartOf', direction: 'INCOMING', entity: { urn: job } }] },
  });
});

test('relationships(input) returns typed edges in either direction, paged', async () => {
  const out = await stack.graphql(
    `{ dataset(urn: "${ds}") { relationships(input: {types: ["DownstreamOf"], direction: OUTGOING}) {
    start count total relationships { type direction entity { urn } created { time actor } } } } }`,
    reader,
  );
  expect(out.body.data.dataset.relationships).toEqual({
    start: 0,
    count: 1,
    total: 1,
    relationships: [
      { type: 'DownstreamOf', direction: 'OUTGOING', entity: { urn: up }, created: { time: T0, actor: 'urn:li:corpuser:seeder' } },
    ],
  });
  const inc = await stack.graphql(
    `{ dataset(urn: "${ds}") { relationships(input: {types: ["DerivedFrom", "LINEAGE"], direction: INCOMING, start: 0, count: 5}) {
    total relationships { type entity { urn type } } } } }`,
    reader,
  );
  expect(inc.body.data.dataset.relationships).toEqual({
    total: 1,
    relationships: [{ type: 'DerivedFrom', entity: { urn: pk, type: 'MLPRIMARY_KEY' } }],
  });
  const page = await stack.graphql(
    `{ dataset(urn: "${ds}") { relationships(input: {types: ["DerivedFrom"], direction: INCOMING, start: 1}) { start count total relationships { type } } } }`,
    reader,
  );
  expect(page.body.data.dataset.relationships).toEqual({ start: 1, count: 0, total: 1, relationships: [] });
});

test("a user's groups are its IsMemberOfGroup / IsMemberOfNativeGroup relationships, and a group's members the incoming ones", async () => {
  const alice = ns.user('alice');
  const [ldap, native] = [`urn:li:corpGroup:${ns.platform}_ldap`, `urn:li:corpGroup:${ns.platform}_native`];
  await writeAspects(
    stack.store,
    [
      upsert(ldap, 'corpGroupInfo', { displayName: 'LDAP analysts', admins: [], members: [], groups: [] }),
      upsert(native, 'corpGroupInfo', { displayName: 'Native admins', admins: [], members: [], groups: [] }),
      upsert(alice, 'groupMembership', { groups: [ldap] }),
      upsert(alice, 'nativeGroupMembership', { nativeGroups: [native] }),
    ],
    opts,
  );
  const types = '["IsMemberOfGroup", "IsMemberOfNativeGroup"]';
  const r = await stack.graphql(
    `{ corpUser(urn: "${alice}") { relationships(input: {types: ${types}, direction: OUTGOING}) {
        total relationships { type entity { urn ... on CorpGroup { name properties { displayName } } } } } }
      corpGroup(urn: "${ldap}") { relationships(input: {types: ${types}, direction: INCOMING}) { total relationships { entity { urn } } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  const groups = r.body.data.corpUser.relationships;
  expect(groups.total).toBe(2);
  expect(
    new Set(
      groups.relationships.map(
        (g: { type: string; entity: { urn: string; properties: { displayName: string } } }) =>
          `${g.type} ${g.entity.urn} ${g.entity.properties.displayName}`,
      ),
    ),
  ).toEqual(new Set([`IsMemberOfGroup ${ldap} LDAP analysts`, `IsMemberOfNativeGroup ${native} Native admins`]));
  expect(r.body.data.corpGroup.relationships).toEqual({ total: 1, relationships: [{ entity: { urn: alice } }] });
});

test('lineage(input) is one hop with the DataHub relationship name', async () => {
  const r = await stack.graphql(
    `{ dataset(urn: "${ds}") {
    upstream: lineage(input: {direction: UPSTREAM}) { start count total filtered relationships { type degree isManual entity { urn } updatedOn } }
    downstream: lineage(input: {direction: DOWNSTREAM}) { total relationships { type degree entity { urn type } } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataset.upstream).toEqual({
    start: 0,
    count: 1,
    total: 1,
    filtered: 0,
    relationships: [{ type: 'DownstreamOf', degree: 1, isManual: false, entity: { urn: up }, updatedOn: T0 }],
  });
  expect(r.body.data.dataset.downstream).toEqual({
    total: 1,
    relationships: [{ type: 'DerivedFrom', degree: 1, entity: { urn: pk, type: 'MLPRIMARY_KEY' } }],
  });
});

test('Dataset.fineGrainedLineages maps schemaField urns to (parent, fieldPath) and datasets to path ""', async () => {
  const r = await stack.graphql(
    `{ dataset(urn: "${ds}") { fineGrainedLineages { upstreams { urn path } downstreams { urn path } transformOperation query } } }`,
    reader,
  );
  expect(r.body.data.dataset.fineGrainedLineages).toEqual([
    { upstreams: [{ urn: up, path: 'id' }], downstreams: [{ urn: ds, path: 'order_id' }], transformOperation: 'IDENTITY', query: null },
    { upstreams: [{ urn: up, path: '' }], downstreams: [{ urn: ds, path: 'total' }], transformOperation: null, query: null },
  ]);
  const none = await stack.graphql(`{ dataset(urn: "${up}") { fineGrainedLineages { query } } }`, reader);
  expect(none.body.data.dataset.fineGrainedLineages).toBeNull();
});

test('schemaField resolves its parent; aspects returns stored rows as JSON text', async () => {
  const field = ns.field(ds, 'order_id');
  const f = await stack.graphql(`{ schemaField(urn: "${field}") { urn type fieldPath exists parent { urn type } } }`, reader);
  expect(f.body.data.schemaField).toEqual({
    urn: field,
    type: 'SCHEMA_FIELD',
    fieldPath: 'order_id',
    exists: true,
    parent: { urn: ds, type: 'DATASET' },
  });
  const a = await stack.graphql(
    `{ dataset(urn: "${ds}") { aspects(input: {aspectNames: ["datasetProperties", "datasetKey"]}) { aspectName payload } } }`,
    reader,
  );
  const rows = a.body.data.dataset.aspects as Array<{ aspectName: string; payload: string }>;
  expect(rows.map((x) => x.aspectName).sort()).toEqual(['datasetKey', 'datasetProperties']);
  expect(JSON.parse(rows.find((x) => x.aspectName === 'datasetProperties')!.payload)).toMatchObject({
    name: 'Orders',
    description: 'all orders',
  });
});
