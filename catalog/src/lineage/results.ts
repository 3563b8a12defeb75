// From the reachable set to what a lineage search returns (wire-compat §5.3), pure: lift
// schemaFields to their datasets, apply types / free text / orFilters, count facets, apply the
// degree predicate, order by (degree, urn). total, facets and every page come from this one list,
// so the numbers always agree with each other.
import { entityTypeToGraphql } from '../entity-registry.ts';
import { clausesMatch, compareHits, textMatches, type NormalizedQuery } from './query.ts';
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
  /** The node the walk reached: differs from urn when a schemaField was lifted to its dataset. */
  walkUrn: string;
  /** One shortest path, source first, when requested (only for returned hits). */
  paths?: string[][];
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

interface Candidate extends LineageHit {
  name: string | null;
  description: string | null;
}

/** schemaField rows become their parent dataset unless fields were asked for; min degree wins. */
function lift(rows: ReachRow[], keepFields: boolean): Candidate[] {
  const byUrn = new Map<string, Candidate>();
  for (const r of rows) {
    const lifted = r.entityType === 'schemaField' && !keepFields && r.parent;
    const c: Candidate = lifted
      ? {
          urn: r.parent!.urn, entityType: r.parent!.entityType, graphqlType: entityTypeToGraphql(r.parent!.entityType),
          degree: r.degree, platform: r.parent!.platform, origin: r.parent!.origin, ignoredAsHop: r.ignoredAsHop,
          truncatedChildren: r.truncatedChildren, walkUrn: r.urn, name: r.parent!.name, description: r.parent!.description,
        }
      : {
          urn: r.urn, entityType: r.entityType, graphqlType: entityTypeToGraphql(r.entityType), degree: r.degree,
          platform: r.platform, origin: r.origin, ignoredAsHop: r.ignoredAsHop, truncatedChildren: r.truncatedChildren,
          walkUrn: r.urn, name: r.name, description: r.description,
        };
    const seen = byUrn.get(c.urn);
    if (!seen || compareHits(c, seen) < 0) byUrn.set(c.urn, c);
  }
  return [...byUrn.values()];
}

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
  degree: number;
  graphqlType: string;
  platform: string | null;
  origin: string | null;
  count: number;
}

/**
 * The four facets, from groups of matching results (every filter applied but the degree
 * predicate). Degree counts come before the degree predicate, so a client filtering on "1" still
 * sees how many "2"s there are; the others count only what is selected.
 */
export function facetsOf(matching: FacetGroup[], nq: NormalizedQuery): Facet[] {
  const predicate = nq.degreePredicate;
  const selected = predicate ? matching.filter((g) => predicate(g.degree)) : matching;
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
}

export function selectResults(rows: ReachRow[], nq: NormalizedQuery): Selection {
  const matching = lift(rows, nq.keepFields).filter(
    (c) =>
      nq.resultTypes.has(c.entityType)
      && textMatches(nq.queryTokens, [c.urn, c.name, c.description])
      && clausesMatch({ urn: c.urn, graphqlType: c.graphqlType, platform: c.platform, origin: c.origin }, nq.clauses),
  );
  const predicate = nq.degreePredicate;
  const selected = (predicate ? matching.filter((c) => predicate(c.degree)) : matching).sort(compareHits);
  const facets = nq.skipAggregates ? [] : facetsOf(matching.map((c) => ({ ...c, count: 1 })), nq);
  const hits = selected.map(({ name: _n, description: _d, ...hit }) => hit);
  return { hits, complete: true, total: hits.length, facets };
}
