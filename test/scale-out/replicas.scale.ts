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

beforeAll(() => { store = testStore(); });
afterAll(async () => { await store.close(); });

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
      const proposal = { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name: `d${i}` }), contentType: 'application/json' } };
      // Each write presents the previous one's bookmark, as a client that keeps its latest does.
      const w = await fetch(`${own.url}/api/gms/aspects?action=ingestProposal`, {
        method: 'POST', headers: { ...auth, ...(bookmark ? { [BOOKMARK]: bookmark } : {}) }, body: JSON.stringify({ proposal }),
      });
      expect(await w.json()).toEqual({ value: 'success' });
      bookmark = w.headers.get(BOOKMARK)!;
      expect(bookmark).toMatch(/^[A-Za-z0-9_-]+$/);
      const r = await fetch(`${own.url}/api/graphql`, {
        method: 'POST', headers: { ...auth, [BOOKMARK]: bookmark }, body: JSON.stringify({ query: `{ dataset(urn: "${urn}") { urn } }` }),
      });
      expect(await r.json()).toEqual({ data: { dataset: { urn } }, extensions: {} });
      expect([w.headers.get(FRONT_TARGET_HEADER), r.headers.get(FRONT_TARGET_HEADER)]).toEqual(['0', '1']);
    }
    expect(own.counts).toEqual([4, 4]);
  } finally {
    await own.close();
  }
});
