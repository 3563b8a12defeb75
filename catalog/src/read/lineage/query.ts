// The request side of impact analysis (docs/wire-contract.md §Lineage search and §Filters,
// docs/lineage-model.md §Traversal), pure: input shapes, validation, the depth bound and degree predicate
// from degree filters, the time window, per-entity filter evaluation, and the opaque scroll cursor
// bound to a query fingerprint.
import { createHash } from 'node:crypto';
import { badRequest, validationFailed } from '../../model/errors.ts';
import { tryParseUrn, type Urn } from '../../model/urn.ts';
import { graphqlEntityTypes, graphqlToEntityType } from '../../model/entity-registry.ts';
import type { DepthBound, WalkDirection } from '../../store/cypher.ts';
import {
  ENTITY_FILTER_FIELDS,
  isListedField,
  LISTED_FILTER_FIELDS,
  parseClauses,
  valuesOf,
  type Clauses,
  type FilterField,
  type ListedField,
  type RawFilter,
} from '../../model/filters.ts';
import { int } from '../../store/store.ts';
import { structuredProgramOf, type StructuredProgram } from '../../model/structured-query-program.ts';

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

export type FacetFilter = RawFilter;

export interface AndFilter {
  and?: readonly FacetFilter[] | null | undefined;
}

interface IgnoreAsHop {
  /** GraphQL EntityType name (DATA_JOB, …). */
  entityType: string;
  /** Platform urns (a bare name is read as urn:li:dataPlatform:<name>); empty/null = every platform. */
  platforms?: string[] | null | undefined;
}

export interface LineageFlags {
  startTimeMillis?: number | null | undefined;
  endTimeMillis?: number | null | undefined;
  entitiesExploredPerHopLimit?: number | null | undefined;
  ignoreAsHops?: IgnoreAsHop[] | null | undefined;
}

export interface LineageQuery {
  urn: string;
  direction: LineageDirection;
  /** GraphQL EntityType names; null/empty = every type but QUERY. */
  types?: string[] | null | undefined;
  /** null, empty or '*' = everything; else every token must occur in urn, name or description. */
  query?: string | null | undefined;
  orFilters?: readonly AndFilter[] | null | undefined;
  startTimeMillis?: number | null | undefined;
  endTimeMillis?: number | null | undefined;
  lineageFlags?: LineageFlags | null | undefined;
  includeSoftDeleted?: boolean | null | undefined;
  skipAggregates?: boolean | null | undefined;
  /** Largest number of values per non-degree facet (most frequent first); default 20. */
  maxAggValues?: number | null | undefined;
  /**
   * Count the facets of tags, glossaryTerms, owners and domains too (the operation selects facets):
   * always with a filter on one of them, else when the results are few (listed.ts). Not part of the
   * fingerprint: it shapes the facets only.
   */
  listedFacets?: boolean | null | undefined;
  /** Compute one shortest path per returned hit (only for the page). Not part of the fingerprint. */
  includePaths?: boolean | null | undefined;
  /**
   * Whether schemaField results become their parent (dataset, chart, dashboard): scroll always
   * lifts, search lifts unless its groupingSpec keeps fields (docs/lineage-model.md §Columns).
   * Default true.
   */
  liftFields?: boolean | null | undefined;
  /** Counts only: every reached node is a candidate, ghosts and soft-deleted ones included. */
  includeGhosts?: boolean | null | undefined;
}

/**
 * What a lineage search returns when `types` is null or empty: every type but QUERY. A query is a
 * via of an edge, shown inside paths, never a result (docs/lineage-model.md §Paths).
 */
function defaultResultTypes(): readonly string[] {
  return graphqlEntityTypes().filter((t) => t !== 'QUERY');
}

/** Filter fields a lineage search accepts besides degree: the listed ones are read after the walk (listed.ts). */
const LINEAGE_FILTER_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>([...ENTITY_FILTER_FIELDS, ...LISTED_FILTER_FIELDS]);

const DEGREE_VALUES = ['1', '2', '3+'] as const;

