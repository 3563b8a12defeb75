// One write is one Neo4j transaction, held in memory until it commits (db.memory.transaction.max).
// A write deriving more edges than the store's bound (MAX_EDGES_PER_WRITE) is refused with a 413
// before anything is written, whichever door it came through (edges it removes are not counted);
// one that passes the bound but not Neo4j's own cap is a 413 too (not a 504), and writes nothing. test/faults/write-size.fault.ts
// holds the services as npm start runs them to the same at full request size.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { CatalogError } from '../../catalog/src/model/errors.ts';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { hardDeleteEntity, writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { updateLineage } from '../../catalog/src/write/update-lineage.ts';
import { privilegesOf, ROLE_URNS, type Actor } from '../../catalog/src/model/privileges.ts';
import { namespace } from '../support/context.ts';

const ns = namespace('size');
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:tester' };
const editor: Actor = { urn: ns.user('editor'), privileges: privilegesOf([ROLE_URNS.Editor], ns.user('editor')) };
const relaxed = { actor: 'urn:li:corpuser:tester', existenceMode: 'relaxed' as const };
const storeWith = (maxEdgesPerWrite: number) =>
  createStore({
    uri: process.env.TEST_NEO4J_URI!,
    user: process.env.TEST_NEO4J_USER,
    password: process.env.TEST_NEO4J_PASSWORD,
    database: 'neo4j',
    maxEdgesPerWrite,
  });

let small: Store;
beforeAll(() => {
  small = storeWith(5);
});
afterAll(async () => {
  await small.close();
});

const lineage = (down: string, ups: string[]): AspectChange => ({
  urn: parseUrn(down),
  aspectName: 'upstreamLineage',
  changeType: 'UPSERT',
  value: { upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: stamp, created: stamp })) },
});
const ups = (name: string, n: number) => Array.from({ length: n }, (_, i) => ns.dataset(`${name}_up${i}`));

/** Entities of this run whose dataset name starts with `prefix`. */
async function nodesNamed(store: Store, prefix: string): Promise<number> {
  const r = await store.driver.executeQuery(
    'MATCH (n:Entity) WHERE n.urn CONTAINS $p RETURN count(n) AS n',
    { p: `${ns.platform},${prefix}` },
    { database: 'neo4j' },
  );
  return Number(r.records[0]!.get('n'));
}

async function refusal(p: Promise<unknown>): Promise<CatalogError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CatalogError);
  return e as CatalogError;
}

test('a write at the bound commits; one past it is a 413 naming the bound, and nothing is written', async () => {
  await writeAspects(small, [lineage(ns.dataset('fits'), ups('fits', 5))], relaxed);
  expect(await nodesNamed(small, 'fits')).toBe(6);

  // Past the bound by one, in the second of two records: the first is not written either.
  const e = await refusal(
    writeAspects(small, [lineage(ns.dataset('over_a'), ups('over_a', 1)), lineage(ns.dataset('over_b'), ups('over_b', 5))], relaxed),
  );
  expect(e.kind).toBe('payloadTooLarge');
  expect(e.message).toContain('6 derived edges');
  expect(e.message).toContain('may merge at most 5 (MAX_EDGES_PER_WRITE');
  expect(e.message).toContain('Nothing was written');
  expect(await nodesNamed(small, 'over_')).toBe(0);
});

test('removals are not counted: an aspect holding more edges than the bound can be shrunk and its entity deleted', async () => {
  const roomy = storeWith(100);
  try {
    await writeAspects(roomy, [lineage(ns.dataset('big_a'), ups('big_a', 8)), lineage(ns.dataset('big_b'), ups('big_b', 8))], relaxed);
  } finally {
    await roomy.close();
  }
  await writeAspects(small, [lineage(ns.dataset('big_a'), ups('big_a', 2))], relaxed);
  await hardDeleteEntity(small, parseUrn(ns.dataset('big_b')), relaxed);
  const r = await small.driver.executeQuery(
    'MATCH (u:Entity)-[l:LINEAGE]->(d:Entity) WHERE d.urn IN $d RETURN d.urn AS d, count(l) AS n ORDER BY d',
    { d: [ns.dataset('big_a'), ns.dataset('big_b')] },
    { database: 'neo4j' },
  );
  expect(r.records.map((x) => [x.get('d'), Number(x.get('n'))])).toEqual([[ns.dataset('big_a'), 2]]);
});

