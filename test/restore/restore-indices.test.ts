// restoreIndices on a real Neo4j: a graph built through the write path, its derived state
// corrupted directly in Cypher, and restored exactly — per urn, per urnLike window, and for the
// whole namespace in clean mode — without touching a stored aspect row.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { restoreIndices, countRestoreRows } from '../../catalog/src/operations/restore/restore-indices.ts';
import { hasDrift, type RestoreResult } from '../../catalog/src/operations/restore/restore-report.ts';
import { handleRestoreIndices } from '../../ingestion-service/src/restore-handler.ts';
import { privilegesOf, ROLE_URNS } from '../../catalog/src/model/privileges.ts';
import { toPlain, type Store } from '../../catalog/src/store/store.ts';
import { testStore, namespace } from '../support/context.ts';

let store: Store;
const ns = namespace('ri');
const P = ns.platform;
const ALL = `%${P}%`;
const DATASETS = `urn:li:dataset:(urn:li:dataPlatform:${P},%`;
const opts = { actor: 'urn:li:corpuser:tester', existenceMode: 'strict' as const, now: 1_700_000_000_000 };
const admin = { urn: 'urn:li:corpuser:admin', privileges: privilegesOf([ROLE_URNS.Admin], 'urn:li:corpuser:admin') };

const a = ns.dataset('a'),
  b = ns.dataset('b'),
  c = ns.dataset('c'),
  d = ns.dataset('d'),
  e = ns.dataset('e');
const pct = ns.dataset('pct%x'),
  pctDecoy = ns.dataset('pctAx'),
  und = ns.dataset('und_y'),
  undDecoy = ns.dataset('undZy');
const flow = ns.flow('f'),
  job = ns.job(flow, 'j'),
  chart = ns.chart('ch'),
  pk = ns.mlPrimaryKey('k');
const field = (ds: string, f: string) => ns.field(ds, f);

const upsert = (urn: string, aspectName: string, value: unknown, lastObserved = 1_700_000_000_000): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved },
});

async function cypher<T = Record<string, unknown>>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await store.driver.executeQuery(text, params, { database: 'neo4j' });
  return r.records.map((x) => toPlain(x.toObject()) as T);
}

const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));

/** Every derived relationship touching the namespace, with all its properties. */
async function edgeSnapshot(): Promise<string[]> {
  const rows = await cypher<{ s: string; t: string; d: string; p: Record<string, unknown> }>(
    `MATCH (x:Entity)-[r]->(y:Entity) WHERE type(r) <> 'HAS_ASPECT' AND (x.urn CONTAINS $p OR y.urn CONTAINS $p)
     RETURN x.urn AS s, type(r) AS t, y.urn AS d, properties(r) AS p`,
    { p: P },
  );
  return rows.map((r) => `${r.s} -${r.t}-> ${r.d} ${sorted(r.p)}`).sort();
}

async function nodeSnapshot(): Promise<string[]> {
  const rows = await cypher<{ p: Record<string, unknown>; l: string[] }>(
    'MATCH (n:Entity) WHERE n.urn CONTAINS $p RETURN properties(n) AS p, labels(n) AS l',
    { p: P },
  );
  return rows.map((r) => `${[...r.l].sort().join(':')} ${sorted(r.p)}`).sort();
}

async function aspectSnapshot(): Promise<string[]> {
  const rows = await cypher<{ e: string; p: Record<string, unknown> }>(
    'MATCH (e:Entity)-[:HAS_ASPECT]->(a:Aspect) WHERE a.urn CONTAINS $p RETURN e.urn AS e, properties(a) AS p',
    { p: P },
  );
  return rows.map((r) => `${r.e} ${sorted(r.p)}`).sort();
}

async function snapshot() {
  return { edges: await edgeSnapshot(), nodes: await nodeSnapshot() };
}

let baseline: { edges: string[]; nodes: string[] };
let aspects: string[];

