// DataHub's entity surface generated from the descriptors and surface/aspect-fields.ts, read through
// the front door on a real Neo4j: aspect fields answer from the stored aspects, and an entity without
// the aspect answers what DataHub's schema says (null, or an empty list), never an error.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqs');
const ds = ns.dataset('orders');
const bare = ns.dataset('bare');
const owner = 'urn:li:corpuser:gqs_alice';
const ownershipType = 'urn:li:ownershipType:gqs_steward';
const term = 'urn:li:glossaryTerm:gqs_revenue';
const node = 'urn:li:glossaryNode:gqs_finance';
const rootNode = 'urn:li:glossaryNode:gqs_company';
// Unique per run, as the datasets are: a domain lists every entity ever put in it.
const domain = `urn:li:domain:${ns.platform}_sales`;
const parentDomain = 'urn:li:domain:gqs_business';
const property = 'urn:li:structuredProperty:gqs.retention';
const query = 'urn:li:query:gqs_q1';
const T0 = 1_700_000_000_000;

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved: T0 },
});

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await writeAspects(
    stack.store,
    [
      upsert(ds, 'datasetProperties', { name: 'Orders' }),
      upsert(bare, 'datasetProperties', { name: 'Bare' }),
      upsert(ds, 'deprecation', { deprecated: true, note: 'use orders_v2', decommissionTime: T0, actor: owner }),
      upsert(ds, 'subTypes', { typeNames: ['Table'] }),
      upsert(ds, 'editableDatasetProperties', { description: 'edited text' }),
      upsert(ds, 'ownership', { owners: [{ owner, type: 'CUSTOM', typeUrn: ownershipType }] }),
      upsert(ownershipType, 'ownershipTypeInfo', { name: 'Steward', description: 'looks after it' }),
      upsert(owner, 'corpUserInfo', { active: true, displayName: 'Alice', email: 'alice@example.com' }),
      upsert(ds, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: { time: T0, actor: owner } }),
      upsert(term, 'glossaryTermInfo', { name: 'Revenue', definition: 'money in', termSource: 'INTERNAL', parentNode: node }),
      upsert(node, 'glossaryNodeInfo', { name: 'Finance', definition: 'finance terms', parentNode: rootNode }),
      upsert(rootNode, 'glossaryNodeInfo', { name: 'Company', definition: 'all terms' }),
      upsert(ds, 'domains', { domains: [domain] }),
      upsert(domain, 'domainProperties', { name: 'Sales', parentDomain }),
      upsert(parentDomain, 'domainProperties', { name: 'Business' }),
      upsert(ds, 'structuredProperties', { properties: [{ propertyUrn: property, values: [{ string: '90d' }, { double: 3 }] }] }),
      upsert(property, 'propertyDefinition', {
        qualifiedName: 'gqs.retention',
        displayName: 'Retention',
        valueType: 'urn:li:dataType:datahub.string',
        entityTypes: ['urn:li:entityType:datahub.dataset'],
      }),
      upsert(ds, 'schemaMetadata', {
        schemaName: 'orders',
        platform: `urn:li:dataPlatform:${ns.platform}`,
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: 'CREATE TABLE orders (id int)' } },
        fields: [
          {
            fieldPath: 'id',
            nativeDataType: 'int',
            type: { type: { 'com.linkedin.schema.NumberType': {} } },
            isPartitioningKey: true,
            globalTags: { tags: [{ tag: 'urn:li:tag:gqs_pii' }] },
          },
        ],
      }),
      upsert(query, 'queryProperties', {
        statement: { value: 'SELECT id FROM orders', language: 'SQL' },
        source: 'MANUAL',
        created: { time: T0, actor: owner },
        lastModified: { time: T0, actor: owner },
      }),
      upsert(query, 'querySubjects', { subjects: [{ entity: ds }, { entity: `urn:li:schemaField:(${ds},id)` }] }),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed', now: T0 },
  );
});
afterAll(async () => {
  await stack.close();
});

const ENTITY_FIELDS = `deprecation { deprecated note decommissionTime actorEntity { urn } }
  subTypes { typeNames } editableProperties { description } health { type status } statsSummary { queryCountLast30Days }
  ownership { owners { owner { ... on CorpUser { urn properties { displayName email active } } } type ownershipType { urn info { name description } } } }
  glossaryTerms { terms { term { urn properties { name } parentNodes { count nodes { urn properties { name } } } } } }
  domain { domain { urn properties { name } parentDomains { count domains { urn } } } }
  structuredProperties { properties { structuredProperty { urn definition { qualifiedName displayName valueType { urn } entityTypes { urn info { type } } } }
    values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } }
  relatedDocuments(input: {}) { total documents { urn } }`;

