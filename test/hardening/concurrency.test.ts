// Concurrency over HTTP on a real Neo4j: concurrent writers lose nothing, versions stay a gapless
// history whose latest is the last commit, edges follow the latest row, deadlocks between writers
// are retried inside the store and never reach a client, and restore running beside ingestion
// neither loses nor resurrects an edge.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect, getAspectVersions } from '../../catalog/src/read/aspect-reader.ts';
import { createStore, type QueryEvent, type Store } from '../../catalog/src/store/store.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { startStack, type Stack } from '../graphql/stack.ts';
import { listen, testConfig, tokenFor } from '../support/services.ts';
import { namespace } from '../support/context.ts';
import { createServer, type Server } from 'node:http';

const ns = namespace('cc');
const SEED = { actor: 'urn:li:corpuser:seeder', existenceMode: 'relaxed' as const };
let stack: Stack;
let store: Store;
let editorToken: string;
let adminToken: string;

beforeAll(async () => {
  stack = await startStack();
  store = stack.store;
  editorToken = await tokenFor(store, ns.user('editor'), 'Editor');
  adminToken = await tokenFor(store, ns.user('admin'), 'Admin');
});
afterAll(async () => {
  await stack.close();
});

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const seedDatasets = (urns: string[]) =>
  writeAspects(
    store,
    urns.map((u) => upsert(u, 'datasetProperties', { name: u })),
    SEED,
  );

const mcp = (urn: string, aspectName: string, value: unknown, systemMetadata?: Record<string, unknown>) => ({
  entityType: parseUrn(urn).entityType,
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  ...(systemMetadata ? { systemMetadata } : {}),
});
const lineageOf = (ups: string[]) => ({ upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });

async function post(base: string, path: string, body: unknown, token: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function cypher<T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await store.driver.executeQuery(query, params, { database: 'neo4j' });
  return r.records.map((x) => x.toObject() as T);
}
/** Owned DownstreamOf targets and LINEAGE sources of a downstream dataset, each sorted. */
async function edgesOf(downstream: string) {
  const typed = await cypher<{ u: string }>('MATCH (:Entity {urn: $d})-[r:DownstreamOf {owner: $d}]->(y) RETURN y.urn AS u', {
    d: downstream,
  });
  const lineage = await cypher<{ u: string }>('MATCH (y)-[r:LINEAGE {owner: $d}]->(:Entity {urn: $d}) RETURN y.urn AS u', {
    d: downstream,
  });
  return { typed: typed.map((r) => r.u).sort(), lineage: lineage.map((r) => r.u).sort() };
}
const upstreamsIn = (value: Record<string, unknown> | undefined) =>
  ((value?.upstreams ?? []) as Array<{ dataset: string }>).map((u) => u.dataset).sort();

test('50 concurrent updateLineage calls through the front door, each adding a different upstream, all land', async () => {
  const target = ns.dataset('ul_target');
  const ups = Array.from({ length: 50 }, (_, i) => ns.dataset(`ul_up${i}`));
  await seedDatasets([target, ...ups]);
  const mutation =
    'mutation add($d: String!, $u: String!) { updateLineage(input: { edgesToAdd: [{ downstreamUrn: $d, upstreamUrn: $u }], edgesToRemove: [] }) }';
  const replies = await Promise.all(ups.map((u) => stack.graphql(mutation, editorToken, { variables: { d: target, u } })));
  for (const r of replies) {
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { updateLineage: true }, extensions: {} });
  }
  const latest = await getAspect(store, parseUrn(target), 'upstreamLineage');
  expect(upstreamsIn(latest?.value)).toEqual([...ups].sort());
  // One version per call: every call read the previous one under the entity lock.
  expect((await getAspectVersions(store, parseUrn(target), 'upstreamLineage')).map((r) => r.version).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 50 }, (_, i) => i),
  );
  expect(await edgesOf(target)).toEqual({ typed: [...ups].sort(), lineage: [...ups].sort() });
  // And the read side sees all 50 through the gateway.
  const search = await stack.graphql(
    'query up($u: String!) { searchAcrossLineage(input: { urn: $u, direction: UPSTREAM, query: "*", start: 0, count: 100 }) { total } }',
    editorToken,
    { variables: { u: target } },
  );
  expect(search.body.data.searchAcrossLineage.total).toBe(50);
});

