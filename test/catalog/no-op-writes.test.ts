// No-op writes (issue 29): a write whose value equals the stored latest one — key order and system
// metadata aside — writes no version, touches no edge and commits nothing, whichever door it came
// through (an UPSERT, a PATCH that changes nothing, an OpenLineage event replayed); a changed one
// writes. The graph left behind is compared whole: aspect rows with their system metadata, and every
// edge of the entities with its identity and stamps (a delete + merge would make a new edge).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { parseOpenLineageEvent } from '../../catalog/src/model/openlineage/events.ts';
import { planOpenLineageEvent } from '../../catalog/src/model/openlineage/plan-openlineage-event.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { ingestOpenLineage } from '../../catalog/src/write/openlineage.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { testStore, namespace } from '../support/context.ts';

let store: Store;
const ns = namespace('noop');
const T = 1_700_000_000_000;
const opts = { actor: 'urn:li:corpuser:tester', existenceMode: 'strict' as const, now: T };

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const upsert = (urn: string, aspectName: string, value: unknown, lastObserved: number, runId = 'run-1'): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved, runId },
});
const patch = (urn: string, aspectName: string, ops: unknown[], lastObserved: number): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'PATCH',
  patchText: JSON.stringify(ops),
  systemMetadata: { lastObserved, runId: 'run-patch' },
});

/** Every aspect row (all versions) of the urns, and every edge touching them with its identity and stamps. */
async function graphOf(urns: string[]) {
  const q = async (cypher: string) =>
    (await store.driver.executeQuery(cypher, { urns }, { database: store.database })).records.map((r) => r.toObject());
  const rows = await q(`MATCH (a:Aspect) WHERE a.urn IN $urns
    RETURN a.key AS key, a.value AS value, a.systemMetadata AS systemMetadata, a.createdOn AS createdOn, a.maxVersion AS maxVersion ORDER BY key`);
  const edges = await q(`MATCH (n:Entity)-[r]-() WHERE n.urn IN $urns AND type(r) <> 'HAS_ASPECT'
    RETURN DISTINCT elementId(r) AS id, type(r) AS type, r.key AS key, r.createdOn AS createdOn, r.updatedOn AS updatedOn ORDER BY id`);
  return { rows, edges };
}

/** The store's write generation: it moves with every committed write. */
const generation = async () =>
  (
    await store.driver.executeQuery('MATCH (g:WriteGeneration) RETURN g.token AS t ORDER BY elementId(g)', {}, { database: store.database })
  ).records
    .map((r) => r.get('t'))
    .join();

const up1 = ns.dataset('up1'),
  up2 = ns.dataset('up2'),
  down = ns.dataset('down');

test('a re-sent identical proposal (keys reordered, later lastObserved, another run) keeps versions, system metadata and edges; a changed one writes', async () => {
  const lineage = { upstreams: [{ dataset: up1, type: 'TRANSFORMED' }], fineGrainedLineages: [] };
  await writeAspects(
    store,
    [
      upsert(up1, 'datasetProperties', { name: 'up1' }, T),
      upsert(up2, 'datasetProperties', { name: 'up2' }, T),
      upsert(down, 'datasetProperties', { name: 'down', customProperties: { a: '1', b: '2' } }, T),
      upsert(down, 'upstreamLineage', lineage, T),
    ],
    opts,
  );
  const before = await graphOf([up1, up2, down]);
  expect(before.edges.length).toBeGreaterThan(0);
  const gen = await generation();

  const again = await writeAspects(
    store,
    [
      upsert(down, 'datasetProperties', { customProperties: { b: '2', a: '1' }, name: 'down' }, T + 60_000, 'run-2'),
      upsert(down, 'upstreamLineage', { fineGrainedLineages: [], upstreams: [{ type: 'TRANSFORMED', dataset: up1 }] }, T + 60_000, 'run-2'),
    ],
    { ...opts, now: T + 60_000 },
  );
  expect(again).toEqual({ rowsWritten: 0, rowsDeleted: 0 });
  // Same rows (no version, the stored system metadata kept: lastObserved and runId of the write that made the version).
  expect(await graphOf([up1, up2, down])).toEqual(before);
  expect(await generation()).toBe(gen);

  // A changed value writes a version, and its edges take the new write's stamps.
  const changed = await writeAspects(
    store,
    [
      upsert(
        down,
        'upstreamLineage',
        { ...lineage, upstreams: [...lineage.upstreams, { dataset: up2, type: 'TRANSFORMED' }] },
        T + 120_000,
      ),
    ],
    { ...opts, now: T + 120_000 },
  );
  expect(changed.rowsWritten).toBe(1);
  const after = await graphOf([up1, up2, down]);
  expect(after.rows.length).toBe(before.rows.length + 1);
  expect(after.edges.filter((e) => e.updatedOn?.toNumber?.() === T + 120_000 || e.updatedOn === T + 120_000).length).toBeGreaterThan(0);
  expect(await generation()).not.toBe(gen);
});

