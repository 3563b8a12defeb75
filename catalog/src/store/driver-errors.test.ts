import { createServer, type Socket } from 'node:net';
import neo4j from 'neo4j-driver';
import { isCatalogError, type CatalogError } from '../model/errors.ts';
import { mapDriverError } from './driver-errors.ts';

// What Neo4j answers to a presented bookmark (docs/wire-contract.md §Read-your-writes), as the
// driver reports it: the codes were seen on 5.26 (test/scale-out reaches the first one for real;
// the second takes Neo4j's 30 s bookmark wait, too slow for a test run).
describe('mapDriverError: bookmarks', () => {
  test("a bookmark Neo4j cannot read is the client's mistake: 400 naming the header", () => {
    for (const code of ['Neo.ClientError.Transaction.InvalidBookmark', 'Neo.ClientError.Transaction.InvalidBookmarkMixture']) {
      const e = mapDriverError(Object.assign(new Error('Parsing of supplied bookmarks failed'), { code }));
      expect(isCatalogError(e) && { kind: e.kind, message: e.message }).toEqual({
        kind: 'badRequest',
        message: expect.stringContaining('x-lineage-bookmark'),
      });
    }
  });

  test('a state not reached within the wait is a 503 to retry', () => {
    const e = mapDriverError(
      Object.assign(new Error("Database 'neo4j' not up to the requested version"), {
        code: 'Neo.TransientError.Transaction.BookmarkTimeout',
      }),
    );
    expect(isCatalogError(e) && { kind: e.kind, retryAfterSeconds: e.retryAfterSeconds }).toEqual({
      kind: 'unavailable',
      retryAfterSeconds: 5,
    });
  });
});

describe("mapDriverError: the driver's own pool", () => {
  test('no connection within the acquisition timeout (a server that accepts and never answers) is a 503 to retry, not a 500', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, undefined, {
      connectionAcquisitionTimeout: 200,
      connectionTimeout: 10_000,
      maxTransactionRetryTime: 0,
    });
    const session = driver.session();
    try {
      const raw = await session
        .executeRead((tx) => tx.run('RETURN 1'))
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect((raw as { code?: string }).code).toBe('N/A');
      const e = mapDriverError(raw);
      expect(isCatalogError(e) && { kind: e.kind, retryAfterSeconds: e.retryAfterSeconds }).toEqual({
        kind: 'unavailable',
        retryAfterSeconds: 5,
      });
    } finally {
      for (const s of sockets) s.destroy();
      await session.close().catch(() => {});
      await driver.close();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  test('an error the driver gives no code for otherwise stays unknown', () => {
    const e = mapDriverError(Object.assign(new Error('something else'), { code: 'N/A' }));
    expect(isCatalogError(e)).toBe(false);
  });
});

describe('mapDriverError: memory', () => {
  const perTransaction = Object.assign(
    new Error(
      'The allocation of an extra 2.0 MiB would use more than the limit 512.0 MiB. Currently using 511.0 MiB. db.memory.transaction.max threshold reached',
    ),
    { code: 'Neo.TransientError.General.MemoryPoolOutOfMemoryError' },
  );
  const pool = Object.assign(
    new Error(
      'The allocation of an extra 2.0 MiB would use more than the limit 2.0 GiB. dbms.memory.transaction.total.max threshold reached',
    ),
    { code: 'Neo.TransientError.General.MemoryPoolOutOfMemoryError' },
  );

  test('a write past the per-transaction cap is too large (413), naming the setting', () => {
    const e = mapDriverError(perTransaction, 'WRITE') as CatalogError;
    expect(e.kind).toBe('payloadTooLarge');
    expect(e.message).toContain('db.memory.transaction.max');
  });

  test('a read past it, and anything past the server-wide pool, stays a deadline (504)', () => {
    expect((mapDriverError(perTransaction, 'READ') as CatalogError).kind).toBe('deadline');
    expect((mapDriverError(pool, 'WRITE') as CatalogError).kind).toBe('deadline');
  });
});