/** Which depth-bound statement runs: a literal in the Cypher text, never a parameter. */
export type { DepthBound } from '../../store/cypher.ts';

/** The arrow a walk in this direction follows along :LINEAGE (always upstream → downstream). */
export function walkDirectionOf(direction: LineageDirection): WalkDirection {
  return direction === 'DOWNSTREAM' ? 'down' : 'up';
}

export interface TimeWindow {
  start: number;
  end: number;
}

export interface NormalizedQuery {
  urn: string;
  direction: LineageDirection;
  /** The arrow the walk follows, as the statements name it (walkDirectionOf). */
  walkDirection: WalkDirection;
  /** DataHub entity names the results may have (after lifting). */
  resultTypes: ReadonlySet<string>;
  /** A field walk returns the fields themselves instead of lifting them onto their parents. */
  keepFields: boolean;
  queryTokens: string[];
  /** A structured query (`/q …`): judged on the walked candidates by the search statement; null = free text. */
  program: StructuredProgram | null;
  depth: DepthBound;
  /** null = every degree passes. */
  degreePredicate: ((degree: number) => boolean) | null;
  /** Disjunction of conjunctions without the degree criteria; null = no entity filter. */
  clauses: Clauses;
  /** The listed fields (tags, glossaryTerms, owners, domains) the clauses name: read for the candidates after the walk. */
  listedFields: ReadonlySet<ListedField>;
  /** Whether the listed fields' facets are asked for (LineageQuery.listedFacets). */
  listedFacets: boolean;
  window: TimeWindow | null;
  perHopLimit: number | null;
  /**
   * entitiesExploredPerHopLimit 0: both of DataHub's graph backends (Elasticsearch and Neo4j)
   * then explore nothing and answer an empty result.
   */
  exploresNothing: boolean;
  ignoreAsHops: Array<{ entityType: string; platforms: ReadonlySet<string> }>;
  /** Soft-deleted entities are walked through always; they are results when this is true. */
  includeSoftDeleted: boolean;
  /** Ghosts (never ingested) are walked through always; they are candidates when this is true. */
  includeGhosts: boolean;
  skipAggregates: boolean;
  maxAggValues: number;
  fingerprint: string;
}

const isPresent = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The time window (docs/lineage-model.md §Traversal): lineageFlags win over top-level fields; only start →
 * end = now; only end → start = 0.
 */
export function resolveWindow(q: LineageQuery, now: number): TimeWindow | null {
  const flags = q.lineageFlags;
  const fromFlags = flags && (isPresent(flags.startTimeMillis) || isPresent(flags.endTimeMillis));
  const start = fromFlags ? flags!.startTimeMillis : q.startTimeMillis;
  const end = fromFlags ? flags!.endTimeMillis : q.endTimeMillis;
  if (!isPresent(start) && !isPresent(end)) return null;
  return { start: isPresent(start) ? start : 0, end: isPresent(end) ? end : now };
}

const isDegree = (f: FacetFilter) => f.field === 'degree' || f.field === 'degree.keyword';

/**
 * Degree filters (docs/wire-contract.md §Lineage search): the walk bound from every clause, the result
 * predicate from the FIRST clause that has a degree criterion. condition/negated are ignored for degree.
 */
export function degreeFilterOf(orFilters: readonly AndFilter[] | null | undefined): {
  depth: DepthBound;
  predicate: ((degree: number) => boolean) | null;
} {
  const listed = new Set<string>();
  let first: Set<string> | null = null;
  for (const clause of orFilters ?? []) {
    let inClause: Set<string> | null = null;
    for (const f of clause.and ?? []) {
      if (!isDegree(f)) continue;
      inClause ??= new Set();
      for (const v of valuesOf(f)) {
        if (!(DEGREE_VALUES as readonly string[]).includes(v))
          throw validationFailed(`${v} is not a valid filter value for degree filters`);
        listed.add(v);
        inClause.add(v);
      }
    }
    if (inClause && !first) first = inClause;
  }
  const depth: DepthBound = listed.has('3+') ? 'max' : listed.has('2') ? 2 : listed.has('1') ? 1 : 'max';
  // A degree criterion with no values restricts nothing (an empty terms list is no filter).
  if (!first || first.size === 0) return { depth, predicate: null };
  const accepted = first;
  return {
    depth,
    predicate: (d) => (d === 1 && accepted.has('1')) || (d === 2 && accepted.has('2')) || (d >= 3 && accepted.has('3+')),
  };
}

