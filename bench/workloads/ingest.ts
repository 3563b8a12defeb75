// W-ingest: the whole graph as MCPs through POST /aspects?action=ingestProposalBatch (the real
// ingestion service over HTTP, one transaction per batch), and the same rows written straight into
// Neo4j with UNWIND … MERGE under separate labels — the store's bound for this data, same run.
import type { Driver } from 'neo4j-driver';
import neo4j from 'neo4j-driver';
import { fieldUrn, type Graph } from '../generate.ts';
import { proposalBatches, type Proposal } from '../proposals.ts';
import { summarize, type Summary } from '../lib/stats.ts';
import { keyAspectNameOf } from '../../catalog/src/model/index.ts';
import { rowKey } from '../../catalog/src/store/index.ts';

export interface IngestResult {
  mcps: number;
  batches: number;
  ms: number;
  mcpPerSec: number;
  batchMs: Summary;
  phases: Array<{ phase: number; mcps: number; ms: number; mcpPerSec: number; batchMs: Summary }>;
  /** Batches before this index were loaded by an earlier (resumed) run and are not in the numbers. */
  resumedFromBatch: number;
}

export interface Progress {
  (line: string): void;
}

type Batch = { index: number; phase: 1 | 2; proposals: Proposal[] };

/** Runs `work` over the batches of one phase with `concurrency` requests in flight. */
async function pool(batches: Iterator<Batch>, concurrency: number, work: (b: Batch) => Promise<void>): Promise<void> {
  let failed: unknown = null;
  const worker = async () => {
    for (;;) {
      if (failed) return;
      const n = batches.next();
      if (n.done) return;
      try {
        await work(n.value);
      } catch (e) {
        failed = e;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failed) throw failed;
}

function* phaseOf(all: Generator<Batch>, phase: 1 | 2, buffered: { pending?: Batch }): Generator<Batch> {
  if (buffered.pending) {
    if (buffered.pending.phase !== phase) return;
    yield buffered.pending;
    buffered.pending = undefined;
  }
  for (;;) {
    const n = all.next();
    if (n.done) return;
    if (n.value.phase !== phase) {
      buffered.pending = n.value;
      return;
    }
    yield n.value;
  }
}

/** Loads batches in two phases (entities, then lineage), reporting every committed batch. */
async function loadInPhases(
  g: Graph,
  batchSize: number,
  concurrency: number,
  fromBatch: number,
  send: (b: Batch) => Promise<void>,
  onDone: (contiguous: number) => void,
  progress: Progress,
  label: string,
  totalMcps: number,
): Promise<IngestResult> {
  const all = proposalBatches(g, batchSize, fromBatch);
  const buffered: { pending?: Batch } = {};
  const t0 = performance.now();
  const latencies: number[] = [];
  const phases: IngestResult['phases'] = [];
  let mcps = 0;
  let batches = 0;
  const done = new Set<number>();
  let contiguous = fromBatch;
  let lastReport = t0;
  for (const phase of [1, 2] as const) {
    const p0 = performance.now();
    const phaseLat: number[] = [];
    let phaseMcps = 0;
    await pool(phaseOf(all, phase, buffered), concurrency, async (b) => {
      const t = performance.now();
      await send(b);
      const ms = performance.now() - t;
      latencies.push(ms);
      phaseLat.push(ms);
      mcps += b.proposals.length;
      phaseMcps += b.proposals.length;
      batches++;
      done.add(b.index);
      while (done.has(contiguous)) done.delete(contiguous++);
      onDone(contiguous);
      const now = performance.now();
      if (now - lastReport > 5000) {
        lastReport = now;
        const rate = mcps / ((now - t0) / 1000);
        const left = Math.max(0, totalMcps - mcps);
        progress(
          `${label}: ${mcps.toLocaleString()} / ~${totalMcps.toLocaleString()} MCPs, phase ${phase}, ${Math.round(rate)} MCP/s, ETA ${Math.round(left / Math.max(rate, 1))} s`,
        );
      }
    });
    const ms = performance.now() - p0;
    phases.push({
      phase,
      mcps: phaseMcps,
      ms: Math.round(ms),
      mcpPerSec: Math.round(phaseMcps / (ms / 1000)),
      batchMs: summarize(phaseLat),
    });
  }
  const ms = performance.now() - t0;
  return {
    mcps,
    batches,
    ms: Math.round(ms),
    mcpPerSec: Math.round(mcps / (ms / 1000)),
    batchMs: summarize(latencies),
    phases,
    resumedFromBatch: fromBatch,
  };
}

/** The client's cap on one request body: DataHub's REST emitter's (15 MiB, under the server's 16 MiB). */
const MAX_PAYLOAD_BYTES = 15 * 1024 * 1024;

/**
 * `proposals` in order, in runs whose ingestProposalBatch body is at most `maxBytes` each (a single
 * proposal over it goes alone, for the server to refuse by name).
 */
function payloadParts(proposals: readonly Proposal[], maxBytes: number): Proposal[][] {
  if (Buffer.byteLength(JSON.stringify({ proposals })) <= maxBytes) return [[...proposals]];
  const parts: Proposal[][] = [];
  let part: Proposal[] = [];
  let bytes = 0;
  const envelope = Buffer.byteLength('{"proposals":[]}');
  for (const p of proposals) {
    const n = Buffer.byteLength(JSON.stringify(p)) + 1;
    if (part.length && envelope + bytes + n > maxBytes) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(p);
    bytes += n;
  }
  if (part.length) parts.push(part);
  return parts;
}

/** The server's 413 for a write deriving more edges than one transaction may (MAX_EDGES_PER_WRITE). */
const tooManyEdges = (status: number, text: string) => status === 413 && text.includes('MAX_EDGES_PER_WRITE');

export async function ingestViaApi(
  g: Graph,
  opts: {
    url: string;
    token: string;
    batchSize: number;
    concurrency: number;
    fromBatch: number;
    totalMcps: number;
    onDone: (contiguous: number) => void;
    progress: Progress;
  },
): Promise<IngestResult> {
  const endpoint = `${opts.url}/aspects?action=ingestProposalBatch`;
  const post = async (b: Batch, proposals: readonly Proposal[]): Promise<void> => {
    const body = JSON.stringify({ proposals });
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0', authorization: `Bearer ${opts.token}` },
        body,
      });
      const text = await res.text();
      if (res.ok) return;
      // 503 = the store said retry (a deadlock or transient outage): what an SDK emitter does too.
      if (res.status === 503 && attempt < 5) {
        await new Promise((r) => setTimeout(r, 200 * attempt));
        continue;
      }
      // More edges than one write may derive (hubs' lineage at 10M): the halves go one after the
      // other, as a user lowers the sink's max_per_batch. Nothing of the refused request was written.
      if (tooManyEdges(res.status, text) && proposals.length > 1) {
        const half = Math.ceil(proposals.length / 2);
        await post(b, proposals.slice(0, half));
        await post(b, proposals.slice(half));
        return;
      }
      throw new Error(`batch ${b.index} (phase ${b.phase}): HTTP ${res.status}: ${text.slice(0, 500)}`);
    }
  };
  // A batch whose body would pass the server's 16 MiB cap goes as several requests, as DataHub's REST
  // emitter splits its batches (INGEST_MAX_PAYLOAD_BYTES, 15 MiB). At 10M a few hubs' lineage aspects
  // make a 500-MCP batch 22 MB. The batch keeps its index: a resume sends all of it again (idempotent).
  const send = async (b: Batch) => {
    for (const part of payloadParts(b.proposals, MAX_PAYLOAD_BYTES)) await post(b, part);
  };
  return loadInPhases(
    g,
    opts.batchSize,
    opts.concurrency,
    opts.fromBatch,
    send,
    opts.onDone,
    opts.progress,
    'ingest (API)',
    opts.totalMcps,
  );
}

