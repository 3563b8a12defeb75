// The lineage service under its memory cap (docs/lineage-model.md §Results): the stack as `npm start`
// runs it (tools/stack.ts: a 160 MB V8 heap) answers impact queries from a hub whose reach is
// 27,500 entities with 6 KB descriptions each — ~165 MB of text, more than the whole heap, so a
// service that held the reach would die or collect itself to a halt. A time window with a type
// filter, free text and a urn filter are selected in Neo4j; ignoreAsHops and a per-hop limit are
// streamed hop by hop, holding a page plus a window. Every answer must be complete and exact, the
// service must stay up, and its peak RSS must stay under 256 MB.
import { readFileSync } from 'node:fs';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { startStack, type RunningStack } from '../../tools/stack.ts';
import { childPids, procMem, resetPeak } from '../../bench/lib/memory.ts';
import { dataset, faultStore, log, throwawayNeo4j, type ThrowawayNeo4j } from './support.ts';

const PLATFORM = 'heap';
const MIDS = 50;
const LEAVES_PER_MID = 500;
const CHART_EVERY = 10; // one chart reads every tenth leaf
const LEAVES = MIDS * LEAVES_PER_MID;
const CHARTS = LEAVES / CHART_EVERY;
const REACH = MIDS + LEAVES + CHARTS;
const STAMP = 1_700_000_000_000; // every edge's time: inside the queries' window
const RSS_CAP_MB = 256;

const hub = dataset(PLATFORM, 'hub');
const mid = (m: number) => dataset(PLATFORM, `mid${m}`);
const leaf = (m: number, k: number) => dataset(PLATFORM, `leaf${m}_${k}`);
const chart = (i: number) => `urn:li:chart:(looker,heap_${i})`;
// A different text per entity (no string is shared), ~6 KB.
const description = (urn: string) => `${urn} lorem ipsum `.repeat(Math.ceil(6_000 / (urn.length + 13))).slice(0, 6_000);

let db: ThrowawayNeo4j;
let store: Store;
let stack: RunningStack;

function upsert(urn: string, aspectName: string, value: unknown): AspectChange {
  return { urn: parseUrn(urn), aspectName, changeType: 'UPSERT', value, systemMetadata: { lastObserved: STAMP } };
}
const props = (urn: string) =>
  upsert(urn, 'datasetProperties', { name: urn.split(',')[1], description: description(urn), customProperties: {} });
const stamp = { time: STAMP, actor: 'urn:li:corpuser:seeder' };
const lineage = (urn: string, up: string) =>
  upsert(urn, 'upstreamLineage', { upstreams: [{ dataset: up, type: 'TRANSFORMED', created: stamp, auditStamp: stamp }] });

beforeAll(async () => {
  db = await throwawayNeo4j();
  store = faultStore(db.uri);
  const t0 = Date.now();
  const opts = { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' as const, now: STAMP };
  const write = async (changes: AspectChange[]) => {
    for (let i = 0; i < changes.length; i += 1_000) await writeAspects(store, changes.slice(i, i + 1_000), opts);
  };
  await write([props(hub), ...Array.from({ length: MIDS }, (_, m) => props(mid(m)))]);
  await write(Array.from({ length: MIDS }, (_, m) => lineage(mid(m), hub)));
  for (let m = 0; m < MIDS; m++) {
    const leaves = Array.from({ length: LEAVES_PER_MID }, (_, k) => leaf(m, k));
    await write([...leaves.map(props), ...leaves.map((l) => lineage(l, mid(m)))]);
  }
  await write(
    Array.from({ length: CHARTS }, (_, i) => {
      const input = leaf(Math.floor((i * CHART_EVERY) / LEAVES_PER_MID), (i * CHART_EVERY) % LEAVES_PER_MID);
      return upsert(chart(i), 'chartInfo', {
        title: `chart ${i}`,
        description: description(chart(i)),
        lastModified: { created: stamp, lastModified: stamp },
        inputEdges: [{ destinationUrn: input, created: stamp, lastModified: stamp }],
      });
    }),
  );
  log(`seeded a hub reaching ${REACH} entities (6 KB descriptions) in ${Date.now() - t0} ms`);
  // The services as npm start runs them: the heap limits are tools/stack.ts's, not set here.
  stack = await startStack({ ephemeral: true, neo4jUri: db.uri, log: () => {}, tokenName: 'heap faults', env: { LOG_LEVEL: 'warn' } });
});

afterAll(async () => {
  await stack?.stop();
  await store?.close();
  await db?.dispose();
});

async function scroll(input: Record<string, unknown>): Promise<{ total: number; count: number; nextScrollId: string | null }> {
  const res = await fetch(`${stack.gatewayUrl}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
    body: JSON.stringify({
      query: 'query($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) { total count nextScrollId } }',
      variables: {
        input: {
          urn: hub,
          direction: 'DOWNSTREAM',
          count: 100,
          orFilters: [{ and: [{ field: 'degree', values: ['1', '2', '3+'] }] }],
          ...input,
        },
      },
    }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await res.json()) as {
    data?: { scrollAcrossLineage: { total: number; count: number; nextScrollId: string | null } | null };
    errors?: unknown;
  };
  if (!body.data?.scrollAcrossLineage) throw new Error(`scrollAcrossLineage failed (${res.status}): ${JSON.stringify(body.errors)}`);
  return body.data.scrollAcrossLineage;
}

const window = { startTimeMillis: STAMP - 86_400_000, endTimeMillis: STAMP + 86_400_000 };
const degrees = ['1', '2', '3+'];
test.each([
  ['a time window and a type filter (in Neo4j)', { ...window, types: ['CHART'] }, CHARTS],
  ['free text (in Neo4j)', { query: 'lorem' }, REACH],
  [
    'a negated urn filter (in Neo4j)',
    {
      orFilters: [
        {
          and: [
            { field: 'degree', values: degrees },
            { field: 'urn', values: [mid(0)], negated: true },
          ],
        },
      ],
    },
    REACH - 1,
  ],
  ['ignoreAsHops (streamed, hop by hop)', { lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } }, REACH],
  ['a per-hop limit (streamed, hop by hop)', { lineageFlags: { entitiesExploredPerHopLimit: 1_000 } }, REACH],
  ['a time window, everything (in Neo4j)', window, REACH],
] as const)('hub query with %s: exact total, service up, peak RSS under 256 MB', async (_name, input, expected) => {
  const lineage = childPids(process.pid).find((p) => p.cmdline.includes('lineage-service/src/main.ts'));
  expect(lineage).toBeDefined();
  const environ = readFileSync(`/proc/${lineage!.pid}/environ`, 'utf8').split('\0');
  expect(environ.find((e) => e.startsWith('NODE_OPTIONS='))).toContain('--max-old-space-size=160');
  resetPeak(lineage!.pid);
  const t0 = Date.now();
  const first = await scroll(input);
  const second = await scroll({ ...input, scrollId: first.nextScrollId });
  const peak = procMem(lineage!.pid);
  log(`${_name}: total ${first.total} in ${Date.now() - t0} ms (two pages); lineage service peak RSS ${peak?.hwmMb} MB`);
  expect(first.total).toBe(expected);
  expect([first.count, second.count]).toEqual([100, 100]);
  expect(peak).not.toBeNull();
  expect(peak!.hwmMb).toBeLessThan(RSS_CAP_MB);
  const health = await fetch(`${stack.lineageUrl.replace(/\/graphql$/, '')}/health/live`);
  expect(health.ok).toBe(true);
});
