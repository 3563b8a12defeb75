// The in-database step of impact analysis (docs/lineage-model.md §Results), for the requests plan.ts
// sends here: those whose per-hop control changes nothing (below) — in a time window or not, with free text or not, with filters on what a node's
// facetKey stands for (entity type, platform, origin, soft deletion) or on what the node itself holds
// (urn, name, description, parent; every condition), negated or not, in any orFilters groups —
// Neo4j selects the page and counts total and facets itself, so only a page and a few dozen counts
// leave the database instead of the whole reach (120k rows for a hub at 1M edges: bench/README.md).
// Two statements, side by side:
// - select-counts[-judged]-<dir>-<bound>[-windowed]: the BFS grouped by (facetKey, degree;
//   judged: text verdict, node criteria mask) → total and facets; the facetKey's criteria are judged
//   here, once per group, and combined with the node's verdicts from the mask;
// - select-page-<dir>-<bound>[-windowed]: the BFS in degree order → ORDER BY degree, urn LIMIT as a
//   PartialTop, which stops at the degree that fills the page; only nodes whose (facetKey, mask) is
//   judged matching — guessed from the facetKeys already known, checked against the counts.
// With a per-hop limit a third statement runs beside them (lineage/fanout: the most edges a node of
// the walk has). A reach of more than LINEAGE_MAX_RESULTS visible nodes is cut as the streamed path
// cuts it — the first ones in (degree, urn) order — and a fourth statement (select-cut) finds where:
// the degree comes from the counts, the urn and the groups of that degree's kept nodes from it.
// It answers null (the caller streams rows instead, traverse.ts + results.ts) when the
// reach holds something it cannot count this way: schemaFields (lifted onto their datasets, and
// existing through them), nodes written before facetKey existed, a node ignored as a hop, a node
// with as many edges as the per-hop limit, or a cut past the degrees the counts tell apart.
import { entityTypeToGraphql } from '../../model/entity-registry.ts';
import { isCatalogError } from '../../model/errors.ts';
import type { LRUCache } from 'lru-cache';
import { int, type Store } from '../../store/store.ts';
import type { StatementName } from '../../store/cypher.ts';
import { facetFlagsOf } from '../../model/search-fields.ts';
import { criterionMatches, numberOf, type Criterion } from '../../model/filters.ts';
import { isIgnoredAsHop, windowParams, type CursorPosition, type LineageLimits, type NormalizedQuery } from './query.ts';
import { facetsOf, type FacetGroup, type LineageHit, type ReachCut, type Selection } from './results.ts';
import { NODE_PROPERTY, nodeCriteriaOf, type DatabaseStep, type LineagePlan } from './plan.ts';

/** Rows fetched beyond a page, so the next pages come from the snapshot without a walk. */
export const READ_AHEAD = 100;

/** Conditions under which a criterion on the urn names nodes: judged by their identity (lineage/node-ids). */
const EXACT_CONDITIONS: ReadonlySet<string> = new Set(['EQUAL', 'IN']);

/**
 * The node criteria as statement parameters. An exact criterion on the urn carries the element ids of
 * the nodes it names, so the statements compare nodes instead of reading every node's urn (one
 * lookup of a few urns before the walk; lineage/node-criteria-mask.cypher says why).
 */
async function criteriaParams(store: Store, criteria: readonly Criterion[], timeoutMs: number) {
  const exact = (c: Criterion) => c.field === 'urn' && EXACT_CONDITIONS.has(c.condition);
  const urns = [...new Set(criteria.filter(exact).flatMap((c) => c.values))];
  const idOf = new Map<string, string>();
  if (urns.length) {
    const rows = await store.read((tx) => tx.run<{ urn: string; id: string }>('lineage/node-ids', { urns }), {
      timeoutMs,
      metadata: { app: 'lineage', op: 'node-ids' },
    });
    for (const r of rows) idOf.set(r.urn, r.id);
  }
  return criteria.map((c) => ({
    property: NODE_PROPERTY[c.field],
    condition: c.condition,
    values: c.values,
    numbers: c.values.map(numberOf),
    ids: exact(c) ? c.values.flatMap((v) => idOf.get(v) ?? []) : null,
  }));
}
type CriteriaParams = Awaited<ReturnType<typeof criteriaParams>>;