test('20 concurrent UPSERTs of one aspect: gapless versions, every value kept once, the last commit is latest, edges follow it', async () => {
  const target = ns.dataset('up_target');
  const ups = Array.from({ length: 20 }, (_, i) => ns.dataset(`up_src${i}`));
  await seedDatasets([target, ...ups]);
  const replies = await Promise.all(
    ups.map((u, i) =>
      post(
        stack.gatewayUrl,
        '/api/gms/aspects?action=ingestProposal',
        { proposal: mcp(target, 'upstreamLineage', lineageOf([u]), { runId: `writer-${i}`, lastObserved: 1_700_000_000_000 + i }) },
        editorToken,
      ),
    ),
  );
  expect(replies.map((r) => r.status)).toEqual(ups.map(() => 200));

  const rows = await getAspectVersions(store, parseUrn(target), 'upstreamLineage');
  const byVersion = [...rows].sort((a, b) => a.version - b.version);
  // Versions 0..19, each once: no write overwrote another's archive slot.
  expect(byVersion.map((r) => r.version)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  // Every acknowledged value is stored exactly once (v0 plus the 19 archived ones), with its own systemMetadata.
  expect(byVersion.map((r) => upstreamsIn(r.value)[0]).sort()).toEqual([...ups].sort());
  for (const r of byVersion) expect(r.systemMetadata.runId).toBe(`writer-${ups.indexOf(upstreamsIn(r.value)[0]!)}`);
  // Archive order is commit order (v1 committed first … v0 last): createdOn never goes backwards.
  const commitOrder = [...byVersion.slice(1), byVersion[0]!];
  for (let i = 1; i < commitOrder.length; i++) expect(commitOrder[i]!.createdOn).toBeGreaterThanOrEqual(commitOrder[i - 1]!.createdOn);
  // The derived edges are the latest row's, and only those.
  const latest = upstreamsIn(byVersion[0]!.value);
  expect(await edgesOf(target)).toEqual({ typed: latest, lineage: latest });
});

// Issue 30: an identical value whose keys come in another order wrote a new version (8 identical
// concurrent posts left 2). Idempotency compares values, not texts.
test('8 concurrent posts of one value, with keys in different orders, leave 1 version; a later reordered repeat writes nothing', async () => {
  const target = ns.dataset('same_value');
  const src = ns.dataset('same_value_src');
  await seedDatasets([target, src]);
  const fields: Array<[string, unknown]> = [
    ['name', 'same'],
    ['description', 'one value'],
    ['customProperties', { b: '2', a: '1', c: '3' }],
    ['tags', ['x', 'y']],
    ['externalUrl', 'https://example.com/x'],
  ];
  // Eight orders of the same fields (a rotation each, the nested object reversed on odd ones).
  const reordered = (i: number) => {
    const rotated = [...fields.slice(i % fields.length), ...fields.slice(0, i % fields.length)];
    return Object.fromEntries(
      rotated.map(([k, v]) => [k, k === 'customProperties' && i % 2 ? Object.fromEntries(Object.entries(v as object).reverse()) : v]),
    );
  };
  expect(new Set(Array.from({ length: 8 }, (_, i) => JSON.stringify(reordered(i)))).size).toBeGreaterThan(4);
  const replies = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      post(
        stack.gatewayUrl,
        '/api/gms/aspects?action=ingestProposal',
        { proposal: mcp(target, 'datasetProperties', reordered(i)) },
        editorToken,
      ),
    ),
  );
  expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
  const versions = async () => (await getAspectVersions(store, parseUrn(target), 'datasetProperties')).map((r) => r.version).sort();
  // v0 from the seed's value, then one version for the new value: the seed's row is archived once.
  expect(await versions()).toEqual([0, 1]);
  const lineage = (order: 'ab' | 'ba') => ({
    upstreams: [order === 'ab' ? { dataset: src, type: 'TRANSFORMED' } : { type: 'TRANSFORMED', dataset: src }],
  });
  for (const order of ['ab', 'ba', 'ab'] as const) {
    expect(
      (
        await post(
          stack.gatewayUrl,
          '/api/gms/aspects?action=ingestProposal',
          { proposal: mcp(target, 'upstreamLineage', lineage(order)) },
          editorToken,
        )
      ).status,
    ).toBe(200);
  }
  expect((await getAspectVersions(store, parseUrn(target), 'upstreamLineage')).map((r) => r.version)).toEqual([0]);
  // A real change still writes.
  expect(
    (
      await post(
        stack.gatewayUrl,
        '/api/gms/aspects?action=ingestProposal',
        { proposal: mcp(target, 'datasetProperties', { ...reordered(0), name: 'changed' }) },
        editorToken,
      )
    ).status,
  ).toBe(200);
  expect(await versions()).toEqual([0, 1, 2]);
});

