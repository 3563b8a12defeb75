// searchAcrossLineageCounts on a real Neo4j: a column with upstream columns of every kind of
// existence (written to directly, only declared by their table's schema, neither, under a table
// never ingested), counted as a search would return them and as the graph holds them.
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { countLineage, type LineageCountQuery } from '../../catalog/src/read/lineage/counts.ts';
import { limits, upsert, write } from './support.ts';

let store: Store;
const ns = namespace('cnt');
const f = (ds: string, path: string) => ns.field(ds, path);
const schema = (...paths: string[]) => ({
  schemaName: 's',
  platform: `urn:li:dataPlatform:${ns.platform}`,
  version: 0,
  hash: '',
  platformSchema: {},
  fields: paths.map((fieldPath) => ({ fieldPath, nativeDataType: 'VARCHAR', type: { type: { 'com.linkedin.schema.StringType': {} } } })),
});
const fgl = (up: string, down: string) => ({ upstreamType: 'FIELD_SET', upstreams: [up], downstreamType: 'FIELD', downstreams: [down] });
const source = ns.dataset('source'),
  neverIngested = ns.dataset('never_ingested'),
  target = ns.dataset('target');
const other = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform}_other,other,PROD)`;
const WRITTEN = 'written_col',
  DECLARED = 'declared_col',
  UNDECLARED = 'undeclared_col';

beforeAll(async () => {
  store = testStore();
  await write(store, [
    upsert(source, 'schemaMetadata', schema(WRITTEN, DECLARED)),
    upsert(other, 'schemaMetadata', schema(DECLARED)),
    upsert(target, 'schemaMetadata', schema('a', 'b', 'c')),
    // Something written to the column's own urn gives it rows of its own.
    upsert(f(source, WRITTEN), 'documentation', { documentations: [{ documentation: 'a column with rows' }] }),
  ]);
  await write(
    store,
    [
      upsert(target, 'upstreamLineage', {
        upstreams: [{ dataset: source, type: 'TRANSFORMED' }],
        fineGrainedLineages: [
          fgl(f(source, WRITTEN), f(target, 'a')),
          fgl(f(source, DECLARED), f(target, 'a')),
          fgl(f(source, UNDECLARED), f(target, 'a')),
          fgl(f(neverIngested, DECLARED), f(target, 'b')),
          fgl(f(source, DECLARED), f(target, 'c')),
          fgl(f(other, DECLARED), f(target, 'c')),
        ],
      }),
    ],
    'relaxed',
  );
});
afterAll(async () => {
  await store.close();
});

const count = (urn: string, extra: Partial<LineageCountQuery> = {}) =>
  countLineage(store, { urn, direction: 'UPSTREAM', types: ['SCHEMA_FIELD'], ...extra }, limits);
const filter = (field: string, values: string[], extra: Record<string, unknown> = {}) => [{ and: [{ field, values, ...extra }] }];

test("materialized: only columns with rows of their own; off the graph: all, or those their table's schema declares", async () => {
  expect(await count(f(target, 'a'))).toBe(1);
  expect(await count(f(target, 'a'), { includeGhostEntities: true, validateSchemaFields: 'NONE' })).toBe(3);
  expect(await count(f(target, 'a'), { includeGhostEntities: true, validateSchemaFields: 'ALWAYS' })).toBe(2);
  expect(await count(f(target, 'a'), { includeGhostEntities: true })).toBe(2); // AUTO validates too
  expect(await count(f(target, 'c'))).toBe(0);
  expect(await count(f(target, 'c'), { includeGhostEntities: true, validateSchemaFields: 'ALWAYS' })).toBe(2);
  // A table never ingested has no schema to confirm its column.
  expect(await count(f(target, 'b'), { includeGhostEntities: true, validateSchemaFields: 'NONE' })).toBe(1);
  expect(await count(f(target, 'b'), { includeGhostEntities: true, validateSchemaFields: 'ALWAYS' })).toBe(0);
});

test("off the graph, filters read the column's urn: parent (equal, negated, contained) and the parent's platform", async () => {
  const graph = { includeGhostEntities: true, validateSchemaFields: 'NONE' as const };
  expect(await count(f(target, 'c'), { ...graph, orFilters: filter('parent', [other]) })).toBe(1);
  expect(await count(f(target, 'c'), { ...graph, orFilters: filter('parent', [other], { negated: true }) })).toBe(1);
  expect(
    await count(f(target, 'c'), {
      ...graph,
      orFilters: filter('parent', [`${ns.platform}_other`], { condition: 'CONTAIN', negated: true }),
    }),
  ).toBe(1);
  expect(await count(f(target, 'c'), { ...graph, orFilters: filter('platform', [`urn:li:dataPlatform:${ns.platform}_other`]) })).toBe(1);
  expect(await count(f(target, 'c'), { ...graph, orFilters: filter('platform', ['urn:li:dataPlatform:bigquery']) })).toBe(0);
  // The parent of a never-ingested table is read off the urn as well.
  expect(await count(f(target, 'b'), { ...graph, orFilters: filter('platform', [`urn:li:dataPlatform:${ns.platform}`]) })).toBe(1);
  await expect(
    count(f(target, 'a'), { ...graph, orFilters: filter('description', ['x'], { condition: 'CONTAIN' }) }),
  ).rejects.toMatchObject({ kind: 'badRequest', message: expect.stringContaining('filters on description') });
});

test('ignoreAsHops for columns of a platform: walked through, their upstreams at the same degree; a wide window changes nothing', async () => {
  const model = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform}_model,model,PROD)`;
  const end = ns.dataset('end');
  await write(store, [upsert(model, 'schemaMetadata', schema('m')), upsert(end, 'schemaMetadata', schema('e'))]);
  await write(store, [
    upsert(model, 'upstreamLineage', {
      upstreams: [{ dataset: source, type: 'TRANSFORMED' }],
      fineGrainedLineages: [fgl(f(source, WRITTEN), f(model, 'm'))],
    }),
    upsert(end, 'upstreamLineage', {
      upstreams: [{ dataset: model, type: 'TRANSFORMED' }],
      fineGrainedLineages: [fgl(f(model, 'm'), f(end, 'e'))],
    }),
  ]);
  const notModelColumns = [
    {
      and: [
        { field: 'degree', values: ['1'] },
        { field: 'parent', values: [`urn:li:dataPlatform:${ns.platform}_model`], condition: 'CONTAIN', negated: true },
      ],
    },
  ];
  const ignore = [{ entityType: 'SCHEMA_FIELD', platforms: [`urn:li:dataPlatform:${ns.platform}_model`] }];
  const graph = { includeGhostEntities: true, orFilters: notModelColumns };
  expect(await count(f(end, 'e'), graph)).toBe(0);
  expect(await count(f(end, 'e'), { ...graph, lineageFlags: { ignoreAsHops: ignore } })).toBe(1);
  expect(
    await count(f(end, 'e'), { ...graph, lineageFlags: { ignoreAsHops: ignore, startTimeMillis: 0, endTimeMillis: 99_999_999_999_999 } }),
  ).toBe(1);
  // Off the graph, soft deletion is not consulted either way.
  for (const includeSoftDeleted of [true, false]) {
    expect(await count(f(end, 'e'), { ...graph, includeSoftDeleted, lineageFlags: { ignoreAsHops: ignore } })).toBe(1);
  }
});