const zeroWork = (r: RestoreResult) => ({
  edgesAdded: r.edgesAdded,
  edgesRemoved: r.edgesRemoved,
  edgesChanged: r.edgesChanged,
  searchFieldsRewritten: r.searchFieldsRewritten,
  nodesRemoved: r.nodesRemoved,
  drift: hasDrift(r),
});
const NOTHING = { edgesAdded: 0, edgesRemoved: 0, edgesChanged: 0, searchFieldsRewritten: 0, nodesRemoved: 0, drift: false };

beforeAll(async () => {
  store = testStore();
  const props = (name: string) => ({ name, description: `about ${name}`, customProperties: {} });
  await writeAspects(
    store,
    [
      ...[a, b, c, d, e, pct, pctDecoy, und, undDecoy].map((u, i) => upsert(u, 'datasetProperties', props(`ds${i}`))),
      upsert(flow, 'dataFlowInfo', { name: 'flow f' }),
      upsert(job, 'dataJobInfo', { name: 'job j', type: 'COMMAND' }),
      upsert(chart, 'status', { removed: false }),
      upsert(pk, 'status', { removed: false }),
    ],
    opts,
  );
  await writeAspects(
    store,
    [
      upsert(c, 'upstreamLineage', {
        upstreams: [
          { dataset: a, type: 'TRANSFORMED', auditStamp: { time: 1_600_000_000_000, actor: 'urn:li:corpuser:etl' } },
          { dataset: b, type: 'COPY', properties: { source: 'UI' } },
        ],
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', upstreams: [field(a, 'x'), field(b, 'y')], downstreamType: 'FIELD', downstreams: [field(c, 'z')] },
        ],
      }),
      upsert(d, 'upstreamLineage', { upstreams: [{ dataset: c, type: 'TRANSFORMED' }] }, 1_700_000_000_123),
      upsert(e, 'status', { removed: true }),
      upsert(job, 'dataJobInputOutput', {
        inputDatasets: [a],
        outputDatasets: [],
        outputDatasetEdges: [{ destinationUrn: d, created: { time: 1_650_000_000_000, actor: 'urn:li:corpuser:x' } }],
      }),
      upsert(chart, 'chartInfo', {
        title: 'chart',
        description: 'a chart',
        lastModified: {},
        inputs: [{ string: b }],
        inputEdges: [{ destinationUrn: e }],
      }),
      upsert(pk, 'mlPrimaryKeyProperties', { sources: [b] }),
    ],
    opts,
  );
  baseline = await snapshot();
  aspects = await aspectSnapshot();
});

afterAll(async () => {
  await store.close();
});

test('the seeded graph has the derived state this test expects to corrupt', async () => {
  const types = new Set(baseline.edges.map((x) => x.split(' ')[1]));
  for (const t of ['-DownstreamOf->', '-LINEAGE->', '-Consumes->', '-Produces->', '-IsPartOf->', '-DerivedFrom->'])
    expect(types).toContain(t);
  expect(baseline.edges.some((x) => x.startsWith(field(c, 'z')))).toBe(true);
});

test('restoring an intact namespace changes nothing', async () => {
  const r = await restoreIndices(store, { urnLike: ALL, clean: true, batchSize: 7 });
  expect(zeroWork(r)).toEqual(NOTHING);
  expect(r.ignored).toBe(0);
  expect(r.rowsMigrated).toBe(r.rowsScanned);
  expect(r.rowsScanned).toBe(await countRestoreRows(store, { urnLike: ALL }));
  expect(await snapshot()).toEqual(baseline);
});