describe('deadlocks', () => {
  test('a real deadlock between two writers is retried by the store and both commit', async () => {
    const events: QueryEvent[] = [];
    const s = createStore({ uri: process.env.TEST_NEO4J_URI!, database: 'neo4j', onQuery: (e) => events.push(e) });
    const [x, y] = [ns.dataset('dl_x'), ns.dataset('dl_y')];
    const lockRow = (urn: string) => ({ rows: [{ urn, entityType: 'dataset', label: 'Dataset' }] });
    let firstLocks = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((r) => {
      release = r;
    });
    const attempts = { a: 0, b: 0 };
    // Each takes its first lock, waits until the other holds its own, then asks for the other's:
    // a cycle Neo4j must break by failing one of them with DeadlockDetected.
    const writer = (name: 'a' | 'b', first: string, second: string) =>
      s.write(async (tx) => {
        attempts[name]++;
        await tx.run('aspects/lock-entities', lockRow(first));
        if (++firstLocks === 2) release();
        await bothHoldOne;
        await tx.run('aspects/lock-entities', lockRow(second));
        return name;
      });
    try {
      await expect(Promise.all([writer('a', x, y), writer('b', y, x)])).resolves.toEqual(['a', 'b']);
      expect(attempts.a + attempts.b).toBeGreaterThanOrEqual(3);
      expect(events.some((e) => e.failure === 'Neo.TransientError.Transaction.DeadlockDetected')).toBe(true);
    } finally {
      await s.close();
    }
  });

  test('40 concurrent batches writing crossing lineage in opposite orders all answer 200', async () => {
    const events: QueryEvent[] = [];
    const s = createStore({ uri: process.env.TEST_NEO4J_URI!, database: 'neo4j', onQuery: (e) => events.push(e) });
    const app = createIngestionApp({ store: s, config: testConfig(), logger: createLogger('test', 'silent') });
    const server: Server = createServer(app.callback());
    const base = await listen(server);
    const left = Array.from({ length: 4 }, (_, i) => ns.dataset(`dl_l${i}`));
    const right = Array.from({ length: 4 }, (_, i) => ns.dataset(`dl_r${i}`));
    await seedDatasets([...left, ...right]);
    // Batch k writes lineage of one side pointing at the other side, in ascending or descending
    // order: the owners are locked in order, but the edges lock nodes the other batches own.
    const batch = (k: number) => {
      const [owners, others] = k % 2 === 0 ? [left, right] : [right, left];
      const ordered = k % 4 < 2 ? owners : [...owners].reverse();
      return ordered.map((o, j) => mcp(o, 'upstreamLineage', lineageOf(others.filter((_, m) => (m + j + k) % 3 !== 0))));
    };
    try {
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, k) => post(base, '/aspects?action=ingestProposalBatch', { proposals: batch(k) }, editorToken)),
      );
      expect(replies.filter((r) => r.status !== 200)).toEqual([]);
      // Whatever the interleaving, each owner's edges are exactly its latest row's.
      for (const o of [...left, ...right]) {
        const latest = upstreamsIn((await getAspect(store, parseUrn(o), 'upstreamLineage'))?.value);
        expect(await edgesOf(o)).toEqual({ typed: latest, lineage: latest });
      }
      const deadlocks = events.filter((e) => e.failure === 'Neo.TransientError.Transaction.DeadlockDetected').length;
      process.stderr.write(`[concurrency] crossing batches: ${deadlocks} deadlocks retried, 40/40 answered 200\n`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await s.close();
    }
  });
});

