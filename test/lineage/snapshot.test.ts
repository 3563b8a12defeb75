// The lineage snapshot cache (docs/lineage-model.md §Snapshots): a page after the first reuses the first page's
// ordered result only while no write has committed since; any change — through the write path or
// a restore that repairs drift — makes the next page walk the graph again.
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { scrollLineage, searchLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { restoreIndices } from '../../catalog/src/operations/restore/restore-indices.ts';
import { limits, seedDatasets, upstreams, write } from './support.ts';

let store: Store;
const ns = namespace('snap');
const src = ns.dataset('src');
const kids = Array.from({ length: 25 }, (_, i) => ns.dataset(`kid${String(i).padStart(2, '0')}`));
const q: LineageQuery = { urn: src, direction: 'DOWNSTREAM' };

// Other suites (and other people) write to the same server at any time, which rightly invalidates
// snapshots: a "reused" expectation is retried until one attempt ran without a foreign write.
async function reusedOnce(attempt: () => Promise<string>): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 10; i++) {
    const strategy = await attempt();
    if (strategy === 'snapshot') return;
    seen.push(strategy);
  }
  throw new Error(`the snapshot was never reused in 10 attempts: ${seen.join(', ')}`);
}

beforeAll(async () => {
  store = testStore();
  await seedDatasets(
    store,
    [src, ...kids],
    kids.map((k) => [src, k] as [string, string]),
  );
});
afterAll(async () => {
  await store.close();
});

test('a next page reuses the first page while nothing was written, and walks again after a write', async () => {
  const first = await scrollLineage(store, q, { count: 10 }, limits);
  expect(first.strategy).toBe('database');
  expect(first.total).toBe(25);
  await reusedOnce(async () => {
    await scrollLineage(store, q, { count: 10 }, limits);
    const second = await scrollLineage(store, q, { count: 10, scrollId: first.nextCursor }, limits);
    expect(second.hits.map((h) => h.urn)).toEqual(kids.slice(10, 20));
    expect(second.total).toBe(25);
    return second.strategy;
  });
  // An identical UPSERT writes nothing, so it does not invalidate.
  await reusedOnce(async () => {
    await scrollLineage(store, q, { count: 10 }, limits);
    await write(store, [upstreams(kids[0]!, [src])]);
    return (await scrollLineage(store, q, { count: 10, scrollId: first.nextCursor }, limits)).strategy;
  });

  // A real change: a new downstream entity. The same cursor walks again and sees it.
  await scrollLineage(store, q, { count: 10 }, limits);
  const late = ns.dataset('kid99');
  await seedDatasets(store, [late], [[src, late]]);
  const after = await scrollLineage(store, q, { count: 10, scrollId: first.nextCursor }, limits);
  expect(after.strategy).toBe('database');
  expect(after.total).toBe(26);
});

test('search offsets reuse the snapshot too; a restore that repairs drift invalidates it', async () => {
  await reusedOnce(async () => {
    expect((await searchLineage(store, q, { start: 0, count: 5 }, limits)).strategy).toBe('database');
    return (await searchLineage(store, q, { start: 5, count: 5 }, limits)).strategy;
  });
  // Drift behind the write path's back, then repaired by restoreIndices for that owner.
  await store.driver.executeQuery(
    'MATCH (:Entity {urn: $s})-[r:LINEAGE]->(:Entity {urn: $k}) DELETE r',
    { s: src, k: kids[3]! },
    { database: store.database },
  );
  await searchLineage(store, q, { start: 0, count: 5 }, limits);
  const repaired = await restoreIndices(store, { urn: kids[3]! });
  expect(repaired.edgesAdded).toBeGreaterThan(0);
  const again = await searchLineage(store, q, { start: 5, count: 5 }, limits);
  expect(again.strategy).toBe('database');
  expect(again.total).toBe(26);
});

test('a restore that finds nothing to repair keeps the snapshot', async () => {
  await reusedOnce(async () => {
    await searchLineage(store, q, { start: 0, count: 5 }, limits);
    const clean = await restoreIndices(store, { urn: kids[4]! });
    expect(clean.edgesAdded + clean.edgesRemoved + clean.edgesChanged + clean.searchFieldsRewritten).toBe(0);
    return (await searchLineage(store, q, { start: 5, count: 5 }, limits)).strategy;
  });
});
