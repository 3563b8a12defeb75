// Search filter fields (orFilters / filters of DataHub's search and lineage inputs), pure: which
// field names mean what, how a criterion is normalised, and how it is evaluated on one entity.
// DataHub evaluates these against its Elasticsearch documents, where an unknown field silently
// matches nothing; here an unknown field is a 400 naming it and the fields that exist
// (docs/wire-contract.md §Filters). Most fields hold one value of the entity (its type, platform,
// urn…); the listed fields — tags, glossaryTerms, owners, domains — hold the urns it is associated
// with, and a criterion on one holds when any of those urns meets it (negated: when none does).
// Catalogue search judges them in Neo4j (cypher/search/entities); a lineage search reads them for
// the entities its walk reached and judges them here (FilterSubject.lists).
import { badRequest } from './errors.ts';

/** The fields of an entity itself that a filter may judge; every search accepts these. */
export const ENTITY_FILTER_FIELDS = ['entityType', 'platform', 'origin', 'urn', 'removed', 'parent', 'name', 'description'] as const;
/** What an entity holds through its tags, terms, owners and domains: catalogue and lineage searches judge these. */
export const LISTED_FILTER_FIELDS = ['tags', 'glossaryTerms', 'owners', 'domains'] as const;
/** DataHub's facets of those fields, with its display names, in the order its searches list them. */
export const LISTED_FACETS: ReadonlyArray<{ field: ListedField; displayName: string }> = [
  { field: 'domains', displayName: 'Domain' },
  { field: 'tags', displayName: 'Tag' },
  { field: 'glossaryTerms', displayName: 'Glossary Term' },
  { field: 'owners', displayName: 'Owned By' },
];
export type ListedField = (typeof LISTED_FILTER_FIELDS)[number];
/** The urns an entity holds under each listed field (a field not read: none). */
export type ListedValues = Partial<Record<ListedField, readonly string[]>>;
/** hasUpstreams is known of a search's hits only (entity search asks for it); typeNames (subtypes) is judged by catalogue search only. */
export type FilterField = (typeof ENTITY_FILTER_FIELDS)[number] | ListedField | 'hasUpstreams' | 'typeNames';

/** The filterable view of one entity. */
export interface FilterSubject {
  urn: string;
  /** DataHub entity name (dataset, dataJob, …). */
  entityType: string;
  platform: string | null;
  origin: string | null;
  removed: boolean;
  /** A schemaField's parent urn; null for anything else. */
  parent: string | null;
  name?: string | null;
  description?: string | null;
  hasUpstreams?: boolean;
  /** Its tags, terms, owners and domains, when the caller read them (a lineage search with a filter on one). */
  lists?: ListedValues | null;
}

export interface RawFilter {
  field: string;
  values?: readonly string[] | null | undefined;
  /** Deprecated single value: read as `values: [value]`. */
  value?: string | null | undefined;
  negated?: boolean | null | undefined;
  condition?: string | null | undefined;
}

export interface Criterion {
  field: FilterField;
  values: string[];
  negated: boolean;
  condition: string;
}

// Index field names as DataHub clients send them. `.keyword` is the exact-match sub-field of the
// same field, `env` is DataHub's other name for origin, and `_entityType` (any case) selects by
// entity type. `entityType` is this catalog's own alias, kept for earlier clients.
const FIELD_NAMES: ReadonlyMap<string, FilterField> = new Map<string, FilterField>([
  ['_entitytype', 'entityType'],
  ['entityType', 'entityType'],
  ['platform', 'platform'],
  ['origin', 'origin'],
  ['env', 'origin'],
  ['urn', 'urn'],
  ['removed', 'removed'],
  ['parent', 'parent'],
  ['name', 'name'],
  ['description', 'description'],
  ['hasUpstreams', 'hasUpstreams'],
  ['tags', 'tags'],
  ['glossaryTerms', 'glossaryTerms'],
  ['owners', 'owners'],
  ['domains', 'domains'],
  ['typeNames', 'typeNames'],
]);

/** The FilterField a request field name stands for; undefined when the catalog has no such field. */
export function filterFieldOf(field: string): FilterField | undefined {
  const name = field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field;
  return name.toLowerCase() === '_entitytype' ? 'entityType' : FIELD_NAMES.get(name);
}

