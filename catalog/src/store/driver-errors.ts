// What a Neo4j driver failure means to a client, in the error taxonomy (model/errors.ts): the
// store's one translation of driver codes into 400, 413, 503 and 504 (store.ts calls it on every
// failed transaction).
import { badRequest, CatalogError, deadlineExceeded, payloadTooLarge, unavailable } from '../model/errors.ts';
import { BOOKMARK_HEADER } from '../runtime/causality.ts';

const TRANSIENT_UNAVAILABLE = new Set(['ServiceUnavailable', 'SessionExpired']);

/** Neo4j's refusal of a transaction past its own memory cap (not the server-wide pool's). */
export const overTransactionMemory = (e: unknown) =>
  (e as { code?: string }).code === 'Neo.TransientError.General.MemoryPoolOutOfMemoryError' &&
  /db\.memory\.transaction\.max/.test((e as Error).message ?? '');

/**
 * A write past Neo4j's per-transaction memory cap: the request is too large for one transaction
 * (the same request fails again), so it is the client's to split — a 413, not a 504, and no retry.
 */
export const writeTooLarge = () =>
  payloadTooLarge(
    'This write needs more memory than the metadata store allows one transaction (db.memory.transaction.max); nothing was written. ' +
      'Send it as several smaller requests (datahub-rest sink: a lower max_per_batch).',
  );

export function mapDriverError(e: unknown, mode: 'READ' | 'WRITE' = 'READ'): unknown {
  if (e instanceof CatalogError) return e;
  if (mode === 'WRITE' && overTransactionMemory(e)) return writeTooLarge();
  const code = (e as { code?: string }).code ?? '';
  // Bookmarks come from clients (docs/wire-contract.md §Read-your-writes): one Neo4j cannot parse is
  // the client's mistake. The header's own syntax is checked before any transaction starts.
  if (code === 'Neo.ClientError.Transaction.InvalidBookmark' || code === 'Neo.ClientError.Transaction.InvalidBookmarkMixture') {
    return badRequest(
      `The bookmark presented in ${BOOKMARK_HEADER} is not a bookmark of this database: send back only what a write answered.`,
    );
  }
  // A well-formed bookmark of a state this server has not reached within Neo4j's wait
  // (db.transaction.bookmark_ready_timeout): replication lag on a cluster, so retry later — or a
  // bookmark that was never issued, which no wait fixes; the two cannot be told apart here.
  if (code === 'Neo.TransientError.Transaction.BookmarkTimeout') {
    return unavailable(`The metadata store has not caught up with the bookmark presented in ${BOOKMARK_HEADER}; retry later.`, e);
  }
  if (TRANSIENT_UNAVAILABLE.has(code) || code === 'Neo.TransientError.General.DatabaseUnavailable') {
    return unavailable('The metadata store is unavailable; retry later.', e);
  }
  if (
    code === 'Neo.ClientError.Transaction.TransactionTimedOut' ||
    code === 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration'
  ) {
    return deadlineExceeded('The operation exceeded its deadline.');
  }
  if (
    code.startsWith('Neo.TransientError.General.MemoryPoolOutOfMemoryError') ||
    code === 'Neo.TransientError.General.TransactionMemoryLimit'
  ) {
    return deadlineExceeded('The operation exceeded its memory budget.');
  }
  // The driver's own pool gave up: no connection within connectionAcquisitionTimeout (Neo4j slow to
  // accept one on a loaded machine, or every pooled connection busy), or the pool closed under a
  // request at shutdown. The driver gives these no code ('N/A') and does not retry them; they are
  // the store being out of reach for now, never a bug.
  if (code === 'N/A' && /^(Connection acquisition timed out|Pool is closed)/.test((e as Error).message ?? '')) {
    return unavailable('The metadata store is busy or unreachable (no connection to it in time); retry later.', e);
  }
  // Deadlocks and lock timeouts are retried by the driver; one still failing after maxRetryMs is
  // contention, not a bug: the client should retry (503 + Retry-After), never see a 500.
  if (code.startsWith('Neo.TransientError.')) {
    return unavailable('The metadata store is busy; retry later.', e);
  }
  return e;
}
