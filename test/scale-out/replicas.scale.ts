// Two replicas of every service as processes (tools/stack.ts) on one Neo4j through neo4j://, behind
// a round-robin front (test/scale-out/global-setup.ts): the read-your-writes suite with a write on
// one replica and the next read on the other, and the front's own path — /api/gms and GraphQL
// through alternating gateways — carrying the bookmark. The HTTP suites listed in
// jest.scale-out.config.js run through the same front.
import { namespace, testStore } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { FRONT_TARGET_HEADER, startRoundRobinFront } from './front.ts';
import { BOOKMARK, readYourWritesSuite, type Replica } from './read-your-writes.ts';

const replicas = JSON.parse(process.env.TEST_REPLICAS ?? '[]') as Replica[];
let store: Store;

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

test('two replicas of each service run on a neo4j:// URI', () => {
  expect(replicas).toHaveLength(2);
  expect(new Set(replicas.flatMap((r) => [r.gatewayUrl, r.ingestionUrl, r.lineageUrl])).size).toBe(6);
  expect(process.env.TEST_NEO4J_URI).toMatch(/^neo4j(\+s|\+ssc)?:\/\//);
});

describe('replica 0 writes, replica 1 reads', () => {
  readYourWritesSuite(() => ({ replicas, store }));
});

describe('replica 1 writes, replica 0 reads', () => {
  readYourWritesSuite(() => ({ replicas: [...replicas].reverse(), store }));
});

test('through a round-robin front: each write answers its bookmark, and the next request — on the other gateway — reads it', async () => {
  // A front of its own: the shared one also carries the other suites' requests, so only here is
  // "the next request goes to the other gateway" certain.
  const own = await startRoundRobinFront(replicas.map((r) => r.gatewayUrl));
  try {
    const ns = namespace('front');
    const admin = await tokenFor(store, 'urn:li:corpuser:datahub');
    const auth = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    let bookmark = '';
    for (let i = 0; i < 4; i++) {
      const urn = ns.dataset(`d${i}`);
      const proposal = {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: { value: JSON.stringify({ name: `d${i}` }), contentType: 'application/json' },
      };
      // Each write presents the previous one's bookmark, as a client that keeps its latest does.
      const w = await fetch(`${own.url}/api/gms/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { ...auth, ...(bookmark ? { [BOOKMARK]: bookmark } : {}) },
        body: JSON.stringify({ proposal }),
      });
      expect(await w.json()).toEqual({ value: 'success' });
      bookmark = w.headers.get(BOOKMARK)!;
      expect(bookmark).toMatch(/^[A-Za-z0-9_-]+$/);
      const r = await fetch(`${own.url}/api/graphql`, {
        method: 'POST',
        headers: { ...auth, [BOOKMARK]: bookmark },
        body: JSON.stringify({ query: `{ dataset(urn: "${urn}") { urn } }` }),
      });
      expect(await r.json()).toEqual({ data: { dataset: { urn } }, extensions: {} });
      expect([w.headers.get(FRONT_TARGET_HEADER), r.headers.get(FRONT_TARGET_HEADER)]).toEqual(['0', '1']);
    }
    expect(own.counts).toEqual([4, 4]);
  } finally {
    await own.close();
  }
});

test('change events: writers on both replicas, a consumer polling both in turn never finds an event behind its offset', async () => {
  const ns = namespace('events');
  const admin = await tokenFor(store, 'urn:li:corpuser:datahub');
  const auth = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  const ups = Array.from({ length: 3 }, (_, i) => ns.dataset(`u${i}`));
  const downs = Array.from({ length: 4 }, (_, i) => ns.dataset(`d${i}`));
  const proposal = (urn: string, aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  });
  const ingest = async (replica: Replica, proposals: unknown[]) => {
    const r = await fetch(`${replica.ingestionUrl}/aspects?action=ingestProposalBatch`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ proposals }),
    });
    expect(r.status).toBe(200);
  };
  const poll = async (replica: Replica, offsetId: string | undefined, timeout: number) => {
    const q = new URLSearchParams({
      topic: 'PlatformEvent_v1',
      limit: '5',
      pollTimeoutSeconds: String(timeout),
      ...(offsetId ? { offsetId } : {}),
    });
    const r = await fetch(`${replica.ingestionUrl}/openapi/v1/events/poll?${q}`, { headers: auth });
    expect(r.status).toBe(200);
    return (await r.json()) as { offsetId: string; count: number; events: Array<{ value: string }> };
  };
  const mine = (values: string[]) => values.filter((v) => v.includes(ns.platform));
  const ece = (v: string) =>
    JSON.parse((JSON.parse(v) as { payload: { value: string } }).payload.value) as {
      entityUrn: string;
      operation: string;
      modifier: string;
    };

  await ingest(
    replicas[0]!,
    [...ups, ...downs].map((u) => proposal(u, 'datasetProperties', { name: u })),
  );
  const start = (await poll(replicas[1]!, undefined, 0)).offsetId;
  let token = start;
  let done = false;
  const streamed: string[] = [];
  const consumer = (async () => {
    for (let turn = 0; ; turn++) {
      const finished = done;
      const page = await poll(replicas[turn % 2]!, token, 0);
      streamed.push(...page.events.map((e) => e.value));
      token = page.offsetId;
      if (finished && !page.count) return;
    }
  })();
  const writes = 10;
  await Promise.all(
    downs.map(async (down, w) => {
      for (let i = 0; i < writes; i++) {
        await ingest(replicas[(w + i) % 2]!, [
          proposal(down, 'upstreamLineage', { upstreams: [{ dataset: ups[(w + i) % ups.length], type: 'TRANSFORMED' }] }),
        ]);
      }
    }),
  );
  done = true;
  await consumer;

  const after: string[] = [];
  for (let t = start; ;) {
    const page = await poll(replicas[0]!, t, 0);
    after.push(...page.events.map((e) => e.value));
    t = page.offsetId;
    if (!page.count) break;
  }
  expect(mine(streamed)).toEqual(mine(after));
  expect(mine(streamed)).toHaveLength(downs.length * (2 * writes - 1));
  for (const [w, down] of downs.entries()) {
    const expected = [`ADD ${ups[w % ups.length]}`];
    for (let i = 1; i < writes; i++) expected.push(`REMOVE ${ups[(w + i - 1) % ups.length]}`, `ADD ${ups[(w + i) % ups.length]}`);
    expect(
      mine(streamed)
        .map(ece)
        .filter((e) => e.entityUrn === down)
        .map((e) => `${e.operation} ${e.modifier}`),
    ).toEqual(expected);
  }
}, 120_000);