async function corruptEverything(): Promise<void> {
  // Lost edges: one typed edge; every LINEAGE edge of the namespace; every typed Consumes.
  await cypher(`MATCH (x:Entity {urn: $c})-[r:DownstreamOf]->(y:Entity {urn: $a}) DELETE r`, { c, a });
  await cypher(`MATCH ()-[r:LINEAGE]->() WHERE r.owner CONTAINS $p DELETE r`, { p: P });
  await cypher(`MATCH (x)-[r:Consumes]->() WHERE x.urn CONTAINS $p DELETE r`, { p: P });
  // Bogus edges: owned by a row that does not justify them, and by an aspect with no row at all
  // (towards a node made by hand).
  await cypher(
    `MATCH (x:Entity {urn: $c}), (y:Entity {urn: $d}) CREATE (x)-[:DownstreamOf {owner: $c, aspect: 'upstreamLineage', key: 'bogus-1', manual: false}]->(y)
                CREATE (y)-[:LINEAGE {owner: $c, aspect: 'upstreamLineage', key: 'bogus-1', type: 'DownstreamOf'}]->(x)`,
    { c, d },
  );
  await cypher(
    `MATCH (x:Entity {urn: $a}) CREATE (g:Entity:Dataset {urn: $g, entityType: 'dataset', exists: false, removed: false})
                CREATE (x)-[:DownstreamOf {owner: $a, aspect: 'upstreamLineage', key: 'bogus-2'}]->(g)
                CREATE (x)-[:Produces {owner: $a, aspect: 'noSuchRow', key: 'bogus-3'}]->(g)`,
    { a, g: ns.dataset('handmade') },
  );
  // Changed properties.
  await cypher(`MATCH (x:Entity {urn: $z})-[r:DownstreamOf]->() SET r.via = 'tampered'`, { z: field(c, 'z') });
  await cypher(`MATCH (x:Entity {urn: $d})-[r:DownstreamOf]->() SET r.createdOn = 1, r.updatedActor = 'urn:li:corpuser:mallory'`, { d });
  // Search fields and flags.
  await cypher(`MATCH (n:Entity {urn: $a}) SET n.name = 'bogus', n.description = null`, { a });
  await cypher(`MATCH (n:Entity {urn: $b}) SET n.removed = true, n.exists = false`, { b });
  await cypher(`MATCH (n:Entity {urn: $e}) SET n.removed = false`, { e });
  await cypher(`MATCH (n:Entity {urn: $e}) REMOVE n.facetKey`, { e });
  await cypher(`MATCH (n:Entity {urn: $d}) SET n.facetKey = 0`, { d });
  await cypher(`MATCH (n:Entity {urn: $k}) REMOVE n.platform SET n.origin = 'DEV'`, { k: pk });
  // A ghost (no rows at all) with fields it cannot have.
  await cypher(`MATCH (n:Entity {urn: $f}) SET n.exists = true, n.name = 'not a ghost'`, { f: field(a, 'x') });
}

test('clean mode over the namespace brings back the snapshot exactly, and a repeat changes nothing', async () => {
  await corruptEverything();
  expect(await snapshot()).not.toEqual(baseline);
  const r = await restoreIndices(store, { urnLike: ALL, clean: true, batchSize: 4 });
  expect(r.ignored).toBe(0);
  expect(r.edgesRemoved).toBe(4); // bogus-1 and its LINEAGE twin, bogus-2, bogus-3
  expect(r.nodesRemoved).toBe(1);
  expect(await snapshot()).toEqual(baseline);
  expect(await aspectSnapshot()).toEqual(aspects);
  const again = await restoreIndices(store, { urnLike: ALL, clean: true, batchSize: 50 });
  expect(zeroWork(again)).toEqual(NOTHING);
});

