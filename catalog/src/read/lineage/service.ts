// Impact analysis, the domain API the GraphQL resolvers call (docs/wire-contract.md §Lineage search,
// docs/lineage-model.md §Traversal): scrollLineage / searchLineage (multi-hop), lineageNeighbours (one hop,
// for `lineage(input)`) and lineagePaths (for a page only). No GraphQL types here.
import { isCatalogError } from '../../model/errors.ts';
import type { Store } from '../../store/store.ts';
import { hasLineage } from '../../model/relationships.ts';
import type { LRUCache } from 'lru-cache';
import {
  compareHits,
  decodeCursor,
  encodeCursor,
  normalizeQuery,
  parseSource,
  type CursorPosition,
  type LineageLimits,
  type LineageQuery,
  type NormalizedQuery,
} from './query.ts';
import {
  candidateUrnOf,
  countsListed,
  ListedCounts,
  selectResults,
  SelectionBuilder,
  type Facet,
  type LineageHit,
  type Selection,
} from './results.ts';
import { ALL_LISTED, LISTED_FACETS_MAX_RESULTS, readListedValues } from './listed.ts';
import type { ListedValues } from '../../model/filters.ts';
import { reach, type ReachRow } from './traverse.ts';
import { structuredMatches } from '../entity-search.ts';
import { READ_AHEAD, selectInDatabase, selectPage } from './select.ts';
import { planLineageRead, type LineagePlan } from './plan.ts';
import { lineagePaths } from './paths.ts';
import { currentGeneration } from '../../store/write-generation.ts';

export type { LineageQuery, LineageLimits } from './query.ts';
export type { LineageHit } from './results.ts';
export type { LineagePlan } from './plan.ts';
export { lineagePaths } from './paths.ts';
export { lineageNeighbours } from './neighbours.ts';

export interface LineagePage {
  /** The page, in (degree, urn) order. */
  hits: LineageHit[];
  /** Matching entities after every filter (degree included). */
  total: number;
  /**
   * [] when skipAggregates; else degree, _entityType, platform, origin, and — when asked for and
   * counted (addListedFacets) — domains, tags, glossaryTerms, owners.
   */
  facets: Facet[];
  /** Scroll only: cursor after the last hit, null when exhausted. */
  nextCursor: string | null;
  /** A per-hop limit, the result cap or the deadline cut the traversal. */
  isPartial: boolean;
  /**
   * How the page was computed (for logs/metrics): database = selected and counted inside Neo4j
   * (select.ts); fast / hops = the reach shipped and selected here; none = no graph query was
   * needed; snapshot = reused from the page before (no write committed since).
   */
  strategy: Strategy;
  /** The plan the page was answered by (plan.ts): what was tried, in which order, and why. */
  plan: LineagePlan;
}

type Walked = 'database' | 'fast' | 'hops';
type Strategy = Walked | 'none' | 'snapshot';

/**
 * Hits a streamed selection holds beyond the page asked for: the pages after it come from the
 * snapshot; past them the reach is streamed again (docs/lineage-model.md §Results). ~300 bytes a
 * hit, so ~1.5 MB, twice that between compactions, whatever the reach.
 */
const STREAM_WINDOW = 5_000;

function emptyPage(nq: NormalizedQuery, plan: LineagePlan): LineagePage {
  // No results: the listed facets, when asked for, are there and empty (the selection counts them only under a filter on one).
  const facets = nq.skipAggregates ? [] : selectResults([], nq).facets;
  const listed = nq.listedFacets && !nq.skipAggregates && !countsListed(nq) ? new ListedCounts().facets(nq.maxAggValues) : [];
  return {
    hits: [],
    total: 0,
    facets: [...facets, ...listed],
    nextCursor: null,
    isPartial: false,
    strategy: 'none',
    plan,
  };
}

// Snapshot cache (docs/lineage-model.md §Snapshots): the ordered selection behind a first page,
// reused by the pages that follow it (scroll cursor / search offset) while the global write
// generation is unchanged — any committed write, from any process, makes the next page walk again.
// A first page always walks. One cache per store, bounded by entries, hits held and age.
interface Snapshot {
  generation: string;
  /** An in-database selection holds a prefix and grows as later pages are asked for. */
  selected: Selection;
  isPartial: boolean;
  strategy: Walked;
}
const SNAPSHOTS: LRUCache.Options<string, Snapshot, unknown> = {
  max: 32,
  ttl: 5 * 60_000,
  // ~300 bytes a hit: at most ~18 MB of the lineage service's 160 MB heap. A prefix that grows as
  // later pages are asked for is weighed again (extendPrefix), and grows to MAX_HELD_HITS at most.
  maxSize: 60_000,
  sizeCalculation: (s) => Math.max(1, s.selected.hits.length),
};