test('restoreIndices over HTTP while lineage is ingested over HTTP loses no edge and resurrects none', async () => {
  const targets = ['w1', 'w2', 'w3'].map((n) => ns.dataset(`rs_${n}`));
  const sources = ['s1', 's2', 's3', 's4', 's5'].map((n) => ns.dataset(`rs_${n}`));
  await seedDatasets([...targets, ...sources]);
  const base = stack.ingestion.baseUrl;
  const last = new Map<string, string[]>();
  let writing = true;
  const writer = (async () => {
    for (let i = 0; i < 18; i++) {
      const t = targets[i % targets.length]!;
      const ups = sources.filter((_, j) => (i + j) % 3 !== 0);
      const r = await post(base, '/aspects?action=ingestProposal', { proposal: mcp(t, 'upstreamLineage', lineageOf(ups)) }, editorToken);
      expect(r.status).toBe(200);
      last.set(t, ups);
    }
    writing = false;
  })();
  let restores = 0;
  const urnLike = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform},rs\\_%`;
  const restorer = (async () => {
    while (writing) {
      const r = await post(base, '/operations?action=restoreIndices', { urnLike, batchSize: 4, limit: 1000 }, adminToken);
      expect(r.status).toBe(200);
      restores++;
    }
  })();
  await Promise.all([writer, restorer]);
  expect(restores).toBeGreaterThan(0);
  for (const [t, ups] of last) expect(await edgesOf(t)).toEqual({ typed: [...ups].sort(), lineage: [...ups].sort() });
});

describe('lock scope', () => {
  test("rewriting lineage to an upstream whose edge exists does not wait for that upstream's writer", async () => {
    const [x, y] = [ns.dataset('ls_x'), ns.dataset('ls_y')];
    await seedDatasets([x, y]);
    await writeAspects(store, [upsert(y, 'upstreamLineage', lineageOf([x]))], SEED);
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held!: () => void;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    // x's writer: holds x's lock (as every writer of x does) until released.
    const xWriter = store.write(async (tx) => {
      await tx.run('aspects/lock-entities', { rows: [{ urn: x, entityType: 'dataset', label: 'Dataset' }] });
      held();
      await released;
    });
    await holding;
    try {
      // y's lineage again, the same edge with another type: the edge's properties change, x's node does not.
      const rewrite = writeAspects(store, [upsert(y, 'upstreamLineage', { upstreams: [{ dataset: x, type: 'COPY' }] })], SEED);
      const outcome = await Promise.race([rewrite.then(() => 'committed'), new Promise((r) => setTimeout(() => r('waiting for x'), 5000))]);
      expect(outcome).toBe('committed');
    } finally {
      release();
      await xWriter;
    }
    const stored = (await getAspect(store, parseUrn(y), 'upstreamLineage'))?.value as { upstreams: Array<{ type: string }> };
    expect(stored.upstreams.map((u) => u.type)).toEqual(['COPY']);
    expect(await edgesOf(y)).toEqual({ typed: [x], lineage: [x] });
  });
});
