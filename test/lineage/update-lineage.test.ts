// updateLineage on a real Neo4j: validation order and messages, the pair table, all-or-nothing,
// idempotence, concurrency and authorization (docs/wire-contract.md §GraphQL, §Auth).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect, getAspectVersions } from '../../catalog/src/read/aspect-reader.ts';
import { updateLineage, type LineageEdgeInput } from '../../catalog/src/write/update-lineage.ts';
import { privilegesOf, ROLE_URNS, type Actor } from '../../catalog/src/model/privileges.ts';
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

let store: Store;
const ns = namespace('ul');
const NOW = 1_710_000_000_000;
const SEED = { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' as const, now: 1_700_000_000_000 };

const editor: Actor = { urn: ns.user('editor'), privileges: privilegesOf([ROLE_URNS.Editor], ns.user('editor')) };
const stamp = { time: NOW, actor: editor.urn };
const uiEdge = (source: string, destination: string) => ({
  sourceUrn: source,
  destinationUrn: destination,
  created: stamp,
  lastModified: stamp,
  properties: { source: 'UI' },
});

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved: SEED.now },
});
const seed = (...changes: AspectChange[]) => writeAspects(store, changes, SEED);
const info = (title: string) => ({
  title,
  description: '',
  lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
});

async function seedDatasets(...urns: string[]) {
  await seed(...urns.map((u) => upsert(u, 'datasetProperties', { name: u })));
}
async function seedJobs(...urns: string[]) {
  await seed(...urns.map((u) => upsert(u, 'dataJobInfo', { name: u, type: 'BATCH' })));
}
async function seedCharts(...urns: string[]) {
  await seed(...urns.map((u) => upsert(u, 'chartInfo', info(u))));
}
async function seedDashboards(...urns: string[]) {
  await seed(...urns.map((u) => upsert(u, 'dashboardInfo', info(u))));
}
async function seedBare(...urns: string[]) {
  await seed(...urns.map((u) => upsert(u, 'status', { removed: false })));
}

const run = (edgesToAdd: LineageEdgeInput[], edgesToRemove: LineageEdgeInput[] = [], actor: Actor = editor) =>
  updateLineage(store, { edgesToAdd, edgesToRemove }, actor, { now: NOW });
const e = (upstreamUrn: string, downstreamUrn: string): LineageEdgeInput => ({ upstreamUrn, downstreamUrn });

interface GraphEdge {
  type: string;
  source: string;
  destination: string;
  aspect: string;
  lineageType: string | null;
  manual: boolean | null;
}
async function ownedEdges(owner: string): Promise<GraphEdge[]> {
  return store.read((tx) => tx.run<GraphEdge>('edges/owned-by', { rows: [{ owner, aspect: null }] }));
}
/** Edges of `owner` as sortable strings, "Type src->dst" (LINEAGE edges run upstream → downstream). */
async function edgeSet(owner: string): Promise<string[]> {
  return (await ownedEdges(owner)).map((r) => `${r.type}${r.lineageType ? `/${r.lineageType}` : ''} ${r.source}->${r.destination}`).sort();
}
const value = async (urn: string, aspect: string) => (await getAspect(store, parseUrn(urn), aspect))?.value;
const versions = async (urn: string, aspect: string) => (await getAspectVersions(store, parseUrn(urn), aspect)).length;

async function rejection(p: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const { kind, message } = err as { kind: string; message: string };
    return { kind, message };
  }
  throw new Error('expected a rejection');
}

test('tutorial: two upstream datasets into one downstream', async () => {
  const [a, b, c] = [ns.dataset('tut_a'), ns.dataset('tut_b'), ns.dataset('tut_c')];
  await seedDatasets(a, b, c);
  await expect(run([e(a, c), e(b, c)])).resolves.toBe(true);
  const upstream = (d: string) => ({ dataset: d, type: 'TRANSFORMED', auditStamp: stamp, created: stamp, properties: { source: 'UI' } });
  expect(await value(c, 'upstreamLineage')).toEqual({ upstreams: [upstream(a), upstream(b)] });
  expect(await versions(c, 'upstreamLineage')).toBe(1); // both edges, one version
  expect(await edgeSet(c)).toEqual(
    [`DownstreamOf ${c}->${a}`, `DownstreamOf ${c}->${b}`, `LINEAGE/DownstreamOf ${a}->${c}`, `LINEAGE/DownstreamOf ${b}->${c}`].sort(),
  );
  expect((await ownedEdges(c)).every((r) => r.manual === true)).toBe(true);
  const row = await getAspect(store, parseUrn(c), 'upstreamLineage');
  expect(row?.createdBy).toBe(editor.urn);
});