interface FacetValues {
  entityType: string;
  platform: string | null;
  origin: string | null;
}

// facetKey → what it stands for, one cache per store. A key is a hash of these values, so an entry
// never goes stale; a catalogue has few (type, platform, origin) combinations, and they are bounded.
const FACET_VALUES: LRUCache.Options<number, FacetValues, unknown> = { max: 10_000 };

async function facetValues(store: Store, keys: number[], timeoutMs: number): Promise<Map<number, FacetValues>> {
  const base = (k: number) => k - (k % 4);
  const cache = store.cache<number, FacetValues>('lineage/facet-values', FACET_VALUES);
  const unknown = [...new Set(keys.filter((k) => !cache.has(base(k))))];
  if (unknown.length) {
    const rows = await store.read((tx) => tx.run<FacetValues & { facetKey: number }>('lineage/facet-values', { keys: unknown.map(int) }), {
      timeoutMs,
      metadata: { app: 'lineage', op: 'facet-values' },
    });
    for (const r of rows) cache.set(base(r.facetKey), { entityType: r.entityType, platform: r.platform, origin: r.origin });
  }
  const out = new Map<number, FacetValues>();
  for (const k of keys) {
    const v = cache.get(base(k));
    if (v) out.set(k, v);
  }
  return out;
}

interface PageRow {
  urn: string;
  degree: number;
  entityType: string;
  platform: string | null;
  origin: string | null;
}

/**
 * Matching hits after `after` in (degree, urn) order, at most `limit`, among nodes whose (facetKey,
 * criteria mask) is in `matching` — what the counts judged matching, or a guess that covers them.
 */
export async function selectPage(
  store: Store,
  nq: NormalizedQuery,
  step: DatabaseStep,
  after: CursorPosition | null,
  limit: number,
  timeoutMs: number,
  matching: Matching,
  cut: ReachCut | null,
): Promise<LineageHit[]> {
  if (matching.length === 0) return [];
  const criteria = nodeCriteriaOf(nq);
  const criteriaParam = await criteriaParams(store, criteria, timeoutMs);
  const accepts = (d: number) => nq.degreePredicate === null || nq.degreePredicate(d);
  const rows = await store.read(
    (tx) =>
      tx.run<PageRow>(step.page, {
        urn: nq.urn,
        ...windowParams(nq.window),
        maxHops: int(step.maxDepth),
        d1: accepts(1),
        d2: accepts(2),
        d3: accepts(3),
        afterDegree: int(after?.degree ?? 0),
        afterUrn: after?.urn ?? '',
        untilDegree: int(cut?.degree ?? step.maxDepth),
        untilUrn: cut?.urn ?? null,
        keys: [...new Set(matching.map(([k]) => k))].map(int),
        pairs: criteria.length ? matching.map(([k, mask]) => [int(k), int(mask)]) : null,
        criteria: criteriaParam,
        tokens: nq.queryTokens,
        limit: int(limit),
      }),
    { timeoutMs, metadata: { app: 'lineage', op: 'select-page' } },
  );
  return rows.map((r) => ({
    urn: r.urn,
    entityType: r.entityType,
    graphqlType: entityTypeToGraphql(r.entityType),
    degree: r.degree,
    platform: r.platform,
    origin: r.origin,
    ignoredAsHop: false,
    truncatedChildren: false,
    walkUrns: [r.urn],
    viaParent: null,
  }));
}

/** (facetKey, criteria mask) pairs whose nodes are results: what pages select by. Without node criteria every mask is 0. */
export type Matching = Array<[facetKey: number, mask: number]>;

/**
 * Whether a group matches the clauses: criteria on what the facetKey stands for are judged on its
 * values, criteria on the node by their bit of the mask (negation and empty value lists as filters.ts).
 */
