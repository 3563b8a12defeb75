// From the reachable set to what a lineage search returns (docs/lineage-model.md §Results), pure:
// lift schemaFields onto their parents, apply types / free text / orFilters, count facets, apply
// the degree predicate, order by (degree, urn). total, facets and every page come from this one
// list, so the numbers always agree with each other.
import { entityTypeToGraphql } from '../../model/entity-registry.ts';
import { clausesMatch } from '../../model/filters.ts';
import { compareHits, textMatches, type NormalizedQuery } from './query.ts';
import type { ReachRow } from './traverse.ts';

export interface LineageHit {
  urn: string;
  /** DataHub entity name (dataset, dataJob, …). */
  entityType: string;
  /** GraphQL EntityType (DATASET, DATA_JOB, …). */
  graphqlType: string;
  degree: number;
  platform: string | null;
  origin: string | null;
  ignoredAsHop: boolean;
  truncatedChildren: boolean;
  /**
   * The nodes the walk reached for this hit: the hit itself, or for a parent lifted from its
   * fields every field that led to it (one path each), in (degree, urn) order.
   */
  walkUrns: string[];
  /** For a via entity (a dataJob carrying column lineage): the node its edge left from. */
  viaParent: string | null;
  /** Paths, source first, when requested (only for returned hits). */
  paths?: string[][];
  /** Whether the walk went on from this hit (set for returned hits). */
  explored?: boolean;
}

export interface FacetAggregation {
  value: string;
  count: number;
}

export interface Facet {
  field: string;
  displayName: string;
  aggregations: FacetAggregation[];
}

interface Route {
  walkUrn: string;
  degree: number;
}

interface Candidate {
  urn: string;
  entityType: string;
  graphqlType: string;
  platform: string | null;
  origin: string | null;
  removed: boolean;
  /** The candidate's own parent when it is a (kept) schemaField. */
  parent: string | null;
  name: string | null;
  description: string | null;
  ignoredAsHop: boolean;
  truncatedChildren: boolean;
  viaParent: string | null;
  routes: Route[];
  /** Minimum over the routes. */
  degree: number;
}

/**
 * schemaField rows become their parent unless fields are kept; a parent reached through several
 * fields keeps every field as a route (DataHub lists one path per column route).
 */
function lift(rows: ReachRow[], keepFields: boolean): Candidate[] {
  const byUrn = new Map<string, Candidate>();
  for (const r of rows) {
    const lifted = r.entityType === 'schemaField' && !keepFields && r.parent ? r.parent : null;
    const route = { walkUrn: r.urn, degree: r.degree };
    const seen = byUrn.get(lifted ? lifted.urn : r.urn);
    if (seen) {
      seen.routes.push(route);
      if (r.degree < seen.degree) seen.degree = r.degree;
      seen.ignoredAsHop ||= r.ignoredAsHop;
      seen.truncatedChildren ||= r.truncatedChildren;
      continue;
    }
    const c: Candidate = lifted
      ? {
          urn: lifted.urn, entityType: lifted.entityType, graphqlType: entityTypeToGraphql(lifted.entityType),
          platform: lifted.platform, origin: lifted.origin, removed: r.removed, parent: null, name: lifted.name,
          description: lifted.description, ignoredAsHop: r.ignoredAsHop, truncatedChildren: r.truncatedChildren,
          viaParent: null, routes: [route], degree: r.degree,
        }
      : {
          urn: r.urn, entityType: r.entityType, graphqlType: entityTypeToGraphql(r.entityType), platform: r.platform,
          origin: r.origin, removed: r.removed, parent: r.parent?.urn ?? null, name: r.name, description: r.description,
          ignoredAsHop: r.ignoredAsHop, truncatedChildren: r.truncatedChildren, viaParent: r.viaParent ?? null,
          routes: [route], degree: r.degree,
        };
    byUrn.set(c.urn, c);
  }
  for (const c of byUrn.values()) c.routes.sort(compareRoutes);
  return [...byUrn.values()];
}

const compareRoutes = (a: Route, b: Route) => compareHits({ degree: a.degree, urn: a.walkUrn }, { degree: b.degree, urn: b.walkUrn });