/**
 * A scroll's held prefix grows page by page up to this; past it, each page is fetched right after
 * its cursor (selected again in Neo4j, or streamed again) so a long scroll (a CSV export of a hub's
 * 120k hits) does not hold all it has seen.
 */
const MAX_HELD_HITS = 20_000;
const snapshotsOf = (store: Store) => store.cache<string, Snapshot>('lineage/snapshots', SNAPSHOTS);

function snapshotKey(nq: NormalizedQuery): string {
  // The fingerprint fixes the result list; these three only shape the facets.
  return `${nq.fingerprint}|${nq.skipAggregates}|${nq.maxAggValues}|${nq.listedFacets}`;
}

/** The write generation, read within what is left of the request's deadline. */
function generationBy(store: Store, deadline: number): Promise<string> {
  return currentGeneration(store, Math.max(1, Math.floor(deadline - Date.now())));
}

/**
 * The reach into a selection. With a structured query or a filter on a listed field (tags, terms,
 * owners, domains), its rows are first held and their candidates looked at in batches: the
 * structured query judged by the search statement (docs/wire-contract.md §Structured queries), the
 * listed fields read (listed.ts, all four when their facets are asked for) and put on the rows, so
 * the selection judges them before it counts anything. Only the rows of candidates the query keeps
 * go on — as if the others had not matched.
 */
async function reachSelected(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  startedAt: number,
  builder: SelectionBuilder,
) {
  const program = nq.program;
  if (!program && nq.listedFields.size === 0) return reach(store, nq, plan, limits, startedAt, builder);
  let rows: ReachRow[] = [];
  const walked = await reach(store, nq, plan, limits, startedAt, { reset: () => (rows = []), add: (r) => rows.push(r) });
  const candidates = rows.map((r) => candidateUrnOf(r, nq.keepFields));
  const kept = program ? await structuredMatches(store, program, candidates) : null;
  const lists =
    nq.listedFields.size > 0
      ? await readListedValues(
          store,
          kept ? candidates.filter((u) => kept.has(u)) : candidates,
          countsListed(nq) ? ALL_LISTED : nq.listedFields,
          startedAt + limits.deadlineMs - Date.now(),
        )
      : null;
  builder.reset();
  rows.forEach((r, i) => {
    const urn = candidates[i]!;
    if (kept && !kept.has(urn)) return;
    builder.add(lists ? { ...r, lists: lists.get(urn) ?? null } : r);
  });
  return walked;
}

/**
 * The walk, as the plan says: in Neo4j first when it may (select.ts), else — or when that declines
 * or runs out of time — the reach shipped here and selected by results.ts. `want` = hits the caller
 * needs from the first one on.
 */
async function walk(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  startedAt: number,
  generation: string,
  want: number,
) {
  const deadline = startedAt + limits.deadlineMs;
  if (plan.database) {
    const budget = Math.min(plan.firstStepMs, deadline - Date.now());
    try {
      // Counts and page are two transactions: a write committing between them could make them
      // disagree, so a changed generation means one more try, then the answer as it stands.
      for (let attempt = 0; attempt < 2 && budget > 0; attempt++) {
        const selected = await selectInDatabase(store, nq, plan.database, limits, want, Math.max(1, Math.floor(budget)));
        if (!selected) break;
        if (attempt === 1 || (await generationBy(store, deadline)) === generation)
          return { selected, isPartial: Boolean(selected.cut), strategy: 'database' as const };
      }
    } catch (e) {
      // Out of time: the shipping path below falls back to hop-by-hop with what is left.
      if (!(isCatalogError(e) && e.kind === 'deadline')) throw e;
    }
  }
  const builder = new SelectionBuilder(nq, { hold: want + (limits.streamWindow ?? STREAM_WINDOW) });
  const walked = await reachSelected(store, nq, plan, limits, startedAt, builder);
  return { selected: builder.finish(), isPartial: walked.isPartial, strategy: walked.strategy };
}

/**
 * The `limit` hits after `after` (null = from the first): selected again in Neo4j, or the reach
 * streamed again holding only those.
 */
