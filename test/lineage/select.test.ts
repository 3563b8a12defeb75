// The in-database selection (catalog/src/read/lineage/select.ts) against the shipping path on a real
// Neo4j: the same hits in the same order, the same total and the same facets, page after page —
// including pages past the read-ahead prefix, a cursor past a fresh prefix, search offsets — and
// the fallbacks to the shipping path where counting by facetKey would be wrong.
import { testStore, namespace } from '../support/context.ts';
import { type Store, toPlain } from '../../catalog/src/store/store.ts';
import { scrollLineage, searchLineage, type LineageHit, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { countInDatabase, READ_AHEAD } from '../../catalog/src/read/lineage/select.ts';
import { normalizeQuery } from '../../catalog/src/read/lineage/query.ts';
import { planLineageRead } from '../../catalog/src/read/lineage/plan.ts';
import { countLineage, type LineageCountQuery } from '../../catalog/src/read/lineage/counts.ts';
import { datasetProps, limits, scrollAll, seedDatasets, upsert, upstreams, write } from './support.ts';

let store: Store;
const ns = namespace('sel');
const src = ns.dataset('src');
// src → k000..k129 (degree 1); k000..k029 → j00..j29 (2); j00 → deep0 → deep1 (3, 4)
const ks = Array.from({ length: 130 }, (_, i) => ns.dataset(`k${String(i).padStart(3, '0')}`));
const js = Array.from({ length: 30 }, (_, i) => ns.dataset(`j${String(i).padStart(2, '0')}`));
const deep = [ns.dataset('deep0'), ns.dataset('deep1')];
// Other types, platform and origin below k000: a job, an ML key, a DEV dataset of another platform.
const flow = ns.flow('flow');
const job = ns.job(flow, 'job');
const key = ns.mlPrimaryKey('key');
const other = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform}other,other,DEV)`;
// A soft-deleted child of k001; a ghost the job writes to.
const gone = ns.dataset('gone');
const ghost = ns.dataset('ghost');
// Stamped edges for time windows: w0 → w1 (t=1,000), w1 → w2 (t=5,000), w0 → w3 (t=5,000, manual:
// always in a window), w0 → w4 (no stamp: the row's observation time, i.e. now).
const ws = Array.from({ length: 5 }, (_, i) => ns.dataset(`w${i}`));
// Column-level lineage: field a of dsrc → field x of fdown (lifted onto fdown unless SCHEMA_FIELD).
const dsrc = ns.dataset('dsrc'),
  fdown = ns.dataset('fdown');

const shipping = { ...limits, selectInDatabase: false };
const down = (urn: string, extra: Partial<LineageQuery> = {}): LineageQuery => ({ urn, direction: 'DOWNSTREAM', ...extra });
const degree = (...values: string[]) => [{ and: [{ field: 'degree', values }] }];
const view = (hits: LineageHit[]) =>
  hits.map((h) => [h.urn, h.degree, h.graphqlType, h.platform, h.origin, h.walkUrns.join('|')].join(' '));

async function cypher(text: string, params: Record<string, unknown> = {}) {
  const r = await store.driver.executeQuery(text, params, { database: 'neo4j' });
  return r.records.map((x) => toPlain(x.toObject()));
}

/**
 * Both paths, every page: identical hits, totals and facets; which strategy the first page took.
 * A first page always walks, and the pages after it reuse that walk's snapshot.
 */
async function bothPaths(q: LineageQuery, count: number, lim = limits) {
  const viaDb = await scrollAll(store, q, count, lim);
  const firstDb = await scrollLineage(store, q, { count }, lim);
  const viaRows = await scrollAll(store, q, count, { ...lim, selectInDatabase: false });
  const firstRows = await scrollLineage(store, q, { count }, { ...lim, selectInDatabase: false });
  expect(view(viaDb.hits)).toEqual(view(viaRows.hits));
  expect(viaDb.total).toBe(viaRows.total);
  expect(viaDb.total).toBe(viaRows.hits.length);
  expect(firstDb.facets).toEqual(firstRows.facets);
  expect(firstDb.isPartial).toBe(firstRows.isPartial);
  expect(firstRows.strategy).toBe(q.lineageFlags ? 'hops' : 'fast');
  return { strategy: firstDb.strategy, hits: viaDb.hits, total: viaDb.total, facets: firstDb.facets, isPartial: firstDb.isPartial };
}

beforeAll(async () => {
  store = testStore();
  await seedDatasets(
    store,
    [src, ...ks, ...js, ...deep, gone, other],
    [
      ...ks.map((k) => [src, k] as [string, string]),
      ...js.map((j, i) => [ks[i]!, j] as [string, string]),
      [js[0]!, deep[0]!],
      [deep[0]!, deep[1]!],
      [ks[1]!, gone],
      [ks[0]!, other],
    ],
  );
  await write(store, [
    upsert(flow, 'dataFlowInfo', { name: 'flow', customProperties: {} }),
    upsert(job, 'dataJobInfo', { name: 'job', type: { string: 'COMMAND' }, customProperties: {} }),
    upsert(key, 'status', { removed: false }),
    upsert(gone, 'status', { removed: true }),
  ]);
  await write(store, [upsert(key, 'mlPrimaryKeyProperties', { sources: [ks[0]!], description: 'key' })]);
  await write(store, [upsert(job, 'dataJobInputOutput', { inputDatasets: [ks[0]!], outputDatasets: [ghost] })], 'relaxed');
  await seedDatasets(store, [dsrc, fdown, ...ws], []);
  await write(store, [
    upstreams(ws[1]!, [{ dataset: ws[0]!, time: 1_000 }]),
    upstreams(ws[2]!, [{ dataset: ws[1]!, time: 5_000 }]),
    upstreams(ws[3]!, [{ dataset: ws[0]!, time: 5_000, manual: true }]),
    upstreams(ws[4]!, [ws[0]!]),
  ]);
  await write(store, [
    upstreams(
      fdown,
      [dsrc],
      [{ upstreamType: 'FIELD_SET', upstreams: [ns.field(dsrc, 'a')], downstreamType: 'FIELD', downstreams: [ns.field(fdown, 'x')] }],
    ),
  ]);
});
afterAll(async () => {
  await store.close();
});

test('the in-database path and the shipping path agree, page after page, past the read-ahead prefix', async () => {
  const r = await bothPaths(down(src), 9);
  expect(r.strategy).toBe('database');
  // 130 + 30 + 2 datasets, the DEV dataset, the job and the key; not the ghost, not the soft-deleted.
  expect(r.total).toBe(130 + 30 + 2 + 3);
  expect(r.total).toBeGreaterThan(9 + READ_AHEAD);
  expect(r.hits.map((h) => h.urn)).not.toContain(ghost);
  expect(r.hits.map((h) => h.urn)).not.toContain(gone);
  const types = r.facets.find((f) => f.field === '_entityType')!.aggregations;
  expect(types).toEqual([
    { value: 'DATASET', count: 163 },
    { value: 'DATA_JOB', count: 1 },
    { value: 'MLPRIMARY_KEY', count: 1 },
  ]);
  expect(r.facets.find((f) => f.field === 'origin')!.aggregations).toEqual([
    { value: 'PROD', count: 162 },
    { value: 'DEV', count: 1 },
  ]);
});

test.each([
  ['degree 1', { orFilters: degree('1') }],
  ['degree 2', { orFilters: degree('2') }],
  ['degree 3+', { orFilters: degree('3+') }],
  ['degrees 1 and 3+', { orFilters: degree('1', '3+') }],
  ['types DATA_JOB, MLPRIMARY_KEY', { types: ['DATA_JOB', 'MLPRIMARY_KEY'] }],
  ['includeSoftDeleted', { includeSoftDeleted: true }],
  ['maxAggValues 1', { maxAggValues: 1 }],
  ['skipAggregates', { skipAggregates: true }],
] as const)('%s: same pages, total and facets on both paths', async (_name, extra) => {
  const r = await bothPaths(down(src, extra as Partial<LineageQuery>), 40);
  expect(r.strategy).toBe('database');
});

// Filters on what a facetKey stands for (type, platform, origin, soft deletion) are judged per
// facetKey in the database, negated or not, in any number of orFilters groups, with degrees too.
const otherPlatform = `urn:li:dataPlatform:${ns.platform}other`;
const where = (...groups: Array<Array<{ field: string; values: string[]; negated?: boolean; condition?: string }>>) =>
  groups.map((and) => ({ and }));
test.each([
  ['_entityType in orFilters', where([{ field: '_entityType', values: ['DATA_JOB', 'MLPRIMARY_KEY'] }])],
  ['platform', where([{ field: 'platform', values: [otherPlatform] }])],
  ['platform.keyword, negated', where([{ field: 'platform.keyword', values: [otherPlatform], negated: true }])],
  [
    'origin DEV with degree 2',
    where([
      { field: 'origin', values: ['DEV'] },
      { field: 'degree', values: ['2'] },
    ]),
  ],
  ['two groups: jobs, or DEV', where([{ field: '_entityType', values: ['DATA_JOB'] }], [{ field: 'origin', values: ['DEV'] }])],
  [
    'negated type with degree 2 and 3+',
    where([
      { field: '_entityType', values: ['DATASET'], negated: true },
      { field: 'degree', values: ['2', '3+'] },
    ]),
  ],
  ['removed = true (soft-deleted only)', where([{ field: 'removed', values: ['true'] }])],
] as const)('filter %s: selected in the database, same pages, total and facets as shipping rows', async (_name, orFilters) => {
  const r = await bothPaths(down(src, { orFilters } as unknown as Partial<LineageQuery>), 7);
  expect(r.strategy).toBe('database');
  expect(r.total).toBeGreaterThan(0);
});

test('with filters the page runs beside the counts on the facetKeys already seen, and again when the reach holds a new one', async () => {
  const replica = testStore();
  try {
    const jobs = down(src, { orFilters: where([{ field: '_entityType', values: ['DATA_JOB'] }]) } as unknown as Partial<LineageQuery>);
    // Seen so far: only the datasets of the time-window graph, so the job's facetKey is new.
    await scrollLineage(
      replica,
      down(ws[0]!, {
        orFilters: where([{ field: 'platform', values: [otherPlatform], negated: true }]),
      } as unknown as Partial<LineageQuery>),
      { count: 5 },
      limits,
    );
    const seen = replica.cache('lineage/facet-values', { max: 1 }); // exists: the options are not used
    expect(seen.size).toBeGreaterThan(0);
    const first = await scrollLineage(replica, jobs, { count: 5 }, limits);
    expect(first.strategy).toBe('database');
    expect(first.hits.map((h) => h.urn)).toEqual([job]);
    // Now every facetKey of the reach is known: the guess stands, and still finds only the job.
    const again = await searchLineage(replica, jobs, { start: 0, count: 5 }, limits);
    expect(again.hits.map((h) => h.urn)).toEqual([job]);
    expect(again.total).toBe(1);
  } finally {
    await replica.close();
  }
});

// Time windows: the edge test of the shipping walk (reach.cypher), in the database.
test.each([
  ['around t=1,000: w1 (and the manual w3)', 0, 2_000, [1, 3]],
  ['around t=5,000: w1 is cut off, so w2 is not reached', 4_000, 6_000, [3]],
  ['1,000 to 5,000: w1, w2, w3', 1_000, 5_000, [1, 2, 3]],
  ['up to now: all four', 0, Date.now() + 60_000, [1, 2, 3, 4]],
] as const)('time window %s: selected in the database, same as shipping rows', async (_name, start, end, reached) => {
  const r = await bothPaths(down(ws[0]!, { startTimeMillis: start, endTimeMillis: end }), 2);
  expect(r.strategy).toBe('database');
  expect(r.hits.map((h) => h.urn).sort()).toEqual(reached.map((i) => ws[i]!).sort());
});

test('a time window with a type filter: in the database, same as shipping rows', async () => {
  const r = await bothPaths(
    down(src, {
      startTimeMillis: 0,
      endTimeMillis: Date.now() + 60_000,
      orFilters: where([{ field: '_entityType', values: ['DATA_JOB', 'MLPRIMARY_KEY'] }]),
    } as unknown as Partial<LineageQuery>),
    1,
  );
  expect(r.strategy).toBe('database');
  expect(r.total).toBe(2);
});

test.each([
  ['one token', 'k00'],
  ['two tokens, any case', 'SEL K01'],
  ['a token of the description only', 'facetkey'],
  ['nothing matches', 'no-such-text'],
] as const)('free text, %s: selected in the database, same as shipping rows', async (_name, query) => {
  await write(store, [datasetProps(ks[12]!, 'about facetKey')]);
  const r = await bothPaths(down(src, { query }), 3);
  expect(r.strategy).toBe('database');
  if (query !== 'no-such-text') expect(r.total).toBeGreaterThan(0);
});

// Criteria on what the node holds (urn, name, description, parent) are judged per node in Neo4j,
// bit by bit, and combined with the facetKey's verdicts: every condition, negation, groups.
test.each([
  ['urn IN two', where([{ field: 'urn', values: [ks[3]!, job] }]), 2],
  ['urn negated', where([{ field: 'urn', values: [ks[3]!], negated: true }]), 164],
  // An exact urn is judged by node identity (lineage/node-ids): a urn with no node, or whose node is
  // outside the reach (the source itself), names no result; negated, it leaves every result.
  ['urn EQUAL, with no node', where([{ field: 'urn', values: ['urn:li:dataset:(urn:li:dataPlatform:hive,no.such.table,PROD)'] }]), 0],
  [
    'urn IN, the source and one with no node, negated',
    where([
      { field: 'urn', values: [src, 'urn:li:dataset:(urn:li:dataPlatform:hive,no.such.table,PROD)'], condition: 'IN', negated: true },
    ]),
    165,
  ],
  [
    'urn IN, a result, the source and one with no node',
    where([{ field: 'urn', values: [deep[0]!, src, 'urn:li:dataset:(urn:li:dataPlatform:hive,no.such.table,PROD)'], condition: 'IN' }]),
    1,
  ],
  ['name IEQUAL', where([{ field: 'name', values: ['K007'], condition: 'IEQUAL' }]), 1],
  ['name CONTAIN, any case', where([{ field: 'name', values: ['J0'], condition: 'CONTAIN' }]), 10],
  ['urn START_WITH the job type', where([{ field: 'urn', values: ['urn:li:dataJob:'], condition: 'START_WITH' }]), 1],
  ['urn END_WITH DEV)', where([{ field: 'urn.keyword', values: ['DEV)'], condition: 'END_WITH' }]), 1],
  ['description EXISTS (k012 and the ML key)', where([{ field: 'description', values: [], condition: 'EXISTS' }]), 2],
  ['description EXISTS, negated', where([{ field: 'description', values: [], condition: 'EXISTS', negated: true }]), 163],
  ['an empty value list restricts nothing', where([{ field: 'name', values: [], negated: true }]), 165],
  [
    'a group of name and platform, or a urn',
    where(
      [
        { field: 'name', values: ['k0'], condition: 'START_WITH' },
        { field: 'platform', values: [otherPlatform], negated: true },
      ],
      [{ field: 'urn', values: [deep[1]!] }],
    ),
    101,
  ],
] as const)(
  'node criteria, %s: selected in the database, same pages, total and facets as streamed rows',
  async (_name, orFilters, total) => {
    await write(store, [datasetProps(ks[12]!, 'about facetKey')]);
    const r = await bothPaths(down(src, { orFilters } as unknown as Partial<LineageQuery>), 4);
    expect(r.strategy).toBe('database');
    expect(r.total).toBe(total);
  },
);

test('comparisons, by number when both sides read as one (hexadecimal too), else by text: in the database, same as streamed rows', async () => {
  await write(store, [datasetProps(ks[13]!, '9'), datasetProps(ks[14]!, '10'), datasetProps(ks[15]!, ' 0x1p3 ')]);
  for (const [orFilters, total] of [
    [where([{ field: 'name', values: ['k050'], condition: 'GREATER_THAN' }]), undefined],
    [where([{ field: 'urn', values: [ks[9]!], condition: 'LESS_THAN_OR_EQUAL_TO' }]), undefined],
    // 10 (not 9, not 8); every description that is text is "greater" than the text 9.5
    [where([{ field: 'description', values: ['9.5'], condition: 'GREATER_THAN' }]), undefined],
    // 8 and 9 only: 10 is not, and a text compares by text ("key" > "9")
    [
      where([
        { field: 'description', values: ['9'], condition: 'LESS_THAN_OR_EQUAL_TO' },
        { field: 'description', values: ['1'], condition: 'GREATER_THAN' },
      ]),
      2,
    ],
  ] as const) {
    const r = await bothPaths(down(src, { orFilters } as unknown as Partial<LineageQuery>), 5);
    expect(r.strategy).toBe('database');
    if (total === undefined) expect(r.total).toBeGreaterThan(0);
    else expect(r.total).toBe(total);
  }
});

// LINEAGE_MAX_RESULTS keeps the first visible nodes in (degree, urn) order on both paths: the
// database finds the cut's degree in its counts and the cut's urn with select-cut. Visible below src:
// 130 at degree 1; 30 js, the DEV dataset, the job and the key at 2 (163); deep0 at 3; deep1 at 4.
test.each([
  ['inside degree 1', 50, {}],
  ['at the end of degree 1 (the whole degree, no urn)', 130, {}],
  ['inside degree 2', 140, {}],
  ['at the end of degree 2', 163, {}],
  ['inside the deepest degrees', 164, {}],
  ['inside degree 2, degree 2 only', 140, { orFilters: degree('2') }],
  ['inside degree 2, 3+ only: nothing kept is deeper', 150, { orFilters: degree('3+') }],
  ['inside degree 2, soft-deleted entities visible', 150, { includeSoftDeleted: true }],
  ['inside degree 1, free text judged per node', 60, { query: 'k0' }],
  [
    'inside degree 2, a name criterion judged per node',
    145,
    { orFilters: where([{ field: 'name', values: ['j1'], condition: 'START_WITH' }], [{ field: 'platform', values: [otherPlatform] }]) },
  ],
] as const)('LINEAGE_MAX_RESULTS cut %s (%d): same pages, total, facets and isPartial on both paths', async (_name, maxResults, extra) => {
  const q = down(src, extra as Partial<LineageQuery>);
  const r = await bothPaths(q, 7, { ...limits, maxResults });
  expect(r.strategy).toBe('database');
  expect(r.isPartial).toBe(true);
  const nq = normalizeQuery({ ...q, liftFields: false }, Date.now());
  const lim = { ...limits, maxResults };
  expect(await countInDatabase(store, nq, planLineageRead(nq, lim), lim, Date.now())).toBe(
    await countLineage(store, q, { ...lim, selectInDatabase: false }),
  );
});

test('a reach no larger than LINEAGE_MAX_RESULTS is whole', async () => {
  const r = await bothPaths(down(src), 50, { ...limits, maxResults: 165 });
  expect(r.isPartial).toBe(false);
  expect(r.total).toBe(165);
});

// searchAcrossLineageCounts counts in Neo4j what a search would total (text aside), as streamed rows count it.
test.each([
  ['everything', {}],
  ['degree 2', { orFilters: degree('2') }],
  [
    'types and a negated platform',
    { types: ['DATASET'], orFilters: where([{ field: 'platform', values: [otherPlatform], negated: true }]) },
  ],
  [
    'a name comparison and soft-deleted entities',
    { includeSoftDeleted: true, orFilters: where([{ field: 'name', values: ['k050'], condition: 'LESS_THAN' }]) },
  ],
  ['upstream', { direction: 'UPSTREAM' as const }],
] as const)('counts, %s: in the database, equal to counting streamed rows', async (_name, extra) => {
  const upstream = (extra as { direction?: string }).direction === 'UPSTREAM';
  const q = { urn: upstream ? deep[1]! : src, direction: 'DOWNSTREAM', ...extra } as LineageCountQuery;
  const nq = normalizeQuery({ ...q, liftFields: false }, Date.now());
  const inDb = await countInDatabase(store, nq, planLineageRead(nq, limits), limits, Date.now());
  expect(inDb).toBeGreaterThan(0);
  expect(await countLineage(store, q, limits)).toBe(inDb);
  expect(await countLineage(store, q, shipping)).toBe(inDb);
});

// Per-hop control that changes nothing is the breadth-first walk: selected in the database, the
// same as walking hop by hop. Where it changes something, the walk goes hop by hop.
test.each([
  ['ignoreAsHops of a type the reach does not hold', 'database', { ignoreAsHops: [{ entityType: 'MLMODEL' }] }],
  [
    'ignoreAsHops of jobs of another platform',
    'database',
    { ignoreAsHops: [{ entityType: 'DATA_JOB', platforms: ['urn:li:dataPlatform:nothing'] }] },
  ],
  ['ignoreAsHops of the jobs the reach holds', 'hops', { ignoreAsHops: [{ entityType: 'DATA_JOB' }] }],
  ['a per-hop limit above every fan-out (130 below the source)', 'database', { entitiesExploredPerHopLimit: 131 }],
  ['a per-hop limit the source reaches', 'hops', { entitiesExploredPerHopLimit: 130 }],
  ['both, changing nothing', 'database', { entitiesExploredPerHopLimit: 500, ignoreAsHops: [{ entityType: 'MLMODEL' }] }],
] as const)('%s: answered by %s, the same as walking hop by hop', async (_name, strategy, lineageFlags) => {
  const q = down(src, { lineageFlags } as Partial<LineageQuery>);
  const r = await bothPaths(q, 7);
  expect(r.strategy).toBe(strategy);
  expect(r.total).toBeGreaterThan(100);
  const nq = normalizeQuery({ ...q, liftFields: false }, Date.now());
  expect(await countInDatabase(store, nq, planLineageRead(nq, limits), limits, Date.now())).toBe(strategy === 'database' ? r.total : null);
});

// What the database cannot select is streamed: the service holds a page plus a window of hits,
// counts the rest as they pass, and streams the reach again for pages past the window.
test.each([
  [
    'a urn filter',
    down(src, {
      orFilters: where([{ field: 'urn', values: [ks[3]!, ks[77]!, js[5]!, job, deep[1]!], negated: true }]),
    } as unknown as Partial<LineageQuery>),
  ],
  ['ignoreAsHops', down(src, { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } })],
  ['a per-hop limit', down(src, { lineageFlags: { entitiesExploredPerHopLimit: 50 } })],
  ['a field start, lifted', down(ns.field(dsrc, 'a'))],
] as const)('%s: a window of 3 hits streams the same pages, total and facets as holding them all', async (_name, q) => {
  const held = await scrollAll(store, q, 4, shipping);
  const first = await scrollLineage(store, q, { count: 4 }, { ...shipping, streamWindow: 3 });
  // A fresh store: no snapshot of the walk above, so every page past the window streams again.
  const replica = testStore();
  try {
    const windowed = await scrollAll(replica, q, 4, { ...shipping, streamWindow: 3 });
    expect(view(windowed.hits)).toEqual(view(held.hits));
    expect(windowed.total).toBe(held.total);
    expect(first.facets).toEqual((await scrollLineage(store, q, { count: 4 }, shipping)).facets);
    const offset = await searchLineage(replica, q, { start: 9, count: 4 }, { ...shipping, streamWindow: 3 });
    expect(view(offset.hits)).toEqual(view(held.hits.slice(9, 13)));
  } finally {
    await replica.close();
  }
});

test.each([
  ['in the database', limits],
  ['streamed', { ...shipping, streamWindow: 5 }],
] as const)('a long scroll, %s, stops growing its snapshot at maxHeldHits and fetches after the cursor', async (_name, lim) => {
  const replica = testStore();
  try {
    const whole = await scrollAll(replica, down(src), 1000, lim);
    const capped = await scrollAll(replica, down(src, { skipAggregates: true }), 6, { ...lim, maxHeldHits: 20 });
    expect(view(capped.hits)).toEqual(view(whole.hits));
    const snapshots = replica.cache('lineage/snapshots', { max: 1 }); // exists: the options are not used
    const held = [...snapshots.values()].map((s) => (s as { selected: { hits: unknown[] } }).selected.hits.length);
    // The first scroll holds the whole result; the capped one its first page and window (6 + 100 in
    // the database, 6 + 5 streamed), grown to at most 20 + a window.
    expect(held.sort((a, b) => a - b)).toEqual([expect.any(Number), whole.hits.length]);
    expect(held[0]).toBeLessThanOrEqual(6 + READ_AHEAD);
  } finally {
    await replica.close();
  }
});

test('upstream and LINEAGE_MAX_HOPS: same on both paths', async () => {
  expect((await bothPaths({ urn: deep[1]!, direction: 'UPSTREAM' }, 2)).strategy).toBe('database');
  const capped = { ...limits, maxHops: 2 };
  const db = await scrollLineage(store, down(src), { count: 500 }, capped);
  const rows = await scrollLineage(store, down(src), { count: 500 }, { ...capped, selectInDatabase: false });
  expect(view(db.hits)).toEqual(view(rows.hits));
  expect(db.hits.every((h) => h.degree <= 2)).toBe(true);
});

test('search offsets past the prefix, and a scroll cursor past a fresh prefix', async () => {
  const all = (await scrollAll(store, down(src), 500, shipping)).hits;
  // Other replicas: their own stores, so no snapshot of the walks above.
  const replicas = [testStore(), testStore()];
  try {
    const deepOffset = await searchLineage(replicas[0]!, down(src), { start: 150, count: 10 }, limits);
    expect(deepOffset.strategy).toBe('database');
    expect(view(deepOffset.hits)).toEqual(view(all.slice(150, 160)));
    // Page 13's cursor, then the next page on a replica without the snapshot: it is fetched right
    // after the cursor although a fresh walk only holds the first count + READ_AHEAD.
    let scrollId: string | null = null;
    for (let i = 0; i < 13; i++) scrollId = (await scrollLineage(store, down(src), { count: 10, scrollId }, limits)).nextCursor;
    const after = await scrollLineage(replicas[1]!, down(src), { count: 10, scrollId }, limits);
    expect(view(after.hits)).toEqual(view(all.slice(130, 140)));
    expect(after.nextCursor).not.toBeNull();
  } finally {
    await Promise.all(replicas.map((r) => r.close()));
  }
});

test('falls back to shipping rows when fields must be lifted, or a node has no facetKey', async () => {
  // A field start walks fields: lifted onto their datasets, or kept (no lifting, types SCHEMA_FIELD).
  const lifted = await bothPaths(down(ns.field(dsrc, 'a')), 5);
  expect(lifted.strategy).toBe('fast');
  expect(lifted.hits.map((h) => [h.urn, h.degree, h.walkUrns])).toEqual([[fdown, 1, [ns.field(fdown, 'x')]]]);
  const fields = await bothPaths(down(ns.field(dsrc, 'a'), { types: ['SCHEMA_FIELD'], liftFields: false }), 5);
  expect(fields.strategy).toBe('fast');
  expect(fields.hits.map((h) => h.urn)).toEqual([ns.field(fdown, 'x')]);
  // A node written before facetKey existed (restoreIndices adds it): correct, just not counted in Neo4j.
  await cypher('MATCH (n:Entity {urn: $u}) REMOVE n.facetKey', { u: deep[1] });
  try {
    const r = await bothPaths(down(src), 50);
    expect(r.strategy).toBe('fast');
    expect(r.total).toBe(165);
  } finally {
    await write(store, [datasetProps(deep[1]!, 'facetKey back')]);
  }
  expect((await bothPaths(down(src), 50)).strategy).toBe('database');
});
