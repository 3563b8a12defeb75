// Search as agents use it, through the front door on a real Neo4j: DataHub's structured syntax after
// `/q ` (fields, boolean operators, phrases, wildcards, escapes, ranges) on searchAcrossEntities and
// scrollAcrossEntities, and without the prefix on the OpenAPI v3 scroll's `query`; facets and filters on
// tags, glossaryTerms, domains and owners; a malformed query as a 400 naming the position; views with
// none configured (docs/wire-contract.md §Structured queries).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqq');
const p = ns.platform;
const orders = ns.dataset('analytics.sales.fct_orders');
const customers = ns.dataset('analytics.sales.dim_customers');
const events = ns.dataset('raw.events');
const gone = ns.dataset('raw.gone');
const chart = ns.chart('weekly_orders');
const job = ns.job(ns.flow('daily'), 'load_orders');
const tag = (n: string) => `urn:li:tag:${p}_${n}`;
const term = `urn:li:glossaryTerm:${p}.Revenue`;
const domain = (n: string) => `urn:li:domain:${p}_${n}`;
const jdoe = ns.user('jdoe');
const asmith = ns.user('asmith');

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const stamp = { time: 0, actor: 'urn:li:corpuser:seeder' };
const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: tag(n) })) });
const owners = (...urns: string[]) => ({ owners: urns.map((owner) => ({ owner, type: 'DATAOWNER' })), lastModified: stamp });

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await writeAspects(
    stack.store,
    [
      upsert(orders, 'datasetProperties', {
        name: 'fct_orders',
        qualifiedName: 'analytics.sales.fct_orders',
        description: 'Daily revenue by order',
      }),
      upsert(orders, 'subTypes', { typeNames: ['Table'] }),
      upsert(orders, 'globalTags', tags('pii')),
      upsert(orders, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: stamp }),
      upsert(orders, 'ownership', owners(jdoe)),
      upsert(orders, 'domains', { domains: [domain('finance')] }),
      upsert(customers, 'datasetProperties', { name: 'dim_customers', qualifiedName: 'analytics.sales.dim_customers' }),
      upsert(customers, 'subTypes', { typeNames: ['View'] }),
      upsert(customers, 'globalTags', tags('pii', 'gdpr')),
      upsert(customers, 'ownership', owners(asmith, jdoe)),
      upsert(customers, 'domains', { domains: [domain('marketing')] }),
      upsert(events, 'datasetProperties', { name: 'raw_events', qualifiedName: 'raw.events', description: 'clickstream (web)' }),
      upsert(events, 'ownership', owners(jdoe)),
      upsert(gone, 'datasetProperties', { name: 'raw_gone', qualifiedName: 'raw.gone' }),
      upsert(gone, 'status', { removed: true }),
      upsert(chart, 'globalTags', tags('gdpr')),
      upsert(job, 'dataJobInfo', { name: 'load_orders', type: 'COMMAND' }),
      // Lineage for the lineage searches: orders and events feed customers, which feeds the chart.
      upsert(customers, 'upstreamLineage', {
        upstreams: [orders, events].map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: stamp })),
      }),
      upsert(chart, 'chartInfo', {
        title: 'Weekly orders',
        description: 'orders per week',
        lastModified: { created: stamp, lastModified: stamp },
        inputs: [{ string: customers }],
      }),
    ],
    { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' },
  );
});
afterAll(async () => {
  await stack.close();
});

