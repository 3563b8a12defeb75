// The only module that touches the Neo4j driver. It runs named statements in managed transactions
// (retried by the driver on transient errors such as deadlocks, so work functions must be
// idempotent), converts integers at the boundary, and maps driver failures onto the error taxonomy.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type RecordShape } from 'neo4j-driver';
import { EVENT_TOPICS, type ChangeRecord, type EventTopic } from '../model/change-events.ts';
import { currentRequestId } from '../runtime/request-context.ts';
import { unavailable } from '../model/errors.ts';
import { advanceCausalChain, awaitPresentedBookmarks, BOOKMARK_HEADER, currentCausalChain } from '../runtime/causality.ts';
import { changeBatchesOf } from './change-batches.ts';
import { mapDriverError, overTransactionMemory, writeTooLarge } from './driver-errors.ts';
import { loadCypher, splitStatements, type StatementName, type Statements } from './cypher.ts';
import { effectiveVersion, SCHEMA_VERSION, schemaTooNew, type SchemaState } from './schema-version.ts';

export interface StoreOptions {
  uri: string;
  user?: string | undefined;
  password?: string | undefined;
  database: string;
  statements?: Statements;
  /** How long the driver retries a transaction on transient errors (deadlocks, leader switches). */
  maxRetryMs?: number;
  /** Called after every named statement (metrics); must not throw. */
  onQuery?: (event: QueryEvent) => void;
  /** Longest wait of a request for the bookmarks it presents (BOOKMARK_WAIT_MS); default 30 s. */
  bookmarkWaitMs?: number;
  /**
   * The topics write transactions record change events of (EVENTS_API_ENABLED, EVENTS_TOPICS;
   * docs/change-events.md); empty = no change log. Default every topic: a store that some process
   * writes without a log would leave consumers a silent gap.
   */
  changeLog?: readonly EventTopic[];
  /**
   * The most derived edges one write may add or refresh (MAX_EDGES_PER_WRITE; default
   * {@link DEFAULT_MAX_EDGES_PER_WRITE}). Neo4j holds a transaction's changes in memory until it
   * commits, up to db.memory.transaction.max: a write past this bound is refused up front with a
   * 413 instead of failing in Neo4j (docs/wire-contract.md §Limits).
   */
  maxEdgesPerWrite?: number;
}

/**
 * Sized for the embedded Neo4j's 512 MiB per-transaction cap (tools/neo4j/neo4j-server.ts), with room
 * to spare for the costliest edges: column lineage between columns never ingested brings two
 * placeholder nodes per edge, and ~17,000 such edges no longer commit (dataset edges: ~30,000).
 * Measured in docs/capacity.md §One write's size.
 */
export const DEFAULT_MAX_EDGES_PER_WRITE = 12_000;

export interface QueryEvent {
  statement: string;
  ms: number;
  /** Neo4j's error code (or the error's name) when the statement failed. */
  failure?: string;
  /** The transaction's metadata (request id included). */
  metadata: Record<string, string>;
}

/** A transaction handle that only runs named statements. */
export interface Tx {
  /** The topics this store's writes record (StoreOptions.changeLog); empty when it keeps no log. */
  readonly changeLog: ReadonlySet<EventTopic>;
  /** StoreOptions.maxEdgesPerWrite: the write path refuses a write deriving more edges than this. */
  readonly maxEdgesPerWrite: number;
  /**
   * Adds change events to this transaction's part of the change log (docs/change-events.md). They
   * are appended by the store as the transaction's last statement, so that the log's lock is the
   * last lock it takes and is held only for the commit; a no-op when the store keeps no log.
   */
  record(records: readonly ChangeRecord[]): void;
  run<T = Record<string, unknown>>(name: StatementName, params?: Record<string, unknown>): Promise<T[]>;
  /**
   * Runs a statement and hands each row to `onRow` as it arrives, holding none of them: for results
   * too large to hold (a hub's reach). The driver pulls in batches, so Neo4j waits while `onRow`
   * works. The transaction function may be retried: whoever folds rows resets at its start.
   * Resolves to the number of rows.
   */
  each<T = Record<string, unknown>>(name: StatementName, params: Record<string, unknown>, onRow: (row: T) => void): Promise<number>;
}

interface TxOptions {
  timeoutMs?: number;
  /** Transaction metadata, visible in SHOW TRANSACTIONS and the query log (request ids). */
  metadata?: Record<string, string>;
}