// ---------------------------------------------------------------------------------------------
// The raw bound: the same rows (aspect rows incl. the key aspect the write path adds, entity and
// ghost nodes, typed edges and :LINEAGE edges), no validation, no reads, no versioning.

const RAW_SCHEMA = [
  'CREATE CONSTRAINT bench_raw_urn IF NOT EXISTS FOR (n:BenchEntity) REQUIRE n.urn IS UNIQUE',
  'CREATE CONSTRAINT bench_raw_key IF NOT EXISTS FOR (a:BenchAspect) REQUIRE a.key IS UNIQUE',
];

const RAW_ASPECTS = `
UNWIND $rows AS r
MERGE (e:BenchEntity {urn: r.urn}) ON CREATE SET e.entityType = r.entityType, e.exists = true, e.removed = false
MERGE (a:BenchAspect {key: r.key}) ON CREATE SET a.urn = r.urn, a.name = r.name, a.version = 0, a.maxVersion = 0
SET a.value = r.value, a.systemMetadata = r.systemMetadata, a.createdOn = r.createdOn, a.createdBy = r.createdBy
MERGE (e)-[:BENCH_HAS_ASPECT]->(a)`;

const RAW_EDGES = `
UNWIND $rows AS r
MERGE (s:BenchEntity {urn: r.source}) ON CREATE SET s.exists = false
MERGE (d:BenchEntity {urn: r.destination}) ON CREATE SET d.exists = false
MERGE (s)-[t:BENCH_TYPED {key: r.key}]->(d)
SET t.type = r.type, t.owner = r.owner, t.aspect = r.aspect, t.createdOn = r.createdOn, t.updatedOn = r.createdOn
WITH r, CASE WHEN r.reverse THEN d ELSE s END AS u, CASE WHEN r.reverse THEN s ELSE d END AS w
MERGE (u)-[l:BENCH_LINEAGE {key: r.key}]->(w)
SET l.type = r.type, l.owner = r.owner, l.aspect = r.aspect, l.createdOn = r.createdOn, l.updatedOn = r.createdOn, l.manual = false`;

