// What DataHub's SDK reads through GraphQL besides lineage: tags, glossaryTerms, ownership, domain
// and container on the modelled types (from the stored aspects, null without them), Chart and
// Dashboard inputFields, and scrollAcrossEntities (the SDK's get_urns_by_filter / DataHubClient.search).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqf');
const ds = ns.dataset('orders');
const bare = ns.dataset('bare');
const chart = ns.chart('weekly');
const dash = ns.dashboard('board');
const flow = ns.flow('daily');
const job = ns.job(flow, 'load');
const tag = `urn:li:tag:${ns.platform}_pii`;
const term = `urn:li:glossaryTerm:${ns.platform}.Revenue`;
const user = ns.user('alice');
const group = `urn:li:corpGroup:${ns.platform}_team`;
const domain = `urn:li:domain:${ns.platform}_sales`;
const container = `urn:li:container:${ns.platform}_schema`;
const stamp = { time: 0, actor: 'urn:li:corpuser:x' };
const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const described = (urn: string) => [
  upsert(urn, 'globalTags', { tags: [{ tag }] }),
  upsert(urn, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: stamp }),
  upsert(urn, 'ownership', {
    owners: [
      { owner: user, type: 'TECHNICAL_OWNER' },
      { owner: group, type: 'SOMETHING_NEW' },
    ],
    lastModified: stamp,
  }),
  upsert(urn, 'domains', { domains: [domain] }),
  upsert(urn, 'container', { container }),
];

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  const field = {
    fieldPath: 'amount',
    nativeDataType: 'DOUBLE',
    type: { type: { 'com.linkedin.schema.NumberType': {} } },
    nullable: false,
    recursive: false,
  };
  await writeAspects(
    stack.store,
    [
      upsert(tag, 'tagProperties', { name: 'PII', description: 'personal', colorHex: '#f00' }),
      upsert(term, 'glossaryTermInfo', { name: 'Revenue', definition: 'money in', termSource: 'INTERNAL' }),
      upsert(group, 'corpGroupInfo', { displayName: 'Team', email: 't@x', admins: [], members: [], groups: [] }),
      upsert(domain, 'domainProperties', { name: 'Sales' }),
      upsert(container, 'containerProperties', { name: 'schema_a' }),
      upsert(container, 'dataPlatformInstance', { platform: `urn:li:dataPlatform:${ns.platform}` }),
      upsert(ds, 'datasetProperties', { name: 'orders' }),
      ...described(ds),
      upsert(bare, 'datasetProperties', { name: 'bare' }),
      upsert(chart, 'chartInfo', { title: 'Weekly', description: '', lastModified: { created: stamp, lastModified: stamp } }),
      upsert(chart, 'inputFields', { fields: [{ schemaFieldUrn: `urn:li:schemaField:(${ds},amount)`, schemaField: field }] }),
      ...described(chart),
      upsert(dash, 'dashboardInfo', { title: 'Board', description: '', lastModified: { created: stamp, lastModified: stamp } }),
      upsert(flow, 'dataFlowInfo', { name: 'daily' }),
      upsert(job, 'dataJobInfo', { name: 'load', type: 'COMMAND' }),
      ...described(job),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );
});
afterAll(async () => {
  await stack.close();
});

const FIELDS = `
  tags { tags { tag { urn type name properties { name description colorHex } } associatedUrn } }
  glossaryTerms { terms { term { urn name hierarchicalName properties { name definition description } } } }
  ownership { owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name properties { displayName email } } } type } }
  domain { domain { urn id properties { name description } } }
  container { urn properties { name } platform { urn } }`;

