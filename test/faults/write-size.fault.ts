// The largest request the ingestion door accepts, as npm start runs the services (tools/stack.ts: a
// 160 MB V8 heap for ingestion; the embedded Neo4j's 512 MiB per-transaction cap). A connector's
// batch of hub lineage at DataHub's emitter size (just under 16 MiB: 240 upstreamLineage aspects,
// 62,880 upstreams) is one transaction Neo4j cannot hold: it must be refused at once with a 413 that
// names the bound (MAX_EDGES_PER_WRITE) — not a 504 after seconds of work, not a dead service — and
// leave nothing behind. The same records in requests within the bound all go in; a write at the bound
// of the costliest edges (column lineage between columns never ingested) commits. restoreIndices
// and the import, which have no request to refuse, split their own batches when they pass a bound.
import { startStack, type RunningStack } from '../../tools/stack.ts';
import { childPids, procMem, resetPeak } from '../../bench/lib/memory.ts';
import { DEFAULT_MAX_EDGES_PER_WRITE } from '../../catalog/src/store/store.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { restoreIndices } from '../../catalog/src/operations/restore/restore-indices.ts';
import { importRecords } from '../../catalog/src/operations/backup/import.ts';
import { cypher, dataset, faultStore, log, postProposalBatch, throwawayNeo4j, type ThrowawayNeo4j } from './support.ts';

const PLATFORM = 'size';
const HUBS = 240;
const UPSTREAMS = 262;
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:connector' };
// The ingestion service stays below this peak RSS while it reads, derives and refuses the request.
const RSS_CAP_MB = 320;

let db: ThrowawayNeo4j;
let store: Store;
let stack: RunningStack;

const hub = (i: number) => dataset(PLATFORM, `hub${i}`);
const proposal = (urn: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'upstreamLineage',
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});
const hubLineage = (i: number) =>
  proposal(hub(i), {
    upstreams: Array.from({ length: UPSTREAMS }, (_, k) => ({
      dataset: dataset(PLATFORM, `src${i}_${k}`),
      type: 'TRANSFORMED',
      auditStamp: stamp,
      created: stamp,
    })),
  });

const ingestBatch = (proposals: unknown[]) => postBatch(JSON.stringify({ proposals }));

const postBatch = (body: string) => postProposalBatch(stack.ingestionUrl, stack.token, body);

const count = async (query: string) => Number((await cypher<{ n: unknown }>(store, query, { p: `dataPlatform:${PLATFORM},` }))[0]!.n);
const lineageEdges = () => count('MATCH (a:Entity)-[l:LINEAGE]->(b:Entity) WHERE b.urn CONTAINS $p RETURN count(l) AS n');
const entities = () => count('MATCH (n:Entity) WHERE n.urn CONTAINS $p RETURN count(n) AS n');

beforeAll(async () => {
  db = await throwawayNeo4j();
  store = faultStore(db.uri);
  // Connector traffic in DataHub's mode: lineage to tables this stream has not ingested (yet).
  stack = await startStack({
    ephemeral: true,
    neo4jUri: db.uri,
    log: () => {},
    tokenName: 'size faults',
    env: { LOG_LEVEL: 'warn', LINEAGE_EXISTENCE_MODE: 'relaxed' },
  });
});

afterAll(async () => {
  await stack?.stop();
  await store?.close();
  await db?.dispose();
});

