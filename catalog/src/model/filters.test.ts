import {
  clausesMatch,
  criterionMatches,
  filterFieldOf,
  orFiltersOf,
  toCriterion,
  ENTITY_FILTER_FIELDS,
  LISTED_FILTER_FIELDS,
  type FilterField,
  type FilterSubject,
} from './filters.ts';

const ALL: ReadonlySet<FilterField> = new Set<FilterField>([...ENTITY_FILTER_FIELDS, 'hasUpstreams']);
const s: FilterSubject = {
  urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t1,PROD)',
  entityType: 'dataset',
  platform: 'urn:li:dataPlatform:hive',
  origin: 'PROD',
  removed: false,
  parent: null,
  name: 't1',
  description: 'a table',
};
const c = (field: string, condition: string, values: string[], negated = false) => toCriterion({ field, condition, values, negated }, ALL);

test('DataHub field names: .keyword sub-fields, env for origin, _entityType in any case', () => {
  expect(filterFieldOf('platform.keyword')).toBe('platform');
  expect(filterFieldOf('env')).toBe('origin');
  expect(filterFieldOf('_ENTITYTYPE')).toBe('entityType');
  expect(filterFieldOf('_entityType.keyword')).toBe('entityType');
  expect(filterFieldOf('colour')).toBeUndefined();
  // owners is catalogue search's field; a door that does not list it refuses it.
  expect(filterFieldOf('owners')).toBe('owners');
  expect(() => toCriterion({ field: 'owners', values: ['x'] }, ALL)).toThrow("Unknown filter field 'owners'");
  expect(() => toCriterion({ field: 'hasUpstreams', values: ['true'] }, new Set<FilterField>(['platform']))).toThrow(
    "Unknown filter field 'hasUpstreams': filter on platform",
  );
});

test('operators, negation, entity type spellings and platform names', () => {
  expect(criterionMatches(s, c('_entityType', 'EQUAL', ['DATA_JOB', 'DATASET']))).toBe(true);
  expect(criterionMatches({ ...s, entityType: 'dataJob' }, c('_entityType', 'EQUAL', ['DATA_JOB']))).toBe(true);
  expect(criterionMatches({ ...s, entityType: 'dataJob' }, c('_entityType', 'EQUAL', ['dataJob']))).toBe(true);
  expect(criterionMatches(s, c('_entityType', 'EQUAL', ['DATASET'], true))).toBe(false);
  expect(criterionMatches(s, c('platform', 'EQUAL', ['hive']))).toBe(true);
  expect(criterionMatches(s, c('platform', 'IEQUAL', ['URN:LI:DATAPLATFORM:HIVE']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'CONTAIN', ['DB.T1']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'START_WITH', ['urn:li:dataset:']))).toBe(true);
  expect(criterionMatches(s, c('urn', 'END_WITH', ['PROD)']))).toBe(true);
  expect(criterionMatches(s, c('origin', 'EXISTS', []))).toBe(true);
  expect(criterionMatches({ ...s, origin: null }, c('origin', 'EXISTS', []))).toBe(false);
  expect(criterionMatches(s, c('origin', 'GREATER_THAN', ['DEV']))).toBe(true);
  expect(criterionMatches(s, c('origin', 'DESCENDANTS_INCL', ['PROD']))).toBe(true);
  expect(criterionMatches(s, c('removed', 'EQUAL', ['true'], true))).toBe(true);
  expect(criterionMatches({ ...s, removed: true }, c('removed', 'EQUAL', ['true']))).toBe(true);
  // A parent filter reads a schemaField's parent; anything else has none, so only a negation passes it.
  const field = { ...s, entityType: 'schemaField', parent: 'urn:li:dataset:(urn:li:dataPlatform:dbt,m,PROD)' };
  expect(criterionMatches(field, c('parent', 'CONTAIN', ['urn:li:dataPlatform:dbt']))).toBe(true);
  expect(criterionMatches(s, c('parent', 'EQUAL', ['x']))).toBe(false);
  expect(criterionMatches(s, c('parent', 'EQUAL', ['x'], true))).toBe(true);
  // An empty value list restricts nothing, negated or not.
  expect(criterionMatches(s, c('platform', 'EQUAL', []))).toBe(true);
  expect(criterionMatches(s, c('platform', 'EQUAL', [], true))).toBe(true);
});

test('clauses: a disjunction of conjunctions', () => {
  expect(clausesMatch(s, [[c('origin', 'EQUAL', ['DEV'])], [c('platform', 'EQUAL', ['urn:li:dataPlatform:hive'])]])).toBe(true);
  expect(clausesMatch(s, [[c('origin', 'EQUAL', ['PROD']), c('platform', 'EQUAL', ['x'])]])).toBe(false);
  expect(clausesMatch(s, null)).toBe(true);
});

test('the deprecated `filters` counts only when there are no orFilters (as DataHub reads them)', () => {
  const f = [{ field: 'origin', values: ['DEV'] }];
  const or = [{ and: [{ field: 'platform', values: ['hive'] }] }];
  expect(orFiltersOf({ filters: f })).toEqual([{ and: f }]);
  expect(orFiltersOf({ filters: f, orFilters: or })).toEqual(or);
  expect(orFiltersOf({})).toEqual([]);
});

test('listed fields: any urn held meets the criterion; negated, none does; nothing held meets only negations', () => {
  const listed = (field: string, condition: string, values: string[], negated = false) =>
    toCriterion({ field, condition, values, negated }, new Set<FilterField>(LISTED_FILTER_FIELDS));
  const tagged: FilterSubject = { ...s, lists: { tags: ['urn:li:tag:pii', 'urn:li:tag:gold'], owners: ['urn:li:corpuser:jdoe'] } };
  expect(criterionMatches(tagged, listed('tags', 'EQUAL', ['urn:li:tag:gold']))).toBe(true);
  expect(criterionMatches(tagged, listed('tags.keyword', 'IN', ['urn:li:tag:x', 'urn:li:tag:pii']))).toBe(true);
  expect(criterionMatches(tagged, listed('tags', 'EQUAL', ['urn:li:tag:gold'], true))).toBe(false);
  expect(criterionMatches(tagged, listed('tags', 'EQUAL', ['urn:li:tag:x'], true))).toBe(true);
  expect(criterionMatches(tagged, listed('tags', 'CONTAIN', ['PII']))).toBe(true);
  expect(criterionMatches(tagged, listed('owners', 'START_WITH', ['urn:li:corpuser:']))).toBe(true);
  expect(criterionMatches(tagged, listed('owners', 'EXISTS', []))).toBe(true);
  expect(criterionMatches(tagged, listed('domains', 'EXISTS', []))).toBe(false);
  expect(criterionMatches(tagged, listed('domains', 'EXISTS', [], true))).toBe(true);
  // An entity whose lists were not read (or hold nothing) holds no urn.
  expect(criterionMatches(s, listed('glossaryTerms', 'EQUAL', ['urn:li:glossaryTerm:revenue']))).toBe(false);
  expect(criterionMatches(s, listed('glossaryTerms', 'EQUAL', ['urn:li:glossaryTerm:revenue'], true))).toBe(true);
  expect(criterionMatches(s, listed('glossaryTerms', 'EQUAL', []))).toBe(true);
  expect(clausesMatch(tagged, [[listed('tags', 'EQUAL', ['urn:li:tag:pii']), listed('owners', 'EQUAL', ['urn:li:corpuser:x'])]])).toBe(
    false,
  );
});
