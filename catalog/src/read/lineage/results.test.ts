// The streamed selection holds a bounded number of hits whatever the reach: what it holds must be
// exactly the first hits of the whole selection, and its total and facets those of the whole.
import { normalizeQuery, type LineageQuery } from './query.ts';
import { selectResults, SelectionBuilder } from './results.ts';
import type { ReachRow } from './traverse.ts';

const base: LineageQuery = { urn: 'urn:li:dataset:(urn:li:dataPlatform:p,src,PROD)', direction: 'DOWNSTREAM' };

/** A deterministic reach: datasets, jobs, and fields lifted onto datasets that are also reached themselves. */
function reachOf(size: number, seed: number): ReachRow[] {
  let x = seed;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const rows: ReachRow[] = [];
  for (let i = 0; i < size; i++) {
    const degree = 1 + Math.floor(next() * 4);
    const platform = next() < 0.3 ? 'urn:li:dataPlatform:hive' : 'urn:li:dataPlatform:dbt';
    const kind = next();
    const ds = `urn:li:dataset:(${platform},t${Math.floor((next() * size) / 3)},PROD)`;
    const fields = {
      platform,
      origin: 'PROD',
      description: null,
      removed: false,
      ownExists: true,
      ignoredAsHop: next() < 0.1,
      truncatedChildren: false,
    };
    if (kind < 0.4) {
      const parent = { urn: ds, entityType: 'dataset', platform, origin: 'PROD', name: ds.slice(-12), description: null };
      rows.push({
        ...fields,
        urn: `urn:li:schemaField:(${ds},c${i})`,
        degree,
        entityType: 'schemaField',
        name: `c${i}`,
        parentUrn: ds,
        parent,
      });
    } else if (kind < 0.8) {
      rows.push({ ...fields, urn: ds, degree, entityType: 'dataset', name: ds.slice(-12), parentUrn: null, parent: null });
    } else {
      rows.push({
        ...fields,
        urn: `urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j${i})`,
        degree,
        entityType: 'dataJob',
        name: `j${i}`,
        parentUrn: null,
        parent: null,
      });
    }
  }
  // A walk visits each node once, in (degree, urn) order.
  const once = new Map(rows.map((r) => [r.urn, r]));
  return [...once.values()].sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : 1));
}

const queries: Array<[string, Partial<LineageQuery>]> = [
  ['everything', {}],
  ['degree 2 and 3+', { orFilters: [{ and: [{ field: 'degree', values: ['2', '3+'] }] }] }],
  ['hive, text "t1"', { query: 't1', orFilters: [{ and: [{ field: 'platform', values: ['hive'] }] }] }],
  ['fields kept', { types: ['SCHEMA_FIELD', 'DATASET'], liftFields: false }],
];

test.each(queries)('%s: a bounded selection holds the first hits of the whole, with its total and facets', (_name, extra) => {
  const rows = reachOf(600, 7);
  const nq = normalizeQuery({ ...base, ...extra }, 0);
  const whole = selectResults(rows, nq);
  expect(whole.total).toBeGreaterThan(20);
  for (const hold of [1, 7, 50]) {
    const builder = new SelectionBuilder(nq, { hold });
    for (const r of rows) builder.add(r);
    const bounded = builder.finish();
    expect(bounded.hits).toEqual(whole.hits.slice(0, hold));
    expect(bounded.complete).toBe(false);
    expect(bounded.total).toBe(whole.total);
    expect(bounded.facets).toEqual(whole.facets);
  }
  // The pages after a position: what a re-streamed page holds.
  const after = whole.hits[13]!;
  const later = new SelectionBuilder(nq, { hold: 5, after });
  for (const r of rows) later.add(r);
  expect(later.finish().hits).toEqual(whole.hits.slice(14, 19));
});

test('a reset forgets what came before (a retried transaction streams its rows again)', () => {
  const rows = reachOf(200, 3);
  const nq = normalizeQuery(base, 0);
  const builder = new SelectionBuilder(nq, { hold: 10 });
  for (const r of rows.slice(0, 120)) builder.add(r);
  builder.reset();
  for (const r of rows) builder.add(r);
  const whole = selectResults(rows, nq);
  const again = builder.finish();
  expect(again.hits).toEqual(whole.hits.slice(0, 10));
  expect(again.total).toBe(whole.total);
  expect(again.facets).toEqual(whole.facets);
});

test('a filter on a listed field judges the lists on the rows before counting; their facets count the selected hits', () => {
  const row = (name: string, degree: number, lists: ReachRow['lists']): ReachRow => ({
    urn: `urn:li:dataset:(urn:li:dataPlatform:p,${name},PROD)`,
    degree,
    entityType: 'dataset',
    platform: 'urn:li:dataPlatform:p',
    origin: 'PROD',
    name,
    description: null,
    removed: false,
    ownExists: true,
    parentUrn: null,
    parent: null,
    ignoredAsHop: false,
    truncatedChildren: false,
    lists,
  });
  const rows = [
    row('a', 1, { tags: ['urn:li:tag:pii'], owners: ['urn:li:corpuser:x'] }),
    row('b', 1, { tags: ['urn:li:tag:gold'] }),
    row('c', 2, { tags: ['urn:li:tag:pii', 'urn:li:tag:gold'], domains: ['urn:li:domain:sales'] }),
    row('d', 3, null),
  ];
  const pii = { orFilters: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'] }] }], listedFacets: true };
  const selection = selectResults(rows, normalizeQuery({ ...base, ...pii }, 0));
  expect(selection.hits.map((h) => h.urn.split(',')[1])).toEqual(['a', 'c']);
  expect(selection.total).toBe(2);
  const facet = (field: string) => selection.facets.find((f) => f.field === field)?.aggregations;
  expect(facet('degree')).toEqual([
    { value: '1', count: 1 },
    { value: '2', count: 1 },
    { value: '3+', count: 0 },
  ]);
  expect(facet('tags')).toEqual([
    { value: 'urn:li:tag:pii', count: 2 },
    { value: 'urn:li:tag:gold', count: 1 },
  ]);
  expect(facet('domains')).toEqual([{ value: 'urn:li:domain:sales', count: 1 }]);
  expect(facet('owners')).toEqual([{ value: 'urn:li:corpuser:x', count: 1 }]);
  expect(facet('glossaryTerms')).toEqual([]);
  // Negated: the entities holding no such tag, d (which holds nothing) among them.
  const notPii = normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'], negated: true }] }] }, 0);
  const rest = selectResults(rows, notPii);
  expect(rest.hits.map((h) => h.urn.split(',')[1])).toEqual(['b', 'd']);
  // Without listedFacets the facets stay the four of the walk.
  expect(rest.facets.map((f) => f.field)).toEqual(['degree', '_entityType', 'platform', 'origin']);
});