/** Values with their counts → the facet's aggregations: most frequent first, then by value, at most `max`. */
function countedWeighted(entries: Iterable<[string | null, number]>, max: number): FacetAggregation[] {
  const counts = new Map<string, number>();
  for (const [v, n] of entries) if (v !== null && v !== '' && n > 0) counts.set(v, (counts.get(v) ?? 0) + n);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, max);
}

/** One group of results for facet counting: `count` hits sharing these values. */
export interface FacetGroup {
  /** The smallest degree: what the degree facet counts by. */
  degree: number;
  graphqlType: string;
  platform: string | null;
  origin: string | null;
  count: number;
  /**
   * Whether the group passes the degree predicate, when that is not its smallest degree's verdict:
   * a parent lifted from columns at several degrees is selected when any of them passes.
   */
  selected?: boolean;
}

/**
 * The four facets, from groups of matching results (every filter applied but the degree
 * predicate). Degree counts come before the degree predicate, so a client filtering on "1" still
 * sees how many "2"s there are; the others count only what is selected.
 */
export function facetsOf(matching: FacetGroup[], nq: NormalizedQuery): Facet[] {
  const predicate = nq.degreePredicate;
  const selected = predicate ? matching.filter((g) => g.selected ?? predicate(g.degree)) : matching;
  const byDegree = (test: (d: number) => boolean) => matching.reduce((n, g) => n + (test(g.degree) ? g.count : 0), 0);
  return [
    {
      field: 'degree',
      displayName: 'Degree of Dependencies',
      aggregations: [
        { value: '1', count: byDegree((d) => d === 1) },
        { value: '2', count: byDegree((d) => d === 2) },
        { value: '3+', count: byDegree((d) => d >= 3) },
      ],
    },
    { field: '_entityType', displayName: 'Type', aggregations: countedWeighted(selected.map((g) => [g.graphqlType, g.count]), nq.maxAggValues) },
    { field: 'platform', displayName: 'Platform', aggregations: countedWeighted(selected.map((g) => [g.platform, g.count]), nq.maxAggValues) },
    { field: 'origin', displayName: 'Environment', aggregations: countedWeighted(selected.map((g) => [g.origin, g.count]), nq.maxAggValues) },
  ];
}

export interface Selection {
  /** Matching hits in (degree, urn) order: all of them when `complete`, else a prefix. */
  hits: LineageHit[];
  /** Whether `hits` holds every matching hit (else later pages are fetched after its last one). */
  complete: boolean;
  /** Matching entities after every filter (degree included). */
  total: number;
  facets: Facet[];
  /** In-database selections with filters: the matching facetKeys later pages select by (select.ts). */
  facetKeys?: number[] | null;
}

/**
 * A candidate as a hit under the degree predicate: a lifted parent keeps the routes whose degree
 * passes (DataHub filters column relationships by degree before grouping them), at the smallest.
 */
function toHit(c: Candidate, predicate: ((degree: number) => boolean) | null): LineageHit | null {
  const routes = predicate ? c.routes.filter((r) => predicate(r.degree)) : c.routes;
  if (!routes.length) return null;
  return {
    urn: c.urn, entityType: c.entityType, graphqlType: c.graphqlType, degree: routes[0]!.degree, platform: c.platform,
    origin: c.origin, ignoredAsHop: c.ignoredAsHop, truncatedChildren: c.truncatedChildren,
    walkUrns: routes.map((r) => r.walkUrn), viaParent: c.viaParent,
  };
}

export function selectResults(rows: ReachRow[], nq: NormalizedQuery): Selection {
  const matching = lift(rows, nq.keepFields).filter(
    (c) =>
      nq.resultTypes.has(c.entityType)
      && textMatches(nq.queryTokens, [c.urn, c.name, c.description])
      && clausesMatch(c, nq.clauses),
  );
  const judged = matching.map((c) => ({ candidate: c, hit: toHit(c, nq.degreePredicate) }));
  const hits = judged.flatMap((j) => (j.hit ? [j.hit] : [])).sort(compareHits);
  // Facets and total count the same hits: a candidate is selected exactly when it became a hit.
  const facets = nq.skipAggregates ? [] : facetsOf(judged.map((j) => ({ ...j.candidate, count: 1, selected: j.hit !== null })), nq);
  return { hits, complete: true, total: hits.length, facets };
}