const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  total searchResults { entity { urn } } facets { field displayName aggregations { value count entity { urn } } } } }`;

async function search(input: Record<string, unknown>) {
  const r = await stack.graphql(SEARCH, reader, { variables: { input } });
  expect(r.status).toBe(200);
  return r.body;
}

/** The urns a structured query finds among this file's entities (every query is scoped to them). */
async function found(q: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const body = await search({ query: `/q (${q}) AND urn:*${p}*`, count: 100, ...extra });
  expect(body.errors).toBeUndefined();
  const result = body.data.searchAcrossEntities;
  const urns = result.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  expect(result.total).toBe(urns.length);
  return urns;
}
const sorted = (...u: string[]) => [...u].sort();

test('fields: name, qualifiedName with an escaped dot and a wildcard, platform, urn, entity type, typeNames', async () => {
  expect(await found('name:fct_orders')).toEqual([orders]);
  expect(await found('name:orders')).toEqual(sorted(orders, chart, job));
  expect(await found('qualifiedName:analytics\\.sales*')).toEqual(sorted(orders, customers));
  expect(await found('qualifiedName:raw\\.ev?nts')).toEqual([events]);
  expect(await found(`platform:${p} AND _entityType:DATASET`)).toEqual(sorted(orders, customers, events));
  expect(await found(`urn:${orders.replace(/[():,.]/g, '\\$&')}`)).toEqual([orders]);
  expect(await found('_entityType:CHART OR _entityType:DATA_JOB')).toEqual(sorted(chart, job));
  expect(await found('typeNames:View')).toEqual([customers]);
});

test('tags, glossaryTerms, domains, owners by urn or id; presence', async () => {
  expect(await found(`tags:${p}_pii`)).toEqual(sorted(orders, customers));
  expect(await found(`tags:${tag('gdpr').replaceAll(':', '\\:')}`)).toEqual(sorted(customers, chart));
  expect(await found(`glossaryTerms:${p}.Revenue`)).toEqual([orders]);
  expect(await found(`domains:${p}_marketing`)).toEqual([customers]);
  expect(await found(`owners:${p}_jdoe AND NOT owners:${p}_asmith`)).toEqual(sorted(orders, events));
  expect(await found('_exists_:domains')).toEqual(sorted(orders, customers));
  expect(await found('tags:*')).toEqual(sorted(orders, customers, chart));
});

test('AND/OR/NOT and their symbols, groups, phrases, terms without a field', async () => {
  expect(await found(`tags:${p}_pii -tags:${p}_gdpr`)).toEqual([orders]);
  expect(await found(`tags:${p}_pii && !tags:${p}_gdpr`)).toEqual([orders]);
  expect(await found(`(name:fct_orders || name:raw_events) +_entityType:dataset`)).toEqual(sorted(orders, events));
  expect(await found(`NOT _entityType:DATASET`)).toEqual(sorted(chart, job));
  expect(await found('description:"revenue by order"')).toEqual([orders]);
  expect(await found('description:"order by revenue"')).toEqual([]);
  expect(await found('clickstream')).toEqual([events]);
  expect(await found('description:\\(web\\)')).toEqual([events]);
});

test('ranges over text, open bounds, comparisons; soft-deleted entities only when removed is named', async () => {
  expect(await found('name:[dim_customers TO fct_orders]')).toEqual(sorted(orders, customers));
  expect(await found('name:{dim_customers TO fct_orders}')).toEqual([]);
  // The chart's name is its title, "Weekly orders".
  expect(await found(`name:[raw TO *] AND platform:${p}`)).toEqual(sorted(events, chart));
  expect(await found(`name:>=raw_ AND name:<weekly`)).toEqual([events]);
  expect(await found(`name:raw_*`)).toEqual([events]);
  expect(await found(`name:raw_* AND removed:true`)).toEqual([gone]);
});

test('scrollAcrossEntities pages a structured query', async () => {
  const SCROLL = `query($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) {
    nextScrollId total searchResults { entity { urn } } } }`;
  const input = { query: `/q platform:${p} AND _entityType:DATASET`, count: 2, types: ['DATASET'] };
  const first = (await stack.graphql(SCROLL, reader, { variables: { input } })).body.data.scrollAcrossEntities;
  expect(first.total).toBe(3);
  const second = (await stack.graphql(SCROLL, reader, { variables: { input: { ...input, scrollId: first.nextScrollId } } })).body.data
    .scrollAcrossEntities;
  expect(second.nextScrollId).toBeNull();
  const urns = [...first.searchResults, ...second.searchResults].map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  expect(urns).toEqual(sorted(orders, customers, events));
});

test("facets count tags, glossaryTerms, domains and owners with DataHub's names and entities", async () => {
  const result = (await search({ query: `/q platform:${p}`, count: 0 })).data.searchAcrossEntities;
  expect(result.total).toBe(5); // the job's platform is its flow's
  const facet = (field: string) => result.facets.find((f: { field: string }) => f.field === field);
  const counts = (field: string) =>
    Object.fromEntries(facet(field).aggregations.map((a: { value: string; count: number }) => [a.value, a.count]));
  expect(result.facets.map((f: { field: string; displayName: string }) => [f.field, f.displayName])).toEqual([
    ['_entityType', 'Type'],
    ['platform', 'Platform'],
    ['origin', 'Environment'],
    ['typeNames', 'Sub Type'],
    ['domains', 'Domain'],
    ['tags', 'Tag'],
    ['glossaryTerms', 'Glossary Term'],
    ['owners', 'Owned By'],
  ]);
  expect(counts('_entityType')).toEqual({ DATASET: 3, CHART: 1, DATA_JOB: 1 });
  expect(counts('tags')).toEqual({ [tag('pii')]: 2, [tag('gdpr')]: 2 });
  expect(counts('glossaryTerms')).toEqual({ [term]: 1 });
  expect(counts('domains')).toEqual({ [domain('finance')]: 1, [domain('marketing')]: 1 });
  expect(counts('owners')).toEqual({ [jdoe]: 3, [asmith]: 1 });
  expect(facet('owners').aggregations.find((a: { value: string }) => a.value === jdoe).entity).toEqual({ urn: jdoe });
  expect(facet('tags').aggregations[0].entity.urn).toMatch(/^urn:li:tag:/);
});

test('orFilters and filters on tags, glossaryTerms, domains, owners narrow results and counts', async () => {
  const scoped = { query: `/q platform:${p}`, count: 10 };
  const urns = (b: any) => b.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  const byTag = await search({ ...scoped, orFilters: [{ and: [{ field: 'tags', values: [tag('gdpr')] }] }] });
  expect(urns(byTag)).toEqual(sorted(customers, chart));
  const ownersFacet = byTag.data.searchAcrossEntities.facets.find((f: { field: string }) => f.field === 'owners');
  expect(Object.fromEntries(ownersFacet.aggregations.map((a: any) => [a.value, a.count]))).toEqual({ [jdoe]: 1, [asmith]: 1 });
  const either = await search({
    ...scoped,
    orFilters: [{ and: [{ field: 'domains', values: [domain('finance')] }] }, { and: [{ field: 'glossaryTerms', values: [term] }] }],
  });
  expect(urns(either)).toEqual([orders]);
  const notOwned = await search({ ...scoped, filters: [{ field: 'owners', values: [jdoe], negated: true }] });
  expect(urns(notOwned)).toEqual(sorted(chart, job));
  const anyTag = await search({ ...scoped, orFilters: [{ and: [{ field: 'tags', condition: 'EXISTS' }] }] });
  expect(urns(anyTag)).toEqual(sorted(orders, customers, chart));
});

test('a malformed structured query is a 400 naming the position, never an empty answer', async () => {
  for (const [q, message] of [
    ['/q (name:foo', "Invalid structured query (/q) at position 1: '(' is never closed"],
    ['/q name:foo AND', 'Invalid structured query (/q) at position 13: a clause is missing at the end of the query'],
    ['/q colour:red', "Invalid structured query (/q) at position 1: unknown field 'colour'"],
  ] as const) {
    const body = await search({ query: q });
    expect(body.data.searchAcrossEntities).toBeNull();
    expect(body.errors[0].message).toContain(message);
    expect(body.errors[0].extensions).toMatchObject({ code: 400 });
  }
});

test('searchAcrossLineage and scrollAcrossLineage judge a structured query on what the walk reaches', async () => {
  const SEARCH_LINEAGE = `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) {
    total searchResults { degree entity { urn } } } }`;
  const SCROLL_LINEAGE = `query($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {
    total nextScrollId searchResults { degree entity { urn } } } }`;
  const lineage = async (query: string, doc = SEARCH_LINEAGE, field = 'searchAcrossLineage') => {
    const r = await stack.graphql(doc, reader, { variables: { input: { urn: orders, direction: 'DOWNSTREAM', query, count: 10 } } });
    return r.body.data?.[field] ? r.body.data[field] : r.body;
  };
  const hits = (page: any) => page.searchResults.map((h: any) => [h.entity.urn, h.degree]).sort();
  expect(hits(await lineage(`/q tags:${p}_gdpr`))).toEqual(
    [
      [chart, 2],
      [customers, 1],
    ].sort(),
  );
  expect(hits(await lineage('/q _entityType:CHART'))).toEqual([[chart, 2]]);
  expect(hits(await lineage(`/q NOT owners:${p}_asmith`))).toEqual([[chart, 2]]);
  const scrolled = await lineage(`/q name:dim_customers OR name:weekly`, SCROLL_LINEAGE, 'scrollAcrossLineage');
  expect(scrolled.total).toBe(2);
  expect(hits(scrolled)).toEqual(
    [
      [chart, 2],
      [customers, 1],
    ].sort(),
  );
  const bad = await lineage('/q tags:(pii');
  expect(bad.errors[0].message).toBe("Invalid structured query (/q) at position 6: '(' is never closed");
  expect(bad.errors[0].extensions).toMatchObject({ code: 400 });
});

test('views: with none configured, globalViewsSettings has no default view and viewUrn changes nothing', async () => {
  const settings = await stack.graphql('{ globalViewsSettings { defaultView } }', reader);
  expect(settings.body.data).toEqual({ globalViewsSettings: { defaultView: null } });
  const plain = await found(`platform:${p}`);
  expect(await found(`platform:${p}`, { viewUrn: 'urn:li:dataHubView:none' })).toEqual(plain);
});

test('the OpenAPI v3 entity scroll reads query= as structured syntax, with or without /q; malformed is a 400', async () => {
  const admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  const get = async (query: string) => {
    const res = await fetch(`${stack.ingestion.baseUrl}/openapi/v3/entity/dataset?query=${encodeURIComponent(query)}&count=100`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${admin}` },
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const urns = (r: { body: any }) => r.body.entities.map((e: { urn: string }) => e.urn).sort();
  expect(urns(await get(`qualifiedName:analytics\\.sales* AND platform:${p}`))).toEqual(sorted(orders, customers));
  expect(urns(await get(`/q tags:${p}_pii AND NOT domains:${p}_finance`))).toEqual([customers]);
  const bad = await get('name:[a TO');
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe('Invalid structured query (/q) at position 11: a range bound is missing');
});
