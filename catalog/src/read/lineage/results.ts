// From the reachable set to what a lineage search returns (docs/lineage-model.md §Results), pure:
// lift schemaFields onto their parents, apply types / free text / orFilters, count facets, apply
// the degree predicate, order by (degree, urn). total, facets and every page come from this one
// list, so the numbers always agree with each other.
import { entityTypeToGraphql } from '../../model/entity-registry.ts';
import { clausesMatch, LISTED_FACETS, LISTED_FILTER_FIELDS, type ListedField, type ListedValues } from '../../model/filters.ts';
import { compareHits, textMatches, type CursorPosition, type NormalizedQuery } from './query.ts';
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

/** Per listed field, how many results hold each value (an entity counted once under each value it holds). */
export class ListedCounts {
  private readonly counts = new Map<ListedField, Map<string, number>>(LISTED_FILTER_FIELDS.map((f) => [f, new Map()]));

  add(values: ListedValues | null | undefined): void {
    if (!values) return;
    for (const f of LISTED_FILTER_FIELDS) {
      const byValue = this.counts.get(f)!;
      for (const v of new Set(values[f] ?? [])) byValue.set(v, (byValue.get(v) ?? 0) + 1);
    }
  }

  /** The four facets (domains, tags, glossaryTerms, owners): most frequent first, at most `max` values each. */
  facets(max: number): Facet[] {
    return LISTED_FACETS.map(({ field, displayName }) => ({
      field,
      displayName,
      aggregations: countedWeighted(this.counts.get(field)!, max),
    }));
  }
}

/** What the selection keeps of a candidate it has seen (only while lifting can merge rows). */
interface CandidateState {
  matched: boolean;
  /** Whether some route passed the degree predicate (the candidate is a hit). */
  selected: boolean;
  /** The facet group it was counted in (matched candidates). */
  group: FacetGroup | null;
  ignoredAsHop: boolean;
  truncatedChildren: boolean;
}

/** The urn of the entity a row stands for (candidateOf). */
export function candidateUrnOf(r: ReachRow, keepFields: boolean): string {
  return r.entityType === 'schemaField' && !keepFields && r.parent ? r.parent.urn : r.urn;
}

