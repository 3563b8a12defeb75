import { isCatalogError } from '../model/errors.ts';
import { mapDriverError } from './store.ts';

// What Neo4j answers to a presented bookmark (docs/wire-contract.md §Read-your-writes), as the
// driver reports it: the codes were seen on 5.26 (test/scale-out reaches the first one for real;
// the second takes Neo4j's 30 s bookmark wait, too slow for a test run).
describe('mapDriverError: bookmarks', () => {
  test('a bookmark Neo4j cannot read is the client\'s mistake: 400 naming the header', () => {
    for (const code of ['Neo.ClientError.Transaction.InvalidBookmark', 'Neo.ClientError.Transaction.InvalidBookmarkMixture']) {
      const e = mapDriverError(Object.assign(new Error('Parsing of supplied bookmarks failed'), { code }));
      expect(isCatalogError(e) && { kind: e.kind, message: e.message }).toEqual({ kind: 'badRequest', message: expect.stringContaining('x-lineage-bookmark') });
    }
  });

  test('a state not reached within the wait is a 503 to retry', () => {
    const e = mapDriverError(Object.assign(new Error("Database 'neo4j' not up to the requested version"), { code: 'Neo.TransientError.Transaction.BookmarkTimeout' }));
    expect(isCatalogError(e) && { kind: e.kind, retryAfterSeconds: e.retryAfterSeconds }).toEqual({ kind: 'unavailable', retryAfterSeconds: 5 });
  });
});