function canonicalPlatform(p: string): string {
  return p.startsWith('urn:li:dataPlatform:') ? p : `urn:li:dataPlatform:${p}`;
}

function resultTypesOf(types: string[] | null | undefined): Set<string> {
  const listed = types && types.length ? types : defaultResultTypes();
  const resultTypes = new Set<string>();
  for (const t of listed) {
    const name = graphqlToEntityType(t);
    // An EntityType without a DataHub entity (OTHER) or no lineage simply matches nothing.
    if (name) resultTypes.add(name);
  }
  return resultTypes;
}

/** Stable JSON (sorted keys) so equal queries give equal fingerprints whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What decides the result list: a cursor is only valid for a query with the same fingerprint. */
export function fingerprintOf(q: LineageQuery): string {
  const material = {
    urn: q.urn,
    direction: q.direction,
    types: q.types && q.types.length ? [...q.types].sort() : null,
    query: q.query?.trim() && q.query.trim() !== '*' ? q.query.trim() : null,
    orFilters: q.orFilters ?? null,
    startTimeMillis: q.startTimeMillis,
    endTimeMillis: q.endTimeMillis,
    lineageFlags: q.lineageFlags ?? null,
    includeSoftDeleted: q.includeSoftDeleted === true,
    liftFields: q.liftFields !== false,
    includeGhosts: q.includeGhosts === true,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('base64url').slice(0, 22);
}

export function normalizeQuery(q: LineageQuery, now: number): NormalizedQuery {
  const { depth, predicate } = degreeFilterOf(q.orFilters);
  const { clauses, onRemoved } = parseClauses(q.orFilters, LINEAGE_FILTER_FIELDS, isDegree);
  const program = structuredProgramOf(q.query);
  const text = program ? '' : (q.query?.trim() ?? '');
  const flags = q.lineageFlags ?? {};
  const perHop = flags.entitiesExploredPerHopLimit;
  const ignoreAsHops = (flags.ignoreAsHops ?? []).flatMap((h) => {
    const entityType = graphqlToEntityType(h.entityType);
    return entityType ? [{ entityType, platforms: new Set((h.platforms ?? []).map(canonicalPlatform)) }] : [];
  });
  return {
    urn: q.urn,
    direction: q.direction,
    walkDirection: walkDirectionOf(q.direction),
    resultTypes: resultTypesOf(q.types),
    keepFields: q.liftFields === false,
    program,
    queryTokens:
      text === '' || text === '*'
        ? []
        : text
            .toLowerCase()
            .split(/\s+/)
            .filter((t) => t.length > 0 && t !== '*'),
    depth,
    degreePredicate: predicate,
    clauses,
    listedFields: new Set((clauses ?? []).flat().flatMap((c) => (isListedField(c.field) ? [c.field] : []))),
    listedFacets: q.listedFacets === true,
    window: resolveWindow(q, now),
    perHopLimit: isPresent(perHop) && perHop > 0 ? Math.floor(perHop) : null,
    exploresNothing: perHop === 0,
    ignoreAsHops,
    includeSoftDeleted: q.includeSoftDeleted === true || onRemoved,
    includeGhosts: q.includeGhosts === true,
    skipAggregates: q.skipAggregates === true,
    maxAggValues: isPresent(q.maxAggValues) && q.maxAggValues > 0 ? Math.floor(q.maxAggValues) : 20,
    fingerprint: fingerprintOf(q),
  };
}

// ---------------------------------------------------------------------------------------------
// Free text

export function textMatches(tokens: string[], fields: Array<string | null | undefined>): boolean {
  if (!tokens.length) return true;
  const haystack = fields
    .filter((f): f is string => typeof f === 'string')
    .join('\n')
    .toLowerCase();
  return tokens.every((t) => haystack.includes(t));
}

// ---------------------------------------------------------------------------------------------
// Scroll cursor

export interface CursorPosition {
  degree: number;
  urn: string;
}

export function encodeCursor(fingerprint: string, at: CursorPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, f: fingerprint, d: at.degree, u: at.urn }), 'utf8').toString('base64url');
}