/** A row as the entity it stands for: a schemaField becomes its parent unless fields are kept. */
function candidateOf(r: ReachRow, keepFields: boolean) {
  const lifted = r.entityType === 'schemaField' && !keepFields && r.parent ? r.parent : null;
  return lifted
    ? {
        urn: lifted.urn,
        entityType: lifted.entityType,
        platform: lifted.platform,
        origin: lifted.origin,
        removed: r.removed,
        parent: null,
        name: lifted.name,
        description: lifted.description,
        viaParent: null,
        lists: r.lists ?? null,
      }
    : {
        urn: r.urn,
        entityType: r.entityType,
        platform: r.platform,
        origin: r.origin,
        removed: r.removed,
        parent: r.parent?.urn ?? null,
        name: r.name,
        description: r.description,
        viaParent: r.viaParent ?? null,
        lists: r.lists ?? null,
      };
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
 * The facets, from groups of matching results (every filter applied but the degree predicate):
 * degree, type, platform, origin, then the listed fields' when they were counted. Degree counts
 * come before the degree predicate, so a client filtering on "1" still sees how many "2"s there
 * are; the others count only what is selected.
 */
export function facetsOf(matching: FacetGroup[], nq: NormalizedQuery, listed: ListedCounts | null = null): Facet[] {
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
    {
      field: '_entityType',
      displayName: 'Type',
      aggregations: countedWeighted(
        selected.map((g) => [g.graphqlType, g.count]),
        nq.maxAggValues,
      ),
    },
    {
      field: 'platform',
      displayName: 'Platform',
      aggregations: countedWeighted(
        selected.map((g) => [g.platform, g.count]),
        nq.maxAggValues,
      ),
    },
    {
      field: 'origin',
      displayName: 'Environment',
      aggregations: countedWeighted(
        selected.map((g) => [g.origin, g.count]),
        nq.maxAggValues,
      ),
    },
    ...(listed ? listed.facets(nq.maxAggValues) : []),
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
  /** In-database selections: the (facetKey, criteria mask) pairs later pages select by (select.ts). */
  matching?: Array<[facetKey: number, mask: number]>;
  /** In-database selections of a reach LINEAGE_MAX_RESULTS cuts: the last position kept (select.ts). */
  cut?: ReachCut | null;
}

/**
 * The last (degree, urn) position of a reach cut at LINEAGE_MAX_RESULTS visible nodes in (degree,
 * urn) order; urn null = the whole degree. Positions after it are not results, and the page is partial.
 */
export interface ReachCut {
  degree: number;
  urn: string | null;
}

export interface SelectionOptions {
  /** Hits to hold, from the first one (or the first after `after`); the rest are only counted. */
  hold: number;
  /** Hold only hits after this (degree, urn) position: the pages after a held prefix. */
  after?: CursorPosition | null;
}

/**
 * The selection folded over a stream of reach rows (docs/lineage-model.md §Results), holding at most
 * `hold` hits (plus as many again between compactions) however large the reach: schemaField rows are
 * lifted onto their parents, types / free text / orFilters applied, facets and total counted, and the
 * first hits in (degree, urn) order kept. The rows of the walk come in nondecreasing degree (so a
 * candidate's first row is its smallest degree); via rows, which are never lifted, may come in any
 * order after them. While fields are lifted, a parent may also be reached as itself: the urns seen
 * are remembered so it counts once (a set of strings, not the rows).
 */
export class SelectionBuilder {
  private readonly seen = new Map<string, CandidateState | false>();
  private readonly groups = new Map<string, FacetGroup>();
  private held: LineageHit[] = [];
  /** The degree of each of a held hit's walkUrns: they are ordered by (degree, urn) when finished. */
  private routeDegrees = new Map<LineageHit, number[]>();
  private heldByUrn = new Map<string, LineageHit>();
  private dropped = false;
  /** Once hits were dropped: the last one held. A hit after it can never be held (nothing is made for it). */
  private cutoff: CursorPosition | null = null;
  private total = 0;
  /** With a filter on a listed field every candidate's lists come with its rows: their facets are counted here. */
  private listed: ListedCounts | null;

  private readonly nq: NormalizedQuery;
  private readonly options: SelectionOptions;

  constructor(nq: NormalizedQuery, options: SelectionOptions) {
    this.nq = nq;
    this.options = options;
    this.listed = countsListed(nq) ? new ListedCounts() : null;
  }

  /** Forget everything (the transaction that streams the rows is being retried). */
  reset(): void {
    this.seen.clear();
    this.groups.clear();
    this.held = [];
    this.heldByUrn = new Map();
    this.routeDegrees = new Map();
    this.dropped = false;
    this.cutoff = null;
    this.total = 0;
    this.listed = countsListed(this.nq) ? new ListedCounts() : null;
  }

  add(r: ReachRow): void {
    const { nq } = this;
    const c = candidateOf(r, nq.keepFields);
    const passes = nq.degreePredicate === null || nq.degreePredicate(r.degree);
    // Merging happens only when lifting; without it every urn comes once.
    const remembered = nq.keepFields ? undefined : this.seen.get(c.urn);
    if (remembered === false) return;
    if (remembered) {
      remembered.ignoredAsHop ||= r.ignoredAsHop;
      remembered.truncatedChildren ||= r.truncatedChildren;
      const hit = this.heldByUrn.get(c.urn);
      if (hit) {
        hit.ignoredAsHop = remembered.ignoredAsHop;
        hit.truncatedChildren = remembered.truncatedChildren;
        if (passes) {
          hit.walkUrns.push(r.urn);
          this.routeDegrees.get(hit)!.push(r.degree);
        }
      }
      if (passes && !remembered.selected) {
        remembered.selected = true;
        this.select(remembered.group!, c, r, remembered);
      }
      return;
    }
    const matched =
      nq.resultTypes.has(c.entityType) && textMatches(nq.queryTokens, [c.urn, c.name, c.description]) && clausesMatch(c, nq.clauses);
    if (!matched) {
      if (!nq.keepFields) this.seen.set(c.urn, false);
      return;
    }
    const graphqlType = entityTypeToGraphql(c.entityType);
    const groupKey = `${r.degree >= 3 ? 3 : r.degree}\u0000${graphqlType}\u0000${c.platform ?? ''}\u0000${c.origin ?? ''}\u0000${passes}`;
    let group = this.groups.get(groupKey);
    if (!group) {
      group = { degree: r.degree >= 3 ? 3 : r.degree, graphqlType, platform: c.platform, origin: c.origin, count: 0, selected: passes };
      this.groups.set(groupKey, group);
    }
    group.count++;
    const state: CandidateState = {
      matched: true,
      selected: passes,
      group,
      ignoredAsHop: r.ignoredAsHop,
      truncatedChildren: r.truncatedChildren,
    };
    if (!nq.keepFields) this.seen.set(c.urn, state);
    if (passes) this.select(null, c, r, state);
  }

  /** A candidate became a hit at this row's degree (moving it to the selected group when it was counted unselected). */
  private select(from: FacetGroup | null, c: ReturnType<typeof candidateOf>, r: ReachRow, state: CandidateState): void {
    if (from) {
      from.count--;
      const key = `${from.degree}\u0000${from.graphqlType}\u0000${from.platform ?? ''}\u0000${from.origin ?? ''}\u0000true`;
      let to = this.groups.get(key);
      if (!to) {
        to = { ...from, count: 0, selected: true };
        this.groups.set(key, to);
      }
      to.count++;
      state.group = to;
    }
    this.total++;
    this.listed?.add(c.lists);
    const position = { degree: r.degree, urn: c.urn };
    const after = this.options.after;
    if (after && compareHits(position, after) <= 0) return;
    if (this.cutoff && compareHits(position, this.cutoff) > 0) return;
    const hit: LineageHit = {
      urn: c.urn,
      entityType: c.entityType,
      graphqlType: entityTypeToGraphql(c.entityType),
      degree: r.degree,
      platform: c.platform,
      origin: c.origin,
      ignoredAsHop: state.ignoredAsHop,
      truncatedChildren: state.truncatedChildren,
      walkUrns: [r.urn],
      viaParent: c.viaParent,
    };
    this.held.push(hit);
    this.heldByUrn.set(hit.urn, hit);
    this.routeDegrees.set(hit, [r.degree]);
    if (this.held.length >= 2 * Math.max(1, this.options.hold)) this.compact();
  }

  /** Keeps the first `hold` hits. */
  private compact(): void {
    this.held.sort(compareHits);
    if (this.held.length > this.options.hold) {
      this.held.length = this.options.hold;
      this.dropped = true;
      this.cutoff = this.held.at(-1) ?? null;
    }
    this.heldByUrn = new Map(this.held.map((h) => [h.urn, h]));
    const degrees = new Map<LineageHit, number[]>();
    for (const h of this.held) degrees.set(h, this.routeDegrees.get(h)!);
    this.routeDegrees = degrees;
  }

  finish(): Selection {
    this.compact();
    const hits = this.held;
    // A walk by hops hands on one degree's rows in parent order: routes in (degree, urn) order.
    for (const h of hits) {
      if (h.walkUrns.length < 2) continue;
      const degrees = this.routeDegrees.get(h)!;
      const routes = h.walkUrns.map((urn, i) => ({ urn, degree: degrees[i]! })).sort(compareHits);
      h.walkUrns = routes.map((r) => r.urn);
    }
    const facets = this.nq.skipAggregates
      ? []
      : facetsOf(
          [...this.groups.values()].filter((g) => g.count > 0),
          this.nq,
          this.listed,
        );
    return { hits, complete: !this.dropped, total: this.total, facets };
  }
}

/**
 * Whether a selection counts the listed facets itself: when their facets are asked for and a filter
 * on a listed field made every candidate's lists come with its rows (service.ts).
 */
export function countsListed(nq: NormalizedQuery): boolean {
  return nq.listedFacets && !nq.skipAggregates && nq.listedFields.size > 0;
}

/** The whole selection of rows held in memory (small reaches and tests). */
export function selectResults(rows: Iterable<ReachRow>, nq: NormalizedQuery): Selection {
  const builder = new SelectionBuilder(nq, { hold: Number.MAX_SAFE_INTEGER });
  for (const r of rows) builder.add(r);
  return builder.finish();
}