test('tags, glossaryTerms, ownership, domain, container from the stored aspects; null without them', async () => {
  const r = await stack.graphql(
    `query($a: String!, $b: String!, $j: String!, $f: String!) {
    a: dataset(urn: $a) { ${FIELDS} } b: dataset(urn: $b) { ${FIELDS} } j: dataJob(urn: $j) { ${FIELDS} } f: dataFlow(urn: $f) { ${FIELDS} } }`,
    reader,
    { variables: { a: ds, b: bare, j: job, f: flow } },
  );
  expect(r.body.errors).toBeUndefined();
  const a = r.body.data.a;
  expect(a.tags).toEqual({
    tags: [
      {
        tag: { urn: tag, type: 'TAG', name: 'PII', properties: { name: 'PII', description: 'personal', colorHex: '#f00' } },
        associatedUrn: ds,
      },
    ],
  });
  expect(a.glossaryTerms.terms[0].term).toEqual({
    urn: term,
    name: `${ns.platform}.Revenue`,
    hierarchicalName: `${ns.platform}.Revenue`,
    properties: { name: 'Revenue', definition: 'money in', description: 'money in' },
  });
  expect(a.ownership.owners).toEqual([
    { owner: { urn: user, username: `${ns.platform}_alice` }, type: 'TECHNICAL_OWNER' },
    { owner: { urn: group, name: `${ns.platform}_team`, properties: { displayName: 'Team', email: 't@x' } }, type: null },
  ]);
  expect(a.domain).toEqual({ domain: { urn: domain, id: `${ns.platform}_sales`, properties: { name: 'Sales', description: null } } });
  expect(a.container).toEqual({
    urn: container,
    properties: { name: 'schema_a' },
    platform: { urn: `urn:li:dataPlatform:${ns.platform}` },
  });
  expect(r.body.data.j.tags.tags[0].tag.urn).toBe(tag);
  for (const empty of [r.body.data.b, r.body.data.f])
    expect(empty).toEqual({ tags: null, glossaryTerms: null, ownership: null, domain: null, container: null });
});

test('Chart.inputFields and Dashboard.inputFields', async () => {
  const r = await stack.graphql(
    `query($c: String!, $d: String!) {
    chart(urn: $c) { inputFields { fields { schemaFieldUrn schemaField { fieldPath type nativeDataType } } } ${FIELDS} }
    dashboard(urn: $d) { inputFields { fields { schemaFieldUrn } } } }`,
    reader,
    { variables: { c: chart, d: dash } },
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.chart.inputFields).toEqual({
    fields: [
      {
        schemaFieldUrn: `urn:li:schemaField:(${ds},amount)`,
        schemaField: { fieldPath: 'amount', type: 'NUMBER', nativeDataType: 'DOUBLE' },
      },
    ],
  });
  expect(r.body.data.chart.domain.domain.urn).toBe(domain);
  expect(r.body.data.dashboard.inputFields).toBeNull();
});

test('scrollAcrossEntities pages with nextScrollId; orFilters, sort and unknown sort fields', async () => {
  const SCROLL = `query($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) {
    nextScrollId count total searchResults { entity { urn } extraProperties { name value } } } }`;
  const input = {
    query: '*',
    types: ['DATASET'],
    count: 1,
    orFilters: [{ and: [{ field: 'platform', values: [ns.platform] }] }],
    sortInput: { sortCriteria: [{ field: 'urn', sortOrder: 'ASCENDING' }] },
  };
  const first = await stack.graphql(SCROLL, reader, { variables: { input } });
  expect(first.body.errors).toBeUndefined();
  const page1 = first.body.data.scrollAcrossEntities;
  expect(page1).toMatchObject({ count: 1, total: 2, searchResults: [{ entity: { urn: [ds, bare].sort()[0] }, extraProperties: [] }] });
  const second = (await stack.graphql(SCROLL, reader, { variables: { input: { ...input, scrollId: page1.nextScrollId } } })).body.data
    .scrollAcrossEntities;
  expect(second.searchResults.map((x: any) => x.entity.urn)).toEqual([[ds, bare].sort()[1]]);
  expect(second.nextScrollId).toBeNull();
  const bad = await stack.graphql(SCROLL, reader, {
    variables: { input: { ...input, sortInput: { sortCriteria: [{ field: 'lastModifiedAt', sortOrder: 'ASCENDING' }] } } },
  });
  expect(bad.body.errors[0]).toMatchObject({
    message: expect.stringContaining("Unknown sort field 'lastModifiedAt'"),
    extensions: { code: 400 },
  });
});

test('entity(urn) renders tags, terms, groups, domains and containers as their types', async () => {
  const r = await stack.graphql(`query($urns: [String!]!) { entities(urns: $urns) { urn type } }`, reader, {
    variables: { urns: [tag, term, group, domain, container] },
  });
  expect(r.body.data.entities.map((e: any) => e.type)).toEqual(['TAG', 'GLOSSARY_TERM', 'CORP_GROUP', 'DOMAIN', 'CONTAINER']);
});