/** The position after which the next page starts; anything malformed or foreign → Invalid scrollId. */
export function decodeCursor(scrollId: string, fingerprint: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    throw validationFailed('Invalid scrollId');
  }
  const c = parsed as { v?: unknown; f?: unknown; d?: unknown; u?: unknown } | null;
  if (
    !c ||
    typeof c !== 'object' ||
    c.v !== 1 ||
    c.f !== fingerprint ||
    typeof c.d !== 'number' ||
    !Number.isInteger(c.d) ||
    typeof c.u !== 'string'
  ) {
    throw validationFailed('Invalid scrollId');
  }
  return { degree: c.d, urn: c.u };
}

/** (degree, urn) order of results: JS string comparison is UTF-16 code-unit order, like Neo4j's. */
export function compareHits(a: CursorPosition, b: CursorPosition): number {
  return a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0);
}

// What the service's configuration bounds every read by; the plan (plan.ts) and every step read it.
export interface LineageLimits {
  /** LINEAGE_MAX_HOPS: "unlimited" depth (≤ 1000, the literal bound of reach-*-max). */
  maxHops: number;
  /** LINEAGE_MAX_RESULTS: entities kept (fast path) / visited (hop-by-hop) before cutting. */
  maxResults: number;
  /** LINEAGE_DEADLINE_MS: wall-clock budget of one request. */
  deadlineMs: number;
  /** Transaction timeout of the fast path; the rest of the deadline is left for the fallback. Default deadlineMs / 2. */
  fastPathTimeoutMs?: number;
  /**
   * Select and count in Neo4j when the request allows it (select.ts); false = always ship the
   * reach and select here (tests compare the two; the bench measures both). Default true.
   */
  selectInDatabase?: boolean;
  /** Hits a streamed selection holds beyond the page (service.ts STREAM_WINDOW); tests make it small. */
  streamWindow?: number;
  /** Hits a scroll's snapshot grows to (service.ts MAX_HELD_HITS); tests make it small. */
  maxHeldHits?: number;
  /** Results up to which the listed facets are counted without a filter on them (listed.ts LISTED_FACETS_MAX_RESULTS); tests make it small. */
  listedFacetsMax?: number;
}

export function lineageLimitsFromConfig(config: {
  LINEAGE_MAX_HOPS: number;
  LINEAGE_MAX_RESULTS: number;
  LINEAGE_DEADLINE_MS: number;
}): LineageLimits {
  return { maxHops: config.LINEAGE_MAX_HOPS, maxResults: config.LINEAGE_MAX_RESULTS, deadlineMs: config.LINEAGE_DEADLINE_MS };
}

/** The time window as statement parameters: every lineage statement's edge test reads these. */
export function windowParams(window: TimeWindow | null) {
  return window ? { unwindowed: false, start: int(window.start), end: int(window.end) } : { unwindowed: true, start: int(0), end: int(0) };
}

/** Whether the walk goes on from this node within the hop that found it (docs/lineage-model.md §Traversal). */
export function isIgnoredAsHop(nq: NormalizedQuery, row: { entityType: string; platform: string | null }): boolean {
  return nq.ignoreAsHops.some(
    (h) => h.entityType === row.entityType && (h.platforms.size === 0 || (row.platform !== null && h.platforms.has(row.platform))),
  );
}

/** The source urn of a lineage read: required and well-formed (400 otherwise). */
export function parseSource(urn: string | null | undefined): Urn {
  if (typeof urn !== 'string' || urn === '') throw badRequest('urn is required');
  const u = tryParseUrn(urn);
  if (!u) throw badRequest(`Invalid urn: ${urn}`);
  return u;
}