test("a mixed request writes only what changed: the unchanged aspect's edges keep their identity and stamps", async () => {
  const flow = ns.flow('mix'),
    job = ns.job(flow, 'mix_job');
  await writeAspects(
    store,
    [
      upsert(job, 'dataJobInfo', { name: 'mix', type: 'COMMAND', customProperties: {} }, T),
      upsert(job, 'dataJobInputOutput', { inputDatasets: [up1], outputDatasets: [down] }, T),
    ],
    opts,
  );
  const io = (await graphOf([job])).edges;
  await writeAspects(
    store,
    [
      upsert(job, 'dataJobInputOutput', { outputDatasets: [down], inputDatasets: [up1] }, T + 5_000),
      upsert(job, 'dataJobInfo', { name: 'mix', type: 'COMMAND', description: 'now described', customProperties: {} }, T + 5_000),
    ],
    { ...opts, now: T + 5_000 },
  );
  // dataJobInfo got a version; the Consumes/Produces edges of the unchanged dataJobInputOutput are the same edges.
  const after = await graphOf([job]);
  expect(after.rows.filter((r) => String(r.key).includes('dataJobInfo')).length).toBe(2);
  const ioKeys = new Set(io.filter((e) => e.type !== 'IsPartOf').map((e) => e.id));
  expect(after.edges.filter((e) => ioKeys.has(e.id))).toEqual(io.filter((e) => ioKeys.has(e.id)));
});

test('a PATCH whose result equals the stored value is a no-op; one that changes it writes', async () => {
  const target = ns.dataset('patched');
  const tag = (name: string) => ({ op: 'add', path: `/tags/urn:li:tag:${name}`, value: { tag: `urn:li:tag:${name}` } });
  await writeAspects(
    store,
    [upsert(target, 'datasetProperties', { name: 'patched' }, T), patch(target, 'globalTags', [tag('pii')], T)],
    opts,
  );
  const before = await graphOf([target]);
  expect(before.edges.map((e) => e.type)).toContain('TaggedWith');
  const gen = await generation();

  const same = await writeAspects(store, [patch(target, 'globalTags', [tag('pii')], T + 1_000)], { ...opts, now: T + 1_000 });
  expect(same.rowsWritten).toBe(0);
  expect(await graphOf([target])).toEqual(before);
  expect(await generation()).toBe(gen);

  const more = await writeAspects(store, [patch(target, 'globalTags', [tag('gold')], T + 2_000)], { ...opts, now: T + 2_000 });
  expect(more.rowsWritten).toBe(1);
  const after = await graphOf([target]);
  expect(after.rows.length).toBe(before.rows.length + 1);
  expect(after.edges.filter((e) => e.type === 'TaggedWith').length).toBe(2);
});

