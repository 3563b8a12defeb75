// The aspect write path on a real Neo4j: versions, derivation, idempotence, existence rule.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, hardDeleteEntity, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect, getAspectVersions, entityExistence } from '../../catalog/src/read/aspect-reader.ts';
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

let store: Store;
const ns = namespace('wp');
const opts = { actor: 'urn:li:corpuser:tester', existenceMode: 'strict' as const, now: 1_700_000_000_000 };

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const upsert = (urn: string, aspectName: string, value: unknown, lastObserved = 1_700_000_000_000): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved },
});

async function edges(owner: string) {
  return store.read((tx) =>
    tx.run<{ type: string; source: string; destination: string; aspect: string; lineageType: string | null }>('edges/owned-by', {
      rows: [{ owner, aspect: null }],
    }),
  );
}

const a = ns.dataset('a'),
  b = ns.dataset('b'),
  c = ns.dataset('c');

test('an aspect write creates the key aspect, the node and its search fields', async () => {
  await writeAspects(store, [upsert(a, 'datasetProperties', { name: 'Table A', description: 'first', customProperties: {} })], opts);
  const key = await getAspect(store, parseUrn(a), 'datasetKey');
  expect(key?.value).toEqual({ platform: `urn:li:dataPlatform:${ns.platform}`, name: 'a', origin: 'PROD' });
  const node = await store.read((tx) =>
    tx.run<Record<string, unknown>>('aspects/fetch-one-version', { key: `${a}\u241fdatasetProperties\u241f0` }),
  );
  expect(node).toHaveLength(1);
  expect((await entityExistence(store, [parseUrn(a)])).get(a)).toEqual({ exists: true, removed: false });
});

test('lineage to missing entities is rejected in strict mode and nothing is written', async () => {
  await expect(
    writeAspects(store, [upsert(b, 'upstreamLineage', { upstreams: [{ dataset: a, type: 'TRANSFORMED' }] })], opts),
  ).rejects.toThrow(`Cannot upsert lineage as downstream urn ${b} doesn't exist`);
  expect(await getAspect(store, parseUrn(b), 'datasetKey')).toBeUndefined();
  await expect(
    writeAspects(
      store,
      [upsert(b, 'datasetProperties', { name: 'b' }), upsert(b, 'upstreamLineage', { upstreams: [{ dataset: c, type: 'TRANSFORMED' }] })],
      opts,
    ),
  ).rejects.toThrow(/referenced entity does not exist: .*,c,PROD/);
  expect(await getAspect(store, parseUrn(b), 'datasetKey')).toBeUndefined();
});

test("an entity's own descriptive aspect creates it in strict mode, when every other entity it names exists", async () => {
  const chart = ns.chart('new_chart'),
    dash = ns.dashboard('new_dash'),
    bare = ns.dashboard('bare_dash');
  const feature = ns.mlFeature('new_feature');
  // An edge-less dashboardInfo always succeeds.
  await writeAspects(store, [upsert(bare, 'dashboardInfo', { title: 'Bare', description: '', lastModified: {} })], opts);
  expect((await entityExistence(store, [parseUrn(bare)])).get(bare)?.exists).toBe(true);
  // chartInfo on a new chart naming an existing dataset creates the chart and its edge.
  await writeAspects(store, [upsert(chart, 'chartInfo', { title: 'C', description: '', lastModified: {}, inputs: [{ string: a }] })], opts);
  expect((await edges(chart)).map((e) => `${e.type}|${e.destination}`)).toContain(`Consumes|${a}`);
  // ... but a descriptive aspect naming a missing entity is refused, naming it.
  await expect(
    writeAspects(
      store,
      [upsert(dash, 'dashboardInfo', { title: 'D', description: '', lastModified: {}, charts: [ns.chart('ghost')] })],
      opts,
    ),
  ).rejects.toThrow(`referenced entity does not exist: ${ns.chart('ghost')}`);
  await expect(writeAspects(store, [upsert(feature, 'mlFeatureProperties', { sources: [ns.dataset('ghost')] })], opts)).rejects.toThrow(
    `referenced entity does not exist: ${ns.dataset('ghost')}`,
  );
  expect((await entityExistence(store, [parseUrn(dash), parseUrn(feature)])).get(dash)?.exists).toBe(false);
  // A lineage aspect that is not the entity's descriptive one still needs its entity.
  const flow = ns.flow('ex_flow'),
    job = ns.job(flow, 'ex_job');
  await expect(writeAspects(store, [upsert(job, 'dataJobInputOutput', { inputDatasets: [a], outputDatasets: [] })], opts)).rejects.toThrow(
    `Cannot upsert lineage as downstream urn ${job} doesn't exist`,
  );
});