function groupMatches(
  nq: NormalizedQuery,
  criteria: readonly Criterion[],
  subject: Parameters<typeof criterionMatches>[0],
  mask: number,
): boolean {
  if (nq.clauses === null) return true;
  const judge = (c: Criterion) => {
    const i = criteria.indexOf(c);
    if (i < 0) return criterionMatches(subject, c);
    if (c.condition !== 'EXISTS' && c.values.length === 0) return true;
    const hit = Math.floor(mask / 2 ** (criteria.length - 1 - i)) % 2 === 1;
    return c.negated ? !hit : hit;
  };
  return nq.clauses.some((and) => and.every(judge));
}

/** Whether a facetKey's nodes are in the reach the streamed path walks: existing, and not soft-deleted unless asked for. */
function isVisible(nq: NormalizedQuery, facetKey: number): boolean {
  const { exists, removed } = facetFlagsOf(facetKey);
  return exists && (!removed || nq.includeSoftDeleted);
}

/** Whether nodes with this facetKey (and criteria mask) are results: visible, of a type asked for, matching the clauses. */
function keyMatches(nq: NormalizedQuery, criteria: readonly Criterion[], facetKey: number, v: FacetValues, mask: number): boolean {
  if (!isVisible(nq, facetKey) || !nq.resultTypes.has(v.entityType)) return false;
  const { removed } = facetFlagsOf(facetKey);
  return groupMatches(
    nq,
    criteria,
    { urn: '', entityType: v.entityType, platform: v.platform, origin: v.origin, removed, parent: null },
    mask,
  );
}

/**
 * Judgements a guess makes at most (known facetKeys × 4 flags × 2^criteria masks): beyond, the page
 * waits for the counts' judgement rather than spend the service's time enumerating.
 */
const MAX_GUESSED = 20_000;

/**
 * What matches among every facetKey this process has seen (the values cache), with every flag and
 * mask, and the bases that covers: a guess at what the counts will judge, so that the page can run
 * beside them. Null when there are too many to enumerate.
 */
function knownMatching(
  store: Store,
  nq: NormalizedQuery,
  criteria: readonly Criterion[],
): { matching: Matching; known: Set<number> } | null {
  const masks = 2 ** criteria.length;
  const cache = store.cache<number, FacetValues>('lineage/facet-values', FACET_VALUES);
  if (cache.size * 4 * masks > MAX_GUESSED) return null;
  const matching: Matching = [];
  const known = new Set<number>();
  for (const [base, v] of cache.entries()) {
    known.add(base);
    for (let flags = 0; flags < 4; flags++) {
      for (let mask = 0; mask < masks; mask++) if (keyMatches(nq, criteria, base + flags, v, mask)) matching.push([base + flags, mask]);
    }
  }
  return { matching, known };
}

/** select-counts' k: facetKey * DEGREE_SPAN + degree; the last value stands for that degree or more. */
const DEGREE_SPAN = 64;

interface CountGroup {
  facetKey: number;
  degree: number;
  /** Judged counts: whether the nodes match the free text, and their criteria mask. */
  text: boolean;
  mask: number;
  count: number;
}

/**
 * Where LINEAGE_MAX_RESULTS cuts the reach, and its groups up to the cut: every group of the degrees
 * before the cut's, and the cut degree's first nodes in urn order, grouped again by select-cut.
 * Null when the cut falls in the last degree value, which stands for all deeper degrees too.
 */
