// The request side of impact analysis (wire-compat §5.1–§5.2, lineage-model §5–§7), pure: input
// shapes, validation, the depth bound and degree predicate from degree filters, the time window,
// per-entity filter evaluation, and the opaque scroll cursor bound to a query fingerprint.
import { createHash } from 'node:crypto';
import { validationFailed } from '../errors.ts';
import { graphqlToEntityType } from '../entity-registry.ts';

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

export interface FacetFilter {
  field: string;
  values?: string[] | null | undefined;
  /** Deprecated single value: treated as `values: [value]`. */
  value?: string | null | undefined;
  negated?: boolean | null | undefined;
  condition?: string | null | undefined;
}

export interface AndFilter {
  and?: FacetFilter[] | null | undefined;
}

export interface IgnoreAsHop {
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
  /** GraphQL EntityType names; null/empty = DEFAULT_RESULT_TYPES. */
  types?: string[] | null | undefined;
  /** null, empty or '*' = everything; else every token must occur in urn, name or description. */
  query?: string | null | undefined;
  orFilters?: AndFilter[] | null | undefined;
  startTimeMillis?: number | null | undefined;
  endTimeMillis?: number | null | undefined;
  lineageFlags?: LineageFlags | null | undefined;
  includeSoftDeleted?: boolean | null | undefined;
  skipAggregates?: boolean | null | undefined;
  /** Largest number of values per non-degree facet (most frequent first); default 20. */
  maxAggValues?: number | null | undefined;
  /** Compute one shortest path per returned hit (only for the page). Not part of the fingerprint. */
  includePaths?: boolean | null | undefined;
}

/** wire-compat §5.1: what a lineage search returns when `types` is null or empty. */
export const DEFAULT_RESULT_TYPES = [
  'DATASET', 'DATA_JOB', 'CHART', 'DASHBOARD', 'MLFEATURE', 'MLPRIMARY_KEY', 'MLMODEL', 'MLMODEL_GROUP',
  'DATA_PROCESS_INSTANCE',
] as const;

export const DEGREE_VALUES = ['1', '2', '3+'] as const;
export type DegreeValue = (typeof DEGREE_VALUES)[number];

/** Which depth-bound statement family runs: a literal in the Cypher text, never a parameter. */
export type DepthBound = 1 | 2 | 'max';

export interface TimeWindow {
  start: number;
  end: number;
}

/** A filter criterion other than degree, normalised. */
export interface Criterion {
  field: string;
  values: string[];
  negated: boolean;
  condition: string;
}

export interface NormalizedQuery {
  urn: string;
  direction: LineageDirection;
  /** DataHub entity names the results may have (after lifting). */
  resultTypes: ReadonlySet<string>;
  /** `types` listed SCHEMA_FIELD: a field walk returns fields instead of lifting them to datasets. */
  keepFields: boolean;
  queryTokens: string[];
  depth: DepthBound;
  /** null = every degree passes. */
  degreePredicate: ((degree: number) => boolean) | null;
  /** Disjunction of conjunctions without the degree criteria; null = no entity filter. */
  clauses: Criterion[][] | null;
  window: TimeWindow | null;
  perHopLimit: number | null;
  ignoreAsHops: Array<{ entityType: string; platforms: ReadonlySet<string> }>;
  includeSoftDeleted: boolean;
  skipAggregates: boolean;
  maxAggValues: number;
  fingerprint: string;
}

const isPresent = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** lineage-model §6: lineageFlags win over top-level fields; only start → end = now; only end → start = 0. */
export function resolveWindow(q: LineageQuery, now: number): TimeWindow | null {
  const flags = q.lineageFlags;
  const fromFlags = flags && (isPresent(flags.startTimeMillis) || isPresent(flags.endTimeMillis));
  const start = fromFlags ? flags!.startTimeMillis : q.startTimeMillis;
  const end = fromFlags ? flags!.endTimeMillis : q.endTimeMillis;
  if (!isPresent(start) && !isPresent(end)) return null;
  return { start: isPresent(start) ? start : 0, end: isPresent(end) ? end : now };
}

function valuesOf(f: FacetFilter): string[] {
  if (f.values && f.values.length) return f.values;
  return typeof f.value === 'string' ? [f.value] : [];
}

/**
 * wire-compat §5.2 degree filters: the walk bound from every clause, the result predicate from the
 * FIRST clause that has a degree criterion. condition/negated are ignored for degree.
 */