async function hitsAfter(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  strategy: Walked,
  selected: Selection,
  after: CursorPosition | null,
  limit: number,
): Promise<LineageHit[]> {
  if (strategy === 'database' && plan.database)
    return selectPage(store, nq, plan.database, after, limit, limits.deadlineMs, selected.matching!, selected.cut ?? null);
  const builder = new SelectionBuilder(nq, { hold: limit, after });
  await reachSelected(store, nq, plan, limits, Date.now(), builder);
  return builder.finish().hits;
}

/**
 * Validation, the no-lineage short cut, the walk and the selection shared by scroll and search.
 * `continuation` = a page after the first: a snapshot taken at the current generation is reused.
 */
async function selection(store: Store, q: LineageQuery, limits: LineageLimits, want: number, continuation = false) {
  const startedAt = Date.now();
  const source = parseSource(q.urn);
  const nq = normalizeQuery({ ...q, urn: source.text }, startedAt);
  const plan = planLineageRead(nq, limits);
  // Types without registry entries have no lineage (DataHub #19528: don't scan for them).
  if (!hasLineage(source.entityType))
    return { nq, plan, selected: null, isPartial: false, strategy: 'none' as const, walkedBy: 'hops' as const };
  // Read before the walk: a write committing during the walk leaves the snapshot one generation
  // behind, so the next page walks again instead of serving what the walk may have missed.
  const generation = await generationBy(store, startedAt + limits.deadlineMs);
  const snapshots = snapshotsOf(store);
  const key = snapshotKey(nq);
  const snap = snapshots.get(key);
  if (snap && snap.generation === generation && continuation) {
    return { nq, plan, selected: snap.selected, isPartial: snap.isPartial, strategy: 'snapshot' as const, walkedBy: snap.strategy };
  }
  const walked: Omit<Snapshot, 'generation'> = await walk(store, nq, plan, limits, startedAt, generation, want);
  await addListedFacets(store, nq, plan, walked.selected, walked.strategy, limits, startedAt);
  snapshots.set(key, { generation, ...walked });
  return { nq, plan, ...walked, walkedBy: walked.strategy };
}

/**
 * Makes a held prefix hold at least `upto` hits (or every hit): fetches the ones after its last
 * hit, plus a window (READ_AHEAD in the database, STREAM_WINDOW streamed). The prefix stays
 * ordered and gap-free.
 */
async function extendPrefix(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  selected: Selection,
  strategy: Walked,
  upto: number,
  limits: LineageLimits,
): Promise<void> {
  if (selected.complete || selected.hits.length >= upto) return;
  const last = selected.hits.at(-1) ?? null;
  const limit = upto - selected.hits.length + (strategy === 'database' ? READ_AHEAD : (limits.streamWindow ?? STREAM_WINDOW));
  const more = await hitsAfter(store, nq, plan, limits, strategy, selected, last, limit);
  selected.hits.push(...more);
  if (more.length < limit) selected.complete = true;
  // Weigh the snapshot again (the cache weighs an entry when it is set, and only a new object).
  const snapshots = snapshotsOf(store);
  const key = snapshotKey(nq);
  const snap = snapshots.get(key);
  if (snap?.selected === selected) snapshots.set(key, { ...snap });
}

/**
 * The listed fields' facets when they are asked for and the selection did not count them (no filter
 * on a listed field): only when the results number at most LISTED_FACETS_MAX_RESULTS — every hit is
 * then held (fetched when a database prefix holds fewer) and their lists read in one batch. Larger
 * results answer without them (docs/wire-contract.md §Lineage search).
 */
async function addListedFacets(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  selected: Selection,
  strategy: Walked,
  limits: LineageLimits,
  startedAt: number,
): Promise<void> {
  const max = limits.listedFacetsMax ?? LISTED_FACETS_MAX_RESULTS;
  if (!nq.listedFacets || nq.skipAggregates || countsListed(nq) || selected.total > max) return;
  let lists: Map<string, ListedValues>;
  try {
    await extendPrefix(store, nq, plan, selected, strategy, selected.total, limits);
    if (!selected.complete && selected.hits.length < selected.total) return;
    lists = await readListedValues(
      store,
      selected.hits.map((h) => h.urn),
      ALL_LISTED,
      startedAt + limits.deadlineMs - Date.now(),
    );
  } catch (e) {
    // Out of time: the answer goes without these facets rather than fail.
    if (isCatalogError(e) && e.kind === 'deadline') return;
    throw e;
  }
  const counts = new ListedCounts();
  for (const h of selected.hits) counts.add(lists.get(h.urn));
  selected.facets = [...selected.facets, ...counts.facets(nq.maxAggValues)];
}