export function valuesOf(f: RawFilter): string[] {
  if (f.values && f.values.length) return [...f.values];
  return typeof f.value === 'string' ? [f.value] : [];
}

/** The request names of the fields a door accepts, for error messages. */
function namesOf(allowed: ReadonlySet<FilterField>): string {
  return [...FIELD_NAMES]
    .filter(([, f]) => allowed.has(f))
    .map(([n]) => (n === '_entitytype' ? '_entityType' : n))
    .join(', ');
}

const platformUrn = (p: string) => (p.includes(':') ? p : `urn:li:dataPlatform:${p}`);

/** A request filter as a criterion; a field outside `allowed` is a 400 naming the ones that are in. */
export function toCriterion(f: RawFilter, allowed: ReadonlySet<FilterField>): Criterion {
  const field = filterFieldOf(f.field);
  if (field === undefined || !allowed.has(field)) {
    throw badRequest(`Unknown filter field '${f.field}': filter on ${namesOf(allowed)}`);
  }
  const condition = (f.condition ?? 'EQUAL').toUpperCase();
  let values = valuesOf(f);
  // A platform is stored as its urn; a bare name ("mysql") means that platform's urn.
  if (field === 'platform' && condition !== 'CONTAIN') values = values.map(platformUrn);
  return { field, values, negated: f.negated === true, condition };
}

function fieldValue(s: FilterSubject, field: FilterField): string | null {
  switch (field) {
    case 'entityType':
      return s.entityType;
    case 'platform':
      return s.platform;
    case 'origin':
      return s.origin;
    case 'urn':
      return s.urn;
    case 'removed':
      return String(s.removed);
    case 'parent':
      return s.parent;
    case 'name':
      return s.name ?? null;
    case 'description':
      return s.description ?? null;
    case 'hasUpstreams':
      return s.hasUpstreams === undefined ? null : String(s.hasUpstreams);
    default: // the listed fields hold several values: criterionMatches reads them from `lists`
      return null;
  }
}

const LISTED: ReadonlySet<FilterField> = new Set<FilterField>(LISTED_FILTER_FIELDS);

/** Whether a field holds a list of urns (tags, glossaryTerms, owners, domains) rather than one value. */
export function isListedField(field: FilterField): field is ListedField {
  return LISTED.has(field);
}

/** DATA_JOB, dataJob and datajob all name the dataJob type (DataHub drops the underscores). */
const typeKey = (v: string) => v.replaceAll('_', '').toLowerCase();

// A value is a number exactly when Neo4j's toFloatOrNull reads one (Java's Double.parseDouble:
// surrounding control characters and spaces, a sign, decimal digits with an exponent, a hexadecimal
// significand with a binary exponent, an f/d suffix, NaN and Infinity), so that a comparison judged in
// Cypher (cypher/search/entities, cypher/lineage/select-*) and here agree on every value
// (test/cypher/numbers.test.ts holds the two together).
const SPECIAL = /^([+-]?)(NaN|Infinity)$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/;
const HEXADECIMAL = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)[fFdD]?$/;

/** The number a filter value stands for, as Neo4j's toFloatOrNull reads it; null when it is text. */
export function numberOf(value: string): number | null {
  const v = value.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  const special = SPECIAL.exec(v);
  if (special) return special[2] === 'NaN' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity;
  if (DECIMAL.test(v)) return Number(v.replace(/[fFdD]$/, ''));
  const hex = HEXADECIMAL.exec(v);
  if (!hex || (hex[2] === '' && !hex[3])) return null;
  const [, sign, whole, fraction = '', exponent] = hex;
  const significand = Number.parseInt(`${whole}${fraction}` || '0', 16) / 16 ** fraction.length;
  return (sign === '-' ? -1 : 1) * significand * 2 ** Number(exponent);
}

/** Negative, zero or positive; NaN when a side is NaN (then every comparison fails, as in Cypher). */
function compare(a: string, b: string): number {
  const x = numberOf(a),
    y = numberOf(b);
  if (x !== null && y !== null) return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  return a < b ? -1 : a > b ? 1 : 0;
}

function matchesCondition(actual: string, condition: string, values: readonly string[]): boolean {
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
  if (isListedField(c.field)) return listMatches(s.lists?.[c.field] ?? [], c);
  const actual = fieldValue(s, c.field);
  if (c.field === 'entityType' && actual !== null) return valueMatches(typeKey(actual), { ...c, values: c.values.map(typeKey) });
  return valueMatches(actual, c);
}