describe('pair table: add then remove', () => {
  const [ds1, ds2] = [ns.dataset('p_ds1'), ns.dataset('p_ds2')];
  const [ch1, ch2] = [ns.chart('p_ch1'), ns.chart('p_ch2')];
  const dash = ns.dashboard('p_dash');
  const flow = ns.flow('p_flow');
  const [job1, job2] = [ns.job(flow, 'p_job1'), ns.job(flow, 'p_job2')];
  beforeAll(async () => {
    await seedDatasets(ds1, ds2);
    await seedCharts(ch1, ch2);
    await seedDashboards(dash);
    await seedJobs(job1, job2);
  });

  test('dataset → dataset: upstreamLineage of the downstream; removal keeps fineGrainedLineages', async () => {
    const fgl = [
      {
        upstreamType: 'FIELD_SET',
        upstreams: [ns.field(ds1, 'x')],
        downstreamType: 'FIELD',
        downstreams: [ns.field(ds2, 'x')],
        confidenceScore: 1,
      },
    ];
    await seed(upsert(ds2, 'upstreamLineage', { upstreams: [], fineGrainedLineages: fgl }));
    await run([e(ds1, ds2)]);
    expect((await value(ds2, 'upstreamLineage'))?.upstreams).toEqual([
      { dataset: ds1, type: 'TRANSFORMED', auditStamp: stamp, created: stamp, properties: { source: 'UI' } },
    ]);
    expect(await edgeSet(ds2)).toEqual(expect.arrayContaining([`DownstreamOf ${ds2}->${ds1}`, `LINEAGE/DownstreamOf ${ds1}->${ds2}`]));
    await run([], [e(ds1, ds2)]);
    expect(await value(ds2, 'upstreamLineage')).toEqual({ upstreams: [], fineGrainedLineages: fgl });
    const left = await edgeSet(ds2);
    expect(left.some((x) => x.endsWith(`${ds2}->${ds1}`) || x.endsWith(`${ds1}->${ds2}`))).toBe(false);
    expect(left).toContain(`DownstreamOf ${ns.field(ds2, 'x')}->${ns.field(ds1, 'x')}`); // column edge untouched
    expect(await versions(ds2, 'upstreamLineage')).toBe(3);
  });

  test('dataset → chart and chart → chart: chartInfo.inputEdges; removal also clears legacy inputs', async () => {
    await run([e(ds1, ch1), e(ch2, ch1)]);
    const v = await value(ch1, 'chartInfo');
    expect(v).toEqual({ ...info(ch1), inputEdges: [uiEdge(ch1, ds1), uiEdge(ch1, ch2)] });
    expect(await edgeSet(ch1)).toEqual(
      [`Consumes ${ch1}->${ch2}`, `Consumes ${ch1}->${ds1}`, `LINEAGE/Consumes ${ch2}->${ch1}`, `LINEAGE/Consumes ${ds1}->${ch1}`].sort(),
    );
    await seed(upsert(ch1, 'chartInfo', { ...v, inputs: [{ string: ds2 }] }));
    await run([], [e(ds1, ch1), e(ch2, ch1), e(ds2, ch1)]);
    expect(await value(ch1, 'chartInfo')).toEqual({ ...info(ch1), inputEdges: [], inputs: [] });
    expect(await edgeSet(ch1)).toEqual([]);
  });

  test('chart → dashboard and dataset → dashboard: chartEdges / datasetEdges; removal also clears charts / datasets', async () => {
    await run([e(ch1, dash), e(ds1, dash)]);
    const v = await value(dash, 'dashboardInfo');
    expect(v).toEqual({ ...info(dash), chartEdges: [uiEdge(dash, ch1)], datasetEdges: [uiEdge(dash, ds1)] });
    expect(await edgeSet(dash)).toEqual(
      [
        `Consumes ${dash}->${ds1}`,
        `Contains ${dash}->${ch1}`,
        `LINEAGE/Consumes ${ds1}->${dash}`,
        `LINEAGE/Contains ${ch1}->${dash}`,
      ].sort(),
    );
    await seed(upsert(dash, 'dashboardInfo', { ...v, charts: [ch2], datasets: [ds2] }));
    await run([], [e(ch1, dash), e(ds1, dash), e(ch2, dash), e(ds2, dash)]);
    expect(await value(dash, 'dashboardInfo')).toEqual({ ...info(dash), chartEdges: [], datasetEdges: [], charts: [], datasets: [] });
    expect(await edgeSet(dash)).toEqual([]);
  });

  test('dataset → dataJob and dataJob → dataJob: dataJobInputOutput of the downstream job, created when absent', async () => {
    expect(await value(job2, 'dataJobInputOutput')).toBeUndefined();
    await run([e(ds1, job2), e(job1, job2)]);
    expect(await value(job2, 'dataJobInputOutput')).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [uiEdge(job2, ds1)],
      inputDatajobEdges: [uiEdge(job2, job1)],
    });
    expect((await edgeSet(job2)).filter((x) => !x.startsWith('IsPartOf'))).toEqual(
      [
        `Consumes ${job2}->${ds1}`,
        `DownstreamOf ${job2}->${job1}`,
        `LINEAGE/Consumes ${ds1}->${job2}`,
        `LINEAGE/DownstreamOf ${job1}->${job2}`,
      ].sort(),
    );
    await seed(
      upsert(job2, 'dataJobInputOutput', { ...(await value(job2, 'dataJobInputOutput')), inputDatasets: [ds2], inputDatajobs: [job1] }),
    );
    await run([], [e(ds1, job2), e(job1, job2), e(ds2, job2)]);
    expect(await value(job2, 'dataJobInputOutput')).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [],
      inputDatajobEdges: [],
      inputDatajobs: [],
    });
    expect((await edgeSet(job2)).filter((x) => !x.startsWith('IsPartOf'))).toEqual([]);
  });

  test('dataJob → dataset: outputDatasetEdges of the upstream job; the dataset is not touched', async () => {
    const before = await versions(ds2, 'upstreamLineage');
    await run([e(job1, ds2)]);
    expect(await value(job1, 'dataJobInputOutput')).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      outputDatasetEdges: [uiEdge(job1, ds2)],
    });
    expect((await edgeSet(job1)).filter((x) => !x.startsWith('IsPartOf'))).toEqual([
      `LINEAGE/Produces ${job1}->${ds2}`,
      `Produces ${job1}->${ds2}`,
    ]);
    expect(await versions(ds2, 'upstreamLineage')).toBe(before);
    await seed(upsert(job1, 'dataJobInputOutput', { ...(await value(job1, 'dataJobInputOutput')), outputDatasets: [ds1] }));
    await run([], [e(job1, ds2), e(job1, ds1)]);
    expect(await value(job1, 'dataJobInputOutput')).toEqual({ inputDatasets: [], outputDatasets: [], outputDatasetEdges: [] });
    expect((await edgeSet(job1)).filter((x) => !x.startsWith('IsPartOf'))).toEqual([]);
  });

  test('edits on one aspect from several pairs make one version', async () => {
    const before = await versions(job2, 'dataJobInputOutput');
    await run([e(ds1, job2), e(job1, job2), e(ds2, job2)]);
    expect(await versions(job2, 'dataJobInputOutput')).toBe(before + 1);
  });
});