test('aspect fields answer from the stored aspects, entities they name resolve through their own aspects', async () => {
  const r = await stack.graphql(`{ dataset(urn: "${ds}") { ${ENTITY_FIELDS} } }`, reader);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataset).toEqual({
    deprecation: { deprecated: true, note: 'use orders_v2', decommissionTime: T0, actorEntity: { urn: owner } },
    subTypes: { typeNames: ['Table'] },
    editableProperties: { description: 'edited text' },
    health: [],
    statsSummary: null,
    ownership: {
      owners: [
        {
          owner: { urn: owner, properties: { displayName: 'Alice', email: 'alice@example.com', active: true } },
          type: 'CUSTOM',
          ownershipType: { urn: ownershipType, info: { name: 'Steward', description: 'looks after it' } },
        },
      ],
    },
    glossaryTerms: {
      terms: [
        {
          term: {
            urn: term,
            properties: { name: 'Revenue' },
            parentNodes: {
              count: 2,
              nodes: [
                { urn: node, properties: { name: 'Finance' } },
                { urn: rootNode, properties: { name: 'Company' } },
              ],
            },
          },
        },
      ],
    },
    domain: { domain: { urn: domain, properties: { name: 'Sales' }, parentDomains: { count: 1, domains: [{ urn: parentDomain }] } } },
    structuredProperties: {
      properties: [
        {
          structuredProperty: {
            urn: property,
            definition: {
              qualifiedName: 'gqs.retention',
              displayName: 'Retention',
              valueType: { urn: 'urn:li:dataType:datahub.string' },
              entityTypes: [{ urn: 'urn:li:entityType:datahub.dataset', info: { type: 'DATASET' } }],
            },
          },
          values: [{ stringValue: '90d' }, { numberValue: 3 }],
        },
      ],
    },
    relatedDocuments: { total: 0, documents: [] },
  });
});

test('an entity without the aspects answers null or an empty list, not an error', async () => {
  const r = await stack.graphql(`{ dataset(urn: "${bare}") { ${ENTITY_FIELDS} } }`, reader);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataset).toEqual({
    deprecation: null,
    subTypes: null,
    editableProperties: null,
    health: [],
    statsSummary: null,
    ownership: null,
    glossaryTerms: null,
    domain: null,
    structuredProperties: null,
    relatedDocuments: { total: 0, documents: [] },
  });
});

test('schema fields: platform schema, partitioning key, field tags and the column entity', async () => {
  const r = await stack.graphql(
    `{ dataset(urn: "${ds}") { schemaMetadata { platformSchema { __typename ... on TableSchema { schema } }
    fields { fieldPath isPartitioningKey tags { tags { tag { urn } } } schemaFieldEntity { urn fieldPath } } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.dataset.schemaMetadata).toEqual({
    platformSchema: { __typename: 'TableSchema', schema: 'CREATE TABLE orders (id int)' },
    fields: [
      {
        fieldPath: 'id',
        isPartitioningKey: true,
        tags: { tags: [{ tag: { urn: 'urn:li:tag:gqs_pii' } }] },
        schemaFieldEntity: { urn: `urn:li:schemaField:(${ds},id)`, fieldPath: 'id' },
      },
    ],
  });
});

test('listQueries finds the queries whose subjects name a dataset; a domain lists its entities', async () => {
  const r = await stack.graphql(
    `{ listQueries(input: { datasetUrn: "${ds}", start: 0, count: 10 }) { total queries { urn
      properties { statement { value language } source } subjects { dataset { urn } schemaField { fieldPath } } platform { urn } } }
    none: listQueries(input: { datasetUrn: "${bare}" }) { total }
    domain(urn: "${domain}") { entities(input: { start: 0, count: 10 }) { total searchResults { entity { urn } } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.listQueries).toEqual({
    total: 1,
    queries: [
      {
        urn: query,
        properties: { statement: { value: 'SELECT id FROM orders', language: 'SQL' }, source: 'MANUAL' },
        subjects: [
          { dataset: { urn: ds }, schemaField: null },
          { dataset: { urn: ds }, schemaField: { fieldPath: 'id' } },
        ],
        platform: { urn: `urn:li:dataPlatform:${ns.platform}` },
      },
    ],
  });
  expect(r.body.data.none).toEqual({ total: 0 });
  expect(r.body.data.domain.entities).toEqual({ total: 1, searchResults: [{ entity: { urn: ds } }] });
});

test('me, globalViewsSettings, appConfig and semantic search answering as DataHub does when it is disabled', async () => {
  const r = await stack.graphql(
    '{ me { corpUser { urn username } platformPrivileges { manageTokens generatePersonalAccessTokens } } globalViewsSettings { defaultView } }',
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data).toEqual({
    me: {
      corpUser: { urn: ns.user('reader'), username: ns.user('reader').slice('urn:li:corpuser:'.length) },
      platformPrivileges: { manageTokens: false, generatePersonalAccessTokens: true },
    },
    globalViewsSettings: { defaultView: null },
  });
  const s = await stack.graphql('{ semanticSearchAcrossEntities(input: { query: "orders" }) { total } }', reader);
  expect(s.body.errors?.[0]?.message).toBe('Semantic search is disabled in this environment');
  // What `datahub search diagnose` asks before it searches.
  const config = await stack.graphql(
    '{ appConfig { telemetryConfig { enableThirdPartyLogging } semanticSearchConfig { enabled enabledEntities embeddingConfig { provider } } } }',
    reader,
  );
  expect(config.body.errors).toBeUndefined();
  expect(config.body.data).toEqual({
    appConfig: {
      telemetryConfig: { enableThirdPartyLogging: false },
      semanticSearchConfig: { enabled: false, enabledEntities: [], embeddingConfig: null },
    },
  });
});
