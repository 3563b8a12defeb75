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

function counted(values: Array<string | null>, max: number): FacetAggregation[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, max);
}

export interface Selection {
  /** Every matching hit in (degree, urn) order. */
  hits: LineageHit[];
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
  const facets: Facet[] = nq.skipAggregates
    ? []
    : [
        {
          field: 'degree',
          displayName: 'Degree of Dependencies',
          // Before the degree predicate, so a client filtering on "1" still sees how many "2"s there are.
          aggregations: [
            { value: '1', count: matching.filter((c) => c.degree === 1).length },
            { value: '2', count: matching.filter((c) => c.degree === 2).length },
            { value: '3+', count: matching.filter((c) => c.degree >= 3).length },
          ],
        },
        { field: '_entityType', displayName: 'Type', aggregations: counted(selected.map((c) => c.graphqlType), nq.maxAggValues) },
        { field: 'platform', displayName: 'Platform', aggregations: counted(selected.map((c) => c.platform), nq.maxAggValues) },
        { field: 'origin', displayName: 'Environment', aggregations: counted(selected.map((c) => c.origin), nq.maxAggValues) },
      ];
  const hits = selected.map(({ name: _n, description: _d, ...hit }) => hit);
  return { hits, facets };
}