interface RawEdge {
  key: string;
  type: string;
  source: string;
  destination: string;
  owner: string;
  aspect: string;
  reverse: boolean;
  createdOn: unknown;
}

function rawRows(g: Graph, idOf: Map<string, number>, b: Batch, seenKeyRow: Set<string>) {
  const createdOn = neo4j.int(Date.now());
  const aspects: Record<string, unknown>[] = [];
  const edges: RawEdge[] = [];
  for (const p of b.proposals) {
    const row = (name: string, value: string) => ({
      urn: p.entityUrn,
      entityType: p.entityType,
      name,
      key: rowKey(p.entityUrn, name),
      value,
      systemMetadata: JSON.stringify(p.systemMetadata),
      createdOn,
      createdBy: 'urn:li:corpuser:datahub',
    });
    if (b.phase === 1 && !seenKeyRow.has(p.entityUrn)) {
      seenKeyRow.add(p.entityUrn);
      aspects.push(row(keyAspectNameOf(p.entityType), '{}'));
    }
    aspects.push(row(p.aspectName, p.aspect.value));
    if (b.phase !== 2) continue;
    const id = idOf.get(p.entityUrn)!;
    const e = g.entities[id]!;
    const edge = (type: string, dst: string, reverse: boolean, source = e.urn) =>
      edges.push({
        key: `${source}|${type}|${dst}|${e.urn}|${p.aspectName}`,
        type,
        source,
        destination: dst,
        owner: e.urn,
        aspect: p.aspectName,
        reverse,
        createdOn,
      });
    // reverse = the typed edge points at the upstream (DownstreamOf, Consumes…): :LINEAGE runs dst → src.
    switch (e.kind) {
      case 'dataset':
        for (const u of e.ups) edge('DownstreamOf', g.entities[u]!.urn, true);
        for (const f of e.fine ?? []) edge('DownstreamOf', fieldUrn(g.entities[f.up]!.urn, f.col), true, fieldUrn(e.urn, f.col));
        break;
      case 'dataJob':
        for (const u of e.ups) edge('Consumes', g.entities[u]!.urn, true);
        for (const o of e.outs ?? []) edge('Produces', g.entities[o]!.urn, false);
        break;
      case 'chart':
        for (const u of e.ups) edge('Consumes', g.entities[u]!.urn, true);
        break;
      case 'dashboard':
        for (const u of e.ups) edge('Contains', g.entities[u]!.urn, true);
        break;
      default:
        for (const u of e.ups) edge('DerivedFrom', g.entities[u]!.urn, true);
    }
  }
  return { aspects, edges };
}

export async function ingestRaw(
  g: Graph,
  driver: Driver,
  opts: { batchSize: number; concurrency: number; totalMcps: number; progress: Progress },
): Promise<IngestResult & { rows: { aspects: number; edges: number } }> {
  for (const s of RAW_SCHEMA) await driver.executeQuery(s, {}, { database: 'neo4j' });
  await driver.executeQuery('CALL db.awaitIndexes(300)', {}, { database: 'neo4j' });
  const idOf = new Map<string, number>();
  g.entities.forEach((e, i) => idOf.set(e.urn, i));
  const seenKeyRow = new Set<string>();
  let aspectRows = 0;
  let edgeRows = 0;
  const send = async (b: Batch) => {
    const { aspects, edges } = rawRows(g, idOf, b, seenKeyRow);
    aspectRows += aspects.length;
    edgeRows += edges.length;
    const session = driver.session({ database: 'neo4j' });
    try {
      await session.executeWrite(async (tx) => {
        await tx.run(RAW_ASPECTS, { rows: aspects });
        if (edges.length) await tx.run(RAW_EDGES, { rows: edges });
      });
    } finally {
      await session.close();
    }
  };
  const r = await loadInPhases(
    g,
    opts.batchSize,
    opts.concurrency,
    0,
    send,
    () => {},
    opts.progress,
    'ingest (raw UNWIND)',
    opts.totalMcps,
  );
  return { ...r, rows: { aspects: aspectRows, edges: edgeRows } };
}

/** Removes the raw copy so the later workloads see only the catalog's graph. */
export async function dropRaw(driver: Driver): Promise<number> {
  const t0 = performance.now();
  // CALL … IN TRANSACTIONS needs an implicit (auto-commit) transaction: session.run, not executeQuery.
  const session = driver.session({ database: 'neo4j' });
  try {
    for (const label of ['BenchAspect', 'BenchEntity']) {
      await session.run(`MATCH (n:${label}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS`);
    }
  } finally {
    await session.close();
  }
  for (const c of ['bench_raw_urn', 'bench_raw_key'])
    await driver.executeQuery(`DROP CONSTRAINT ${c} IF EXISTS`, {}, { database: 'neo4j' });
  return Math.round(performance.now() - t0);
}
