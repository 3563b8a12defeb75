// Filters and facets on tags, glossaryTerms, owners and domains in lineage searches, on a real Neo4j
// (docs/wire-contract.md §Filters, §Lineage search): judged on the hits at every degree before
// anything is counted, so totals, facets and every page agree; the same answer whichever path the
// plan takes; their facets read only when asked for, and without a filter on them only for few
// results; the values as catalogue search reads them.
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { scrollLineage, searchLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { countLineage } from '../../catalog/src/read/lineage/counts.ts';
import { searchEntities } from '../../catalog/src/read/entity-search.ts';
import type { Facet } from '../../catalog/src/read/lineage/results.ts';
import { datasetProps, limits, scrollAll, upsert, upstreams, write } from './support.ts';

let store: Store;
const ns = namespace('lst');
const p = ns.platform;
const tag = (n: string) => `urn:li:tag:${p}_${n}`;
const term = `urn:li:glossaryTerm:${p}.Revenue`;
const domain = (n: string) => `urn:li:domain:${p}_${n}`;
const jdoe = ns.user('jdoe');
const stamp = { time: 0, actor: 'urn:li:corpuser:seeder' };
const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: tag(n) })) });
const owners = (...urns: string[]) => ({ owners: urns.map((owner) => ({ owner, type: 'DATAOWNER' })), lastModified: stamp });

// src → a, b, c (degree 1); a → d (2); d → f (3); b → gone (soft-deleted, tagged pii).
// Column lineage: col of src's field x → field y of lifted (tagged pii): lifted onto its dataset.
const [src, a, b, c, d, f, gone, lifted] = ['src', 'a', 'b', 'c', 'd', 'f', 'gone', 'lifted'].map((n) => ns.dataset(n)) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
// A fan of 130 (more than a database page's read-ahead): every third tagged gold.
const hub = ns.dataset('hub');
const fan = Array.from({ length: 130 }, (_, i) => ns.dataset(`fan${String(i).padStart(3, '0')}`));

const down = (urn: string, extra: Partial<LineageQuery> = {}): LineageQuery => ({ urn, direction: 'DOWNSTREAM', ...extra });
const where = (field: string, values: string[], extra: { negated?: boolean; condition?: string } = {}) => ({ field, values, ...extra });
const or = (...clauses: Array<Array<ReturnType<typeof where>>>) => clauses.map((and) => ({ and }));
const names = (hits: Array<{ urn: string }>) => hits.map((h) => h.urn.split(',')[1]);
const facet = (facets: Facet[], field: string) => facets.find((x) => x.field === field)?.aggregations;
const shipping = { ...limits, selectInDatabase: false };

beforeAll(async () => {
  store = await testStore();
  await write(store, [
    ...[src, a, b, c, d, f, gone, lifted, hub, ...fan].map((u) => datasetProps(u)),
    upsert(a, 'globalTags', tags('pii')),
    upsert(a, 'ownership', owners(jdoe)),
    upsert(a, 'domains', { domains: [domain('sales')] }),
    upsert(b, 'globalTags', tags('gold')),
    upsert(b, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: stamp }),
    upsert(d, 'globalTags', tags('pii', 'gold')),
    upsert(d, 'domains', { domains: [domain('sales')] }),
    upsert(f, 'ownership', owners(jdoe)),
    upsert(gone, 'globalTags', tags('pii')),
    upsert(lifted, 'globalTags', tags('pii')),
    ...fan.flatMap((u, i) => (i % 3 === 0 ? [upsert(u, 'globalTags', tags('gold'))] : [])),
  ]);
  await write(store, [
    upstreams(a, [src]),
    upstreams(b, [src]),
    upstreams(c, [src]),
    upstreams(d, [a]),
    upstreams(f, [d]),
    upstreams(gone, [b]),
    upstreams(
      lifted,
      [src],
      [{ upstreamType: 'FIELD_SET', upstreams: [ns.field(src, 'x')], downstreamType: 'FIELD', downstreams: [ns.field(lifted, 'y')] }],
    ),
    ...fan.map((u) => upstreams(u, [hub])),
  ]);
  await write(store, [upsert(gone, 'status', { removed: true })]);
});
afterAll(async () => {
  await store.close();
});