test("lineage creates typed and LINEAGE edges; re-ingest replaces exactly that aspect's edges", async () => {
  await writeAspects(
    store,
    [
      upsert(b, 'datasetProperties', { name: 'b' }),
      upsert(c, 'datasetProperties', { name: 'c' }),
      upsert(c, 'upstreamLineage', {
        upstreams: [
          { dataset: a, type: 'TRANSFORMED' },
          { dataset: b, type: 'COPY' },
        ],
      }),
    ],
    opts,
  );
  let owned = await edges(c);
  expect(
    owned
      .filter((e) => e.type === 'DownstreamOf')
      .map((e) => e.destination)
      .sort(),
  ).toEqual([a, b].sort());
  expect(
    owned
      .filter((e) => e.type === 'LINEAGE')
      .map((e) => e.source)
      .sort(),
  ).toEqual([a, b].sort());
  await writeAspects(store, [upsert(c, 'upstreamLineage', { upstreams: [{ dataset: b, type: 'COPY' }] }, 1_700_000_000_500)], opts);
  owned = await edges(c);
  expect(owned.filter((e) => e.type === 'DownstreamOf').map((e) => e.destination)).toEqual([b]);
  expect(owned.filter((e) => e.type === 'LINEAGE').map((e) => e.source)).toEqual([b]);
  const versions = await getAspectVersions(store, parseUrn(c), 'upstreamLineage');
  expect(versions.map((v) => v.version)).toEqual([0, 1]);
  expect(versions[1]!.value).toEqual({
    upstreams: [
      { dataset: a, type: 'TRANSFORMED' },
      { dataset: b, type: 'COPY' },
    ],
  });
});

test('an identical re-ingest writes nothing', async () => {
  const before = await getAspectVersions(store, parseUrn(c), 'upstreamLineage');
  const r = await writeAspects(
    store,
    [upsert(c, 'upstreamLineage', { upstreams: [{ dataset: b, type: 'COPY' }] }, 1_700_000_009_999)],
    opts,
  );
  expect(r.rowsWritten).toBe(0);
  expect(await getAspectVersions(store, parseUrn(c), 'upstreamLineage')).toEqual(before);
});

test('hard delete removes rows and owned edges, keeps referenced nodes as ghosts', async () => {
  const rows = await hardDeleteEntity(store, parseUrn(c), opts);
  expect(rows).toBe(4); // key, properties, upstreamLineage v0 and v1
  expect(await edges(c)).toEqual([]);
  expect((await entityExistence(store, [parseUrn(c)])).get(c)?.exists).toBe(false);
  expect(await hardDeleteEntity(store, parseUrn(c), opts)).toBe(0);
});

