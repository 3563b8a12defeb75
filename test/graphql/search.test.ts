// searchAcrossEntities through the front door: words split as DataHub's analyzer splits them
// (`.`, `_`, `-`, `/`, case), prefix matching over name, qualified name, description and urn;
// synonyms; the exact urn first; types filter; paging with a real total; facets with real counts;
// ghosts, soft-deleted entities and Lucene syntax in user text handled.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { luceneQueryOf } from '../../catalog/src/read/entity-search.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqs');
const created = ns.dataset('fct_users_created');
const deleted = ns.dataset('fct_users_deleted');
const removed = ns.dataset('fct_users_gone');
const flow = ns.flow('daily');
const job = ns.job(flow, 'fct_users_loader');

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await writeAspects(
    stack.store,
    [
      upsert(created, 'datasetProperties', { name: 'fct_users_created', description: `signups on ${ns.platform}` }),
      upsert(deleted, 'datasetProperties', { name: 'fct_users_deleted', description: `churn on ${ns.platform}` }),
      upsert(removed, 'datasetProperties', { name: 'fct_users_gone', description: `old on ${ns.platform}` }),
      upsert(removed, 'status', { removed: true }),
      upsert(job, 'dataJobInfo', { name: 'fct_users_loader', type: 'COMMAND', description: `loads ${ns.platform}` }),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );
});
afterAll(async () => {
  await stack.close();
});

