// Read-your-writes with two in-process replicas of every service (part of npm test): each replica
// has its own store (its own driver, pool and caches) on one Neo4j through a neo4j:// routing URI,
// and its gateway relays to its own subgraph and ingestion service. replicas.scale.ts runs the same
// suite against replicas that are processes, behind a round-robin front.
import type { Server } from 'node:http';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { createLineageSubgraph } from '../../lineage-service/src/app.ts';
import { createGateway } from '../../gateway/src/app.ts';
import { GRAPHQL_PATH } from '../../service-kit/src/graphql-http.ts';
import { listen, testConfig } from '../support/services.ts';
import { freePort } from '../../tools/neo4j/neo4j-server.ts';
import { readYourWritesSuite, routingUri, SYSTEM_CLIENT, type Replica } from './read-your-writes.ts';

const uri = routingUri(process.env.TEST_NEO4J_URI!);
const stores: Store[] = [];
const closers: Array<() => Promise<void>> = [];
const replicas: Replica[] = [];

function routedStore(): Store {
  const store = createStore({ uri, user: process.env.TEST_NEO4J_USER, password: process.env.TEST_NEO4J_PASSWORD, database: 'neo4j' });
  stores.push(store);
  return store;
}

async function startReplica(): Promise<Replica> {
  const config = testConfig({
    NEO4J_URI: uri,
    DATAHUB_SYSTEM_CLIENT_ID: SYSTEM_CLIENT.id,
    DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_CLIENT.secret,
  });
  const logger = createLogger('replica', 'silent');
  // The ingestion service relays /api/graphql to its own gateway, which listens last.
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const ingestion = createIngestionApp({ store: routedStore(), config, logger, graphqlUrl: `${gatewayUrl}/api/graphql` }).listen();
  await new Promise<void>((r) => ingestion.once('listening', () => r()));
  const ingestionUrl = `http://127.0.0.1:${(ingestion.address() as { port: number }).port}`;
  const subgraph = await createLineageSubgraph({ store: routedStore(), config, logger });
  const lineageUrl = `${await listen(subgraph.httpServer)}${GRAPHQL_PATH}`;
  const gateway = await createGateway({ config, logger, store: routedStore(), lineageUrl, ingestionUrl });
  await new Promise<void>((r) => gateway.httpServer.listen(gatewayPort, '127.0.0.1', () => r()));
  const close = (s: Server) => new Promise<void>((r) => (s.listening ? s.close(() => r()) : r()));
  closers.push(async () => {
    await gateway.close();
    await subgraph.close();
    ingestion.closeAllConnections();
    await close(ingestion);
  });
  return { gatewayUrl, ingestionUrl, lineageUrl };
}

beforeAll(async () => {
  replicas.push(await startReplica(), await startReplica());
});
afterAll(async () => {
  for (const c of closers) await c();
  for (const s of stores) await s.close();
});

test('the replicas reach Neo4j through the routing driver', () => {
  expect(uri).toMatch(/^neo4j(\+s|\+ssc)?:\/\//);
});

// The suite's own store (tokens, drift) is one more routed store.
let suiteStore: Store | undefined;
readYourWritesSuite(() => ({ replicas, store: (suiteStore ??= routedStore()) }));
