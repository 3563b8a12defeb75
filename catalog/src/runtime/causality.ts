// Read-your-writes across processes (docs/wire-contract.md §Read-your-writes). On a Neo4j cluster a
// read may be served by a server that has not yet applied a write committed elsewhere; a Neo4j
// bookmark names a committed state, and a transaction started with it waits until its server has
// reached that state. A request carries its chain of bookmarks here, without threading it through
// every signature (like request-context.ts): the HTTP layer opens the chain with the bookmarks the
// client presented, the store starts every transaction of the request with the chain and advances
// it with each transaction's own bookmark, and the HTTP layer answers the chain when the request
// committed a write. Plain strings: the store is the only place that knows they are Neo4j's.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The header a write answers with and a request presents (lower case, as Node reports headers). */
export const BOOKMARK_HEADER = 'x-lineage-bookmark';

export interface CausalChain {
  /**
   * What the request's next transaction waits for: the presented bookmarks until the request's own
   * first transaction ends, then the bookmarks of its latest transactions (one, unless some ran
   * concurrently). A later state of the database includes every earlier one, so this stays small.
   */
  readonly bookmarks: readonly string[];
  /** True once a write transaction of this request committed: `bookmarks` then covers it. */
  readonly wrote: boolean;
}

interface MutableChain {
  bookmarks: readonly string[];
  wrote: boolean;
}

/**
 * The wait for the bookmarks a client presented, per chain: absent when it presented none, `null`
 * until the store starts the wait, then the wait itself (kept off the chain, which is what a
 * request's transactions see).
 */
const presentedWaits = new WeakMap<MutableChain, Promise<void> | null>();

const storage = new AsyncLocalStorage<MutableChain>();

/** Runs `fn` with a chain that starts from the presented bookmarks (none: the request waits for nothing). */
export function runCausally<T>(presented: readonly string[], fn: (chain: CausalChain) => T): T {
  const chain: MutableChain = { bookmarks: [...new Set(presented)], wrote: false };
  if (presented.length) presentedWaits.set(chain, null);
  return storage.run(chain, () => fn(chain));
}

/** The chain of the request being served; undefined outside a request (CLI tools, tests on the store). */
export function currentCausalChain(): CausalChain | undefined {
  return storage.getStore();
}

/**
 * Records a finished transaction: it started with `startedWith` (the chain's bookmarks at its
 * start) and ended at `reached`. The bookmarks it started with are covered by `reached`; those
 * added meanwhile by concurrent transactions of the request are not, so they stay.
 */
export function advanceCausalChain(chain: CausalChain, startedWith: readonly string[], reached: readonly string[], wrote: boolean): void {
  const c = chain as MutableChain;
  if (reached.length) {
    const covered = new Set(startedWith);
    c.bookmarks = [...new Set([...c.bookmarks.filter((b) => !covered.has(b)), ...reached])];
  }
  if (wrote) c.wrote = true;
}

/**
 * The one wait of a request for the bookmarks its client presented: `start` runs it the first time
 * (the store bounds it, BOOKMARK_WAIT_MS), later transactions share its outcome — so a request never
 * waits more than once, and once it knows the database has not caught up it fails at once. Resolves
 * at once when nothing was presented.
 */
export function awaitPresentedBookmarks(chain: CausalChain, start: (bookmarks: readonly string[]) => Promise<void>): Promise<void> {
  const c = chain as MutableChain;
  const wait = presentedWaits.get(c);
  if (wait === undefined) return Promise.resolve();
  if (wait !== null) return wait;
  const started = start(c.bookmarks);
  presentedWaits.set(c, started);
  return started;
}