test('without clean mode, edges of aspects without rows and ghosts are left alone; everything else is restored', async () => {
  await corruptEverything();
  const r = await restoreIndices(store, { urnLike: ALL, batchSize: 1000 });
  const now = await snapshot();
  // Only what clean mode exists for is left: edges of (owner, aspect) pairs without a row (a has
  // no upstreamLineage), the hand-made node, the ghost's fields.
  const extraEdges = now.edges.filter((x) => !baseline.edges.includes(x));
  expect(extraEdges.map((x) => /"key":"([^"]+)"/.exec(x)![1]).sort()).toEqual(['bogus-2', 'bogus-3']);
  expect(baseline.edges.filter((x) => !now.edges.includes(x))).toEqual([]);
  const extraNodes = now.nodes.filter((x) => !baseline.nodes.includes(x));
  expect(extraNodes.map((x) => (x.includes('handmade') ? 'handmade' : x.includes('not a ghost') ? 'ghost' : x)).sort()).toEqual([
    'ghost',
    'handmade',
  ]);
  expect(r.edgesRemoved).toBe(2); // bogus-1 and its LINEAGE twin
  await restoreIndices(store, { urnLike: ALL, clean: true });
  expect(await snapshot()).toEqual(baseline);
});

test("restore per urn repairs that urn's derived state and nothing else", async () => {
  await cypher(`MATCH (x:Entity)-[r]-() WHERE x.urn IN [$c, $z] AND r.owner = $c DELETE r`, { c, z: field(c, 'z') });
  await cypher(
    `MATCH (x:Entity {urn: $c}), (y:Entity {urn: $e}) CREATE (x)-[:DownstreamOf {owner: $c, aspect: 'upstreamLineage', key: 'bogus-u'}]->(y)`,
    { c, e },
  );
  await cypher(`MATCH (n:Entity {urn: $c}) SET n.name = 'wrong'`, { c });
  await cypher(`MATCH (n:Entity {urn: $d}) SET n.name = 'also wrong'`, { d });
  const r = await restoreIndices(store, { urn: c });
  expect(r.edgesRemoved).toBe(1);
  expect(r.edgesAdded).toBe(8); // two dataset edges and two field edges, each with its LINEAGE twin
  expect(r.searchFieldsRewritten).toBe(1);
  const now = await snapshot();
  expect(now.edges).toEqual(baseline.edges);
  // d was outside the scope: still wrong.
  expect(now.nodes.filter((x) => !baseline.nodes.includes(x))).toEqual([expect.stringContaining('"also wrong"')]);
  await restoreIndices(store, { urn: d, aspect: 'datasetProperties' });
  expect(await snapshot()).toEqual(baseline);
});

test('restore per urn removes every edge leaving that urn that no stored row justifies, whoever owns it', async () => {
  // An edge of an aspect the entity has no row of, one claimed by an entity that never wrote it,
  // one with no owner at all, and a LINEAGE edge with no typed twin.
  await cypher(
    `MATCH (x:Entity {urn: $c}), (y:Entity {urn: $e})
    CREATE (x)-[:Consumes {owner: $c, aspect: 'dataJobInputOutput', key: 'stray-1'}]->(y)
    CREATE (x)-[:DownstreamOf {owner: $e, aspect: 'upstreamLineage', key: 'stray-2'}]->(y)
    CREATE (x)-[:DownstreamOf]->(y)
    CREATE (x)-[:LINEAGE {owner: $c, aspect: 'upstreamLineage', key: 'stray-3', type: 'DownstreamOf'}]->(y)`,
    { c, e },
  );
  const dry = await restoreIndices(store, { urn: c, dryRun: true });
  expect(dry.drift.extraEdges.count).toBe(4);
  expect(await snapshot()).not.toEqual(baseline);
  const r = await restoreIndices(store, { urn: c });
  expect(r.edgesRemoved).toBe(4);
  expect(r.edgesAdded).toBe(0);
  expect(await snapshot()).toEqual(baseline);
});

