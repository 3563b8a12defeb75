import {
  decodeCursor,
  degreeFilterOf,
  encodeCursor,
  fingerprintOf,
  normalizeQuery,
  resolveWindow,
  textMatches,
  type LineageQuery,
} from './query.ts';
import { selectResults } from './results.ts';
import type { ReachRow } from './traverse.ts';

const base: LineageQuery = { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', direction: 'DOWNSTREAM' };
const deg = (...vals: string[][]) => vals.map((values) => ({ and: [{ field: 'degree', values }] }));

test('degree filters bound the walk from every clause and filter by the first clause with a degree', () => {
  expect(degreeFilterOf(undefined)).toEqual({ depth: 'max', predicate: null });
  expect(degreeFilterOf(deg(['1'])).depth).toBe(1);
  expect(degreeFilterOf(deg(['1'], ['2'])).depth).toBe(2);
  expect(degreeFilterOf(deg(['1'], ['3+'])).depth).toBe('max');
  const first = degreeFilterOf([{ and: [{ field: 'platform', values: ['x'] }] }, ...deg(['2'], ['1'])]).predicate!;
  expect([1, 2, 3].map(first)).toEqual([false, true, false]);
  const union = degreeFilterOf(deg(['1', '3+'])).predicate!;
  expect([1, 2, 3, 7].map(union)).toEqual([true, false, true, true]);
  expect(degreeFilterOf([{ and: [{ field: 'degree', value: '2' }] }]).depth).toBe(2);
  expect(() => degreeFilterOf(deg(['4']))).toThrow('4 is not a valid filter value for degree filters');
  expect(() => degreeFilterOf(deg(['3']))).toThrow(expect.objectContaining({ kind: 'validation' }));
});

test('time window: lineageFlags win; only start means until now; only end means from 0', () => {
  expect(resolveWindow(base, 99)).toBeNull();
  expect(resolveWindow({ ...base, startTimeMillis: 5 }, 99)).toEqual({ start: 5, end: 99 });
  expect(resolveWindow({ ...base, endTimeMillis: 7 }, 99)).toEqual({ start: 0, end: 7 });
  expect(resolveWindow({ ...base, startTimeMillis: 1, endTimeMillis: 2, lineageFlags: { endTimeMillis: 50 } }, 99)).toEqual({
    start: 0,
    end: 50,
  });
});

test('free text: every token must occur in urn, name or description', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t1,PROD)';
  expect(textMatches(['t1', 'hive'], [urn, null])).toBe(true);
  expect(textMatches(['nope'], [urn, 'desc'])).toBe(false);
});

test("filters: unknown fields are a 400 naming them; the SDK's default `removed != true` is the default itself", () => {
  expect(() => normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'colour', values: ['x'] }] }] }, 0)).toThrow(
    expect.objectContaining({
      kind: 'badRequest',
      message: expect.stringMatching(
        /^Unknown filter field 'colour': filter on _entityType, .*platform.*tags, glossaryTerms, owners, domains$/,
      ),
    }),
  );
  // hasUpstreams is catalogue search's alone.
  expect(() => normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'hasUpstreams', values: ['true'] }] }] }, 0)).toThrow(
    "Unknown filter field 'hasUpstreams'",
  );
  // The listed fields are lineage filter fields: the clauses name them, and they are read after the walk.
  const tagged = normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'tags.keyword', values: ['urn:li:tag:pii'] }] }] }, 0);
  expect([...tagged.listedFields]).toEqual(['tags']);
  expect(tagged.listedFacets).toBe(false);
  const sdk = normalizeQuery(
    {
      ...base,
      orFilters: [
        {
          and: [
            { field: 'degree', condition: 'EQUAL', values: ['1', '2', '3+'] },
            { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
          ],
        },
      ],
    },
    0,
  );
  expect(sdk.clauses).toBeNull();
  expect(sdk.includeSoftDeleted).toBe(false);
  const onlyRemoved = normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'removed', values: ['true'] }] }] }, 0);
  expect(onlyRemoved.includeSoftDeleted).toBe(true);
  expect(onlyRemoved.clauses).toEqual([[{ field: 'removed', values: ['true'], negated: false, condition: 'EQUAL' }]]);
  const platform = normalizeQuery({ ...base, orFilters: [{ and: [{ field: 'platform.keyword', values: ['mysql'] }] }] }, 0);
  expect(platform.clauses).toEqual([[{ field: 'platform', values: ['urn:li:dataPlatform:mysql'], negated: false, condition: 'EQUAL' }]]);
});

test('default types are every type but QUERY; groupingSpec decides lifting; explored-per-hop 0 explores nothing', () => {
  const nq = normalizeQuery(base, 0);
  expect(nq.resultTypes.has('query')).toBe(false);
  expect(nq.resultTypes.has('schemaField')).toBe(true);
  expect(nq.resultTypes.has('dataJob')).toBe(true);
  expect(nq.keepFields).toBe(false);
  expect(normalizeQuery({ ...base, liftFields: false }, 0).keepFields).toBe(true);
  expect(normalizeQuery({ ...base, lineageFlags: { entitiesExploredPerHopLimit: 0 } }, 0)).toMatchObject({
    perHopLimit: null,
    exploresNothing: true,
  });
  expect(normalizeQuery(base, 0)).toMatchObject({ perHopLimit: null, exploresNothing: false });
  expect(
    normalizeQuery({ ...base, lineageFlags: { entitiesExploredPerHopLimit: 0, ignoreAsHops: [{ entityType: 'DATA_JOB' }] } }, 0),
  ).toMatchObject({ perHopLimit: null, exploresNothing: true });
});