async function cutReach(
  store: Store,
  nq: NormalizedQuery,
  step: DatabaseStep,
  criteriaParam: CriteriaParams,
  groups: CountGroup[],
  maxResults: number,
  timeoutMs: number,
): Promise<{ cut: ReachCut; kept: CountGroup[] } | null> {
  const byDegree = new Map<number, number>();
  for (const g of groups) if (isVisible(nq, g.facetKey)) byDegree.set(g.degree, (byDegree.get(g.degree) ?? 0) + g.count);
  let before = 0;
  for (const degree of [...byDegree.keys()].sort((a, b) => a - b)) {
    const count = byDegree.get(degree)!;
    if (before + count <= maxResults) {
      before += count;
      continue;
    }
    if (degree >= DEGREE_SPAN - 1) return null;
    const earlier = groups.filter((g) => g.degree < degree);
    const rank = maxResults - before;
    if (rank === 0) return { cut: { degree: degree - 1, urn: null }, kept: earlier };
    const visibleKeys = [...new Set(groups.filter((g) => g.degree === degree && isVisible(nq, g.facetKey)).map((g) => g.facetKey))];
    const rows = await store.read(
      (tx) =>
        tx.run<{ facetKey: number; text: boolean; mask: number; count: number; lastUrn: string }>(step.cut, {
          urn: nq.urn,
          ...windowParams(nq.window),
          degree: int(degree),
          rank: int(rank),
          visibleKeys: visibleKeys.map(int),
          tokens: nq.queryTokens,
          criteria: criteriaParam,
        }),
      { timeoutMs, metadata: { app: 'lineage', op: 'select-cut' } },
    );
    if (rows.length === 0) return null; // the degree's nodes changed under us: let the shipping path answer
    return {
      cut: { degree, urn: rows[0]!.lastUrn },
      kept: [...earlier, ...rows.map((r) => ({ facetKey: r.facetKey, degree, text: r.text, mask: r.mask, count: r.count }))],
    };
  }
  return null;
}

/** Total and facets counted in Neo4j, cut at LINEAGE_MAX_RESULTS as the streamed path cuts; null = the reach needs the streaming path. */
async function selectCounts(
  store: Store,
  nq: NormalizedQuery,
  step: DatabaseStep,
  limits: LineageLimits,
  timeoutMs: number,
): Promise<{ total: number; facets: Selection['facets']; matching: Matching; reachKeys: number[]; cut: ReachCut | null } | null> {
  const criteria = nodeCriteriaOf(nq);
  const criteriaParam = await criteriaParams(store, criteria, timeoutMs);
  const rows = await store.read(
    (tx) =>
      tx.run<{ k: number | null; text?: boolean; mask?: number; count: number }>(step.counts, {
        urn: nq.urn,
        ...windowParams(nq.window),
        maxHops: int(step.maxDepth),
        tokens: nq.queryTokens,
        criteria: criteriaParam,
      }),
    { timeoutMs, metadata: { app: 'lineage', op: 'select-counts' } },
  );
  const groups: CountGroup[] = [];
  for (const r of rows) {
    if (r.k === null) return null; // a node without facetKey (written before it existed)
    groups.push({
      facetKey: Math.floor(r.k / DEGREE_SPAN),
      degree: r.k % DEGREE_SPAN,
      text: r.text ?? true,
      mask: r.mask ?? 0,
      count: r.count,
    });
  }
  const values = await facetValues(
    store,
    groups.map((g) => g.facetKey),
    timeoutMs,
  );
  let reachable = 0;
  for (const g of groups) {
    const v = values.get(g.facetKey);
    if (!v) return null; // the key's nodes changed under us: let the shipping path answer
    // A field's existence is its dataset's, and without SCHEMA_FIELD in types it is lifted onto
    // the dataset: neither is countable by the field's own key.
    if (v.entityType === 'schemaField') return null;
    // A node ignored as a hop makes its neighbours nearer than the breadth-first walk finds them.
    if (isIgnoredAsHop(nq, v)) return null;
    if (isVisible(nq, g.facetKey)) reachable += g.count;
  }
  // The shipping path keeps the first LINEAGE_MAX_RESULTS visible nodes and says isPartial; so does this one.
  let kept = groups;
  let cut: ReachCut | null = null;
  if (reachable > limits.maxResults) {
    const found = await cutReach(store, nq, step, criteriaParam, groups, limits.maxResults, timeoutMs);
    if (!found) return null;
    ({ kept, cut } = found);
  }
  const matching: FacetGroup[] = [];
  const matchingPairs = new Map<string, [number, number]>();
  for (const g of kept) {
    const v = values.get(g.facetKey)!;
    if (!g.text || !keyMatches(nq, criteria, g.facetKey, v, g.mask)) continue;
    matchingPairs.set(`${g.facetKey}:${g.mask}`, [g.facetKey, g.mask]);
    matching.push({
      degree: g.degree,
      graphqlType: entityTypeToGraphql(v.entityType),
      platform: v.platform,
      origin: v.origin,
      count: g.count,
    });
  }
  const accepts = nq.degreePredicate;
  const total = matching.reduce((n, g) => n + (accepts === null || accepts(g.degree) ? g.count : 0), 0);
  return {
    total,
    facets: nq.skipAggregates ? [] : facetsOf(matching, nq),
    matching: [...matchingPairs.values()],
    reachKeys: groups.map((g) => g.facetKey),
    cut,
  };
}