describe('OpenLineage', () => {
  const pg = `postgres://${ns.platform}.example.com:5432`;
  const table = (name: string) => ({ namespace: pg, name: `${ns.platform}.${name}` });
  const dsUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${ns.platform}.${name},PROD)`;
  const event = (runId: string, time: number, description?: string) =>
    parseOpenLineageEvent({
      eventType: 'COMPLETE',
      eventTime: new Date(time).toISOString(),
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/spark',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId, facets: {} },
      job: {
        namespace: ns.platform,
        name: 'etl.build_out',
        facets: {
          jobType: { processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' },
          ...(description ? { documentation: { description } } : {}),
        },
      },
      inputs: [table('in_a'), table('in_b')],
      outputs: [
        {
          ...table('out'),
          facets: {
            schema: {
              fields: [
                { name: 'c0', type: 'BIGINT' },
                { name: 'c1', type: 'BIGINT' },
              ],
            },
            columnLineage: {
              fields: {
                c0: { inputFields: [{ ...table('in_a'), field: 'c0' }] },
                c1: { inputFields: [{ ...table('in_b'), field: 'c1' }] },
              },
            },
          },
        },
      ],
    });
  /** Rows (versions) per (urn, aspect) of the entities the events name. */
  async function versions(urns: string[]) {
    const r = await store.driver.executeQuery(
      "MATCH (a:Aspect) WHERE a.urn IN $urns RETURN a.urn + ' ' + a.name AS aspect, count(*) AS n ORDER BY aspect",
      { urns },
      { database: store.database },
    );
    return Object.fromEntries(r.records.map((x) => [x.get('aspect') as string, Number(x.get('n'))]));
  }
  const runA = '0190b8a4-1111-7aaa-8bbb-000000000001',
    runB = '0190b8a4-1111-7aaa-8bbb-000000000002',
    runC = '0190b8a4-1111-7aaa-8bbb-000000000003';
  const T0 = Date.parse('2026-11-01T10:00:00Z');

  test("the same event again writes nothing; the next run of the job leaves the job's, the flow's and the datasets' descriptions as they were", async () => {
    const ok = (outcomes: Array<{ ok: boolean }>) => expect(outcomes.map((o) => o.ok)).toEqual([true]);
    ok(await ingestOpenLineage(store, [event(runA, T0)], opts));
    const named = [...new Set([...planOpenLineageEvent(event(runA, T0)).urns, ...planOpenLineageEvent(event(runB, T0)).urns])];
    const [flow, job, runUrnB] = ['urn:li:dataFlow:', 'urn:li:dataJob:', 'urn:li:dataProcessInstance:'].map((prefix) => {
      const found = named.filter((u) => u.startsWith(prefix));
      return prefix === 'urn:li:dataProcessInstance:'
        ? found.find((u) => !planOpenLineageEvent(event(runA, T0)).urns.includes(u))!
        : found[0]!;
    }) as [string, string, string];
    const versionsNow = () => versions(named);
    const first = await versionsNow();
    const urns = [dsUrn('in_a'), dsUrn('in_b'), dsUrn('out'), job];
    const graph = await graphOf(urns);
    const gen = await generation();
    expect(Object.keys(first).length).toBeGreaterThan(8);

    ok(await ingestOpenLineage(store, [event(runA, T0)], { ...opts, now: T + 1 }));
    expect(await versionsNow()).toEqual(first);
    expect(await graphOf(urns)).toEqual(graph);
    expect(await generation()).toBe(gen);

    // A day later, another run: what describes the job, the flow and the datasets keeps its version.
    ok(await ingestOpenLineage(store, [event(runB, T0 + 86_400_000)], { ...opts, now: T + 2 }));
    const next = await versionsNow();
    for (const kept of [`${job} dataJobInfo`, `${flow} dataFlowInfo`, `${dsUrn('out')} schemaMetadata`, `${dsUrn('in_a')} datasetKey`]) {
      expect([kept, next[kept]]).toEqual([kept, first[kept]]);
    }
    // ... while the lineage stamps and the run are new.
    expect(next[`${job} dataJobInputOutput`]).toBe(first[`${job} dataJobInputOutput`]! + 1);
    expect(next[`${runUrnB} dataProcessInstanceRunEvent`]).toBe(1);

    // A run that describes the job differently writes the job's info again.
    ok(await ingestOpenLineage(store, [event(runC, T0 + 2 * 86_400_000, 'now documented')], { ...opts, now: T + 3 }));
    expect((await versionsNow())[`${job} dataJobInfo`]).toBe(first[`${job} dataJobInfo`]! + 1);
  });
});