test('cursor round-trips for the same query and is refused for another or when mangled', () => {
  const f = fingerprintOf(base);
  const cursor = encodeCursor(f, { degree: 2, urn: 'urn:li:x' });
  expect(decodeCursor(cursor, f)).toEqual({ degree: 2, urn: 'urn:li:x' });
  expect(fingerprintOf({ ...base, includePaths: true, types: [] })).toBe(f);
  expect(() => decodeCursor(cursor, fingerprintOf({ ...base, direction: 'UPSTREAM' }))).toThrow('Invalid scrollId');
  expect(() => decodeCursor(cursor, fingerprintOf({ ...base, query: 'x' }))).toThrow('Invalid scrollId');
  expect(() => decodeCursor('not-a-cursor', f)).toThrow('Invalid scrollId');
  expect(() => decodeCursor(Buffer.from('{"v":1}').toString('base64url'), f)).toThrow('Invalid scrollId');
});

const row = (urn: string, degree: number, entityType = 'dataset', extra: Partial<ReachRow> = {}): ReachRow => ({
  urn,
  degree,
  entityType,
  platform: 'urn:li:dataPlatform:p',
  origin: 'PROD',
  name: urn,
  description: null,
  removed: false,
  ownExists: true,
  parentUrn: null,
  parent: null,
  ignoredAsHop: false,
  truncatedChildren: false,
  ...extra,
});

test('selection: lifting at minimum degree, degree facet before the degree predicate, others after', () => {
  const parent = {
    urn: 'urn:li:dataset:P',
    entityType: 'dataset',
    platform: 'urn:li:dataPlatform:p',
    origin: 'PROD',
    name: 'P',
    description: null,
  };
  const rows = [
    row('urn:li:schemaField:(urn:li:dataset:P,b)', 1, 'schemaField', { parent }),
    row('urn:li:dataJob:j', 1, 'dataJob', { origin: null }),
    row('urn:li:schemaField:(urn:li:dataset:P,a)', 2, 'schemaField', { parent }),
    row('urn:li:dataset:Q', 3),
  ];
  const nq = normalizeQuery({ ...base, orFilters: deg(['1']) }, 0);
  const { hits, facets } = selectResults(rows, nq);
  expect(hits.map((h) => [h.urn, h.degree])).toEqual([
    ['urn:li:dataJob:j', 1],
    ['urn:li:dataset:P', 1],
  ]);
  // P is reached through b at 1 and a at 2: under "degree 1" only b's route is kept.
  expect(hits[1]!.walkUrns).toEqual(['urn:li:schemaField:(urn:li:dataset:P,b)']);
  expect(selectResults(rows, normalizeQuery(base, 0)).hits.find((h) => h.urn === 'urn:li:dataset:P')!.walkUrns).toEqual([
    'urn:li:schemaField:(urn:li:dataset:P,b)',
    'urn:li:schemaField:(urn:li:dataset:P,a)',
  ]);
  expect(facets[0]).toEqual({
    field: 'degree',
    displayName: 'Degree of Dependencies',
    aggregations: [
      { value: '1', count: 2 },
      { value: '2', count: 0 },
      { value: '3+', count: 1 },
    ],
  });
  expect(facets[1]!.aggregations).toEqual([
    { value: 'DATASET', count: 1 },
    { value: 'DATA_JOB', count: 1 },
  ]);
  expect(facets[3]!.aggregations).toEqual([{ value: 'PROD', count: 1 }]);
  const fields = selectResults(rows, normalizeQuery({ ...base, types: ['SCHEMA_FIELD'], liftFields: false }, 0));
  expect(fields.hits.map((h) => h.graphqlType)).toEqual(['SCHEMA_FIELD', 'SCHEMA_FIELD']);
  // Lifted, the fields are datasets, which types SCHEMA_FIELD then leaves out (as DataHub does).
  expect(selectResults(rows, normalizeQuery({ ...base, types: ['SCHEMA_FIELD'] }, 0)).hits).toEqual([]);
  expect(selectResults(rows, normalizeQuery({ ...base, skipAggregates: true }, 0)).facets).toEqual([]);
  // P's smallest degree is 1, but under "degree 2" its column at 2 selects it: facets count it with the total.
  const second = selectResults(rows, normalizeQuery({ ...base, orFilters: deg(['2']) }, 0));
  expect(second.hits.map((h) => [h.urn, h.degree])).toEqual([['urn:li:dataset:P', 2]]);
  expect(second.facets[1]!.aggregations).toEqual([{ value: 'DATASET', count: second.total }]);
});