export interface Store {
  readonly database: string;
  readonly statements: Statements;
  read<T>(work: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>;
  write<T>(work: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>;
  /**
   * Applies the constraints and indexes (idempotent) after checking the store's schema version:
   * refuses a store newer than this code, stamps an empty one with the current version. Answers the
   * version the store is at (below SCHEMA_VERSION: `npm run migrate` has work to do).
   */
  applySchema(): Promise<{ version: number; current: number }>;
  /** The store's schema version stamp and whether it holds data (docs/operations.md §Schema versions). */
  schemaState(): Promise<SchemaState>;
  /** Records that the store is now at `version`. */
  stampSchemaVersion(version: number, by: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  readonly driver: Driver;
  /**
   * The cache of this name, made with `options` on first use: caches of what reads derive from this
   * database live and die with the store (no module state; a test's store starts cold).
   */
  cache<K extends {}, V extends {}>(name: string, options: LRUCache.Options<K, V, unknown>): LRUCache<K, V>;
}

/**
 * Neo4j integers and temporal-free records → plain JSON-safe JS values. Hot on large reads (a
 * lineage reach returns one row per reachable entity): plain loops, no entries/fromEntries arrays.
 */
export function toPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toPlain(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[k] = toPlain((value as Record<string, unknown>)[k]);
    return out;
  }
  // Nodes and relationships: expose their properties.
  if ('properties' in value && ('labels' in value || 'type' in value)) {
    return toPlain((value as { properties: unknown }).properties);
  }
  return value;
}

/** Integers must reach Neo4j as Integer, not Float: use for LIMIT, versions, epoch ms. */
export const int = (n: number) => neo4j.int(n);

function recordsOf<T>(result: QueryResult<RecordShape>): T[] {
  return result.records.map((r) => toPlain(r.toObject()) as T);
}

/**
 * Appends a write's change events, one batch per (topic, entity) (store/change-batches.ts): the
 * offsets rule (docs/change-events.md §Offsets) lives in cypher/events/append.cypher, and holds only
 * when this is the transaction's last statement.
 */
async function appendChanges(tx: Tx, records: readonly ChangeRecord[]): Promise<void> {
  await tx.run('events/append', {
    batches: changeBatchesOf(records).map((b) => ({ ...b, at: int(b.at) })),
    createdOn: int(Date.now()),
    writer: randomUUID(),
  });
}

/** How long the driver may take to hand over a connection, opening one included. */
const CONNECTION_ACQUISITION_MS = 5_000;

/**
 * Bounds the time a store call spends waiting for Neo4j — connection acquisition, BEGIN, the
 * driver's back-off between retries, a statement Neo4j has not yet accepted — but not the time after
 * Neo4j accepted one (a large write or a long walk is work, not waiting). BEGIN alone is no sign of
 * service: a Neo4j starting on a loaded machine acknowledged it and then sat on the statements for
 * over 55 s (test/faults/neo4j-outage.fault.ts). The driver alone does not hold such a bound: it retries
 * while less than maxTransactionRetryTime has passed since the first failure, so a retry may start
 * at 4.9 s, sleep its 4.8 s back-off and spend 5 s acquiring, after a first attempt that spent 5 s
 * too: ≈ 20 s, and Neo4j restarting on a loaded machine gets there (docs/faults.md). `expired`
 * rejects once the call has waited `limitMs` in all.
 */
function waitWatch(limitMs: number) {
  let waitedMs = 0;
  let since = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  let fire: (e: unknown) => void = () => {};
  const expired = new Promise<never>((_, reject) => {
    fire = reject;
  });
  expired.catch(() => {});
  const arm = () => {
    since = Date.now();
    timer = setTimeout(
      () => {
        fired = true;
        fire(unavailable(`The metadata store did not serve this call within ${limitMs} ms of waiting (connection, retries); retry later.`));
      },
      Math.max(0, limitMs - waitedMs),
    );
  };
  arm();
  return {
    expired,
    /** Whether the call gave up waiting (its session may still be opening a connection). */
    get fired() {
      return fired;
    },
    /** Neo4j accepted a statement of this attempt: it is serving, the clock stops. */
    working() {
      if (!timer) return;
      clearTimeout(timer);
      timer = undefined;
      waitedMs += Date.now() - since;
    },
    /** The attempt failed and the driver will retry (or give up): waiting again. A commit after it returns is work. */
    failed() {
      if (!timer) arm();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** `tx`, telling `served` when Neo4j accepts a statement (its RUN answered with the field names). */
function reportingService(tx: ManagedTransaction, served: () => void): ManagedTransaction {
  return {
    run(query: string, parameters?: Record<string, unknown>) {
      const result = tx.run(query, parameters);
      result.keys().then(served, () => {});
      return result;
    },
  } as ManagedTransaction;
}

export function createStore(options: StoreOptions): Store {
  const auth = options.user ? neo4j.auth.basic(options.user, options.password ?? '') : undefined;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  // What one store call may spend waiting for Neo4j before it answers 503 (waitWatch): the
  // driver's retry window plus one connection acquisition, as docs/faults.md states it.
  const waitLimitMs = maxRetryMs + CONNECTION_ACQUISITION_MS;
  const driver = neo4j.driver(options.uri, auth, {
    // Fail fast when the store is gone so requests answer 503 instead of hanging.
    connectionAcquisitionTimeout: CONNECTION_ACQUISITION_MS,
    connectionTimeout: 3_000,
    // Deadlocks between writers are retried; an unreachable store should become a 503 quickly,
    // since DataHub clients retry 503s themselves.
    maxTransactionRetryTime: maxRetryMs,
    disableLosslessIntegers: false,
  });
  const statements = options.statements ?? loadCypher();
  const database = options.database;

  const onQuery = options.onQuery;
  const changeLog: ReadonlySet<EventTopic> = new Set(options.changeLog ?? EVENT_TOPICS);
  const maxEdgesPerWrite = options.maxEdgesPerWrite ?? DEFAULT_MAX_EDGES_PER_WRITE;
  const wrapTx = (tx: ManagedTransaction, metadata: Record<string, string>, recorded?: ChangeRecord[]): Tx => ({
    changeLog,
    maxEdgesPerWrite,
    record(records) {
      if (!changeLog.size || !records.length) return;
      if (!recorded) throw new Error('change events are recorded only in write transactions');
      for (const r of records) if (changeLog.has(r.topic)) recorded.push(r);
    },
    async each<T>(name: StatementName, params: Record<string, unknown>, onRow: (row: T) => void) {
      const t0 = performance.now();
      let rows = 0;
      try {
        for await (const record of tx.run(statements[name], params)) {
          onRow(toPlain(record.toObject()) as T);
          rows++;
        }
        onQuery?.({ statement: name, ms: performance.now() - t0, metadata });
        return rows;
      } catch (e) {
        const failure = (e as { code?: string }).code || (e as Error).name || 'Error';
        onQuery?.({ statement: name, ms: performance.now() - t0, failure, metadata });
        throw e;
      }
    },
    async run<T>(name: StatementName, params: Record<string, unknown> = {}) {
      const text = statements[name];
      if (!onQuery) return recordsOf<T>(await tx.run(text, params));
      const t0 = performance.now();
      try {
        const result = await tx.run(text, params);
        onQuery({ statement: name, ms: performance.now() - t0, metadata });
        return recordsOf<T>(result);
      } catch (e) {
        const failure = (e as { code?: string }).code || (e as Error).name || 'Error';
        onQuery({ statement: name, ms: performance.now() - t0, failure, metadata });
        throw e;
      }
    },
  });

  // The request being served (if any) is named in the transaction metadata, so SHOW TRANSACTIONS
  // and the query log tie a slow or stuck transaction to the HTTP request and its log lines.
  const metadataOf = (o?: TxOptions): Record<string, string> => {
    const requestId = currentRequestId();
    return { ...(requestId ? { requestId } : {}), ...(o?.metadata ?? {}) };
  };
  const txConfig = (o: TxOptions | undefined, metadata: Record<string, string>) => ({
    ...(o?.timeoutMs ? { timeout: o.timeoutMs } : {}),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  });

  // A presented bookmark the server has not reached holds every transaction of the request in
  // Neo4j (db.transaction.bookmark_ready_timeout, 30 s by default, and once more for the routing
  // table): a request running four transactions waited two minutes for its 503. So the request
  // waits once, here, in a transaction that does nothing else, for at most BOOKMARK_WAIT_MS; its
  // later transactions share the outcome (runtime/causality.ts). Auto-commit: the driver does not
  // retry it. Costs one round trip, only for requests that present bookmarks.
  const bookmarkWaitMs = options.bookmarkWaitMs ?? 30_000;
  async function waitForBookmarks(bookmarks: readonly string[]): Promise<void> {
    const session = driver.session({ database, defaultAccessMode: neo4j.session.READ, bookmarks: [...bookmarks] });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            unavailable(
              `The metadata store has not caught up with the bookmark presented in ${BOOKMARK_HEADER} within ${bookmarkWaitMs} ms (BOOKMARK_WAIT_MS); retry later.`,
            ),
          ),
        bookmarkWaitMs,
      );
    });
    try {
      await Promise.race([session.run(statements['causality/await-bookmarks']).summary(), timedOut]);
    } catch (e) {
      throw mapDriverError(e);
    } finally {
      clearTimeout(timer);
      // Not awaited: after a timeout the session is still waiting in Neo4j; it closes when that ends.
      session.close().catch(() => {});
    }
  }

  async function withSession<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>, o?: TxOptions): Promise<T> {
    // The request's causal chain (runtime/causality.ts): start where the client and the request's
    // earlier transactions left off, so a read waits for every write it must see. The bookmarks
    // travel in the BEGIN (and ROUTE) messages the driver sends anyway: no extra round trip, and
    // none at all when the chain is empty.
    const chain = currentCausalChain();
    if (chain) await awaitPresentedBookmarks(chain, waitForBookmarks);
    const startedWith = chain?.bookmarks ?? [];
    const watch = waitWatch(waitLimitMs);
    const session = driver.session({
      database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      ...(startedWith.length ? { bookmarks: [...startedWith] } : {}),
    });
    try {
      const metadata = metadataOf(o);
      // A write's change events are appended last (the log's lock is then held only for the commit);
      // a retried transaction function starts with none.
      const fn = async (managed: ManagedTransaction) => {
        const tx = reportingService(managed, watch.working);
        try {
          if (mode === 'READ') return await work(wrapTx(tx, metadata));
          const recorded: ChangeRecord[] = [];
          const wrapped = wrapTx(tx, metadata, recorded);
          try {
            const result = await work(wrapped);
            if (recorded.length) await appendChanges(wrapped, recorded);
            return result;
          } catch (e) {
            // Neo4j calls it transient and the driver would run the whole write again, to fail the
            // same way: thrown as ours, it is not retried. (Past the cap at commit, it still is.)
            throw overTransactionMemory(e) ? writeTooLarge() : e;
          }
        } catch (e) {
          watch.failed();
          throw e;
        }
      };
      const config = txConfig(o, metadata);
      const result = await Promise.race([
        mode === 'READ' ? session.executeRead(fn, config) : session.executeWrite(fn, config),
        watch.expired,
      ]);
      if (chain) advanceCausalChain(chain, startedWith, session.lastBookmarks(), mode === 'WRITE');
      return result;
    } catch (e) {
      throw mapDriverError(e, mode);
    } finally {
      watch.stop();
      // Closing cancels the driver's pending retry; when the call gave up waiting it is not awaited,
      // since it waits for a connection still being opened (up to CONNECTION_ACQUISITION_MS).
      if (watch.fired) session.close().catch(() => {});
      else await session.close();
    }
  }

