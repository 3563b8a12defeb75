// W-openlineage: OpenLineage COMPLETE RunEvents — each a job reading 2 tables and writing 1, with a
// 4-column schema and column lineage (13 lineage edges an event: 2 Consumes, 1 Produces, 2 dataset
// DownstreamOf, 8 column DownstreamOf) — through POST /api/v1/lineage/batch, and the same graph's
// writes (what the door writes for those events, in a namespace of their own) as MCPs through
// ingestProposalBatch: what the door costs over the MCP path for the same result. Then the door
// again, twice, on the store the first run left: the same events posted again (a replay: every
// aspect they write is already stored, so none is written) and the next runs of the same jobs (new
// run ids: the flow, the jobs' info and the outputs' schemas are unchanged, the runs are new) —
// re-runs are the common case. The first of them comes ten minutes later, within the lineage
// stamps' granularity (LINEAGE_STAMP_GRANULARITY_MS, an hour by default), so only the runs are
// written; the second a day later, past it, so the lineage stamps and openLineage records are
// refreshed as well.
import { parseOpenLineageEvent } from '../../catalog/src/model/openlineage/events.ts';
import { planOpenLineageEvent } from '../../catalog/src/model/openlineage/plan-openlineage-event.ts';
import { rng } from '../lib/rng.ts';
import { summarize, type Summary } from '../lib/stats.ts';

export interface OpenLineageResult {
  events: number;
  /** Lineage edges the events make (13 an event). */
  lineageEdges: number;
  ms: number;
  eventsPerSec: number;
  batchMs: Summary;
  /** The same events posted again. */
  replay?: DoorRun;
  /** The next run of the same jobs: new run ids, a day later (past the stamps' granularity). */
  rerun?: DoorRun;
  /** The next run of the same jobs ten minutes later, within the stamps' granularity. */
  rerunWithinWindow?: DoorRun;
  /** The same writes as MCPs through ingestProposalBatch. */
  mcpPath: { mcps: number; ms: number; mcpPerSec: number; eventsPerSec: number; batchMs: Summary };
}

interface DoorRun {
  ms: number;
  eventsPerSec: number;
  batchMs: Summary;
}

const COLUMNS = ['c0', 'c1', 'c2', 'c3'];
const EDGES_PER_EVENT = 13;
const ROOTS = 50;
const WINDOW = 200;
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/spark';