test("restore per urn rewrites the urn's upstream edges from its aspects: a hand-made upstream goes", async () => {
  // c's upstreamLineage names a and b. Hand-made: e as one more upstream of c, the way a walk sees it
  // (the LINEAGE edge e->c, unowned and owned by c), and a typed DownstreamOf c->e with no owner.
  await cypher(
    `MATCH (x:Entity {urn: $c}), (y:Entity {urn: $e})
    CREATE (y)-[:LINEAGE {type: 'DownstreamOf'}]->(x)
    CREATE (y)-[:LINEAGE {owner: $c, aspect: 'upstreamLineage', key: 'handmade-up', type: 'DownstreamOf'}]->(x)
    CREATE (x)-[:DownstreamOf {createdOn: 1}]->(y)`,
    { c, e },
  );
  const dry = await restoreIndices(store, { urn: c, dryRun: true });
  expect(dry.drift.extraEdges.examples).toEqual(expect.arrayContaining([expect.objectContaining({ source: e, destination: c })]));
  const r = await restoreIndices(store, { urn: c });
  expect(r.edgesRemoved).toBe(3);
  expect(r.edgesAdded).toBe(0);
  // The edges of c's downstreams (d's upstreamLineage names c) are d's to restore: they stayed.
  expect(await snapshot()).toEqual(baseline);
});

test("the field-level LINEAGE edges of an upstreamLineage are restored with the owner's row", async () => {
  await cypher(`MATCH (x:Entity {urn: $z})-[r]-() WHERE r.owner = $c DELETE r`, { z: field(c, 'z'), c });
  const r = await restoreIndices(store, { urn: c, aspect: 'upstreamLineage' });
  expect(r.rowsMigrated).toBe(1);
  expect(r.edgesAdded).toBe(4); // two DownstreamOf field edges and their LINEAGE twins
  expect(await snapshot()).toEqual(baseline);
});

