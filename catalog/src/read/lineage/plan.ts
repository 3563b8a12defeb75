// The plan of a lineage read (docs/lineage-model.md §Traversal): which statements answer a request,
// in which order they are tried, and why. A pure function of the normalized request and the limits;
// service.ts, select.ts, traverse.ts and counts.ts execute what it says and decide nothing more.
// "Why did this page come from Neo4j?" is answered here: the plan's `reasons` say it in words,
// and the page carries the plan (LineagePage.plan) to the logs, GraphQL extensions and
// tools/lineage-profile.ts.
//
// The steps, in order:
// 1. database — select the page and count total and facets inside Neo4j (select.ts). Taken when the
//    request's filters can be judged there. A reach of more than LINEAGE_MAX_RESULTS visible nodes
//    is cut where the streamed path cuts it (select-cut) and the page says isPartial. At run time it
//    may still decline (the reach holds schemaFields, nodes without facetKey, a node ignored as a hop,
//    a node with as many edges as the per-hop limit, a cut past degree 62) or run out of its share of
//    the deadline; then step 2 answers.
// 2. streamed — the reach shipped here and selected by results.ts (traverse.ts): one statement
//    (fast) unless the request needs per-hop control, which only the hop-by-hop walk gives; a fast
//    walk out of time falls back to hop by hop.
// 3. vias — a column walk then fetches the dataJobs whose column lineage made the edges it took.
// 4. listed — a filter on tags, glossaryTerms, owners or domains (streamed: step 1 declines it)
//    reads those fields for the walked candidates (listed.ts); their facets, asked for without
//    such a filter, are read for the results when they are few.
import { MAX_DEPTH_LITERAL, boundedStatement, directedStatement, type StatementName, type WalkDirection } from '../../store/cypher.ts';
import type { Criterion, FilterField } from '../../model/filters.ts';
import { tryParseUrn } from '../../model/urn.ts';
import type { DepthBound, LineageLimits, NormalizedQuery } from './query.ts';

/** The in-database step's statements (select.ts). */
export interface DatabaseStep {
  /** Total and facets, grouped by (facetKey, degree); `-judged` when text or node criteria are judged per node. */
  counts: StatementName;
  /** The page in (degree, urn) order. */
  page: StatementName;
  /** Where LINEAGE_MAX_RESULTS cuts a larger reach: run only when it does. */
  cut: StatementName;
  /** With a per-hop limit: the most edges a node of the walk has (a limit above it cuts nothing). */
  fanout: StatementName | null;
  /** The walk's depth bound (LineagePlan.maxDepth). */
  maxDepth: number;
}

type StreamedWalk = 'fast-then-hops' | 'hops';

export interface LineagePlan {
  /** Nothing to walk (entitiesExploredPerHopLimit 0): an empty answer without a query. */
  exploresNothing: boolean;
  /** Step 1, or null when the request cannot be answered in the database. */
  database: DatabaseStep | null;
  /** Step 2: how the reach is streamed when step 1 is not taken or declines. */
  streamed: StreamedWalk;
  /**
   * The statements of step 2: the one-statement walk and the per-hop expansion (lineage/hop with a
   * per-hop limit, which needs each node's parent and their order; lineage/hop-nodes otherwise).
   */
  reach: StatementName;
  hop: StatementName;
  /** Step 3: a column walk's via entities (lineage/vias-<dir>). */
  vias: StatementName | null;
  /** The walk's depth bound: the statement family's literal, capped by LINEAGE_MAX_HOPS. */
  maxDepth: number;
  /**
   * Whether streamed hop rows carry names and descriptions: only when the request judges them (a
   * text query, a filter on name or description); nothing else reads them from a row.
   */
  strings: boolean;
  /**
   * The time a first step (the in-database selection, the one-statement walk) may take: its share
   * of the deadline (LineageLimits.fastPathTimeoutMs, default half), so the fallback has the rest.
   * It never gets more than is left of the deadline when it starts.
   */
  firstStepMs: number;
  /** Why, in words, one line per choice. */
  reasons: string[];
}

/** Filter fields a facetKey decides: the values it hashes and its soft-deletion flag. */
const FACET_KEY_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>(['entityType', 'platform', 'origin', 'removed']);
/**
 * The node property each of the other lineage filter fields reads (search-fields.ts names a
 * schemaField's parent parentUrn): the statements judge those per node, every condition as
 * filters.ts judges it.
 */
export const NODE_PROPERTY: Partial<Record<FilterField, string>> = {
  urn: 'urn',
  name: 'name',
  description: 'description',
  parent: 'parentUrn',
};
/** A node criterion is one bit of an integer mask. */
const MAX_NODE_CRITERIA = 24;

/** The request's criteria judged per node, in the order of their mask bits (the first one highest). */
export function nodeCriteriaOf(nq: NormalizedQuery): Criterion[] {
  return [...new Set((nq.clauses ?? []).flat().filter((c) => !FACET_KEY_FIELDS.has(c.field)))];
}