describe("rejected pairs carry DataHub's messages, for additions and removals", () => {
  const ds = ns.dataset('r_ds');
  const chart = ns.chart('r_ch');
  const dash = ns.dashboard('r_dash');
  const dash2 = ns.dashboard('r_dash2');
  const flow = ns.flow('r_flow');
  const job = ns.job(flow, 'r_job');
  const model = `urn:li:mlModel:(urn:li:dataPlatform:${ns.platform},r_model,PROD)`;
  beforeAll(async () => {
    await seedDatasets(ds);
    await seedCharts(chart);
    await seedDashboards(dash, dash2);
    await seedJobs(job);
    await seed(upsert(flow, 'dataFlowInfo', { name: 'f' }));
    await seedBare(model);
  });

  const cases: Array<[string, () => [string, string], () => string]> = [
    [
      'chart → dataset',
      () => [chart, ds],
      () => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${chart}`,
    ],
    [
      'dataFlow → dataset',
      () => [flow, ds],
      () => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${flow}`,
    ],
    [
      'dashboard → chart',
      () => [dash, chart],
      () => `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${dash}`,
    ],
    [
      'dataJob → chart',
      () => [job, chart],
      () => `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${job}`,
    ],
    [
      'dashboard → dashboard',
      () => [dash2, dash],
      () => `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${dash2}`,
    ],
    [
      'chart → dataJob',
      () => [chart, job],
      () => `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${chart}`,
    ],
    [
      'dataJob → mlModel',
      () => [job, model],
      () => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${model}`,
    ],
    [
      'dataJob → dataFlow',
      () => [job, flow],
      () => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${flow}`,
    ],
    ['dataset → dataFlow', () => [ds, flow], () => `Unsupported lineage edge: ${ds} (dataset) -> ${flow} (dataFlow)`],
    ['dataset → mlModel', () => [ds, model], () => `Unsupported lineage edge: ${ds} (dataset) -> ${model} (mlModel)`],
  ];
  test.each(cases)('%s', async (_name, ends, message) => {
    const [up, down] = ends();
    expect(await rejection(run([e(up, down)]))).toEqual({ kind: 'validation', message: message() });
    expect(await rejection(run([], [e(up, down)]))).toEqual({ kind: 'validation', message: message() });
  });
});

