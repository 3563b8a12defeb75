// The bound of a store call's waiting (store.ts, waitWatch; docs/faults.md), against a server that
// accepts every connection and drops it 3.5 s later without a word, as Neo4j does while it starts on
// a loaded machine: each attempt fails retryably after 3.5 s, so the driver alone would retry until
// ≈ 13–14 s; the store answers 503 at its 10 s.
import { createServer, type Socket } from 'node:net';
import { createStore } from './store.ts';
import { CatalogError } from '../model/errors.ts';

test('a store call that only waits for Neo4j gives up at the retry window plus one acquisition (10 s), as unavailable', async () => {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    setTimeout(() => socket.destroy(), 3_500);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const store = createStore({ uri: `bolt://127.0.0.1:${port}`, database: 'neo4j' });
  const t0 = Date.now();
  try {
    const error = await store.write(async () => 'never').catch((e: unknown) => e);
    const ms = Date.now() - t0;
    expect(error).toBeInstanceOf(CatalogError);
    expect([(error as CatalogError).kind, (error as Error).message]).toEqual([
      'unavailable',
      'The metadata store did not serve this call within 10000 ms of waiting (connection, retries); retry later.',
    ]);
    expect(ms).toBeGreaterThanOrEqual(9_900);
    expect(ms).toBeLessThan(11_500);
  } finally {
    await store.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
}, 30_000);
