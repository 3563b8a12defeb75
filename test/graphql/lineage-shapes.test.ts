// Lineage through the front door in the shapes DataHub's clients read: the SDK v2 lineage
// document (with DataJob.dataPlatformInstance), column starts lifted by scroll whatever the
// groupingSpec, kept or lifted by search as the spec says, vias rendered inside paths, counts, and
// column lineage from a table into a chart's fields.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqlin');
const T0 = 1_700_000_000_000;
const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved: T0 },
});
const f = (ds: string, path: string) => ns.field(ds, path);
const orders = ns.dataset('orders'),
  revenue = ns.dataset('revenue');
const query = `urn:li:query:${ns.platform}_rollup`;
const chart = ns.chart('revenue_chart');
const schema = (...paths: string[]) => ({
  schemaName: 's',
  platform: `urn:li:dataPlatform:${ns.platform}`,
  version: 0,
  hash: '',
  platformSchema: {},
  fields: paths.map((fieldPath) => ({ fieldPath, nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } })),
});

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  const opts = { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' as const, now: T0 };
  await writeAspects(
    stack.store,
    [
      upsert(orders, 'schemaMetadata', schema('id', 'amount')),
      upsert(revenue, 'schemaMetadata', schema('total')),
      upsert(query, 'queryProperties', { statement: { value: 'SELECT sum(amount) FROM orders', language: 'SQL' }, source: 'SYSTEM' }),
      upsert(chart, 'chartInfo', { title: 'Revenue', description: '', lastModified: {}, inputs: [{ string: revenue }] }),
    ],
    opts,
  );
  await writeAspects(
    stack.store,
    [
      upsert(revenue, 'upstreamLineage', {
        upstreams: [{ dataset: orders, type: 'TRANSFORMED', query }],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            upstreams: [f(orders, 'amount')],
            downstreamType: 'FIELD',
            downstreams: [f(revenue, 'total')],
            query,
          },
        ],
      }),
      upsert(chart, 'inputFields', {
        fields: [
          { schemaFieldUrn: f(revenue, 'total'), schemaField: { fieldPath: 'sum_total', nativeDataType: 'int', type: { type: {} } } },
        ],
      }),
    ],
    opts,
  );
});
afterAll(async () => {
  await stack.close();
});

// The document DataHubClient.lineage.get_lineage sends (acryl-datahub 1.7), with its column variables.
const SDK_V2 = `query scrollAcrossLineage($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {
  nextScrollId searchResults { degree entity { urn type
    ... on Dataset { name platform { name } properties { description } }
    ... on DataJob { jobId dataPlatformInstance { platform { name } } properties { name description } } }
  paths { path { urn type } } } } }`;

test('the SDK v2 lineage document validates; a column start is lifted by scroll whatever the groupingSpec, paths keep the columns', async () => {
  const r = await stack.graphql(SDK_V2, reader, {
    variables: {
      input: {
        urn: f(orders, 'amount'),
        direction: 'DOWNSTREAM',
        count: 500,
        types: null,
        orFilters: [
          {
            and: [
              { field: 'degree', condition: 'EQUAL', values: ['1', '2', '3+'] },
              { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
            ],
          },
        ],
        searchFlags: { groupingSpec: { groupingCriteria: { baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'SCHEMA_FIELD' } } },
      },
    },
  });
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.scrollAcrossLineage.searchResults).toEqual([
    {
      degree: 1,
      entity: { urn: revenue, type: 'DATASET', name: 'revenue', platform: { name: ns.platform }, properties: null },
      paths: [
        {
          path: [
            { urn: f(orders, 'amount'), type: 'SCHEMA_FIELD' },
            { urn: query, type: 'QUERY' },
            { urn: f(revenue, 'total'), type: 'SCHEMA_FIELD' },
          ],
        },
      ],
    },
    // Column impact reaches the chart's own field, lifted onto the chart.
    {
      degree: 2,
      entity: { urn: chart, type: 'CHART' },
      paths: [
        {
          path: [
            { urn: f(orders, 'amount'), type: 'SCHEMA_FIELD' },
            { urn: query, type: 'QUERY' },
            { urn: f(revenue, 'total'), type: 'SCHEMA_FIELD' },
            { urn: `urn:li:schemaField:(${chart},sum_total)`, type: 'SCHEMA_FIELD' },
          ],
        },
      ],
    },
  ]);
});

test('searchAcrossLineage keeps columns unless the groupingSpec lifts them (or there is none); count is the page size', async () => {
  const SEARCH = `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) { count total searchResults { degree entity { urn } } } }`;
  const run = async (searchFlags?: unknown) =>
    (
      await stack.graphql(SEARCH, reader, {
        variables: {
          input: {
            urn: f(orders, 'amount'),
            direction: 'DOWNSTREAM',
            count: 7,
            ...(searchFlags ? { searchFlags } : {}),
          },
        },
      })
    ).body.data.searchAcrossLineage;
  const kept = await run({ groupingSpec: { groupingCriteria: [] } });
  expect(kept).toEqual({
    count: 7,
    total: 2,
    searchResults: [
      { degree: 1, entity: { urn: f(revenue, 'total') } },
      { degree: 2, entity: { urn: `urn:li:schemaField:(${chart},sum_total)` } },
    ],
  });
  const lifted = {
    count: 7,
    total: 2,
    searchResults: [
      { degree: 1, entity: { urn: revenue } },
      { degree: 2, entity: { urn: chart } },
    ],
  };
  expect(await run({ groupingSpec: { groupingCriteria: [{ baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'DATASET' }] } })).toEqual(
    lifted,
  );
  expect(await run({ skipCache: true })).toEqual(lifted);
});

test('searchAcrossLineageCounts answers a total', async () => {
  const COUNTS = `query($input: SearchAcrossLineageCountsInput!) { searchAcrossLineageCounts(input: $input) { total } }`;
  const r = await stack.graphql(COUNTS, reader, {
    variables: { input: { urn: f(revenue, 'total'), direction: 'UPSTREAM', types: ['SCHEMA_FIELD'], includeGhostEntities: true } },
  });
  expect(r.body.data).toEqual({ searchAcrossLineageCounts: { total: 1 } });
  const bad = await stack.graphql(COUNTS, reader, {
    variables: {
      input: {
        urn: f(revenue, 'total'),
        direction: 'UPSTREAM',
        includeGhostEntities: true,
        orFilters: [{ and: [{ field: 'description', condition: 'CONTAIN', values: ['x'] }] }],
      },
    },
  });
  expect(bad.body.errors[0]).toMatchObject({ message: expect.stringContaining('filters on description'), extensions: { code: 400 } });
});

test("a chart's column is an entity of its own: GraphQL entity, its parent, its one-hop lineage", async () => {
  const column = `urn:li:schemaField:(${chart},sum_total)`;
  const r = await stack.graphql(
    `{ entity(urn: "${column}") { urn type ... on SchemaFieldEntity { fieldPath parent { urn type }
    lineage(input: {direction: UPSTREAM}) { total relationships { type entity { urn } } } } } }`,
    reader,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.entity).toEqual({
    urn: column,
    type: 'SCHEMA_FIELD',
    fieldPath: 'sum_total',
    parent: { urn: chart, type: 'CHART' },
    lineage: { total: 1, relationships: [{ type: 'DownstreamOf', entity: { urn: f(revenue, 'total') } }] },
  });
});
