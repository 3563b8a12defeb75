import {
  clausesMatch, criterionMatches, decodeCursor, degreeFilterOf, encodeCursor, fingerprintOf, normalizeQuery, resolveWindow,
  textMatches, type FilterSubject, type LineageQuery,
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
  expect(resolveWindow({ ...base, startTimeMillis: 1, endTimeMillis: 2, lineageFlags: { endTimeMillis: 50 } }, 99)).toEqual({ start: 0, end: 50 });
});

test('filter operators, negation and unknown fields', () => {
  const s: FilterSubject = { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t1,PROD)', graphqlType: 'DATASET', platform: 'urn:li:dataPlatform:hive', origin: 'PROD' };
  const c = (field: string, condition: string, values: string[], negated = false) => ({ field, condition, values, negated });
  expect(criterionMatches(s, c('_entityType', 'EQUAL', ['DATA_JOB', 'DATASET']))).toBe(true);
  expect(criterionMatches(s, c('_entityType', 'EQUAL', ['DATASET'], true))).toBe(false);
  expect(criterionMatches(s, c('platform', 'IEQUAL', ['URN:LI:DATAPLATFORM:HIVE']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'CONTAIN', ['DB.T1']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'START_WITH', ['urn:li:dataset:']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'END_WITH', ['PROD)']))).toBe(true);
  expect(criterionMatches(s, c('origin', 'EXISTS', []))).toBe(true);
  expect(criterionMatches({ ...s, origin: null }, c('origin', 'EXISTS', []))).toBe(false);
  expect(criterionMatches(s, c('origin', 'GREATER_THAN', ['DEV']))).toBe(true);
  expect(criterionMatches(s, c('origin', 'DESCENDANTS_INCL', ['PROD']))).toBe(true);
  expect(criterionMatches(s, c('owners', 'EQUAL', ['x']))).toBe(false);
  expect(criterionMatches(s, c('owners', 'EQUAL', ['x'], true))).toBe(true);
  expect(clausesMatch(s, [[c('origin', 'EQUAL', ['DEV'])], [c('platform', 'EQUAL', ['urn:li:dataPlatform:hive'])]])).toBe(true);
  expect(clausesMatch(s, [[c('origin', 'EQUAL', ['PROD']), c('platform', 'EQUAL', ['x'])]])).toBe(false);
  expect(textMatches(['t1', 'hive'], [s.urn, null])).toBe(true);
  expect(textMatches(['nope'], [s.urn, 'desc'])).toBe(false);
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
  urn, degree, entityType, platform: 'urn:li:dataPlatform:p', origin: 'PROD', name: urn, description: null, removed: false,
  parent: null, ignoredAsHop: false, truncatedChildren: false, ...extra,
});

test('selection: lifting at minimum degree, degree facet before the degree predicate, others after', () => {
  const parent = { urn: 'urn:li:dataset:P', entityType: 'dataset', platform: 'urn:li:dataPlatform:p', origin: 'PROD', name: 'P', description: null };
  const rows = [
    row('urn:li:schemaField:(urn:li:dataset:P,b)', 1, 'schemaField', { parent }),
    row('urn:li:dataJob:j', 1, 'dataJob', { origin: null }),
    row('urn:li:schemaField:(urn:li:dataset:P,a)', 2, 'schemaField', { parent }),
    row('urn:li:dataset:Q', 3),
  ];
  const nq = normalizeQuery({ ...base, orFilters: deg(['1']) }, 0);
  const { hits, facets } = selectResults(rows, nq);
  expect(hits.map((h) => [h.urn, h.degree])).toEqual([['urn:li:dataJob:j', 1], ['urn:li:dataset:P', 1]]);
  expect(hits[1]!.walkUrn).toBe('urn:li:schemaField:(urn:li:dataset:P,b)');
  expect(facets[0]).toEqual({ field: 'degree', displayName: 'Degree of Dependencies', aggregations: [{ value: '1', count: 2 }, { value: '2', count: 0 }, { value: '3+', count: 1 }] });
  expect(facets[1]!.aggregations).toEqual([{ value: 'DATASET', count: 1 }, { value: 'DATA_JOB', count: 1 }]);
  expect(facets[3]!.aggregations).toEqual([{ value: 'PROD', count: 1 }]);
  const fields = selectResults(rows, normalizeQuery({ ...base, types: ['SCHEMA_FIELD'] }, 0));
  expect(fields.hits.map((h) => h.graphqlType)).toEqual(['SCHEMA_FIELD', 'SCHEMA_FIELD']);
  expect(selectResults(rows, normalizeQuery({ ...base, skipAggregates: true }, 0)).facets).toEqual([]);
});
