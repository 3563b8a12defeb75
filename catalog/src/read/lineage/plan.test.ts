import { maxDepthOf, planLineageRead } from './plan.ts';
import { normalizeQuery, type LineageLimits, type LineageQuery } from './query.ts';

const limits: LineageLimits = { maxHops: 1000, maxResults: 10_000, deadlineMs: 30_000 };
const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
const column = `urn:li:schemaField:(${dataset},id)`;
const plan = (q: Partial<LineageQuery>, l: LineageLimits = limits) =>
  planLineageRead(normalizeQuery({ urn: dataset, direction: 'DOWNSTREAM', ...q }, 0), l);

test('a plain walk: database first with the facetKey counts, then one statement, hop by hop if out of time', () => {
  const p = plan({});
  expect(p.database).toEqual({
    counts: 'lineage/select-counts-down-max',
    page: 'lineage/select-page-down-max',
    cut: 'lineage/select-cut-down-max',
    fanout: null,
    maxDepth: 1000,
  });
  expect(p.streamed).toBe('fast-then-hops');
  expect(p.reach).toBe('lineage/reach-down-max');
  expect(p.hop).toBe('lineage/hop-nodes-down');
  expect(p.vias).toBeNull();
  expect(p.reasons[0]).toMatch(/^database first: .*by facetKey/);
});

test('text or node criteria are judged per node; a degree filter bounds every statement; a window picks the windowed ones', () => {
  const judged = plan({ query: 'orders', orFilters: [{ and: [{ field: 'degree', values: ['1', '2'] }] }], startTimeMillis: 5 });
  expect(judged.database?.counts).toBe('lineage/select-counts-judged-down-2-windowed');
  expect(judged.database?.page).toBe('lineage/select-page-down-2-windowed');
  expect(judged.reach).toBe('lineage/reach-down-2-windowed');
  expect(judged.maxDepth).toBe(2);
  expect(plan({ orFilters: [{ and: [{ field: 'name', values: ['x'] }] }] }).database?.counts).toBe('lineage/select-counts-judged-down-max');
  expect(plan({ direction: 'UPSTREAM' }).database?.counts).toBe('lineage/select-counts-up-max');
});

test('per-hop control: the database step checks the fanout; the streamed walk goes hop by hop', () => {
  const limited = plan({ lineageFlags: { entitiesExploredPerHopLimit: 50 } });
  expect(limited.database?.fanout).toBe('lineage/fanout-down-max');
  expect(limited.streamed).toBe('hops');
  expect(limited.hop).toBe('lineage/hop-down');
  expect(limited.reasons.join('\n')).toMatch(/per-hop limit 50/);
  const ignoring = plan({ lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } });
  expect(ignoring.database?.fanout).toBeNull();
  expect(ignoring.streamed).toBe('hops');
  expect(ignoring.hop).toBe('lineage/hop-nodes-down');
  expect(ignoring.reasons.join('\n')).toMatch(/hop by hop: ignoreAsHops/);
});

test('no database step when it is turned off; nothing at all when nothing is explored; vias for a column walk', () => {
  const off = plan({}, { ...limits, selectInDatabase: false });
  expect(off.database).toBeNull();
  expect(off.reasons[0]).toMatch(/turned off/);
  const nothing = plan({ lineageFlags: { entitiesExploredPerHopLimit: 0 } });
  expect(nothing).toMatchObject({ exploresNothing: true, database: null, vias: null });
  expect(plan({ urn: column }).vias).toBe('lineage/vias-down');
  expect(plan({ urn: column }).reasons.at(-1)).toMatch(/^column walk/);
});

test('the depth bound is the family literal capped by LINEAGE_MAX_HOPS; a first step gets its share of the deadline', () => {
  expect(maxDepthOf('max', { ...limits, maxHops: 7 })).toBe(7);
  expect(maxDepthOf(2, { ...limits, maxHops: 1 })).toBe(1);
  expect(plan({}, { ...limits, maxHops: 5 }).database?.maxDepth).toBe(5);
  expect(plan({}).firstStepMs).toBe(15_000);
  expect(plan({}, { ...limits, fastPathTimeoutMs: 100 }).firstStepMs).toBe(100);
});

test('streamed hop rows carry names and descriptions only when the request judges them', () => {
  expect(plan({}).strings).toBe(false);
  expect(
    plan({
      orFilters: [
        {
          and: [
            { field: 'platform', values: ['urn:li:dataPlatform:hive'] },
            { field: 'urn', values: [dataset] },
          ],
        },
      ],
    }).strings,
  ).toBe(false);
  expect(plan({ query: 'orders' }).strings).toBe(true);
  expect(plan({ orFilters: [{ and: [{ field: 'name', values: ['x'], condition: 'CONTAIN' }] }] }).strings).toBe(true);
  expect(
    plan({ orFilters: [{ and: [{ field: 'origin', values: ['PROD'] }] }, { and: [{ field: 'description', values: ['y'] }] }] }).strings,
  ).toBe(true);
});