describe('all-or-nothing validation', () => {
  const [a, b, c] = [ns.dataset('v_a'), ns.dataset('v_b'), ns.dataset('v_c')];
  const missing = ns.dataset('v_missing');
  const bareChart = ns.chart('v_bare');
  const bareDash = ns.dashboard('v_bare');
  beforeAll(async () => {
    await seedDatasets(a, b, c);
    await seedBare(bareChart, bareDash);
    await run([e(a, c)]);
  });

  async function snapshot() {
    return {
      versions: await getAspectVersions(store, parseUrn(c), 'upstreamLineage'),
      edges: await edgeSet(c),
      b: await getAspectVersions(store, parseUrn(b), 'upstreamLineage'),
    };
  }

  test('missing downstream: 400 and nothing written, although other edges of the call were valid', async () => {
    const before = await snapshot();
    expect(await rejection(run([e(b, c), e(a, missing), e(c, b)], [e(a, c)]))).toEqual({
      kind: 'validation',
      message: `Cannot upsert lineage as downstream urn ${missing} doesn't exist`,
    });
    expect(await rejection(run([], [e(a, missing)]))).toEqual({
      kind: 'validation',
      message: `Cannot upsert lineage as downstream urn ${missing} doesn't exist`,
    });
    expect(await snapshot()).toEqual(before);
  });

  test("missing upstream: DataHub's two texts, nothing written", async () => {
    const before = await snapshot();
    expect(await rejection(run([e(b, c), e(missing, c)]))).toEqual({
      kind: 'validation',
      message: `Error: urn does not exist: ${missing}`,
    });
    expect(await rejection(run([e(b, c)], [e(missing, c)]))).toEqual({
      kind: 'validation',
      message: `Cannot upsert lineage as downstream urn ${missing} doesn't exist`,
    });
    const missingJob = ns.job(ns.flow('v_flow'), 'v_missing_job');
    expect(await rejection(run([e(b, c), e(missingJob, c)]))).toEqual({
      kind: 'validation',
      message: `Cannot upsert lineage as downstream urn ${missingJob} doesn't exist`,
    });
    expect(await snapshot()).toEqual(before);
  });

  test('addition onto a chart / dashboard without its info aspect: 400, nothing written', async () => {
    const before = await snapshot();
    expect(await rejection(run([e(b, c), e(a, bareChart)]))).toEqual({
      kind: 'validation',
      message: `Failed to update chart lineage for urn ${bareChart} as chart info doesn't exist`,
    });
    expect(await rejection(run([e(b, c), e(a, bareDash)]))).toEqual({
      kind: 'validation',
      message: `Failed to update dashboard lineage for urn ${bareDash} as dashboard info doesn't exist`,
    });
    expect(await snapshot()).toEqual(before);
    expect(await value(bareChart, 'chartInfo')).toBeUndefined();
    // Removing from a chart without chartInfo removes nothing and succeeds.
    await expect(run([], [e(a, bareChart)])).resolves.toBe(true);
    expect(await value(bareChart, 'chartInfo')).toBeUndefined();
  });

  test('unparseable urn: 400 Invalid urn, checked before anything else', async () => {
    expect(await rejection(run([e(a, 'urn:li:dataset:(a,b'), e(a, missing)]))).toEqual({
      kind: 'validation',
      message: 'Invalid urn: urn:li:dataset:(a,b',
    });
    expect(await rejection(run([e(a, c)], [e('not-a-urn', c)]))).toEqual({ kind: 'validation', message: 'Invalid urn: not-a-urn' });
  });

  test('a soft-deleted downstream counts as existing', async () => {
    const gone = ns.dataset('v_soft');
    await seed(upsert(gone, 'status', { removed: true }));
    await expect(run([e(a, gone)])).resolves.toBe(true);
    expect((await value(gone, 'upstreamLineage'))?.upstreams).toHaveLength(1);
  });
});