test('a tag filter keeps the hits that hold the tag at every degree; total and facets count them alone, on both paths', async () => {
  const q = down(src, { orFilters: or([where('tags', [tag('pii')])]), listedFacets: true });
  for (const lim of [limits, shipping]) {
    const page = await searchLineage(store, q, { start: 0, count: 10 }, lim);
    expect(names(page.hits)).toEqual(['a', 'lifted', 'd']);
    expect(page.hits.map((h) => h.degree)).toEqual([1, 1, 2]);
    expect(page.total).toBe(3);
    expect(facet(page.facets, 'degree')).toEqual([
      { value: '1', count: 2 },
      { value: '2', count: 1 },
      { value: '3+', count: 0 },
    ]);
    expect(facet(page.facets, 'tags')).toEqual([
      { value: tag('pii'), count: 3 },
      { value: tag('gold'), count: 1 },
    ]);
    expect(facet(page.facets, 'domains')).toEqual([{ value: domain('sales'), count: 2 }]);
    expect(facet(page.facets, 'owners')).toEqual([{ value: jdoe, count: 1 }]);
    expect(facet(page.facets, 'glossaryTerms')).toEqual([]);
    expect(page.strategy).not.toBe('database');
    expect(page.plan.reasons.join('\n')).toMatch(/tags: read for the walked candidates/);
  }
  // The in-database step declines a filter it cannot judge, and the plan says why.
  const planned = await searchLineage(store, q, { start: 0, count: 10 }, limits);
  expect(planned.plan.reasons[0]).toMatch(/filter on tags is judged on streamed rows/);
  // The soft-deleted entity holding the tag comes back only on request.
  const withGone = await searchLineage(store, { ...q, includeSoftDeleted: true }, { start: 0, count: 10 }, limits);
  expect(names(withGone.hits)).toEqual(['a', 'lifted', 'd', 'gone']);
});

test('negation, conditions, OR of clauses and AND within one, on every listed field', async () => {
  const run = async (orFilters: LineageQuery['orFilters']) =>
    names((await searchLineage(store, down(src, { orFilters }), { start: 0, count: 50 }, limits)).hits);
  expect(await run(or([where('tags', [tag('pii')], { negated: true })]))).toEqual(['b', 'c', 'f']);
  expect(await run(or([where('tags', [tag('pii')])], [where('glossaryTerms', [term])]))).toEqual(['a', 'b', 'lifted', 'd']);
  expect(await run(or([where('owners', [jdoe]), where('domains', [domain('sales')])]))).toEqual(['a']);
  expect(await run(or([where('owners.keyword', [jdoe])]))).toEqual(['a', 'f']);
  expect(await run(or([where('domains', [], { condition: 'EXISTS' })]))).toEqual(['a', 'd']);
  expect(await run(or([where('tags', ['GOLD'], { condition: 'CONTAIN' }), where('degree', ['2', '3+'])]))).toEqual(['d']);
  expect(await run(or([where('glossaryTerms', [term], { condition: 'IN' }), where('platform', [p])]))).toEqual(['b']);
  // searchAcrossLineageCounts totals what the search does.
  const pii = or([where('tags', [tag('pii')])]);
  expect(await countLineage(store, { ...down(src), orFilters: pii }, limits)).toBe(3);
  expect(await countLineage(store, { ...down(src), orFilters: or([where('owners', [jdoe])]) }, limits)).toBe(2);
});

test('a column walk judges the dataset a column is lifted onto; kept columns hold their own', async () => {
  const q = down(ns.field(src, 'x'), { orFilters: or([where('tags', [tag('pii')])]), listedFacets: true });
  const page = await searchLineage(store, q, { start: 0, count: 10 }, limits);
  expect(page.hits.map((h) => [h.urn, h.degree])).toEqual([[lifted, 1]]);
  expect(facet(page.facets, 'tags')).toEqual([{ value: tag('pii'), count: 1 }]);
  const kept = await searchLineage(store, { ...q, liftFields: false }, { start: 0, count: 10 }, limits);
  expect(kept.total).toBe(0);
});

