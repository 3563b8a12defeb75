// Impact analysis on a real Neo4j: named topologies seeded through writeAspects, then scroll /
// search with every filter the spec defines. Fast path and hop-by-hop must agree on degrees.
import { testStore, namespace } from '../support/context.ts';
import type { Store, Tx } from '../../catalog/src/store/store.ts';
import { deadlineExceeded } from '../../catalog/src/model/errors.ts';
import { hardDeleteEntity } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import {
  lineageNeighbours,
  lineagePaths,
  scrollLineage,
  searchLineage,
  type LineageQuery,
} from '../../catalog/src/read/lineage/service.ts';
import { normalizeQuery } from '../../catalog/src/read/lineage/query.ts';
import { reachByHops, reachFast } from '../../catalog/src/read/lineage/traverse.ts';
import { ACTOR, T0, datasetProps, degrees, limits, scrollAll, seedDatasets, upsert, upstreams, write } from './support.ts';

const baseLimits = limits;

let store: Store;
const ns = namespace('lin');
const d = (name: string) => ns.dataset(name);
const down = (urn: string, extra: Partial<LineageQuery> = {}): LineageQuery => ({ urn, direction: 'DOWNSTREAM', ...extra });
const up = (urn: string, extra: Partial<LineageQuery> = {}): LineageQuery => ({ urn, direction: 'UPSTREAM', ...extra });
const degreeFilter = (...clauses: string[][]) => clauses.map((values) => ({ and: [{ field: 'degree', values }] }));
const page = async (q: LineageQuery, count = 100) => scrollLineage(store, q, { count }, limits);

// chain c0 → c1 → c2 → c3 → c4
const chain = [0, 1, 2, 3, 4].map((i) => d(`chain${i}`));
// diamond: d0 → d1 → d3, d0 → d2 → d3, d0 → d4, d3 → d4 (d4 at its minimum degree 1)
const dia = [0, 1, 2, 3, 4].map((i) => d(`dia${i}`));
// cycle y0 → y1 → y2 → y0 and a self-edge y1 → y1
const cyc = [0, 1, 2].map((i) => d(`cyc${i}`));
// fan: f0 → g00..g24, g_i → h_i
const fan0 = d('fan0');
const fanG = Array.from({ length: 25 }, (_, i) => d(`fang${String(i).padStart(2, '0')}`));
const fanH = Array.from({ length: 25 }, (_, i) => d(`fanh${String(i).padStart(2, '0')}`));
const orphan = d('orphan');
// mixed: m0 → job mj → m1; m0 → mlPrimaryKey mk; m1 → mo (another platform, DEV)
const m0 = d('mix0'),
  m1 = d('mix1');