describe('semantics', () => {
  const [a, b, c, d] = [ns.dataset('s_a'), ns.dataset('s_b'), ns.dataset('s_c'), ns.dataset('s_d')];
  beforeAll(async () => {
    await seedDatasets(a, b, c, d);
  });

  test('an edge in both lists ends absent', async () => {
    await run([e(a, c), e(b, c)], [e(b, c)]);
    expect((await value(c, 'upstreamLineage'))?.upstreams).toEqual([expect.objectContaining({ dataset: a })]);
    await run([e(a, c)], [e(a, c)]);
    expect(await value(c, 'upstreamLineage')).toEqual({ upstreams: [] });
    expect(await edgeSet(c)).toEqual([]);
    // On an entity without the aspect, add+remove creates nothing.
    await run([e(a, d)], [e(a, d)]);
    expect(await value(d, 'upstreamLineage')).toBeUndefined();
  });

  test('removing an absent edge is fine and writes nothing', async () => {
    const before = await versions(c, 'upstreamLineage');
    await expect(run([], [e(b, c)])).resolves.toBe(true);
    expect(await versions(c, 'upstreamLineage')).toBe(before);
  });

  test('re-adding an existing edge creates no new version', async () => {
    await run([e(a, c)]);
    const before = await getAspectVersions(store, parseUrn(c), 'upstreamLineage');
    await updateLineage(store, { edgesToAdd: [e(a, c), e(a, c)], edgesToRemove: [] }, editor, { now: NOW + 1000 });
    expect(await getAspectVersions(store, parseUrn(c), 'upstreamLineage')).toEqual(before);
  });

  test('50 concurrent calls, each adding a different upstream to one downstream, lose nothing', async () => {
    const target = ns.dataset('s_target');
    const ups = Array.from({ length: 50 }, (_, i) => ns.dataset(`s_up${i}`));
    await seedDatasets(target, ...ups);
    const results = await Promise.all(ups.map((u) => run([e(u, target)])));
    expect(results.every((r) => r === true)).toBe(true);
    const listed = ((await value(target, 'upstreamLineage'))?.upstreams as Array<{ dataset: string }>).map((x) => x.dataset).sort();
    expect(listed).toEqual([...ups].sort());
    expect(await versions(target, 'upstreamLineage')).toBe(50);
    expect((await edgeSet(target)).filter((x) => x.startsWith('LINEAGE'))).toHaveLength(50);
  });
});

describe('authorization', () => {
  const [a, c] = [ns.dataset('z_a'), ns.dataset('z_c')];
  const flow = ns.flow('z_flow');
  const job = ns.job(flow, 'z_job');
  beforeAll(async () => {
    await seedDatasets(a, c);
    await seedJobs(job);
  });
  const reader: Actor = { urn: ns.user('reader'), privileges: privilegesOf([ROLE_URNS.Reader], ns.user('reader')) };

  test("without EDIT_LINEAGE or EDIT_ENTITY: 403 naming the first denied urn's type (upstream first), before existence checks", async () => {
    const missing = ns.dataset('z_missing');
    expect(await rejection(run([e(a, missing)], [], reader))).toEqual({
      kind: 'forbidden',
      message: 'Unauthorized to edit dataset lineage. Please contact your DataHub administrator.',
    });
    expect(await rejection(run([], [e(job, c)], reader))).toEqual({
      kind: 'forbidden',
      message: 'Unauthorized to edit dataJob lineage. Please contact your DataHub administrator.',
    });
    expect(await value(c, 'upstreamLineage')).toBeUndefined();
  });

  test('invalid urns are reported before authorization', async () => {
    expect(await rejection(run([e(a, 'urn:li:')], [], reader))).toEqual({ kind: 'validation', message: 'Invalid urn: urn:li:' });
  });

  test('either EDIT_LINEAGE or EDIT_ENTITY suffices', async () => {
    const lineageOnly: Actor = { urn: ns.user('l'), privileges: new Set(['EDIT_LINEAGE'] as const) };
    const entityOnly: Actor = { urn: ns.user('e'), privileges: new Set(['EDIT_ENTITY'] as const) };
    await expect(run([e(a, c)], [], lineageOnly)).resolves.toBe(true);
    await expect(run([], [e(a, c)], entityOnly)).resolves.toBe(true);
    expect(await value(c, 'upstreamLineage')).toEqual({ upstreams: [] });
  });
});