test('a 16 MiB batch of hub lineage past the bound: 413 naming it at once, nothing written, the service up', async () => {
  const proposals = Array.from({ length: HUBS }, (_, i) => hubLineage(i));
  const bytes = Buffer.byteLength(JSON.stringify({ proposals }));
  expect(bytes).toBeLessThan(16 * 1024 * 1024);
  const ingestion = childPids(process.pid).find((p) => p.cmdline.includes('ingestion-service/src/main.ts'));
  expect(ingestion).toBeDefined();
  resetPeak(ingestion!.pid);
  const t0 = Date.now();
  const reply = await ingestBatch(proposals);
  const ms = Date.now() - t0;
  const peak = procMem(ingestion!.pid);
  log(
    `${(bytes / 1048576).toFixed(1)} MiB, ${HUBS * UPSTREAMS} upstreams: ${reply.status} in ${ms} ms; ingestion peak RSS ${peak?.hwmMb} MB`,
  );
  expect(reply.status).toBe(413);
  expect(reply.message).toContain(`${HUBS * UPSTREAMS} derived edges`);
  expect(reply.message).toContain(`may merge at most ${DEFAULT_MAX_EDGES_PER_WRITE} (MAX_EDGES_PER_WRITE`);
  expect(await entities()).toBe(0);
  expect(peak!.hwmMb).toBeLessThan(RSS_CAP_MB);
  expect((await fetch(`${stack.ingestionUrl}/health/live`)).ok).toBe(true);
});

test('four such batches at once (a sink with several threads): each answered in turn, the service up', async () => {
  // Each is handled with several times its bytes in the heap. Three parts of the 10M bench's last batch
  // at once ended the process (V8 out of heap), failing every request in flight; four of these do
  // too. MAX_INFLIGHT_BODY_BYTES admits one of this size at a time; one that waits past BODY_WAIT_MS
  // (a slow machine) is told to retry.
  const wide = (i: number) =>
    proposal(hub(i), {
      upstreams: Array.from({ length: 666 }, (_, k) => ({
        dataset: dataset(PLATFORM, `wide${i}_${k}`),
        type: 'TRANSFORMED',
        auditStamp: stamp,
        created: stamp,
      })),
    });
  // Bodies made first, so that the requests arrive together, as from several threads.
  const bodies = [0, 1, 2, 3].map((b) => JSON.stringify({ proposals: Array.from({ length: 91 }, (_, i) => wide(1_000 * (b + 1) + i)) }));
  for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024 * 1024);
  const t0 = Date.now();
  const replies = await Promise.allSettled(bodies.map(postBatch));
  const statuses = replies.map((r) => (r.status === 'fulfilled' ? r.value.status : `failed: ${(r.reason as Error).message}`));
  log(`4 × 15 MiB at once: ${statuses.join(', ')} in ${Date.now() - t0} ms`);
  for (const status of statuses) expect([413, 503]).toContain(status);
  expect(statuses).toContain(413);
  expect(await entities()).toBe(0);
  expect((await fetch(`${stack.ingestionUrl}/health/live`)).ok).toBe(true);
});

test('the same records in requests within the bound all go in', async () => {
  const perRequest = Math.floor(DEFAULT_MAX_EDGES_PER_WRITE / UPSTREAMS);
  for (let i = 0; i < HUBS; i += perRequest) {
    const reply = await ingestBatch(Array.from({ length: Math.min(perRequest, HUBS - i) }, (_, k) => hubLineage(i + k)));
    expect(reply).toEqual({ status: 200, message: '' });
  }
  expect(await lineageEdges()).toBe(HUBS * UPSTREAMS);
});

test('the whole batch again, unchanged, once its records are in: a no-op, not refused', async () => {
  // The budget counts the edges a write adds or refreshes; a value equal to the stored one adds none,
  // however many it declares. The early count (apply.ts) must leave these out as persist does.
  const reply = await ingestBatch(Array.from({ length: HUBS }, (_, i) => hubLineage(i)));
  expect(reply).toEqual({ status: 200, message: '' });
  expect(await lineageEdges()).toBe(HUBS * UPSTREAMS);
});