/** The walk's depth bound: the statement family's literal, capped by LINEAGE_MAX_HOPS. */
export function maxDepthOf(depth: DepthBound, limits: LineageLimits): number {
  return depth === 'max' ? Math.min(limits.maxHops, MAX_DEPTH_LITERAL) : Math.min(depth, limits.maxHops);
}

/** Why the in-database step cannot answer this request; null = it may. */
function databaseDeclines(nq: NormalizedQuery, limits: LineageLimits): string | null {
  if (limits.selectInDatabase === false) return 'in-database selection turned off (limits.selectInDatabase)';
  if (nq.program) return 'a structured query (/q) is judged on the walked candidates by the search statement';
  const criteria = nodeCriteriaOf(nq);
  if (criteria.length > MAX_NODE_CRITERIA) return `${criteria.length} node criteria, more than the ${MAX_NODE_CRITERIA} a mask holds`;
  const unjudged = criteria.find((c) => NODE_PROPERTY[c.field] === undefined);
  if (unjudged) return `the filter on ${unjudged.field} is judged on streamed rows only`;
  return null;
}

/** The one-statement walk of a direction and bound (also what the bench times on its own). */
export function reachStatement(direction: WalkDirection, depth: DepthBound, windowed: boolean): StatementName {
  return boundedStatement('lineage/reach', direction, depth, windowed);
}

/** The plan of one lineage read. */
export function planLineageRead(nq: NormalizedQuery, limits: LineageLimits): LineagePlan {
  const dir = nq.walkDirection;
  const windowed = nq.window !== null;
  const bounded = (
    family: 'lineage/select-page' | 'lineage/select-counts' | 'lineage/select-counts-judged' | 'lineage/select-cut' | 'lineage/fanout',
  ) => boundedStatement(family, dir, nq.depth, windowed);
  const maxDepth = maxDepthOf(nq.depth, limits);
  const reasons: string[] = [];
  const columnWalk = tryParseUrn(nq.urn)?.entityType === 'schemaField';
  const hopControl = nq.ignoreAsHops.length > 0 || nq.perHopLimit !== null;
  const base = {
    reach: reachStatement(dir, nq.depth, windowed),
    // Pairs in order only when a per-hop limit counts each parent's children; else each node once.
    hop: directedStatement(nq.perHopLimit !== null ? 'lineage/hop' : 'lineage/hop-nodes', dir),
    vias: columnWalk ? directedStatement('lineage/vias', dir) : null,
    maxDepth,
    strings: nq.queryTokens.length > 0 || nodeCriteriaOf(nq).some((c) => c.field === 'name' || c.field === 'description'),
    firstStepMs: limits.fastPathTimeoutMs ?? limits.deadlineMs / 2,
  };

  if (nq.exploresNothing) {
    return {
      ...base,
      exploresNothing: true,
      database: null,
      streamed: 'hops',
      vias: null,
      reasons: ['entitiesExploredPerHopLimit 0: nothing is explored, the answer is empty'],
    };
  }
  const declines = databaseDeclines(nq, limits);
  let database: DatabaseStep | null = null;
  if (declines) {
    reasons.push(`streamed: ${declines}`);
  } else {
    const judged = nodeCriteriaOf(nq).length > 0 || nq.queryTokens.length > 0;
    database = {
      counts: bounded(judged ? 'lineage/select-counts-judged' : 'lineage/select-counts'),
      page: bounded('lineage/select-page'),
      cut: bounded('lineage/select-cut'),
      fanout: nq.perHopLimit !== null ? bounded('lineage/fanout') : null,
      maxDepth,
    };
    reasons.push(
      `database first: every filter is judged in Neo4j${judged ? ' (per node: text or node criteria)' : ' (by facetKey)'}; streamed only if the reach declines at run time or the step runs out of time`,
    );
    if (nq.perHopLimit !== null)
      reasons.push(
        `per-hop limit ${nq.perHopLimit}: the fanout statement tells whether it cuts anything; if it does, the walk is streamed hop by hop`,
      );
    if (nq.ignoreAsHops.length > 0) reasons.push('ignoreAsHops: in the database only if no node of the reach is ignored as a hop');
  }
  const streamed: StreamedWalk = hopControl ? 'hops' : 'fast-then-hops';
  reasons.push(
    hopControl
      ? `streamed hop by hop: ${nq.ignoreAsHops.length > 0 ? 'ignoreAsHops' : 'a per-hop limit'} needs per-hop control`
      : 'streamed in one statement, hop by hop if that runs out of its share of the deadline',
  );
  if (columnWalk) reasons.push('column walk: then the dataJobs whose column lineage made the edges taken (vias)');
  if (nq.listedFields.size > 0)
    reasons.push(
      `${[...nq.listedFields].join(', ')}: read for the walked candidates in batches (lineage/listed-values), then judged before counting`,
    );
  else if (nq.listedFacets && !nq.skipAggregates)
    reasons.push('facets on tags, terms, owners and domains: read for the results in one batch when they number at most 1,000');
  return { ...base, exploresNothing: false, database, streamed, reasons };
}