/** Whether one value (null: none) meets a criterion's condition, values and negation. */
export function valueMatches(actual: string | null, c: Pick<Criterion, 'values' | 'negated' | 'condition'>): boolean {
  // An empty value list restricts nothing, negated or not (DataHub drops such a criterion).
  if (c.condition !== 'EXISTS' && c.values.length === 0) return true;
  const hit =
    c.condition === 'EXISTS' ? actual !== null && actual !== '' : actual !== null && matchesCondition(actual, c.condition, c.values);
  return c.negated ? !hit : hit;
}

/**
 * Whether a list of values (the urns an entity holds) meets a criterion: any value meeting it is a
 * hit, so an empty list meets no positive criterion and every negated one (as cypher/search/entities).
 */
function listMatches(actual: readonly string[], c: Pick<Criterion, 'values' | 'negated' | 'condition'>): boolean {
  if (c.condition !== 'EXISTS' && c.values.length === 0) return true;
  const hit = c.condition === 'EXISTS' ? actual.some((v) => v !== '') : actual.some((v) => matchesCondition(v, c.condition, c.values));
  return c.negated ? !hit : hit;
}

export type OrFilters = ReadonlyArray<{ and?: readonly RawFilter[] | null | undefined }>;

/**
 * The filter of a request: its orFilters, or — only when it has none, as DataHub's resolvers read
 * them — the deprecated `filters` as one conjunction.
 */
export function orFiltersOf(input: { orFilters?: OrFilters | null; filters?: readonly RawFilter[] | null }): OrFilters {
  if (input.orFilters?.length) return input.orFilters;
  return input.filters?.length ? [{ and: input.filters }] : [];
}

/**
 * A request's orFilters as clauses (the `except` filters, such as lineage's degree, taken out).
 * `removed != true` is the default anyway (the Python SDK sends it with every search), so it is
 * dropped; any other criterion on `removed` makes soft-deleted entities candidates that the
 * criterion then decides on (`onRemoved`). A clause left empty matches everything, as in DataHub,
 * and so does the whole disjunction.
 */
export function parseClauses(
  orFilters: OrFilters | null | undefined,
  allowed: ReadonlySet<FilterField>,
  except: (f: RawFilter) => boolean = () => false,
): { clauses: Clauses; onRemoved: boolean } {
  const listed = (orFilters ?? []).map((c) =>
    (c.and ?? [])
      .filter((f) => !except(f))
      .map((f) => toCriterion(f, allowed))
      .filter((crit) => !isNotRemovedCriterion(crit)),
  );
  const clauses = listed.length === 0 || listed.some((c) => c.length === 0) ? null : listed;
  return { clauses, onRemoved: filtersOnRemoved(clauses) };
}

/**
 * Criteria as the parameters of a statement that evaluates them in Neo4j (cypher/search/entities):
 * entity types in their comparable form, so the statement lower-cases the node's type only.
 */
export function clausesParam(clauses: Clauses) {
  return clauses === null
    ? null
    : clauses.map((and) =>
        and.map((c) => ({
          field: c.field,
          condition: c.condition,
          negated: c.negated,
          values: c.field === 'entityType' ? c.values.map(typeKey) : c.values,
        })),
      );
}

/** A disjunction of conjunctions; null = no filter. */
export type Clauses = Criterion[][] | null;

export function clausesMatch(s: FilterSubject, clauses: Clauses): boolean {
  return clauses === null || clauses.some((and) => and.every((c) => criterionMatches(s, c)));
}

/** Whether a criterion on `removed` appears anywhere: then it decides soft deletion, not the default. */
function filtersOnRemoved(clauses: Clauses): boolean {
  return clauses !== null && clauses.some((and) => and.some((c) => c.field === 'removed'));
}

/** `removed != true` (or `removed = false`): exactly the default exclusion of soft-deleted entities. */
function isNotRemovedCriterion(c: Criterion): boolean {
  if (c.field !== 'removed' || c.condition !== 'EQUAL' || c.values.length !== 1) return false;
  return (c.values[0] === 'true' && c.negated) || (c.values[0] === 'false' && !c.negated);
}