// The edges a request's whole lineage values certainly add are counted before the existence rule,
// patches and validation (apply.ts edgesCertainlyDerived): an oversized batch is refused before it is
// held several times over in the heap (test/faults/hub-body-strict.fault.ts). The count must stay a
// lower bound of the final count (of the edges the request leaves), so that nothing it would take is refused.
test('strict mode: a batch past the bound that names missing entities is the 413, judged before the existence rule', async () => {
  const e = await refusal(
    writeAspects(small, [lineage(ns.dataset('early_a'), ups('early_a', 6))], { ...relaxed, existenceMode: 'strict' }),
  );
  expect(e.kind).toBe('payloadTooLarge');
  expect(e.message).toContain('6 derived edges');
  expect(await nodesNamed(small, 'early_')).toBe(0);
});

test('the early count leaves out what persist leaves out: unchanged values, values a later record replaces, entities the request deletes', async () => {
  const roomy = storeWith(100);
  try {
    await writeAspects(roomy, [lineage(ns.dataset('same'), ups('same', 5))], relaxed);
    await writeAspects(roomy, [lineage(ns.dataset('gone'), ups('gone', 1))], relaxed);
  } finally {
    await roomy.close();
  }
  // Unchanged (5 edges, key order aside) + replaced in the same request (6, then 1) + deleted (6):
  // only the one edge of the replacing value is added.
  const same = lineage(ns.dataset('same'), ups('same', 5));
  const reordered = {
    ...same,
    value: {
      upstreams: (same.value as { upstreams: Array<Record<string, unknown>> }).upstreams.map((u) =>
        Object.fromEntries(Object.entries(u).reverse()),
      ),
    },
  };
  await writeAspects(
    small,
    [
      reordered,
      lineage(ns.dataset('twice'), ups('twice', 6)),
      lineage(ns.dataset('twice'), ups('twice', 1)),
      lineage(ns.dataset('gone'), ups('gone', 6)),
      { urn: parseUrn(ns.dataset('gone')), aspectName: 'datasetKey', changeType: 'DELETE' },
    ],
    relaxed,
  );
  expect(await nodesNamed(small, 'twice')).toBe(2);
});

test('updateLineage counts the edges the aspect it rewrites holds: adding one to a full aspect is refused', async () => {
  const down = ns.dataset('full');
  await writeAspects(small, [lineage(down, ups('full', 5))], relaxed);
  const extra = ns.dataset('full_extra');
  await writeAspects(small, [{ urn: parseUrn(extra), aspectName: 'status', changeType: 'UPSERT', value: { removed: false } }], relaxed);
  const e = await refusal(updateLineage(small, { edgesToAdd: [{ upstreamUrn: extra, downstreamUrn: down }], edgesToRemove: [] }, editor));
  expect(e.kind).toBe('payloadTooLarge');
  const r = await small.driver.executeQuery(
    'MATCH (:Entity {urn: $u})-[l:LINEAGE]->(:Entity {urn: $d}) RETURN count(l) AS n',
    { u: extra, d: down },
    { database: 'neo4j' },
  );
  expect(Number(r.records[0]!.get('n'))).toBe(0);
});

test("a write past Neo4j's per-transaction memory cap is a 413 naming db.memory.transaction.max, not a 504", async () => {
  const unbounded = storeWith(10_000_000);
  try {
    // 40,000 column edges between columns never ingested: well past the 512m cap of the test server.
    const changes = Array.from({ length: 100 }, (_, i): AspectChange => ({
      urn: parseUrn(ns.dataset(`mem_down${i}`)),
      aspectName: 'upstreamLineage',
      changeType: 'UPSERT',
      value: {
        upstreams: [{ dataset: ns.dataset(`mem_up${i}`), type: 'TRANSFORMED', auditStamp: stamp }],
        fineGrainedLineages: Array.from({ length: 400 }, (_, k) => ({
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          upstreams: [`urn:li:schemaField:(${ns.dataset(`mem_up${i}`)},c${k})`],
          downstreams: [`urn:li:schemaField:(${ns.dataset(`mem_down${i}`)},c${k})`],
        })),
      },
    }));
    const e = await refusal(writeAspects(unbounded, changes, relaxed));
    expect(e.kind).toBe('payloadTooLarge');
    expect(e.message).toContain('db.memory.transaction.max');
    expect(await nodesNamed(unbounded, 'mem_')).toBe(0);
  } finally {
    await unbounded.close();
  }
}, 120_000);