export function degreeFilterOf(orFilters: AndFilter[] | null | undefined): {
  depth: DepthBound;
  predicate: ((degree: number) => boolean) | null;
} {
  const listed = new Set<string>();
  let first: Set<string> | null = null;
  for (const clause of orFilters ?? []) {
    let inClause: Set<string> | null = null;
    for (const f of clause.and ?? []) {
      if (f.field !== 'degree') continue;
      inClause ??= new Set();
      for (const v of valuesOf(f)) {
        if (!(DEGREE_VALUES as readonly string[]).includes(v)) throw validationFailed(`${v} is not a valid filter value for degree filters`);
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

function resultTypesOf(types: string[] | null | undefined): { resultTypes: Set<string>; keepFields: boolean } {
  const listed = types && types.length ? types : [...DEFAULT_RESULT_TYPES];
  const resultTypes = new Set<string>();
  for (const t of listed) {
    const name = graphqlToEntityType(t);
    // An EntityType without a DataHub entity (OTHER) or no lineage simply matches nothing.
    if (name) resultTypes.add(name);
  }
  return { resultTypes, keepFields: resultTypes.has('schemaField') };
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
  };
  return createHash('sha256').update(canonicalJson(material)).digest('base64url').slice(0, 22);
}

export function normalizeQuery(q: LineageQuery, now: number): NormalizedQuery {
  const { depth, predicate } = degreeFilterOf(q.orFilters);
  const { resultTypes, keepFields } = resultTypesOf(q.types);
  const clauses = (q.orFilters ?? []).map((c) =>
    (c.and ?? [])
      .filter((f) => f.field !== 'degree')
      .map((f): Criterion => ({
        field: f.field,
        values: valuesOf(f),
        negated: f.negated === true,
        condition: (f.condition ?? 'EQUAL').toUpperCase(),
      })),
  );
  const text = q.query?.trim() ?? '';
  const flags = q.lineageFlags ?? {};
  const perHop = flags.entitiesExploredPerHopLimit;
  return {
    urn: q.urn,
    direction: q.direction,
    resultTypes,
    keepFields,
    queryTokens: text === '' || text === '*' ? [] : text.toLowerCase().split(/\s+/).filter((t) => t.length > 0 && t !== '*'),
    depth,
    degreePredicate: predicate,
    // A clause left empty by removing its degree criteria matches everything (as in DataHub).
    clauses: clauses.length === 0 || clauses.some((c) => c.length === 0) ? null : clauses,
    window: resolveWindow(q, now),
    perHopLimit: isPresent(perHop) && perHop > 0 ? Math.floor(perHop) : null,
    ignoreAsHops: (flags.ignoreAsHops ?? []).flatMap((h) => {
      const entityType = graphqlToEntityType(h.entityType);
      return entityType ? [{ entityType, platforms: new Set((h.platforms ?? []).map(canonicalPlatform)) }] : [];
    }),
    includeSoftDeleted: q.includeSoftDeleted === true,
    skipAggregates: q.skipAggregates === true,
    maxAggValues: isPresent(q.maxAggValues) && q.maxAggValues > 0 ? Math.floor(q.maxAggValues) : 20,
    fingerprint: fingerprintOf(q),
  };
}

// ---------------------------------------------------------------------------------------------
// Per-entity filters

/** The filterable view of one result entity. */
export interface FilterSubject {
  urn: string;
  /** GraphQL EntityType name. */
  graphqlType: string;
  platform: string | null;
  origin: string | null;
}

function fieldValue(s: FilterSubject, field: string): string | null | undefined {
  switch (field) {
    case '_entityType':
    case 'entityType':
      return s.graphqlType;
    case 'platform':
      return s.platform;
    case 'origin':
      return s.origin;
    case 'urn':
      return s.urn;
    default:
      return undefined; // unmapped field
  }
}

function compare(a: string, b: string): number {
  const x = Number(a), y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

function matchesCondition(actual: string, condition: string, values: string[]): boolean {
  switch (condition) {
    case 'IEQUAL':
      return values.some((v) => v.toLowerCase() === actual.toLowerCase());
    case 'CONTAIN':
      return values.some((v) => actual.toLowerCase().includes(v.toLowerCase()));
    case 'START_WITH':
      return values.some((v) => actual.startsWith(v));
    case 'END_WITH':
      return values.some((v) => actual.endsWith(v));
    case 'GREATER_THAN':
      return values.some((v) => compare(actual, v) > 0);
    case 'GREATER_THAN_OR_EQUAL_TO':
      return values.some((v) => compare(actual, v) >= 0);
    case 'LESS_THAN':
      return values.some((v) => compare(actual, v) < 0);
    case 'LESS_THAN_OR_EQUAL_TO':
      return values.some((v) => compare(actual, v) <= 0);
    default: // EQUAL, IN, and the hierarchy operators (no hierarchy here: they act as EQUAL)
      return values.includes(actual);
  }
}

export function criterionMatches(s: FilterSubject, c: Criterion): boolean {
  const actual = fieldValue(s, c.field);
  let hit: boolean;
  if (actual === undefined) hit = false; // unknown field: like an unmapped search field
  else if (c.condition === 'EXISTS') hit = actual !== null && actual !== '';
  else hit = actual !== null && matchesCondition(actual, c.condition, c.values);
  return c.negated ? !hit : hit;
}

export function clausesMatch(s: FilterSubject, clauses: Criterion[][] | null): boolean {
  return clauses === null || clauses.some((and) => and.every((c) => criterionMatches(s, c)));
}

export function textMatches(tokens: string[], fields: Array<string | null | undefined>): boolean {
  if (!tokens.length) return true;
  const haystack = fields.filter((f): f is string => typeof f === 'string').join('\n').toLowerCase();
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
  if (!c || typeof c !== 'object' || c.v !== 1 || c.f !== fingerprint || typeof c.d !== 'number'
    || !Number.isInteger(c.d) || typeof c.u !== 'string') {
    throw validationFailed('Invalid scrollId');
  }
  return { degree: c.d, urn: c.u };
}

/** (degree, urn) order of results: JS string comparison is UTF-16 code-unit order, like Neo4j's. */
export function compareHits(a: CursorPosition, b: CursorPosition): number {
  return a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0);
}
