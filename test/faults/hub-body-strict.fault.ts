// A hub batch past the edge budget in strict mode (the default), while a connector's ordinary batches
// keep coming, as the bench's 10M load sent them. Every upstream exists, so nothing refuses the batch
// before its edges are counted. Until the budget was judged before the existence lookup (apply.ts
// edgesCertainlyDerived), such a 15 MiB batch held about eight times its bytes in the heap through
// the lookup and the validation; with two ordinary batches beside it, the ingestion service passed its
// 160 MB heap and V8 ended it (bench/README.md §Bodies handled at once). Now it is refused at once.
import { startStack, type RunningStack } from '../../tools/stack.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { DEFAULT_MAX_EDGES_PER_WRITE } from '../../catalog/src/store/store.ts';
import { cypher, dataset, faultStore, log, postProposalBatch, throwawayNeo4j, type ThrowawayNeo4j } from './support.ts';

const PLATFORM = 'strict_hub';
const HUBS = 240;
const UPSTREAMS = 262;
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:connector' };

let db: ThrowawayNeo4j;
let store: Store;
let stack: RunningStack;
let exited: string | null = null;

const hub = (i: number) => dataset(PLATFORM, `hub${i}`);
const upstream = (i: number, k: number) => dataset(PLATFORM, `src${i}_${k}`);
const record = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});

const postBatch = (body: string) => postProposalBatch(stack.ingestionUrl, stack.token, body);

beforeAll(async () => {
  db = await throwawayNeo4j();
  store = faultStore(db.uri);
  stack = await startStack({
    ephemeral: true,
    neo4jUri: db.uri,
    log: () => {},
    tokenName: 'strict hub faults',
    env: { LOG_LEVEL: 'warn' },
    onServiceExit: (name, code) => {
      exited = `${name} exited (${code})`;
    },
  });
  // Every entity the hub batch names, as a connector's earlier batches created them.
  const urns = Array.from({ length: HUBS }, (_, i) => [hub(i), ...Array.from({ length: UPSTREAMS }, (_, k) => upstream(i, k))]).flat();
  for (let i = 0; i < urns.length; i += 500) {
    const reply = await postBatch(
      JSON.stringify({ proposals: urns.slice(i, i + 500).map((u) => record(u, 'status', { removed: false })) }),
    );
    expect(reply.status).toBe(200);
  }
  log(`${urns.length} datasets in (strict mode)`);
});

afterAll(async () => {
  await stack?.stop();
  await store?.close();
  await db?.dispose();
});

test('strict mode, every upstream existing: a 15 MiB hub batch past the budget beside ordinary batches is refused at once, they go in, the service stays up', async () => {
  const body = JSON.stringify({
    proposals: Array.from({ length: HUBS }, (_, i) =>
      record(hub(i), 'upstreamLineage', {
        upstreams: Array.from({ length: UPSTREAMS }, (_, k) => ({
          dataset: upstream(i, k),
          type: 'TRANSFORMED',
          auditStamp: stamp,
          created: stamp,
        })),
      }),
    ),
  });
  expect(Buffer.byteLength(body)).toBeGreaterThan(15 * 1024 * 1024);
  expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024 * 1024);

  // Two streams of ordinary batches (500 records, ≈ 90 kB each), as a sink's threads send them.
  let stop = false;
  const streamed: number[] = [];
  const stream = async (w: number) => {
    for (let b = 0; !stop && !exited; b++) {
      const proposals = Array.from({ length: 500 }, (_, k) =>
        record(dataset(PLATFORM, `plain${w}_${b}_${k}`), 'status', { removed: false }),
      );
      streamed.push((await postBatch(JSON.stringify({ proposals })).catch(() => ({ status: 0 }))).status);
    }
  };
  const streams = [stream(0), stream(1)];
  const replies: Array<number | string> = [];
  for (let attempt = 0; attempt < 3 && !exited; attempt++) {
    const t0 = Date.now();
    const reply = await postBatch(body).catch((e: Error) => ({ status: `failed: ${e.message}`, message: '' }));
    log(`hub batch beside two streams: ${reply.status} in ${Date.now() - t0} ms`);
    replies.push(reply.status);
    if (reply.status === 413) expect(reply.message).toContain(`${HUBS * UPSTREAMS} derived edges`);
  }
  stop = true;
  await Promise.all(streams);
  log(`${streamed.length} ordinary batches alongside: ${[...new Set(streamed)].join(', ')}`);

  expect(exited).toBeNull();
  expect(replies).toEqual([413, 413, 413]);
  expect(HUBS * UPSTREAMS).toBeGreaterThan(DEFAULT_MAX_EDGES_PER_WRITE);
  expect(streamed.length).toBeGreaterThan(0);
  expect(streamed.every((s) => s === 200)).toBe(true);
  const edges = await cypher<{ n: unknown }>(store, 'MATCH (:Entity)-[l:LINEAGE]-(b:Entity) WHERE b.urn CONTAINS $p RETURN count(l) AS n', {
    p: `dataPlatform:${PLATFORM},hub`,
  });
  expect(Number(edges[0]!.n)).toBe(0);
  expect((await fetch(`${stack.ingestionUrl}/health/live`)).ok).toBe(true);
});