test('pages of a filtered scroll and search add up to the total', async () => {
  const q = down(src, { orFilters: or([where('tags', [tag('pii')])], [where('owners', [jdoe])]) });
  const all = await scrollAll(store, q, 1);
  expect(names(all.hits)).toEqual(['a', 'lifted', 'd', 'f']);
  expect(all.total).toBe(4);
  expect(all.pages).toBe(4);
  const second = await searchLineage(store, q, { start: 2, count: 2 }, limits);
  expect(names(second.hits)).toEqual(['d', 'f']);
  expect(second.total).toBe(4);
});

test('listed facets without a filter on them: only when asked for, over every result, as catalogue search counts them', async () => {
  const plain = await scrollLineage(store, down(src), { count: 2 }, limits);
  expect(plain.facets.map((x) => x.field)).toEqual(['degree', '_entityType', 'platform', 'origin']);
  expect(plain.plan.reasons.join('\n')).not.toMatch(/tags/);
  const asked = await scrollLineage(store, down(src, { listedFacets: true }), { count: 2 }, limits);
  expect(asked.facets.map((x) => x.field)).toEqual([
    'degree',
    '_entityType',
    'platform',
    'origin',
    'domains',
    'tags',
    'glossaryTerms',
    'owners',
  ]);
  expect(asked.total).toBe(6);
  expect(facet(asked.facets, 'tags')).toEqual([
    { value: tag('pii'), count: 3 },
    { value: tag('gold'), count: 2 },
  ]);
  expect(facet(asked.facets, 'glossaryTerms')).toEqual([{ value: term, count: 1 }]);
  expect(facet(asked.facets, 'owners')).toEqual([{ value: jdoe, count: 2 }]);
  // Catalogue search over the same entities counts the same values.
  const urns = (await searchLineage(store, down(src), { start: 0, count: 50 }, limits)).hits.map((h) => h.urn);
  const catalogue = await searchEntities(store, { query: '*', orFilters: [{ and: [{ field: 'urn', values: urns }] }] });
  for (const field of ['domains', 'tags', 'glossaryTerms', 'owners'])
    expect(facet(asked.facets, field)).toEqual(facet(catalogue.facets, field));
  // skipAggregates answers no facets at all; maxAggValues bounds these too.
  expect((await scrollLineage(store, down(src, { listedFacets: true, skipAggregates: true }), { count: 2 }, limits)).facets).toEqual([]);
  const one = await scrollLineage(store, down(src, { listedFacets: true, maxAggValues: 1 }), { count: 2 }, limits);
  expect(facet(one.facets, 'tags')).toEqual([{ value: tag('pii'), count: 3 }]);
});

test('past the held prefix of an in-database selection, and past the limit of results they are counted for', async () => {
  const q = down(hub, { listedFacets: true });
  const page = await scrollLineage(store, q, { count: 5 }, limits);
  expect(page.strategy).toBe('database');
  expect(page.total).toBe(130);
  expect(facet(page.facets, 'tags')).toEqual([{ value: tag('gold'), count: 44 }]);
  expect((await scrollAll(store, q, 50)).hits).toHaveLength(130);
  // More results than listedFacetsMax: no listed facets without a filter on them ...
  const many = await scrollLineage(store, q, { count: 5 }, { ...limits, listedFacetsMax: 100 });
  expect(many.facets.map((x) => x.field)).toEqual(['degree', '_entityType', 'platform', 'origin']);
  // ... and every value counted with one, however many results.
  const gold = await scrollLineage(
    store,
    { ...q, orFilters: or([where('tags', [tag('gold')])]) },
    { count: 5 },
    { ...limits, listedFacetsMax: 10 },
  );
  expect(gold.total).toBe(44);
  expect(facet(gold.facets, 'tags')).toEqual([{ value: tag('gold'), count: 44 }]);
});

test('an unknown field is still a 400 naming the fields a lineage search takes', async () => {
  await expect(
    searchLineage(store, down(src, { orFilters: or([where('colour', ['red'])]) }), { start: 0, count: 1 }, limits),
  ).rejects.toMatchObject({
    kind: 'badRequest',
    message: expect.stringContaining("Unknown filter field 'colour': filter on _entityType"),
  });
  await expect(
    countLineage(store, { ...down(src), includeGhostEntities: true, orFilters: or([where('tags', [tag('pii')])]) }, limits),
  ).rejects.toMatchObject({ kind: 'badRequest', message: expect.stringContaining('filters on tags') });
});