test('a write at the bound of the costliest edges commits: column lineage between columns never ingested', async () => {
  // Each aspect: one dataset edge and 59 column edges, each column edge reaching two new schemaField
  // nodes: 200 aspects make exactly the bound.
  const COLUMNS = DEFAULT_MAX_EDGES_PER_WRITE / 200 - 1;
  const col = (urn: string, k: number) => `urn:li:schemaField:(${urn},c${k})`;
  const proposals = Array.from({ length: 200 }, (_, i) => {
    const down = dataset(PLATFORM, `cols_down${i}`);
    const up = dataset(PLATFORM, `cols_up${i}`);
    return proposal(down, {
      upstreams: [{ dataset: up, type: 'TRANSFORMED', auditStamp: stamp, created: stamp }],
      fineGrainedLineages: Array.from({ length: COLUMNS }, (_, k) => ({
        upstreamType: 'FIELD_SET',
        downstreamType: 'FIELD',
        upstreams: [col(up, k)],
        downstreams: [col(down, k)],
      })),
    });
  });
  const before = await lineageEdges();
  const t0 = Date.now();
  const reply = await ingestBatch(proposals);
  log(
    `column lineage at the bound (${DEFAULT_MAX_EDGES_PER_WRITE} edges, ${2 * 200 * COLUMNS} new column nodes): ${reply.status} in ${Date.now() - t0} ms`,
  );
  expect(reply).toEqual({ status: 200, message: '' });
  expect(await lineageEdges()).toBe(before + DEFAULT_MAX_EDGES_PER_WRITE);
});

test('restoreIndices rebuilds edges a transaction cannot hold at once: its batch is halved until it commits', async () => {
  // The hubs' edges gone (what restore exists for): one default batch of their rows (500 rows, all
  // 240 hubs) would recreate 125,760 relationships in one transaction, past the 512m cap.
  let dropped = 0;
  for (let i = 0; i < HUBS; i++) {
    const r = await cypher<{ n: unknown }>(
      store,
      "MATCH (:Entity {urn: $hub})-[r]-(s:Entity) WHERE s.urn CONTAINS ',src' DELETE r RETURN count(r) AS n",
      { hub: hub(i) },
    );
    dropped += Number(r[0]!.n);
  }
  expect(dropped).toBe(2 * HUBS * UPSTREAMS);
  const t0 = Date.now();
  const result = await restoreIndices(store, { urnLike: `urn:li:dataset:(urn:li:dataPlatform:${PLATFORM},hub%` });
  log(`restore of ${HUBS} hub rows (${dropped} relationships to recreate): ${result.edgesAdded} edges added in ${Date.now() - t0} ms`);
  expect(result.edgesAdded).toBe(2 * HUBS * UPSTREAMS); // restore counts each edge and its :LINEAGE twin
  expect(await lineageEdges()).toBe(HUBS * UPSTREAMS + DEFAULT_MAX_EDGES_PER_WRITE);
});

test('an import whose batch derives more edges than one write may: the batch goes in halves, every record in', async () => {
  // 240 new hubs' lineage as MCP records (what `npm run import` takes besides backup rows), in one
  // default batch of 1,000 records: 62,880 edges, past MAX_EDGES_PER_WRITE.
  const before = await lineageEdges();
  async function* records() {
    for (let i = 0; i < HUBS; i++) {
      yield {
        index: i,
        offset: 0,
        value: proposal(dataset(PLATFORM, `imported${i}`), {
          upstreams: Array.from({ length: UPSTREAMS }, (_, k) => ({
            dataset: dataset(PLATFORM, `isrc${i}_${k}`),
            type: 'TRANSFORMED',
            auditStamp: stamp,
          })),
        }),
      };
    }
  }
  const checkpoints: number[] = [];
  const t0 = Date.now();
  const progress = await importRecords(store, records(), {
    actor: 'urn:li:corpuser:importer',
    existenceMode: 'relaxed',
    onProgress: (p) => {
      checkpoints.push(p.records);
    },
  });
  log(`import of ${HUBS} hub records (${HUBS * UPSTREAMS} edges): ${checkpoints.length} checkpoints in ${Date.now() - t0} ms`);
  expect(progress).toEqual(expect.objectContaining({ phase: 'done', records: HUBS }));
  expect(checkpoints.length).toBeGreaterThan(2);
  expect(await lineageEdges()).toBe(before + HUBS * UPSTREAMS);
});