const flow = ns.flow('flow');
const mj = ns.job(flow, 'mixjob');
const mk = ns.mlPrimaryKey('mixkey');
const mo = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform}other,mixother,DEV)`;
// hub: p0 → hub → p1..p5
const p0 = d('hubsrc'),
  hub = d('hub');
const hubKids = [1, 2, 3, 4, 5].map((i) => d(`hubkid${i}`));

beforeAll(async () => {
  store = testStore();
  await seedDatasets(store, chain, [
    [chain[0]!, chain[1]!],
    [chain[1]!, chain[2]!],
    [chain[2]!, chain[3]!],
    [chain[3]!, chain[4]!],
  ]);
  await seedDatasets(store, dia, [
    [dia[0]!, dia[1]!],
    [dia[0]!, dia[2]!],
    [dia[1]!, dia[3]!],
    [dia[2]!, dia[3]!],
    [dia[0]!, dia[4]!],
    [dia[3]!, dia[4]!],
  ]);
  await seedDatasets(store, cyc, [
    [cyc[0]!, cyc[1]!],
    [cyc[1]!, cyc[2]!],
    [cyc[2]!, cyc[0]!],
    [cyc[1]!, cyc[1]!],
  ]);
  await seedDatasets(
    store,
    [fan0, ...fanG, ...fanH],
    [...fanG.map((g) => [fan0, g] as [string, string]), ...fanG.map((g, i) => [g, fanH[i]!] as [string, string])],
  );
  await seedDatasets(store, [orphan, p0, hub, ...hubKids], [[p0, hub], ...hubKids.map((k) => [hub, k] as [string, string])]);
  await write(store, [
    datasetProps(m0),
    datasetProps(m1, 'Quarterly REVENUE by region'),
    datasetProps(mo),
    upsert(flow, 'dataFlowInfo', { name: 'flow', customProperties: {} }),
    upsert(mj, 'dataJobInfo', { name: 'mixjob', type: { string: 'COMMAND' }, customProperties: {} }),
    upsert(mk, 'status', { removed: false }),
  ]);
  await write(store, [
    upsert(mj, 'dataJobInputOutput', { inputDatasets: [m0], outputDatasets: [m1] }),
    upsert(mk, 'mlPrimaryKeyProperties', { sources: [m0], description: 'key' }),
    upstreams(mo, [m1]),
  ]);
});
afterAll(async () => {
  await store.close();
});

describe('topologies', () => {
  test('chain: degree = hop count, downstream and upstream; the source is never a result', async () => {
    const r = await page(down(chain[0]!));
    expect(degrees(r.hits)).toEqual([
      [chain[1], 1],
      [chain[2], 2],
      [chain[3], 3],
      [chain[4], 4],
    ]);
    expect(r.total).toBe(4);
    expect(r.isPartial).toBe(false);
    expect(r.nextCursor).toBeNull();
    const u = await page(up(chain[3]!));
    expect(degrees(u.hits)).toEqual([
      [chain[2], 1],
      [chain[1], 2],
      [chain[0], 3],
    ]);
    expect(r.hits.every((h) => h.graphqlType === 'DATASET' && !h.ignoredAsHop && !h.truncatedChildren)).toBe(true);
    expect(r.hits[0]!.platform).toBe(`urn:li:dataPlatform:${ns.platform}`);
  });

  test('diamond: every entity once, at its minimum degree', async () => {
    const r = await page(down(dia[0]!));
    expect(degrees(r.hits)).toEqual([
      [dia[1], 1],
      [dia[2], 1],
      [dia[4], 1],
      [dia[3], 2],
    ]);
    const u = await page(up(dia[4]!));
    expect(degrees(u.hits)).toEqual([
      [dia[0], 1],
      [dia[3], 1],
      [dia[1], 2],
      [dia[2], 2],
    ]);
  });

  test('cycle and self-edge terminate; the source does not come back', async () => {
    expect(degrees((await page(down(cyc[0]!))).hits)).toEqual([
      [cyc[1], 1],
      [cyc[2], 2],
    ]);
    expect(degrees((await page(up(cyc[1]!))).hits)).toEqual([
      [cyc[0], 1],
      [cyc[2], 2],
    ]);
  });

  test('orphan, missing node and types without lineage: empty, not an error', async () => {
    for (const urn of [orphan, d('never-written'), flow, 'urn:li:tag:whatever']) {
      const r = await page(down(urn));
      expect(r.hits).toEqual([]);
      expect(r.total).toBe(0);
      expect(r.facets[0]!.aggregations.map((a) => a.count)).toEqual([0, 0, 0]);
    }
  });

  test('malformed or missing urn is a client error', async () => {
    await expect(page(down('not a urn'))).rejects.toMatchObject({ kind: 'badRequest', message: 'Invalid urn: not a urn' });
    await expect(page(down(''))).rejects.toMatchObject({ kind: 'badRequest', message: 'urn is required' });
  });
});

describe('paging', () => {
  test('fan-out over many pages: every entity exactly once, in (degree, urn) order', async () => {
    const { hits, pages, total } = await scrollAll(store, down(fan0), 7);
    expect(total).toBe(50);
    expect(pages).toBe(8);
    expect(new Set(hits.map((h) => h.urn)).size).toBe(50);
    expect(degrees(hits)).toEqual([...[...fanG].sort().map((u) => [u, 1]), ...[...fanH].sort().map((u) => [u, 2])]);
    // A page size that divides the total exactly ends with a null cursor, not an empty page.
    expect((await scrollAll(store, down(fan0), 10)).pages).toBe(5);
  });

  test('searchLineage pages by offset over the same order', async () => {
    const all = (await page(down(fan0))).hits.map((h) => h.urn);
    const p = await searchLineage(store, down(fan0), { start: 20, count: 10 }, limits);
    expect(p.hits.map((h) => h.urn)).toEqual(all.slice(20, 30));
    expect(p.total).toBe(50);
    expect(p.nextCursor).toBeNull();
  });

  test('a cursor from another query, or garbage, is Invalid scrollId', async () => {
    const first = await scrollLineage(store, down(fan0), { count: 5 }, limits);
    expect(first.nextCursor).not.toBeNull();
    await expect(
      scrollLineage(store, down(fan0, { query: 'fang' }), { count: 5, scrollId: first.nextCursor }, limits),
    ).rejects.toMatchObject({ kind: 'validation', message: 'Invalid scrollId' });
    await expect(scrollLineage(store, up(fan0), { count: 5, scrollId: first.nextCursor }, limits)).rejects.toThrow('Invalid scrollId');
    await expect(scrollLineage(store, down(fan0), { count: 5, scrollId: 'garbage!!' }, limits)).rejects.toThrow('Invalid scrollId');
    // Same query, another page size: the cursor stays valid.
    const next = await scrollLineage(store, down(fan0), { count: 3, scrollId: first.nextCursor }, limits);
    expect(next.hits[0]!.urn).toBe([...fanG].sort()[5]);
  });

  test('LINEAGE_MAX_RESULTS truncates by (degree, urn) and marks the page partial', async () => {
    const r = await scrollLineage(store, down(fan0), { count: 100 }, { ...limits, maxResults: 10 });
    expect(r.isPartial).toBe(true);
    expect(r.total).toBe(10);
    expect(r.hits.map((h) => h.urn)).toEqual([...fanG].sort().slice(0, 10));
  });

  test('includePaths: one shortest path per returned hit, source first', async () => {
    const r = await scrollLineage(store, down(dia[0]!, { includePaths: true }), { count: 10 }, limits);
    const byUrn = new Map(r.hits.map((h) => [h.urn, h.paths]));
    expect(byUrn.get(dia[4]!)).toEqual([[dia[0], dia[4]]]);
    expect([
      [dia[0], dia[1], dia[3]],
      [dia[0], dia[2], dia[3]],
    ]).toContainEqual(byUrn.get(dia[3]!)![0]);
    const paths = await lineagePaths(store, chain[4]!, 'UPSTREAM', [{ urn: chain[0]!, walkUrns: [chain[0]!], viaParent: null }]);
    expect(paths.get(chain[0]!)).toEqual([[chain[4], chain[3], chain[2], chain[1], chain[0]]]);
  });
});

describe('degree filters', () => {
  test.each([
    [['1'], [1], [1, 0, 0]],
    [['2'], [2], [1, 1, 0]],
    [['3+'], [3, 4], [1, 1, 2]],
    [
      ['1', '3+'],
      [1, 3, 4],
      [1, 1, 2],
    ],
    [
      ['1', '2'],
      [1, 2],
      [1, 1, 0],
    ],
  ])('%j bounds the walk and filters results; degree facet counts before the filter', async (values, want, facet) => {
    const r = await page(down(chain[0]!, { orFilters: degreeFilter(values) }));
    expect(r.hits.map((h) => h.degree)).toEqual(want);
    expect(r.total).toBe(want.length);
    expect(r.facets[0]!.aggregations).toEqual([
      { value: '1', count: facet[0] },
      { value: '2', count: facet[1] },
      { value: '3+', count: facet[2] },
    ]);
  });

  test('the bound comes from every clause, the predicate from the first clause with a degree', async () => {
    const r = await page(
      down(chain[0]!, { orFilters: [{ and: [{ field: 'origin', values: ['PROD'] }] }, ...degreeFilter(['2'], ['3+'])] }),
    );
    expect(r.hits.map((h) => h.degree)).toEqual([2]);
    expect(r.facets[0]!.aggregations.map((a) => a.count)).toEqual([1, 1, 2]);
  });

  test('an invalid degree value is a validation error naming it', async () => {
    await expect(page(down(chain[0]!, { orFilters: degreeFilter(['4']) }))).rejects.toMatchObject({
      kind: 'validation',
      message: '4 is not a valid filter value for degree filters',
    });
  });

  test('LINEAGE_MAX_HOPS caps "unlimited"', async () => {
    const r = await scrollLineage(store, down(chain[0]!), { count: 10 }, { ...limits, maxHops: 2 });
    expect(r.hits.map((h) => h.degree)).toEqual([1, 2]);
  });
});

describe('entity filters', () => {
  test('mixed types: dataset → dataJob (1) → dataset (2); dataset → mlPrimaryKey (1)', async () => {
    const r = await page(down(m0));
    expect(degrees(r.hits)).toEqual([
      [mj, 1],
      [mk, 1],
      [m1, 2],
      [mo, 3],
    ]);
    expect(r.hits.map((h) => h.graphqlType)).toEqual(['DATA_JOB', 'MLPRIMARY_KEY', 'DATASET', 'DATASET']);
    expect(r.facets[1]).toEqual({
      field: '_entityType',
      displayName: 'Type',
      aggregations: [
        { value: 'DATASET', count: 2 },
        { value: 'DATA_JOB', count: 1 },
        { value: 'MLPRIMARY_KEY', count: 1 },
      ],
    });
    expect(r.facets[3]!.aggregations).toEqual([
      { value: 'DEV', count: 1 },
      { value: 'PROD', count: 1 },
    ]);
    expect(degrees((await page(up(mo))).hits)).toEqual([
      [m1, 1],
      [mj, 2],
      [m0, 3],
    ]);
  });

  test('types filter results only; the walk passes through other types', async () => {
    const r = await page(down(m0, { types: ['DATASET'] }));
    expect(degrees(r.hits)).toEqual([
      [m1, 2],
      [mo, 3],
    ]);
    expect(r.facets[0]!.aggregations.map((a) => a.count)).toEqual([0, 1, 1]);
  });

  test('_entityType, platform, origin and urn filters, negated and with operators', async () => {
    const f = async (...and: Array<Record<string, unknown>>) =>
      (await page(down(m0, { orFilters: [{ and: and as never }] }))).hits.map((h) => h.urn);
    expect(await f({ field: '_entityType', values: ['DATASET'], negated: true })).toEqual([mj, mk]);
    expect(await f({ field: '_entityType', values: ['DATA_JOB', 'MLPRIMARY_KEY'], condition: 'IN' })).toEqual([mj, mk]);
    expect(await f({ field: 'platform', values: [`urn:li:dataPlatform:${ns.platform}`] })).toEqual([mj, m1]);
    expect(await f({ field: 'platform', condition: 'EXISTS', negated: true })).toEqual([mk]);
    expect(await f({ field: 'origin', value: 'DEV' })).toEqual([mo]);
    expect(await f({ field: 'urn', values: ['MIX1'], condition: 'CONTAIN' })).toEqual([m1]);
    expect(
      await f({ field: 'urn', values: ['urn:li:dataJob:'], condition: 'START_WITH', negated: true }, { field: 'origin', values: ['PROD'] }),
    ).toEqual([m1]);
    expect(await f({ field: 'platform.keyword', values: [ns.platform] })).toEqual([mj, m1]);
    expect(await f({ field: 'env', values: ['DEV'] })).toEqual([mo]);
    // An unknown field is a client error naming it, not a silent empty result.
    await expect(f({ field: 'noSuchField', values: ['x'] })).rejects.toMatchObject({
      kind: 'badRequest',
      message: expect.stringContaining("'noSuchField'"),
    });
    const two = await page(
      down(m0, { orFilters: [{ and: [{ field: 'origin', values: ['DEV'] }] }, { and: [{ field: '_entityType', values: ['DATA_JOB'] }] }] }),
    );
    expect(two.hits.map((h) => h.urn)).toEqual([mj, mo]);
    expect(two.total).toBe(2);
  });

  test('free-text query matches urn, name and description tokens, case-insensitively', async () => {
    expect((await page(down(m0, { query: 'revenue' }))).hits.map((h) => h.urn)).toEqual([m1]);
    expect((await page(down(m0, { query: 'quarterly region' }))).hits.map((h) => h.urn)).toEqual([m1]);
    expect((await page(down(m0, { query: 'mixkey' }))).hits.map((h) => h.urn)).toEqual([mk]);
    expect((await page(down(m0, { query: '*' }))).total).toBe(4);
    expect((await page(down(m0, { query: 'nothing-like-this' }))).total).toBe(0);
  });

  test('skipAggregates → no facets; maxAggValues caps values per facet', async () => {
    expect((await page(down(m0, { skipAggregates: true }))).facets).toEqual([]);
    expect((await page(down(m0, { maxAggValues: 1 }))).facets[1]!.aggregations).toEqual([{ value: 'DATASET', count: 2 }]);
  });
});

describe('lineageFlags', () => {
  test('ignoreAsHops: a job does not consume a hop and is flagged', async () => {
    const r = await page(down(m0, { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } }));
    expect(r.hits.map((h) => [h.urn, h.degree, h.ignoredAsHop])).toEqual([
      [mj, 1, true],
      [m1, 1, false],
      [mk, 1, false],
      [mo, 2, false],
    ]);
    const matchingPlatform = await page(
      down(m0, { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB', platforms: [`urn:li:dataPlatform:${ns.platform}`] }] } }),
    );
    expect(matchingPlatform.hits.find((h) => h.urn === m1)!.degree).toBe(1);
    const otherPlatform = await page(
      down(m0, { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB', platforms: ['urn:li:dataPlatform:airflow'] }] } }),
    );
    expect(degrees(otherPlatform.hits)).toEqual([
      [mj, 1],
      [mk, 1],
      [m1, 2],
      [mo, 3],
    ]);
    expect(otherPlatform.hits.every((h) => !h.ignoredAsHop)).toBe(true);
    expect(otherPlatform.isPartial).toBe(false);
  });

  test('ignoreAsHops walked hop by hop still judges names and descriptions: a text query and a name filter', async () => {
    const flags = { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } };
    const text = await page(down(m0, { ...flags, query: 'revenue' }));
    expect(text.strategy).toBe('hops');
    expect(degrees(text.hits)).toEqual([[m1, 1]]);
    const named = await page(down(m0, { ...flags, orFilters: [{ and: [{ field: 'name', values: ['mixjob'] }] }] }));
    expect(degrees(named.hits)).toEqual([[mj, 1]]);
    const unnamed = await page(down(m0, { ...flags, orFilters: [{ and: [{ field: 'name', values: ['mixjob'], negated: true }] }] }));
    expect(degrees(unnamed.hits)).toEqual([
      [m1, 1],
      [mk, 1],
      [mo, 2],
    ]);
  });

  test('entitiesExploredPerHopLimit: N children per node in urn order; the children of a parent at the limit are truncatedChildren', async () => {
    const r = await page(down(p0, { lineageFlags: { entitiesExploredPerHopLimit: 3 } }));
    expect(r.hits.map((h) => [h.urn, h.degree, h.truncatedChildren])).toEqual([
      [hub, 1, false],
      ...[...hubKids]
        .sort()
        .slice(0, 3)
        .map((k) => [k, 2, true]),
    ]);
    expect(r.isPartial).toBe(true);
    // Reaching the limit exactly marks the children too (DataHub compares with >=), but cuts nothing.
    const exact = await page(down(p0, { lineageFlags: { entitiesExploredPerHopLimit: 5 } }));
    expect(exact.total).toBe(6);
    expect(exact.isPartial).toBe(false);
    expect(exact.hits.filter((h) => h.truncatedChildren).map((h) => h.urn)).toEqual([...hubKids].sort());
    const roomy = await page(down(p0, { lineageFlags: { entitiesExploredPerHopLimit: 6 } }));
    expect(roomy.hits.some((h) => h.truncatedChildren)).toBe(false);
    // 0 explores nothing, with or without ignoreAsHops (both of DataHub's graph backends answer empty).
    const none = await page(down(p0, { lineageFlags: { entitiesExploredPerHopLimit: 0 } }));
    expect([none.total, none.hits]).toEqual([0, []]);
    const nothing = await page(down(p0, { lineageFlags: { entitiesExploredPerHopLimit: 0, ignoreAsHops: [{ entityType: 'DATA_JOB' }] } }));
    expect([nothing.total, nothing.hits]).toEqual([0, []]);
  });

  test('the deadline: nothing completed → deadlineExceeded', async () => {
    await expect(scrollLineage(store, down(chain[0]!), { count: 10 }, { ...limits, deadlineMs: -1 })).rejects.toMatchObject({
      kind: 'deadline',
    });
    await expect(
      scrollLineage(
        store,
        down(chain[0]!, { lineageFlags: { entitiesExploredPerHopLimit: 2 } }),
        { count: 10 },
        { ...limits, deadlineMs: -1 },
      ),
    ).rejects.toMatchObject({ kind: 'deadline' });
  });

  /**
   * The real store, except that chosen statements fail the way a transaction timeout surfaces.
   * The snapshot cache's generation read is neither counted nor failed: these tests are about the walk.
   */
  function timingOut(fails: (name: string, call: number) => boolean): Store {
    let calls = 0;
    return {
      ...store,
      read: <T>(work: (tx: Tx) => Promise<T>, o?: Parameters<Store['read']>[1]) =>
        store.read((tx) => {
          const failing = (name: string) => name !== 'lineage/generation' && fails(name, calls++);
          const timedOut = () => Promise.reject(deadlineExceeded('The operation exceeded its deadline.'));
          return work({
            changeLog: tx.changeLog,
            maxEdgesPerWrite: tx.maxEdgesPerWrite,
            record: (records) => tx.record(records),
            run: (name, params) => (failing(name) ? timedOut() : tx.run(name, params)),
            each: (name, params, onRow) => (failing(name) ? timedOut() : tx.each(name, params, onRow)),
          });
        }, o),
    };
  }

  test('an in-database selection out of time falls back to shipping the reach', async () => {
    const expected = await page(down(dia[0]!));
    expect(expected.strategy).toBe('database');
    const fallback = await scrollLineage(
      timingOut((n) => n.startsWith('lineage/select-')),
      down(dia[0]!),
      { count: 100 },
      limits,
    );
    expect(fallback.strategy).toBe('fast');
    expect(degrees(fallback.hits)).toEqual(degrees(expected.hits));
    expect(fallback.facets).toEqual(expected.facets);
  });

  test('a fast path out of time falls back to hop-by-hop; a later hop out of time gives a partial page', async () => {
    // The shipping path's own fallback: the in-database path is switched off for the call count.
    const limits = { ...baseLimits, selectInDatabase: false };
    const expected = degrees((await page(down(chain[0]!))).hits);
    const fallback = await scrollLineage(
      timingOut((n) => n.startsWith('lineage/reach-')),
      down(chain[0]!),
      { count: 10 },
      limits,
    );
    expect(fallback.strategy).toBe('hops');
    expect(degrees(fallback.hits)).toEqual(expected);
    expect(fallback.isPartial).toBe(false);
    // call 0 = the fast path, 1 = the source's element id, 2 = hop 1, 3 = hop 2 (fails): hop 1's result, marked partial.
    const partial = await scrollLineage(
      timingOut((n, call) => n.startsWith('lineage/reach-') || call >= 3),
      down(chain[0]!),
      { count: 10 },
      limits,
    );
    expect(degrees(partial.hits)).toEqual([[chain[1], 1]]);
    expect(partial.isPartial).toBe(true);
    await expect(
      scrollLineage(
        timingOut(() => true),
        down(chain[0]!),
        { count: 10 },
        limits,
      ),
    ).rejects.toMatchObject({ kind: 'deadline' });
  });

  test('fast path and hop-by-hop agree on every topology, both directions', async () => {
    for (const [urn, direction] of [
      [chain[0], 'DOWNSTREAM'],
      [dia[0], 'DOWNSTREAM'],
      [dia[4], 'UPSTREAM'],
      [cyc[0], 'DOWNSTREAM'],
      [fan0, 'DOWNSTREAM'],
      [m0, 'DOWNSTREAM'],
      [mo, 'UPSTREAM'],
      [cyc[2], 'UPSTREAM'],
    ] as const) {
      const nq = normalizeQuery({ urn: urn!, direction }, Date.now());
      const fast = await reachFast(store, nq, limits, 10_000);
      const hops = await reachByHops(store, nq, limits, Date.now() + 10_000);
      expect(hops.rows.map((r) => [r.urn, r.degree])).toEqual(fast.rows.map((r) => [r.urn, r.degree]));
      expect(fast.rows.length).toBeGreaterThan(0);
    }
  });
});

describe('time window (docs/lineage-model.md §Traversal)', () => {
  const t = [0, 1, 2, 3, 4].map((i) => d(`time${i}`));
  beforeAll(async () => {
    await write(
      store,
      t.map((u) => datasetProps(u)),
    );
    await write(store, [
      upstreams(t[1]!, [{ dataset: t[0]!, time: 1_000 }]),
      upstreams(t[2]!, [{ dataset: t[1]!, time: 5_000 }]),
      upstreams(t[3]!, [{ dataset: t[0]!, time: 9_000, manual: true }]),
      upstreams(t[4]!, [{ dataset: t[3]!, time: 1_500 }]),
    ]);
  });

  test('edges pass if a time is inside the window or the edge is manual; the rest are not walked', async () => {
    expect(degrees((await page(down(t[0]!))).hits)).toEqual([
      [t[1], 1],
      [t[3], 1],
      [t[2], 2],
      [t[4], 2],
    ]);
    const windowed = await page(down(t[0]!, { startTimeMillis: 0, endTimeMillis: 2_000 }));
    expect(degrees(windowed.hits)).toEqual([
      [t[1], 1],
      [t[3], 1],
      [t[4], 2],
    ]);
    const late = await page(down(t[0]!, { startTimeMillis: 4_000, endTimeMillis: 6_000 }));
    expect(degrees(late.hits)).toEqual([[t[3], 1]]);
    // Only a start: the window runs until now.
    expect(degrees((await page(down(t[0]!, { startTimeMillis: 4_000 }))).hits)).toEqual([[t[3], 1]]);
    // lineageFlags win over the top-level fields.
    const flags = await page(
      down(t[0]!, { startTimeMillis: 4_000, endTimeMillis: 6_000, lineageFlags: { startTimeMillis: 0, endTimeMillis: 1_200 } }),
    );
    expect(degrees(flags.hits)).toEqual([
      [t[1], 1],
      [t[3], 1],
    ]);
    // The same rules on the hop-by-hop path.
    const hops = await page(
      down(t[0]!, {
        startTimeMillis: 0,
        endTimeMillis: 2_000,
        lineageFlags: { startTimeMillis: 0, endTimeMillis: 2_000, entitiesExploredPerHopLimit: 10 },
      }),
    );
    expect(degrees(hops.hits)).toEqual(degrees(windowed.hits));
  });

  test('lineageNeighbours: one hop with provenance, manual flag and the window', async () => {
    const n = await lineageNeighbours(store, t[0]!, 'DOWNSTREAM', {});
    expect(n.relationships.map((r) => [r.urn, r.type, r.isManual, r.createdOn, r.updatedOn])).toEqual([
      [t[1], 'DownstreamOf', false, 1_000, 1_000],
      [t[3], 'DownstreamOf', true, 9_000, 9_000],
    ]);
    expect(n.relationships[0]!.createdActor).toBe(ACTOR);
    expect(n.relationships[0]!.degree).toBe(1);
    const w = await lineageNeighbours(store, t[0]!, 'DOWNSTREAM', { startTimeMillis: 4_000, endTimeMillis: 4_500 });
    expect(w.relationships.map((r) => r.urn)).toEqual([t[3]]);
    const paged = await lineageNeighbours(store, t[0]!, 'DOWNSTREAM', { start: 1, count: 1 });
    expect(paged).toMatchObject({ start: 1, count: 1, total: 2, filtered: 0 });
    expect(paged.relationships.map((r) => r.urn)).toEqual([t[3]]);
    const u = await lineageNeighbours(store, t[2]!, 'UPSTREAM');
    expect(u.relationships.map((r) => r.urn)).toEqual([t[1]]);
    expect((await lineageNeighbours(store, mj, 'DOWNSTREAM')).relationships.map((r) => [r.urn, r.type])).toEqual([[m1, 'Produces']]);
    expect((await lineageNeighbours(store, mj, 'UPSTREAM')).relationships.map((r) => [r.urn, r.type])).toEqual([[m0, 'Consumes']]);
  });
});

describe('ghosts and soft-deleted entities', () => {
  const g0 = d('ghost0'),
    gx = d('ghostx'),
    g2 = d('ghost2'),
    gflow = ns.flow('gflow');
  const gj = ns.job(gflow, 'gjob');
  const s = [0, 1, 2].map((i) => d(`soft${i}`));
  const h = [0, 1, 2].map((i) => d(`hard${i}`));
  beforeAll(async () => {
    // g0 → gj → gx (never ingested: relaxed write) → g2
    await write(store, [
      datasetProps(g0),
      datasetProps(g2),
      upsert(gflow, 'dataFlowInfo', { name: 'gflow' }),
      upsert(gj, 'dataJobInfo', { name: 'gjob', type: { string: 'COMMAND' } }),
    ]);
    await write(store, [upsert(gj, 'dataJobInputOutput', { inputDatasets: [g0], outputDatasets: [gx] }), upstreams(g2, [gx])], 'relaxed');
    await seedDatasets(store, s, [
      [s[0]!, s[1]!],
      [s[1]!, s[2]!],
    ]);
    await write(store, [upsert(s[1]!, 'status', { removed: true })]);
    await seedDatasets(store, h, [
      [h[0]!, h[1]!],
      [h[1]!, h[2]!],
    ]);
    await hardDeleteEntity(store, parseUrn(h[1]!), { actor: ACTOR, existenceMode: 'strict', now: T0 });
  });

  test('ghosts are walked through but never returned or counted', async () => {
    const r = await page(down(g0));
    expect(degrees(r.hits)).toEqual([
      [gj, 1],
      [g2, 3],
    ]);
    expect(r.total).toBe(2);
    expect(r.facets[0]!.aggregations.map((a) => a.count)).toEqual([1, 0, 1]);
    const n = await lineageNeighbours(store, gj, 'DOWNSTREAM');
    expect(n).toMatchObject({ total: 0, filtered: 1, relationships: [] });
    const withGhosts = await lineageNeighbours(store, gj, 'DOWNSTREAM', { includeGhostEntities: true });
    expect(withGhosts.relationships.map((x) => x.urn)).toEqual([gx]);
  });

  test('a hard-deleted middle entity becomes a ghost: walked through, not returned', async () => {
    // h1's own upstreamLineage went with it, so h0 no longer reaches anything; from h2 upstream h1 is a ghost dead end.
    expect((await page(down(h[0]!))).total).toBe(0);
    expect((await page(up(h[2]!))).total).toBe(0);
  });

  test('soft-deleted entities are excluded unless includeSoftDeleted', async () => {
    expect(degrees((await page(down(s[0]!))).hits)).toEqual([[s[2], 2]]);
    expect(degrees((await page(down(s[0]!, { includeSoftDeleted: true }))).hits)).toEqual([
      [s[1], 1],
      [s[2], 2],
    ]);
    const hops = await page(down(s[0]!, { lineageFlags: { entitiesExploredPerHopLimit: 5 } }));
    expect(degrees(hops.hits)).toEqual([[s[2], 2]]);
    expect((await lineageNeighbours(store, s[0]!, 'DOWNSTREAM')).filtered).toBe(1);
  });
});

describe('column-level lineage', () => {
  const cu = d('colup'),
    cd = d('coldown'),
    ce = d('colend');
  const f = (ds: string, path: string) => ns.field(ds, path);
  const fgl = (ups: string[], downs: string[]) => ({
    upstreamType: 'FIELD_SET',
    upstreams: ups,
    downstreamType: 'FIELD',
    downstreams: downs,
  });
  beforeAll(async () => {
    await write(store, [datasetProps(cu), datasetProps(cd), datasetProps(ce)]);
    await write(store, [
      upstreams(cd, [cu], [fgl([f(cu, 'a')], [f(cd, 'x')]), fgl([f(cu, 'a'), f(cu, 'b')], [f(cd, 'y')])]),
      upstreams(ce, [cd], [fgl([f(cd, 'x')], [f(ce, 'z')]), fgl([f(cu, 'b')], [f(ce, 'w')])]),
    ]);
  });

  test('a field start walks the field graph and lifts results to datasets at the minimum degree', async () => {
    const r = await page(down(f(cu, 'a')));
    expect(degrees(r.hits)).toEqual([
      [cd, 1],
      [ce, 2],
    ]);
    expect(r.hits[0]!.walkUrns).toEqual([f(cd, 'x'), f(cd, 'y')]);
    const b = await page(down(f(cu, 'b')));
    expect(degrees(b.hits)).toEqual([
      [cd, 1],
      [ce, 1],
    ]);
    expect(degrees((await page(up(f(ce, 'z')))).hits)).toEqual([
      [cd, 1],
      [cu, 2],
    ]);
    // Paths keep the columns: one path per column that led to the dataset.
    const withPaths = await scrollLineage(store, down(f(cu, 'a'), { includePaths: true }), { count: 5 }, limits);
    expect(withPaths.hits[0]!.paths).toEqual([
      [f(cu, 'a'), f(cd, 'x')],
      [f(cu, 'a'), f(cd, 'y')],
    ]);
    expect(withPaths.hits[1]!.paths).toEqual([[f(cu, 'a'), f(cd, 'x'), f(ce, 'z')]]);
  });

  test('without lifting (a groupingSpec that keeps columns), the fields themselves', async () => {
    const r = await page(down(f(cu, 'a'), { types: ['SCHEMA_FIELD'], liftFields: false }));
    expect(degrees(r.hits)).toEqual([
      [f(cd, 'x'), 1],
      [f(cd, 'y'), 1],
      [f(ce, 'z'), 2],
    ]);
    expect(r.hits.every((h) => h.graphqlType === 'SCHEMA_FIELD' && h.platform === `urn:li:dataPlatform:${ns.platform}`)).toBe(true);
  });

  test('entity and field layers never connect', async () => {
    const r = await page(down(cu, { types: ['DATASET', 'SCHEMA_FIELD'] }));
    expect(degrees(r.hits)).toEqual([
      [cd, 1],
      [ce, 2],
    ]);
  });
});

describe('via entities and paths', () => {
  const f = (ds: string, path: string) => ns.field(ds, path);
  const fgl = (ups: string[], downs: string[], query?: string) => ({
    upstreamType: 'FIELD_SET',
    upstreams: ups,
    downstreamType: 'FIELD',
    downstreams: downs,
    ...(query ? { query } : {}),
  });
  // Queries on the edges: v0 -[q0]-> v1 -[q1]-> v2, at dataset and column level.
  const q0 = `urn:li:query:${ns.platform}_q0`,
    q1 = `urn:li:query:${ns.platform}_q1`;
  const v0 = d('via0'),
    v1 = d('via1'),
    v2 = d('via2');
  // A job carrying column lineage: e0 → job → e1 at dataset level, e0.c → e1.c at column level via the job.
  const vflow = ns.flow('viaflow'),
    job = ns.job(vflow, 'viajob');
  const e0 = d('viajob_in'),
    e1 = d('viajob_out');
  const query = (q: string) => upsert(q, 'queryProperties', { statement: { value: 'SELECT 1', language: 'SQL' }, source: 'SYSTEM' });
  beforeAll(async () => {
    await write(store, [
      datasetProps(v0),
      datasetProps(v1),
      datasetProps(v2),
      query(q0),
      query(q1),
      datasetProps(e0),
      datasetProps(e1),
      upsert(vflow, 'dataFlowInfo', { name: 'viaflow', customProperties: {} }),
      upsert(job, 'dataJobInfo', { name: 'viajob', type: { string: 'COMMAND' }, customProperties: {} }),
    ]);
    await write(store, [
      upsert(v1, 'upstreamLineage', {
        upstreams: [{ dataset: v0, type: 'TRANSFORMED', query: q0 }],
        fineGrainedLineages: [fgl([f(v0, 'a'), f(v0, 'b')], [f(v1, 'x')], q0)],
      }),
      upsert(v2, 'upstreamLineage', {
        upstreams: [{ dataset: v1, type: 'TRANSFORMED', query: q1 }],
        fineGrainedLineages: [fgl([f(v1, 'x')], [f(v2, 'y')], q1)],
      }),
      upsert(job, 'dataJobInputOutput', {
        inputDatasets: [e0],
        outputDatasets: [e1],
        fineGrainedLineages: [fgl([f(e0, 'c')], [f(e1, 'c')])],
      }),
    ]);
  });
  const withPaths = async (q: LineageQuery) =>
    (await scrollLineage(store, { ...q, includePaths: true }, { count: 50 }, limits)).hits.map((h) => [h.urn, h.degree, h.paths]);

  test('a query named on an edge stands between its two ends in paths, and is never a result or a hop', async () => {
    expect(await withPaths(down(v0))).toEqual([
      [v1, 1, [[v0, q0, v1]]],
      [v2, 2, [[v0, q0, v1, q1, v2]]],
    ]);
    expect(await withPaths(down(f(v0, 'a')))).toEqual([
      [v1, 1, [[f(v0, 'a'), q0, f(v1, 'x')]]],
      [v2, 2, [[f(v0, 'a'), q0, f(v1, 'x'), q1, f(v2, 'y')]]],
    ]);
    // Upstream, paths still run from the source outward; a dataset reached through two columns has two.
    expect(await withPaths(up(f(v2, 'y')))).toEqual([
      [v1, 1, [[f(v2, 'y'), q1, f(v1, 'x')]]],
      [
        v0,
        2,
        [
          [f(v2, 'y'), q1, f(v1, 'x'), q0, f(v0, 'a')],
          [f(v2, 'y'), q1, f(v1, 'x'), q0, f(v0, 'b')],
        ],
      ],
    ]);
    expect((await page(down(v0, { types: ['QUERY'] }))).hits).toEqual([]);
    expect((await page(down(f(v0, 'a'), { types: ['QUERY'] }))).hits).toEqual([]);
  });

  test('a dataJob whose column lineage made an edge is a result of the column walk, at the degree of the column it leads to', async () => {
    // (degree, urn) order: urn:li:dataJob sorts before urn:li:dataset.
    expect(await withPaths(down(f(e0, 'c')))).toEqual([
      [job, 1, [[f(e0, 'c'), job]]],
      [e1, 1, [[f(e0, 'c'), job, f(e1, 'c')]]],
    ]);
    expect(await withPaths(up(f(e1, 'c')))).toEqual([
      [job, 1, [[f(e1, 'c'), job]]],
      [e0, 1, [[f(e1, 'c'), job, f(e0, 'c')]]],
    ]);
    expect((await page(down(f(e0, 'c'), { orFilters: degreeFilter(['2']) }))).hits).toEqual([]);
    expect(degrees((await page(down(f(e0, 'c'), { types: ['DATA_JOB'] }))).hits)).toEqual([[job, 1]]);
    // At dataset level the job is a node of its own (Consumes / Produces), not a via.
    expect(await withPaths(down(e0))).toEqual([
      [job, 1, [[e0, job]]],
      [e1, 2, [[e0, job, e1]]],
    ]);
  });

  test('explored: every hit closer than the depth bound of the walk', async () => {
    const all = await page(down(v0));
    expect(all.hits.map((h) => h.explored)).toEqual([true, true]);
    const first = await page(down(v0, { orFilters: degreeFilter(['1']) }));
    expect(first.hits.map((h) => [h.urn, h.explored])).toEqual([[v1, false]]);
  });
});