test('urnLike windows (start, batchSize) cover the rows exactly once, in (urn, aspect) order', async () => {
  const rows = await cypher<{ urn: string; name: string }>(
    'MATCH (x:Aspect {version: 0}) WHERE x.urn STARTS WITH $prefix RETURN x.urn AS urn, x.name AS name ORDER BY urn, name',
    { prefix: `urn:li:dataset:(urn:li:dataPlatform:${P},` },
  );
  expect(rows.length).toBeGreaterThan(12);
  await cypher(`MATCH (n:Entity) WHERE n.urn STARTS WITH $prefix SET n.name = 'zapped'`, {
    prefix: `urn:li:dataset:(urn:li:dataPlatform:${P},`,
  });
  let start = 0;
  let migrated = 0;
  let fixed = 0;
  for (;;) {
    const res = await handleRestoreIndices(store, { urnLike: DATASETS, start: String(start), batchSize: 5 }, admin);
    expect(res.value).toMatch(
      /^\{args=RestoreIndicesArgs\(start=\d+, batchSize=5, .*result=RestoreIndicesResult\(ignored=0, rowsMigrated=\d+/,
    );
    if (res.rowsScanned === 0) break;
    const last = rows[Math.min(start + 5, rows.length) - 1]!;
    expect([res.lastUrn, res.lastAspect]).toEqual([last.urn, last.name]);
    migrated += res.rowsMigrated;
    fixed += res.searchFieldsRewritten;
    start += 5;
  }
  expect(migrated).toBe(rows.length);
  expect(fixed).toBe(new Set(rows.map((r) => r.urn)).size);
  // limit: that many rows from start, in internal batches of batchSize.
  const limited = await handleRestoreIndices(store, { urnLike: DATASETS, start: 3, batchSize: 2, limit: 7 }, admin);
  expect(limited.rowsScanned).toBe(7);
  expect([limited.lastUrn, limited.lastAspect]).toEqual([rows[9]!.urn, rows[9]!.name]);
  expect(await snapshot()).toEqual(baseline);
});

test('urnLike treats escaped % and _ literally', async () => {
  await cypher(`MATCH (n:Entity) WHERE n.urn IN $urns SET n.name = 'zapped'`, { urns: [pct, pctDecoy, und, undDecoy] });
  const base = `urn:li:dataset:(urn:li:dataPlatform:${P},`;
  const r1 = await restoreIndices(store, { urnLike: `${base}pct\\%x,%`, batchSize: 100 });
  const r2 = await restoreIndices(store, { urnLike: `${base}und\\_y,%`, batchSize: 100 });
  expect([r1.searchFieldsRewritten, r2.searchFieldsRewritten]).toEqual([1, 1]);
  const names = await cypher<{ urn: string; name: string }>('MATCH (n:Entity) WHERE n.urn IN $urns RETURN n.urn AS urn, n.name AS name', {
    urns: [pct, pctDecoy, und, undDecoy],
  });
  const byUrn = Object.fromEntries(names.map((n) => [n.urn, n.name]));
  expect(byUrn[pct]).not.toBe('zapped');
  expect(byUrn[und]).not.toBe('zapped');
  expect(byUrn[pctDecoy]).toBe('zapped');
  expect(byUrn[undDecoy]).toBe('zapped');
  // Unescaped, the same patterns are wildcards and catch the decoys too.
  const r3 = await restoreIndices(store, { urnLike: `${base}pct%x,%`, batchSize: 100 });
  const r4 = await restoreIndices(store, { urnLike: `${base}und_y,%`, batchSize: 100 });
  expect([r3.searchFieldsRewritten, r4.searchFieldsRewritten]).toEqual([1, 1]);
  expect(await snapshot()).toEqual(baseline);
});

test('dry run reports the exact drift and writes nothing', async () => {
  await cypher(`MATCH (x:Entity {urn: $c})-[r:DownstreamOf]->(y:Entity {urn: $a}) DELETE r`, { c, a });
  await cypher(
    `MATCH (x:Entity {urn: $d}), (y:Entity {urn: $e}) CREATE (x)-[:DownstreamOf {owner: $d, aspect: 'upstreamLineage', key: 'bogus-dry'}]->(y)`,
    { d, e },
  );
  await cypher(`MATCH (:Entity {urn: $c})-[r:LINEAGE]->(x:Entity {urn: $d}) SET r.updatedOn = 42`, { c, d });
  await cypher(`MATCH (n:Entity {urn: $b}) SET n.description = 'tampered'`, { b });
  await cypher(`MATCH (x:Entity {urn: $a}) CREATE (x)-[:Produces {owner: $a, aspect: 'noSuchRow', key: 'bogus-dry-2'}]->(x)`, { a });
  const corrupted = await snapshot();
  const r = await restoreIndices(store, { urnLike: ALL, clean: true, dryRun: true, batchSize: 3 });
  expect(await snapshot()).toEqual(corrupted);
  const d0 = r.drift;
  expect(d0.missingEdges.count).toBe(1);
  expect(d0.missingEdges.examples[0]).toMatchObject({
    type: 'DownstreamOf',
    source: c,
    destination: a,
    owner: c,
    aspect: 'upstreamLineage',
  });
  expect(d0.extraEdges.count).toBe(2);
  expect(d0.extraEdges.examples.map((x) => x.key).sort()).toEqual(['bogus-dry', 'bogus-dry-2']);
  expect(d0.changedEdges.count).toBe(1);
  expect(d0.changedEdges.examples[0]).toMatchObject({ type: 'LINEAGE', source: c, destination: d, fields: { updatedOn: { actual: 42 } } });
  expect(d0.searchFields.count).toBe(1);
  expect(d0.searchFields.examples[0]).toEqual({ urn: b, fields: { description: { expected: 'about ds1', actual: 'tampered' } } });
  expect(d0.orphanNodes.count).toBe(0);
  expect([r.edgesAdded, r.edgesRemoved, r.edgesChanged, r.searchFieldsRewritten]).toEqual([0, 0, 0, 0]);
  expect(hasDrift(r)).toBe(true);
  await restoreIndices(store, { urnLike: ALL, clean: true });
  expect(await snapshot()).toEqual(baseline);
  expect(await aspectSnapshot()).toEqual(aspects);
});

test('rows the registry refuses are ignored and named, never fatal', async () => {
  const odd = ns.dataset('odd');
  await writeAspects(store, [upsert(odd, 'datasetProperties', { name: 'odd' })], opts);
  // Rows no write path accepts: an aspect of another entity type, and unparseable JSON.
  await cypher(
    `MATCH (n:Entity {urn: $u}) CREATE (n)-[:HAS_ASPECT]->(:Aspect {key: $k1, urn: $u, name: 'chartInfo', version: 0, maxVersion: 0, value: '{}', systemMetadata: '{}'})
                CREATE (n)-[:HAS_ASPECT]->(:Aspect {key: $k2, urn: $u, name: 'globalTags', version: 0, maxVersion: 0, value: '{not json', systemMetadata: '{}'})`,
    { u: odd, k1: `${odd}\u241fchartInfo\u241f0`, k2: `${odd}\u241fglobalTags\u241f0` },
  );
  const r = await restoreIndices(store, { urn: odd });
  expect(r.ignored).toBe(2);
  expect(r.ignoredRows.map((x) => x.aspect).sort()).toEqual(['chartInfo', 'globalTags']);
  expect(r.ignoredRows.find((x) => x.aspect === 'chartInfo')!.reason).toMatch(/not supported for entity type dataset/);
  expect(r.rowsMigrated).toBe(r.rowsScanned - 2);
  await cypher('MATCH (x:Aspect) WHERE x.key IN $keys DETACH DELETE x', {
    keys: [`${odd}\u241fchartInfo\u241f0`, `${odd}\u241fglobalTags\u241f0`],
  });
});

test('a restore running while lineage is written loses no edge and resurrects none', async () => {
  const targets = ['w1', 'w2', 'w3', 'w4'].map((n) => ns.dataset(n));
  const sources = ['s1', 's2', 's3', 's4', 's5'].map((n) => ns.dataset(n));
  await writeAspects(
    store,
    [...targets, ...sources].map((u) => upsert(u, 'datasetProperties', { name: u.slice(-4) })),
    opts,
  );
  const last = new Map<string, string[]>();
  let stop = false;
  const writer = (async () => {
    for (let i = 0; i < 24; i++) {
      const t = targets[i % targets.length]!;
      const ups = sources.filter((_, j) => (i + j) % 3 !== 0);
      await writeAspects(
        store,
        [upsert(t, 'upstreamLineage', { upstreams: ups.map((s) => ({ dataset: s, type: 'TRANSFORMED' })) }, 1_700_000_001_000 + i)],
        { ...opts, now: 1_700_000_001_000 + i },
      );
      last.set(t, ups);
    }
    stop = true;
  })();
  let restores = 0;
  const restorer = (async () => {
    while (!stop) {
      await restoreIndices(store, { urnLike: DATASETS, batchSize: 3 });
      restores++;
    }
  })();
  await Promise.all([writer, restorer]);
  expect(restores).toBeGreaterThan(0);
  for (const [t, ups] of last) {
    const owned = await cypher<{ d: string }>(`MATCH (:Entity {urn: $t})-[r:DownstreamOf {owner: $t}]->(y) RETURN y.urn AS d`, { t });
    expect(owned.map((x) => x.d).sort()).toEqual([...ups].sort());
    const lineage = await cypher<{ u: string }>(`MATCH (y)-[r:LINEAGE {owner: $t}]->(:Entity {urn: $t}) RETURN y.urn AS u`, { t });
    expect(lineage.map((x) => x.u).sort()).toEqual([...ups].sort());
  }
  const check = await restoreIndices(store, { urnLike: ALL, clean: true, dryRun: true });
  expect(check.drift).toEqual(
    expect.objectContaining({ missingEdges: { count: 0, examples: [] }, extraEdges: { count: 0, examples: [] } }),
  );
  expect(hasDrift(check)).toBe(false);
});