test('two owners asserting the same column edge keep two edges; re-deriving one leaves the other', async () => {
  const src = ns.dataset('fg_src'),
    dst = ns.dataset('fg_dst');
  const flow = ns.flow('fg_flow'),
    job = ns.job(flow, 'fg_job');
  const fIn = ns.field(src, 'browser'),
    fOut = ns.field(dst, 'browser_id');
  const fg = [{ upstreamType: 'FIELD_SET', upstreams: [fIn], downstreamType: 'FIELD', downstreams: [fOut], confidenceScore: 1 }];
  await writeAspects(
    store,
    [
      upsert(src, 'status', { removed: false }),
      upsert(dst, 'status', { removed: false }),
      upsert(job, 'dataJobInfo', { name: 'job', type: 'COMMAND', customProperties: {} }),
      upsert(dst, 'upstreamLineage', { upstreams: [{ dataset: src, type: 'TRANSFORMED' }], fineGrainedLineages: fg }),
      upsert(job, 'dataJobInputOutput', { inputDatasets: [src], outputDatasets: [dst], fineGrainedLineages: fg }),
    ],
    opts,
  );
  const columnEdges = () =>
    store
      .read((tx) =>
        tx.run<{ owner: string; aspect: string }>('edges/owned-by', {
          rows: [
            { owner: dst, aspect: null },
            { owner: job, aspect: null },
          ],
        }),
      )
      .then((rows) =>
        rows
          .filter((r) => (r as unknown as { source: string }).source === fOut && (r as unknown as { type: string }).type === 'DownstreamOf')
          .map((r) => `${r.owner}|${r.aspect}`)
          .sort(),
      );
  expect(await columnEdges()).toEqual([`${dst}|upstreamLineage`, `${job}|dataJobInputOutput`].sort());
  // The dataset drops its column lineage: the job's identical edge stays.
  await writeAspects(
    store,
    [upsert(dst, 'upstreamLineage', { upstreams: [{ dataset: src, type: 'TRANSFORMED' }] }, 1_700_000_001_000)],
    opts,
  );
  expect(await columnEdges()).toEqual([`${job}|dataJobInputOutput`]);
  // The job's key aspect also emits IsPartOf; rewriting its inputs/outputs leaves that edge alone.
  await writeAspects(store, [upsert(job, 'dataJobInputOutput', { inputDatasets: [], outputDatasets: [] }, 1_700_000_002_000)], opts);
  const jobEdges = await edges(job);
  expect(jobEdges.map((e) => `${e.type}|${e.aspect}`)).toEqual(['IsPartOf|dataJobKey']);
});

test('search fields are written only where they differ from the node, so a drifted node is repaired by its next write', async () => {
  const up = ns.dataset('sf_up'),
    down = ns.dataset('sf_down');
  await writeAspects(store, [upsert(up, 'datasetProperties', { name: 'Up' }), upsert(down, 'datasetProperties', { name: 'Down' })], opts);
  const statements: string[] = [];
  const recording: Store = {
    ...store,
    write: (work, o) =>
      store.write(
        (tx) =>
          work({
            ...tx,
            run: (name, params) => {
              statements.push(name);
              return tx.run(name, params);
            },
          }),
        o,
      ),
  };
  const fieldsOf = async (urn: string) =>
    (await store.read((tx) => tx.run<Record<string, unknown>>('restore/node-fields', { urns: [urn] })))[0];

  // A lineage aspect changes no search field of its owner: no rewrite.
  await writeAspects(recording, [upsert(down, 'upstreamLineage', { upstreams: [{ dataset: up, type: 'TRANSFORMED' }] })], opts);
  expect(statements).toContain('edges/merge');
  expect(statements).not.toContain('entities/set-search-fields');

  // Tamper with the node; the next write of that entity (even a lineage-only one) puts it right.
  const before = await fieldsOf(down);
  await store.write((tx) => tx.run('entities/set-search-fields', { rows: [{ ...before, urn: down, name: 'tampered', facetKey: 4 }] }));
  statements.length = 0;
  await writeAspects(recording, [upsert(down, 'upstreamLineage', { upstreams: [{ dataset: up, type: 'COPY' }] })], opts);
  expect(statements).toContain('entities/set-search-fields');
  expect(await fieldsOf(down)).toMatchObject({ name: 'Down' });
  expect((await fieldsOf(down))!.facetKey).not.toBe(4);
});