/** COMPLETE RunEvents making about `targetEdges` lineage edges, as a Spark job would report them. */
function openLineageEvents(targetEdges: number, seed: number, namespace: string): Array<Record<string, unknown>> {
  const random = rng(seed);
  const count = Math.ceil(targetEdges / EDGES_PER_EVENT);
  const db = `postgres://${namespace}.example.com:5432`;
  const table = (i: number) => ({ namespace: db, name: `${namespace}.public.t${i}` });
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  const hex = (n: number, width: number) =>
    Math.floor(random() * n)
      .toString(16)
      .padStart(width, '0');
  return Array.from({ length: count }, (_, e) => {
    const out = ROOTS + e;
    // Two distinct inputs among the recent tables (a layered pipeline), the roots included.
    const lo = Math.max(0, out - WINDOW);
    const a = lo + Math.floor(random() * (out - lo));
    let b = lo + Math.floor(random() * (out - lo));
    if (b === a) b = a === lo ? a + 1 : a - 1;
    const inputs = [table(a), table(b)];
    return {
      eventType: 'COMPLETE',
      eventTime: new Date(t0 + e * 1000).toISOString(),
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: {
        runId: `${hex(2 ** 32, 8)}-${hex(65536, 4)}-7${hex(4096, 3)}-8${hex(4096, 3)}-${hex(2 ** 32, 8)}${hex(65536, 4)}`,
        facets: {},
      },
      job: { namespace, name: `etl.build_t${out}`, facets: { jobType: { processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' } } },
      inputs,
      outputs: [
        {
          ...table(out),
          facets: {
            schema: { fields: COLUMNS.map((name) => ({ name, type: 'BIGINT' })) },
            columnLineage: {
              fields: Object.fromEntries(COLUMNS.map((c) => [c, { inputFields: inputs.map((i) => ({ ...i, field: c })) }])),
            },
          },
        },
      ],
    };
  });
}

/** The next run of the same jobs: each event with a new run id (drawn from `seed`), `laterMs` later. */
function nextRunOf(events: ReadonlyArray<Record<string, unknown>>, laterMs: number, seed: number): Array<Record<string, unknown>> {
  const random = rng(seed);
  const hex = (n: number, width: number) =>
    Math.floor(random() * n)
      .toString(16)
      .padStart(width, '0');
  return events.map((e) => ({
    ...e,
    eventTime: new Date(Date.parse(e.eventTime as string) + laterMs).toISOString(),
    run: { runId: `${hex(2 ** 32, 8)}-${hex(65536, 4)}-7${hex(4096, 3)}-8${hex(4096, 3)}-${hex(2 ** 32, 8)}${hex(65536, 4)}`, facets: {} },
  }));
}

async function post(url: string, token: string, body: unknown): Promise<unknown> {
  const request = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'X-RestLi-Protocol-Version': '2.0.0' },
      body: JSON.stringify(body),
    });
  // A kept-alive socket the server closed as it was reused ("other side closed"): sent again once,
  // as clients do (every write here is idempotent).
  const res = await request().catch((e: unknown) => {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw e;
    return request();
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Sends batches with `concurrency` in flight; per-batch latencies. */
async function send<T>(batches: T[][], concurrency: number, one: (batch: T[]) => Promise<void>): Promise<{ ms: number; batchMs: Summary }> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const s = performance.now();
        await one(batch);
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { ms: performance.now() - t0, batchMs: summarize(latencies) };
}

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

export async function ingestOpenLineageWorkload(
  targetEdges: number,
  seed: number,
  options: { url: string; token: string; batchSize: number; concurrency: number; progress: (line: string) => void },
): Promise<OpenLineageResult> {
  const events = openLineageEvents(targetEdges, seed, 'olbench');
  const postEvents = (list: ReadonlyArray<Record<string, unknown>>) =>
    send(chunks([...list], options.batchSize), options.concurrency, async (batch) => {
      const answer = (await post(`${options.url}/api/v1/lineage/batch`, options.token, batch)) as { status: string };
      if (answer.status !== 'success') throw new Error(`OpenLineage batch: ${JSON.stringify(answer).slice(0, 500)}`);
    });
  const door = await postEvents(events);
  const perSec = (ms: number) => Math.round(events.length / (ms / 1000));
  options.progress(`OpenLineage: ${events.length} events in ${(door.ms / 1000).toFixed(1)} s (${perSec(door.ms)} events/s)`);
  const replayed = await postEvents(events);
  options.progress(`the same events again: ${(replayed.ms / 1000).toFixed(1)} s (${perSec(replayed.ms)} events/s)`);
  const withinWindow = await postEvents(nextRunOf(events, 10 * 60_000, seed + 2));
  options.progress(
    `the next run of the same jobs, ten minutes later: ${(withinWindow.ms / 1000).toFixed(1)} s (${perSec(withinWindow.ms)} events/s)`,
  );
  const rerunDone = await postEvents(nextRunOf(events, 86_400_000, seed + 1));
  options.progress(`the next run of the same jobs, a day later: ${(rerunDone.ms / 1000).toFixed(1)} s (${perSec(rerunDone.ms)} events/s)`);
  const doorRun = (r: { ms: number; batchMs: Summary }): DoorRun => ({
    ms: Math.round(r.ms),
    eventsPerSec: perSec(r.ms),
    batchMs: r.batchMs,
  });

  // The same writes for the same graph in another namespace, as MCPs (strictly ordered per event,
  // so each event's datasets exist before its lineage, as in the door).
  const twin = openLineageEvents(targetEdges, seed, 'olmcp');
  const perEvent = twin.map((raw) =>
    planOpenLineageEvent(parseOpenLineageEvent(raw))
      .writes(new Map(), 'urn:li:corpuser:bench')
      .map((w) => ({
        entityType: /^urn:li:([^:]+):/.exec(w.urn)![1],
        entityUrn: w.urn,
        changeType: 'UPSERT',
        aspectName: w.aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(w.value) },
      })),
  );
  const proposals = perEvent.flat();
  // About the bench's usual MCP batch size, whole events each: an event's writes create its datasets
  // before its lineage names them, so each request stands on its own with two in flight.
  const eventsPerBatch = Math.max(1, Math.round(options.batchSize / (proposals.length / twin.length)));
  const mcpBatches = chunks(perEvent, eventsPerBatch).map((events) => events.flat());
  const mcp = await send(mcpBatches, options.concurrency, async (batch) => {
    await post(`${options.url}/aspects?action=ingestProposalBatch`, options.token, { proposals: batch });
  });
  options.progress(
    `the same writes as MCPs: ${proposals.length} in ${(mcp.ms / 1000).toFixed(1)} s (${Math.round(proposals.length / (mcp.ms / 1000))} MCP/s)`,
  );
  return {
    events: events.length,
    lineageEdges: events.length * EDGES_PER_EVENT,
    ms: Math.round(door.ms),
    eventsPerSec: Math.round(events.length / (door.ms / 1000)),
    batchMs: door.batchMs,
    replay: doorRun(replayed),
    rerun: doorRun(rerunDone),
    rerunWithinWindow: doorRun(withinWindow),
    mcpPath: {
      mcps: proposals.length,
      ms: Math.round(mcp.ms),
      mcpPerSec: Math.round(proposals.length / (mcp.ms / 1000)),
      eventsPerSec: Math.round(twin.length / (mcp.ms / 1000)),
      batchMs: mcp.batchMs,
    },
  };
}