/** The most lineage edges a node the walk expands has (lineage/fanout): a per-hop limit above it cuts nothing. */
async function maxFanout(store: Store, nq: NormalizedQuery, step: DatabaseStep, fanout: StatementName, timeoutMs: number): Promise<number> {
  const rows = await store.read(
    (tx) =>
      tx.run<{ source: number; reach: number | null }>(fanout, {
        urn: nq.urn,
        ...windowParams(nq.window),
        maxHops: int(step.maxDepth),
      }),
    { timeoutMs, metadata: { app: 'lineage', op: 'fanout' } },
  );
  return Math.max(0, ...rows.map((r) => Math.max(r.source, r.reach ?? 0)));
}

/** The counts, when the walk is the breadth-first one: with a per-hop limit, the fanout beside them says so. */
async function countsOfPlainWalk(store: Store, nq: NormalizedQuery, step: DatabaseStep, limits: LineageLimits, timeoutMs: number) {
  const [counts, fanout] = await Promise.all([
    selectCounts(store, nq, step, limits, timeoutMs),
    step.fanout === null ? 0 : maxFanout(store, nq, step, step.fanout, timeoutMs),
  ]);
  return nq.perHopLimit !== null && fanout >= nq.perHopLimit ? null : counts;
}

/**
 * The total a selection would have, counted in Neo4j (searchAcrossLineageCounts); null when the
 * request or its reach needs streamed rows, or the counting ran out of its share of the deadline.
 */
export async function countInDatabase(
  store: Store,
  nq: NormalizedQuery,
  plan: LineagePlan,
  limits: LineageLimits,
  startedAt: number,
): Promise<number | null> {
  const step = plan.database;
  if (!step) return null;
  const budget = Math.min(plan.firstStepMs, startedAt + limits.deadlineMs - Date.now());
  try {
    return budget > 0 ? ((await countsOfPlainWalk(store, nq, step, limits, Math.floor(budget)))?.total ?? null) : null;
  } catch (e) {
    if (isCatalogError(e) && e.kind === 'deadline') return null;
    throw e;
  }
}

/**
 * The first `want` hits (plus READ_AHEAD), total and facets, selected in Neo4j; null when the
 * reach needs the shipping path. The page selects by what the counts judge matching; it runs
 * beside them (two sessions: two cores) on a guess from the facetKeys already known, and again
 * after them when the reach held a facetKey the guess did not know (the first query of a process,
 * a new platform) or there was no guess.
 */
export async function selectInDatabase(
  store: Store,
  nq: NormalizedQuery,
  step: DatabaseStep,
  limits: LineageLimits,
  want: number,
  timeoutMs: number,
): Promise<Selection | null> {
  const limit = want + READ_AHEAD;
  const guess = knownMatching(store, nq, nodeCriteriaOf(nq));
  const [counts, page] = await Promise.all([
    countsOfPlainWalk(store, nq, step, limits, timeoutMs),
    guess && guess.known.size > 0 ? selectPage(store, nq, step, null, limit, timeoutMs, guess.matching, null) : null,
  ]);
  if (!counts) return null;
  const covered = page !== null && counts.reachKeys.every((k) => guess!.known.has(k - (k % 4)));
  // The guess ran before the cut was known: it stands if it stopped short of the cut's degree.
  const beforeCut = page !== null && (counts.cut === null || (page.at(-1)?.degree ?? 0) < counts.cut.degree);
  const hits = covered && beforeCut ? page : await selectPage(store, nq, step, null, limit, timeoutMs, counts.matching, counts.cut);
  return { hits, complete: hits.length < limit, total: counts.total, facets: counts.facets, matching: counts.matching, cut: counts.cut };
}