const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  start count total searchResults { entity { urn type } matchedFields { name } } } }`;

async function search(input: Record<string, unknown>) {
  const r = await stack.graphql(SEARCH, reader, { variables: { input } });
  expect(r.status).toBe(200);
  return r.body;
}

test('every token must match as a prefix; soft-deleted and ghost entities are left out', async () => {
  const body = await search({ query: `${ns.platform} fct_users` });
  const urns = body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  expect(urns).toEqual([created, deleted, job].sort());
  expect(body.data.searchAcrossEntities.total).toBe(3);
});

test('types filter and paging with the total of all matches', async () => {
  const first = await search({ query: `${ns.platform} fct_users`, types: ['DATASET'], start: 0, count: 1 });
  const second = await search({ query: `${ns.platform} fct_users`, types: ['DATASET'], start: 1, count: 1 });
  const page = (b: any) => b.data.searchAcrossEntities;
  expect(page(first)).toMatchObject({ start: 0, count: 1, total: 2 });
  expect(page(second)).toMatchObject({ start: 1, count: 1, total: 2 });
  expect(new Set([page(first).searchResults[0].entity.urn, page(second).searchResults[0].entity.urn])).toEqual(new Set([created, deleted]));
  expect((await search({ query: `${ns.platform}`, types: ['DATA_JOB'] })).data.searchAcrossEntities.searchResults).toEqual([
    { entity: { urn: job, type: 'DATA_JOB' }, matchedFields: [] },
  ]);
});

test('Lucene syntax in user text is literal, never an error', async () => {
  for (const q of ['fct_users AND (', '"unbalanced', 'a:b/c~2^3', '*', '   ']) {
    const body = await search({ query: q });
    expect(body.errors).toBeUndefined();
  }
  expect(luceneQueryOf('a:b (c)')).toBe('+a* +b* +c*');
  expect(luceneQueryOf(' * ')).toBeUndefined();
});

test("search(input) for one type, with DataHub's orFilters: hasUpstreams, platform.keyword, removed, unknown fields", async () => {
  const upstream = ns.dataset('fct_users_source');
  await writeAspects(
    stack.store,
    [
      upsert(upstream, 'datasetProperties', { name: 'fct_users_source' }),
      upsert(created, 'upstreamLineage', { upstreams: [{ dataset: upstream, type: 'TRANSFORMED' }] }),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' },
  );
  const SINGLE = `query($input: SearchInput!) { search(input: $input) { total searchResults { entity { urn } } } }`;
  const run = async (input: Record<string, unknown>) => (await stack.graphql(SINGLE, reader, { variables: { input } })).body;
  const urns = (b: any) => b.data.search.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  const filter = (field: string, values: string[], extra: Record<string, unknown> = {}) => ({
    orFilters: [{ and: [{ field, values, condition: 'EQUAL', ...extra }] }],
  });
  const mine = { type: 'DATASET', query: ns.platform, start: 0, count: 10 };
  expect(urns(await run({ ...mine, ...filter('hasUpstreams', ['true']) }))).toEqual([created]);
  expect(urns(await run({ ...mine, ...filter('hasUpstreams', ['true'], { negated: true }) }))).toEqual([deleted, upstream].sort());
  expect(urns(await run({ ...mine, ...filter('platform.keyword', [`urn:li:dataPlatform:${ns.platform}`]) }))).toEqual(
    [created, deleted, upstream].sort(),
  );
  // Soft-deleted entities only when the filter on `removed` asks for them.
  expect(urns(await run({ ...mine, ...filter('removed', ['true']) }))).toEqual([removed]);
  expect(urns(await run({ ...mine, ...filter('removed', ['true'], { negated: true }) }))).toEqual([created, deleted, upstream].sort());
  const unknown = await run({ ...mine, ...filter('colour', ['red']) });
  expect(unknown.errors[0]).toMatchObject({ message: expect.stringContaining("Unknown filter field 'colour'"), extensions: { code: 400 } });
});

describe('words as DataHub splits them', () => {
  const ws = namespace('gqw');
  const orders = ws.dataset('analytics.fct_orders');
  const revenue = ws.dataset('analytics.fct_revenue_daily');
  const stg = ws.dataset('raw.stg_customers');
  const staging = ws.dataset('staging.payments');
  const smoke = [1, 2].map((i) => ws.dataset(`search_smoke_test-88fc650f_${i}`));
  const camel = ws.dataset('CustomerLifetimeValue', 'DEV');
  const chart = ws.chart('weekly');
  const ordersEnv = ws.dataset('fct_orders', 'DEV');

  beforeAll(async () => {
    await writeAspects(
      stack.store,
      [
        upsert(orders, 'datasetProperties', { name: 'fct_orders', qualifiedName: 'analytics.fct_orders' }),
        upsert(orders, 'subTypes', { typeNames: ['Table'] }),
        upsert(revenue, 'datasetProperties', { name: 'fct_revenue_daily' }),
        upsert(revenue, 'subTypes', { typeNames: ['View'] }),
        upsert(stg, 'datasetProperties', { name: 'stg_customers' }),
        upsert(staging, 'datasetProperties', { name: 'payments', qualifiedName: 'staging.payments' }),
        ...smoke.map((u) => upsert(u, 'status', { removed: false })),
        upsert(camel, 'datasetProperties', { name: 'CustomerLifetimeValue' }),
        upsert(chart, 'chartInfo', {
          title: 'Weekly orders',
          description: 'x',
          lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
        }),
        upsert(ordersEnv, 'datasetProperties', { name: 'fct_orders' }),
      ],
      { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
    );
  });

  const urnsOf = (b: any) => b.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
  const sorted = (a: string[]) => [...a].sort();

  test('a word inside a name: orders finds fct_orders, revenue finds fct_revenue_daily', async () => {
    expect(sorted(urnsOf(await search({ query: `${ws.platform} orders` })))).toEqual(sorted([orders, ordersEnv, chart]));
    expect(urnsOf(await search({ query: `revenue ${ws.platform}` }))).toEqual([revenue]);
    expect(urnsOf(await search({ query: `${ws.platform} rev` }))).toEqual([revenue]);
  });

  test('a hyphenated, underscored query finds the names that start with it', async () => {
    expect(
      sorted(urnsOf(await search({ query: `search_smoke_test-88fc650f`, types: ['DATASET'] }))).filter((u: string) =>
        u.includes(ws.platform),
      ),
    ).toEqual(sorted(smoke));
  });

  test('synonyms: staging finds stg_ names and staging.x qualified names', async () => {
    expect(sorted(urnsOf(await search({ query: `${ws.platform} staging` })))).toEqual(sorted([stg, staging]));
    expect(sorted(urnsOf(await search({ query: `${ws.platform} stg` })))).toEqual(sorted([stg, staging]));
  });

  test('case changes split words; a dotted piece matches whole or by its parts', async () => {
    expect(urnsOf(await search({ query: `${ws.platform} lifetime` }))).toEqual([camel]);
    expect(urnsOf(await search({ query: `${ws.platform} analytics.fct_revenue` }))).toEqual([revenue]);
  });

  test('the exact urn comes first, then the exact name', async () => {
    const hits = urnsOf(await search({ query: ordersEnv, count: 50 }));
    expect(hits[0]).toBe(ordersEnv);
    const byName = urnsOf(await search({ query: `fct_orders`, count: 1000 })).filter((u: string) => u.includes(ws.platform));
    expect(sorted(byName.slice(0, 2))).toEqual(sorted([orders, ordersEnv]));
  });

  test('facets count every match: _entityType, platform, origin, typeNames', async () => {
    const FACETS = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
      total facets { field displayName aggregations { value count entity { urn } } } } }`;
    const r = await stack.graphql(FACETS, reader, { variables: { input: { query: `${ws.platform} orders`, count: 1 } } });
    const result = r.body.data.searchAcrossEntities;
    expect(result.total).toBe(3);
    const facet = (field: string) => result.facets.find((f: { field: string }) => f.field === field);
    const counts = (field: string) =>
      Object.fromEntries(facet(field).aggregations.map((a: { value: string; count: number }) => [a.value, a.count]));
    expect(counts('_entityType')).toEqual({ DATASET: 2, CHART: 1 });
    expect(counts('platform')).toEqual({ [`urn:li:dataPlatform:${ws.platform}`]: 3 });
    expect(facet('platform').aggregations[0].entity).toEqual({ urn: `urn:li:dataPlatform:${ws.platform}` });
    expect(counts('origin')).toEqual({ PROD: 1, DEV: 1 });
    expect(counts('typeNames')).toEqual({ Table: 1 });
    // Filters narrow the counts as they narrow the total; skipAggregates leaves facets out.
    const filtered = await stack.graphql(FACETS, reader, {
      variables: {
        input: {
          query: `${ws.platform} orders`,
          orFilters: [{ and: [{ field: 'origin', values: ['DEV'] }] }],
        },
      },
    });
    expect(filtered.body.data.searchAcrossEntities.total).toBe(1);
    expect(filtered.body.data.searchAcrossEntities.facets.find((f: { field: string }) => f.field === 'origin').aggregations).toEqual([
      { value: 'DEV', count: 1, entity: null },
    ]);
    const skipped = await stack.graphql(FACETS, reader, {
      variables: { input: { query: ws.platform, searchFlags: { skipAggregates: true } } },
    });
    expect(skipped.body.data.searchAcrossEntities.facets).toEqual([]);
  });

  test('a filter on typeNames (the CLI entity_subtype) and sortInput by name, as DataHub sorts', async () => {
    const datasets = { query: ws.platform, types: ['DATASET'], count: 3 };
    const views = await search({ ...datasets, orFilters: [{ and: [{ field: 'typeNames', values: ['View'] }] }] });
    expect(urnsOf(views)).toEqual([revenue]);
    const notTables = await search({ ...datasets, orFilters: [{ and: [{ field: 'typeNames', values: ['Table'], negated: true }] }] });
    expect(urnsOf(notTables)).not.toContain(orders);
    // The sort key is the entity's name: its properties' name, else the key's.
    const NAMES = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
      searchResults { entity { ... on Dataset { name properties { name } } } } } }`;
    const byName = async (sortOrder: string, start: number) => {
      const input = {
        query: ws.platform,
        types: ['DATASET'],
        start,
        count: 3,
        sortInput: { sortCriteria: [{ field: 'name', sortOrder }] },
      };
      const r = await stack.graphql(NAMES, reader, { variables: { input } });
      return r.body.data.searchAcrossEntities.searchResults.map((x: any) => x.entity.properties?.name ?? x.entity.name);
    };
    const ascending = [...(await byName('ASCENDING', 0)), ...(await byName('ASCENDING', 3)), ...(await byName('ASCENDING', 6))];
    expect(ascending).toHaveLength(8);
    expect(ascending).toEqual([...ascending].sort());
    expect(ascending.slice(0, 3)).toEqual(['CustomerLifetimeValue', 'fct_orders', 'fct_orders']);
    expect((await byName('DESCENDING', 0))[0]).toBe(ascending[7]);
    const bad = await search({ ...datasets, sortInput: { sortCriteria: [{ field: 'lastOperationTime', sortOrder: 'ASCENDING' }] } });
    expect(bad.errors[0]).toMatchObject({
      message: expect.stringContaining("Unknown sort field 'lastOperationTime'"),
      extensions: { code: 400 },
    });
  });
});

test('needs READ', async () => {
  const r = await stack.graphql(SEARCH, null, { variables: { input: { query: 'x' } } });
  expect(r.status).toBe(401);
});
