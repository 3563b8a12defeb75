// searchAcrossEntities through the front door: token prefix matching over name, description and
// urn; types filter; paging with a real total; ghosts, soft-deleted entities and Lucene syntax in
// user text handled.
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

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange =>
  ({ urn: parseUrn(urn), aspectName, changeType: 'UPSERT', value });

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await writeAspects(stack.store, [
    upsert(created, 'datasetProperties', { name: 'fct_users_created', description: `signups on ${ns.platform}` }),
    upsert(deleted, 'datasetProperties', { name: 'fct_users_deleted', description: `churn on ${ns.platform}` }),
    upsert(removed, 'datasetProperties', { name: 'fct_users_gone', description: `old on ${ns.platform}` }),
    upsert(removed, 'status', { removed: true }),
    upsert(job, 'dataJobInfo', { name: 'fct_users_loader', type: 'COMMAND', description: `loads ${ns.platform}` }),
  ], { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' });
});
afterAll(async () => { await stack.close(); });

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
  expect((await search({ query: `${ns.platform}`, types: ['DATA_JOB'] })).data.searchAcrossEntities.searchResults)
    .toEqual([{ entity: { urn: job, type: 'DATA_JOB' }, matchedFields: [] }]);
});

test('Lucene syntax in user text is literal, never an error', async () => {
  for (const q of ['fct_users AND (', '"unbalanced', 'a:b/c~2^3', '*', '   ']) {
    const body = await search({ query: q });
    expect(body.errors).toBeUndefined();
  }
  expect(luceneQueryOf('a:b (c)')).toBe('+a\\:b* +\\(c\\)*');
  expect(luceneQueryOf(' * ')).toBeUndefined();
});

test('search(input) for one type, with DataHub\'s orFilters: hasUpstreams, platform.keyword, removed, unknown fields', async () => {
  const upstream = ns.dataset('fct_users_source');
  await writeAspects(stack.store, [
    upsert(upstream, 'datasetProperties', { name: 'fct_users_source' }),
    upsert(created, 'upstreamLineage', { upstreams: [{ dataset: upstream, type: 'TRANSFORMED' }] }),
  ], { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' });
  const SINGLE = `query($input: SearchInput!) { search(input: $input) { total searchResults { entity { urn } } } }`;
  const run = async (input: Record<string, unknown>) => (await stack.graphql(SINGLE, reader, { variables: { input } })).body;
  const urns = (b: any) => b.data.search.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  const filter = (field: string, values: string[], extra: Record<string, unknown> = {}) => ({ orFilters: [{ and: [{ field, values, condition: 'EQUAL', ...extra }] }] });
  const mine = { type: 'DATASET', query: ns.platform, start: 0, count: 10 };
  expect(urns(await run({ ...mine, ...filter('hasUpstreams', ['true']) }))).toEqual([created]);
  expect(urns(await run({ ...mine, ...filter('hasUpstreams', ['true'], { negated: true }) }))).toEqual([deleted, upstream].sort());
  expect(urns(await run({ ...mine, ...filter('platform.keyword', [`urn:li:dataPlatform:${ns.platform}`]) }))).toEqual([created, deleted, upstream].sort());
  // Soft-deleted entities only when the filter on `removed` asks for them.
  expect(urns(await run({ ...mine, ...filter('removed', ['true']) }))).toEqual([removed]);
  expect(urns(await run({ ...mine, ...filter('removed', ['true'], { negated: true }) }))).toEqual([created, deleted, upstream].sort());
  const unknown = await run({ ...mine, ...filter('owners', ['urn:li:corpuser:x']) });
  expect(unknown.errors[0]).toMatchObject({ message: expect.stringContaining("Unknown filter field 'owners'"), extensions: { code: 400 } });
});

test('needs READ', async () => {
  const r = await stack.graphql(SEARCH, null, { variables: { input: { query: 'x' } } });
  expect(r.status).toBe(401);
});
