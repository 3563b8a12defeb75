// With Neo4j unreachable the service answers 503 with Retry-After (never 500), and /health says so.
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { createStore } from '../../catalog/src/store/store.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { freePort } from '../../tools/neo4j/neo4j-server.ts';
import { testConfig, listen } from '../support/services.ts';
import { createServer } from 'node:http';

test('requests get 503 with Retry-After when the store is down', async () => {
  const deadUri = `bolt://127.0.0.1:${await freePort()}`;
  const store = createStore({ uri: deadUri, database: 'neo4j' });
  const app = createIngestionApp({ store, config: testConfig({ NEO4J_URI: deadUri }), logger: createLogger('test', 'silent') });
  const server = createServer(app.callback());
  const base = await listen(server);
  try {
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(503);
    const r = await fetch(`${base}/entities?action=exists`, {
      method: 'POST',
      headers: { Authorization: 'Bearer a.b.c', 'Content-Type': 'application/json' },
      body: JSON.stringify({ urn: 'urn:li:corpuser:x' }),
    });
    // A malformed token is rejected before the store is needed.
    expect(r.status).toBe(401);
    const off = createIngestionApp({
      store,
      config: testConfig({ NEO4J_URI: deadUri, METADATA_SERVICE_AUTH_ENABLED: 'false' }),
      logger: createLogger('test', 'silent'),
    });
    const server2 = createServer(off.callback());
    const base2 = await listen(server2);
    try {
      const res = await fetch(`${base2}/entities?action=exists`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ urn: 'urn:li:corpuser:x' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(((await res.json()) as { status: number }).status).toBe(503);
    } finally {
      server2.close();
    }
  } finally {
    server.close();
    await store.close();
  }
}, 90_000);
