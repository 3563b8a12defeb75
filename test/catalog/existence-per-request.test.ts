// The existence rule judged per request (docs/lineage-model.md §The existence rule) and key aspects
// as DataHub treats them (docs/wire-contract.md §Key aspects), on a real Neo4j.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect, entityExistence } from '../../catalog/src/read/aspect-reader.ts';
import { testStore, namespace } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

let store: Store;
const ns = namespace('epr');
const strict = { actor: 'urn:li:corpuser:tester', existenceMode: 'strict' as const, now: 1_700_000_000_000 };

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const upsert = (urn: string, aspectName: string, value: unknown, source?: string): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  ...(source ? { source } : {}),
});
const lineage = (urn: string, ...ups: string[]) =>
  upsert(urn, 'upstreamLineage', { upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const props = (urn: string) => upsert(urn, 'datasetProperties', { name: urn });
/** Dataset urns of the test's namespace, one per name. */
const datasets = <const N extends readonly string[]>(...names: N) => names.map((n) => ns.dataset(n)) as { [K in keyof N]: string };

async function upstreamsOf(urn: string): Promise<string[]> {
  const rows = await store.read((tx) =>
    tx.run<{ type: string; destination: string }>('edges/owned-by', { rows: [{ owner: urn, aspect: 'upstreamLineage' }] }),
  );
  return rows
    .filter((r) => r.type === 'DownstreamOf')
    .map((r) => r.destination)
    .sort();
}
const exists = async (urn: string) => (await entityExistence(store, [parseUrn(urn)])).get(urn)!.exists;

test('lineage emitted before the entities it names, in one request, commits in full', async () => {
  const [up, mid, down] = [ns.dataset('up'), ns.dataset('mid'), ns.dataset('down')];
  // The connector's order: each table's lineage first, its own aspects after, the upstream last.
  await writeAspects(store, [lineage(down, mid), props(down), lineage(mid, up), props(mid), props(up)], strict);
  expect(await upstreamsOf(down)).toEqual([mid]);
  expect(await upstreamsOf(mid)).toEqual([up]);
  expect(await exists(up)).toBe(true);
});

test('a lineage aspect alone does not make its entity exist, in any order', async () => {
  const [a, lonely] = [ns.dataset('a1'), ns.dataset('lonely')];
  await writeAspects(store, [props(a)], strict);
  await expect(writeAspects(store, [lineage(a, lonely), lineage(lonely, a)], strict)).rejects.toThrow(
    `Cannot upsert lineage as downstream urn ${lonely} doesn't exist`,
  );
  expect(await exists(lonely)).toBe(false);
  expect(await upstreamsOf(a)).toEqual([]);
});

test('the 422 names every refused record (index, place, aspect, urn, missing urns) and nothing is written', async () => {
  const [ok, x, y, ghost1, ghost2, noEntity] = datasets('ok', 'x', 'y', 'ghost1', 'ghost2', 'noentity');
  const err = await writeAspects(
    store,
    [
      upsert(ok, 'datasetProperties', { name: 'ok' }, 'proposals[0]'),
      upsert(
        x,
        'upstreamLineage',
        {
          upstreams: [
            { dataset: ghost1, type: 'COPY' },
            { dataset: ok, type: 'COPY' },
          ],
        },
        'proposals[1]',
      ),
      upsert(x, 'datasetProperties', { name: 'x' }, 'proposals[2]'),
      upsert(
        y,
        'upstreamLineage',
        {
          upstreams: [
            { dataset: ghost1, type: 'COPY' },
            { dataset: ghost2, type: 'COPY' },
          ],
        },
        'proposals[3]',
      ),
      upsert(y, 'datasetProperties', { name: 'y' }, 'proposals[4]'),
      upsert(noEntity, 'upstreamLineage', { upstreams: [{ dataset: ok, type: 'COPY' }] }, 'proposals[5]'),
    ],
    { ...strict, existenceHint: 'HOW TO CHOOSE' },
  ).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err).toMatchObject({ kind: 'validation' });
  const m = err!.message;
  expect(m).toContain('3 records refused');
  expect(m).toContain(`[1] proposals[1]: Cannot ingest upstreamLineage for ${x}: referenced entity does not exist: ${ghost1}`);
  expect(m).toContain(`[3] proposals[3]: Cannot ingest upstreamLineage for ${y}: referenced entities do not exist: ${ghost1}, ${ghost2}`);
  expect(m).toContain(`[5] proposals[5]: Cannot upsert lineage as downstream urn ${noEntity} doesn't exist`);
  expect(m).not.toContain('[0]');
  expect(m).not.toContain('[2]');
  expect(m.endsWith(' HOW TO CHOOSE')).toBe(true);
  for (const u of [ok, x, y, noEntity]) expect(await exists(u)).toBe(false);
});

test('relaxed mode writes the same batch in full, naming ghosts', async () => {
  const [x, ghost] = [ns.dataset('rx'), ns.dataset('rghost')];
  await writeAspects(store, [lineage(x, ghost)], { ...strict, existenceMode: 'relaxed' });
  expect(await upstreamsOf(x)).toEqual([ghost]);
  expect(await exists(ghost)).toBe(false);
});

test('an entity hard deleted earlier in the request does not count as written', async () => {
  const [gone, d] = [ns.dataset('gone'), ns.dataset('dd')];
  await writeAspects(store, [props(gone), props(d)], strict);
  await expect(
    writeAspects(store, [{ urn: parseUrn(gone), aspectName: 'datasetKey', changeType: 'DELETE' }, lineage(d, gone)], strict),
  ).rejects.toThrow(`referenced entity does not exist: ${gone}`);
  expect(await exists(gone)).toBe(true);
});

test("a client key aspect that disagrees with the urn is replaced by the urn's, and the record is kept", async () => {
  const dash = ns.dashboard('dash_1');
  // Power BI sends dashboardKey with an id other than the urn's.
  await writeAspects(
    store,
    [
      upsert(dash, 'dashboardKey', { dashboardTool: ns.platform, dashboardId: 'something-else' }),
      upsert(dash, 'dashboardInfo', { title: 'D', description: '', lastModified: {} }),
    ],
    strict,
  );
  expect((await getAspect(store, parseUrn(dash), 'dashboardKey'))?.value).toEqual({ dashboardTool: ns.platform, dashboardId: 'dash_1' });
  const ds = ns.dataset('keyed');
  await writeAspects(
    store,
    [upsert(ds, 'datasetKey', { platform: 'urn:li:dataPlatform:other', name: 'other', origin: 'DEV', extra: 1 })],
    strict,
  );
  expect((await getAspect(store, parseUrn(ds), 'datasetKey'))?.value).toEqual({
    platform: `urn:li:dataPlatform:${ns.platform}`,
    name: 'keyed',
    origin: 'PROD',
  });
  // A key aspect that is not an object is still a client mistake.
  await expect(writeAspects(store, [upsert(ns.dataset('bad_key'), 'datasetKey', 'nope')], strict)).rejects.toMatchObject({
    kind: 'validation',
  });
});