  const caches = new Map<string, LRUCache<{}, {}>>();

  return {
    database,
    statements,
    driver,
    cache<K extends {}, V extends {}>(name: string, options: LRUCache.Options<K, V, unknown>): LRUCache<K, V> {
      let cache = caches.get(name) as LRUCache<K, V> | undefined;
      if (!cache) caches.set(name, (cache = new LRUCache<K, V>(options)) as unknown as LRUCache<{}, {}>);
      return cache;
    },
    read: (work, o) => withSession('READ', work, o),
    write: (work, o) => withSession('WRITE', work, o),
    async applySchema() {
      const state = await this.schemaState();
      if (state.version !== null && state.version > SCHEMA_VERSION) throw schemaTooNew(state.version);
      for (const stmt of splitStatements(statements['schema/schema'])) {
        try {
          await driver.executeQuery(stmt, {}, { database });
        } catch (e) {
          throw mapDriverError(e);
        }
      }
      // An empty store needs no migration: it starts at the current version.
      if (state.version === null && !state.entities) await this.stampSchemaVersion(SCHEMA_VERSION, 'start-up');
      return { version: effectiveVersion(state), current: SCHEMA_VERSION };
    },
    async schemaState() {
      try {
        const { records } = await driver.executeQuery(statements['schema/read-version'], {}, { database, routing: 'WRITE' });
        const r = toPlain(records[0]?.toObject() ?? {}) as { version?: number | null; entities?: boolean };
        return { version: r.version ?? null, entities: r.entities === true };
      } catch (e) {
        throw mapDriverError(e);
      }
    },
    async stampSchemaVersion(version: number, by: string) {
      try {
        await driver.executeQuery(statements['schema/stamp-version'], { version: int(version), by, at: int(Date.now()) }, { database });
      } catch (e) {
        throw mapDriverError(e);
      }
    },
    async ping() {
      // Auto-commit, so the driver does not retry: health answers at once. A read: on a cluster
      // any server that answers will do, and readiness does not hang on a leader election.
      const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
      try {
        await session.run('RETURN 1');
        return true;
      } catch {
        return false;
      } finally {
        await session.close();
      }
    },
    close: () => driver.close(),
  };
}
