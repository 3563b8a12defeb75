// `npm run bench:events -- [--writes 300] [--ports FIRST]`: the change log's commit-to-delivery
// latency (docs/change-events.md). The whole product runs (tools/stack.ts, ephemeral Neo4j); a
// consumer keeps one long poll waiting (pollTimeoutSeconds=30, DataHub Actions' way but waiting
// longer) while a writer commits lineage changes one at a time through Rest.li at random gaps. For
// each LINEAGE event the latency is the time from the write's answer (its commit happened just
// before) to the poll answer that carried the event. Writes bench/results/<date>-events-latency.json.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from '../tools/cli/command-line.ts';
import { startStack, type RunningStack } from '../tools/stack.ts';
import { machineFacts } from './lib/machine.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = commandLine('npm run bench:events -- [--writes 300] [--ports FIRST]', {
  options: {
    writes: { type: 'string', default: '300' },
    ports: { type: 'string', description: 'FIRST: the first of three service ports (default: free ports; Neo4j always takes a free port)' },
  },
});
const writes = Number(args.writes);
const ports = args.ports?.split(',').map(Number);
const log = (s: string) => process.stderr.write(`[events-latency] ${s}\n`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

let stack: RunningStack | undefined;
try {
  stack = await startStack({
    ephemeral: true,
    log,
    serviceOutput: 'files',
    tokenName: 'bench',
    tokenDuration: 'ONE_DAY',
    env: ports ? { INGESTION_PORT: String(ports[0]), LINEAGE_PORT: String(ports[0]! + 1), GATEWAY_PORT: String(ports[0]! + 2) } : {},
  });
  const gms = stack.ingestionUrl;
  const auth = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
  const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:bench,events.${name},PROD)`;
  const ups = [urn('a'), urn('b')];
  const down = urn('c');
  const proposal = (entityUrn: string, aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  });
  const ingest = async (proposals: unknown[]) => {
    const r = await fetch(`${gms}/aspects?action=ingestProposalBatch`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ proposals }),
    });
    if (r.status !== 200) throw new Error(`ingest: HTTP ${r.status} ${await r.text()}`);
  };
  const poll = async (offsetId: string | undefined, timeout: number) => {
    const q = new URLSearchParams({ topic: 'PlatformEvent_v1', pollTimeoutSeconds: String(timeout), ...(offsetId ? { offsetId } : {}) });
    const r = await fetch(`${gms}/openapi/v1/events/poll?${q}`, { headers: auth });
    if (r.status !== 200) throw new Error(`poll: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as { offsetId: string; count: number; events: Array<{ value: string }> };
  };

  await ingest([...ups, down].map((u) => proposal(u, 'datasetProperties', { name: u })));
  let token = (await poll(undefined, 0)).offsetId;
  // Write i moves the downstream's upstream to ups[i % 2]: its ADD event names ups[i % 2] and is the i-th ADD.
  const ackedAt: number[] = [];
  const deliveredAt: number[] = [];
  let stop = false;
  const consumer = (async () => {
    while (!stop || deliveredAt.length < writes) {
      const page = await poll(token, 30);
      const at = performance.now();
      token = page.offsetId;
      for (const e of page.events) {
        const ece = JSON.parse((JSON.parse(e.value) as { payload: { value: string } }).payload.value) as {
          operation: string;
          entityUrn: string;
        };
        if (ece.operation === 'ADD' && ece.entityUrn === down) deliveredAt.push(at);
      }
    }
  })();
  for (let i = 0; i < writes; i++) {
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    await ingest([proposal(down, 'upstreamLineage', { upstreams: [{ dataset: ups[i % 2], type: 'TRANSFORMED' }] })]);
    ackedAt.push(performance.now());
  }
  stop = true;
  await consumer;
  const latencies = ackedAt.map((t, i) => deliveredAt[i]! - t).sort((x, y) => x - y);
  const result = {
    file: `${new Date().toISOString().slice(0, 10)}-events-latency.json`,
    what: "commit-to-delivery latency of LINEAGE change events: from the Rest.li write's answer to the long poll's answer carrying its ADD event (negative: the poll answered before the write's HTTP answer arrived)",
    writes,
    pollTimeoutSeconds: 30,
    latencyMs: {
      p50: Math.round(percentile(latencies, 50)),
      p90: Math.round(percentile(latencies, 90)),
      p99: Math.round(percentile(latencies, 99)),
      min: Math.round(latencies[0]!),
      max: Math.round(latencies[latencies.length - 1]!),
    },
    machine: machineFacts(),
  };
  writeFileSync(join(here, 'results', result.file), JSON.stringify(result, null, 2) + '\n');
  log(`latency ms ${JSON.stringify(result.latencyMs)} → bench/results/${result.file}`);
} finally {
  await stack?.stop();
}