/** Paths for the page only; out of time they are left empty and the page marked partial, not failed. */
async function withPaths(
  store: Store,
  q: LineageQuery,
  nq: NormalizedQuery,
  hits: LineageHit[],
  limits: LineageLimits,
): Promise<{ hits: LineageHit[]; cut: boolean }> {
  if (!q.includePaths || hits.length === 0) return { hits, cut: false };
  try {
    const paths = await lineagePaths(store, nq.urn, nq.direction, hits, { window: nq.window, timeoutMs: limits.deadlineMs });
    return { hits: hits.map((h) => ({ ...h, paths: paths.get(h.urn) ?? [] })), cut: false };
  } catch (e) {
    if (isCatalogError(e) && e.kind === 'deadline') return { hits: hits.map((h) => ({ ...h, paths: [] })), cut: true };
    throw e;
  }
}

/** Whether the walk went on from a hit: every hit closer than the walk's depth bound (DataHub's `explored`). */
function withExplored(plan: LineagePlan, hits: LineageHit[]): LineageHit[] {
  const bound = plan.maxDepth;
  return hits.map((h) => ({ ...h, explored: h.degree < bound }));
}

/** scrollAcrossLineage: keyset pages over the (degree, urn) order, cursor bound to the query. */
export async function scrollLineage(
  store: Store,
  q: LineageQuery,
  page: { count: number; scrollId?: string | null | undefined },
  limits: LineageLimits,
): Promise<LineagePage> {
  const count = Math.max(0, Math.floor(page.count));
  const { nq, plan, selected, isPartial, strategy, walkedBy } = await selection(store, q, limits, count, Boolean(page.scrollId));
  // Checked even for an empty result: a foreign cursor is a client error either way.
  const after = page.scrollId ? decodeCursor(page.scrollId, nq.fingerprint) : null;
  if (!selected) return emptyPage(nq, plan);
  let hits: LineageHit[];
  let more: boolean;
  const firstAfter = (all: LineageHit[]) => {
    // First hit strictly after the cursor position (binary search over the ordered list).
    let lo = 0,
      hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareHits(all[mid]!, after!) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const from = after ? firstAfter(selected.hits) : 0;
  const prefixEnd = selected.hits.at(-1);
  const pastPrefix = from === selected.hits.length && prefixEnd !== undefined && compareHits(after ?? prefixEnd, prefixEnd) > 0;
  const prefixFull = from + count + 1 > Math.max(selected.hits.length, limits.maxHeldHits ?? MAX_HELD_HITS);
  if (after && !selected.complete && (pastPrefix || prefixFull)) {
    // A cursor past the held prefix (the snapshot was taken after that page was served), or a
    // prefix that would grow past MAX_HELD_HITS: fetch the page right after the cursor instead.
    const fetched = await hitsAfter(store, nq, plan, limits, walkedBy, selected, after, count + 1);
    hits = fetched.slice(0, count);
    more = fetched.length > count;
  } else {
    await extendPrefix(store, nq, plan, selected, walkedBy, from + count + 1, limits);
    hits = selected.hits.slice(from, from + count);
    more = from + count < selected.hits.length;
  }
  const last = hits.at(-1);
  const withP = await withPaths(store, q, nq, withExplored(plan, hits), limits);
  return {
    hits: withP.hits,
    total: selected.total,
    facets: selected.facets,
    nextCursor: last && more ? encodeCursor(nq.fingerprint, last) : null,
    isPartial: isPartial || withP.cut,
    strategy,
    plan,
  };
}

/** searchAcrossLineage: offset pages over the same ordered list. */
export async function searchLineage(
  store: Store,
  q: LineageQuery,
  page: { start: number; count: number },
  limits: LineageLimits,
): Promise<LineagePage> {
  const start = Math.max(0, Math.floor(page.start));
  const count = Math.max(0, Math.floor(page.count));
  const { nq, plan, selected, isPartial, strategy, walkedBy } = await selection(store, q, limits, start + count, start > 0);
  if (!selected) return emptyPage(nq, plan);
  await extendPrefix(store, nq, plan, selected, walkedBy, start + count, limits);
  const hits = withExplored(plan, selected.hits.slice(start, start + count));
  const withP = await withPaths(store, q, nq, hits, limits);
  return {
    hits: withP.hits,
    total: selected.total,
    facets: selected.facets,
    nextCursor: null,
    isPartial: isPartial || withP.cut,
    strategy,
    plan,
  };
}
