// Catalogue-wide entity search (GraphQL search and searchAcrossEntities): the search fields of
// entity nodes through Neo4j's full-text index over their searchText words, split as DataHub's
// analyzer splits (model/search-analyzer.ts). Every query word must match a word of the entity as a
// prefix, so "orders" finds fct_orders and "fct_users" finds fct_users_created; an exact urn comes
// first, then an exact name. A query starting with `/q ` is DataHub's structured syntax instead
// (model/structured-query.ts), run in Neo4j as a parameter program (docs/wire-contract.md §Structured
// queries). Ghosts are never returned; soft-deleted entities only when a filter on
// `removed` asks for them. orFilters are evaluated in Neo4j, on the same fields and with the same
// meanings as everywhere (filters.ts); facets count every match (docs/wire-contract.md §Catalogue search).
import { defaultSearchTypes, entityTypeToGraphql, graphqlToEntityType } from '../model/entity-registry.ts';
import { badRequest } from '../model/errors.ts';
import {
  clausesParam,
  ENTITY_FILTER_FIELDS,
  LISTED_FACETS,
  LISTED_FILTER_FIELDS,
  parseClauses,
  type Clauses,
  type FilterField,
  type RawFilter,
} from '../model/filters.ts';
import { luceneOf, searchQueryOf } from '../model/search-analyzer.ts';
import { structuredProgramOf, type StructuredProgram } from '../model/structured-query-program.ts';
import { int, type Store } from '../store/store.ts';
import type { Facet, FacetAggregation } from './lineage/results.ts';
import type { Viewer } from './view-authorization.ts';

export interface EntitySearchInput {
  query: string;
  /** Read the query as structured syntax even without `/q ` (the OpenAPI v3 scroll, as DataHub's). */
  structured?: boolean | undefined;
  /** GraphQL EntityType names; empty = the lineage-capable types. */
  types?: readonly string[] | null | undefined;
  /** Entity type names (dataset, …) instead of `types` (the OpenAPI doors); checked by the caller. */
  entityTypes?: readonly string[] | undefined;
  /** Order: relevance (default), or by urn or name (OpenAPI sort criteria). */
  sort?: 'relevance' | 'urn' | 'name' | undefined;
  descending?: boolean | undefined;
  /** Keep soft-deleted entities without a filter on `removed` (OpenAPI includeSoftDelete). */
  includeRemoved?: boolean | undefined;
  start?: number | null | undefined;
  count?: number | null | undefined;
  /** Disjunction of conjunctions of criteria (DataHub's orFilters). */
  orFilters?: ReadonlyArray<{ and?: readonly RawFilter[] | null | undefined }> | null | undefined;
  /** false = no facets (DataHub's searchFlags.skipAggregates); default true. */
  facets?: boolean | undefined;
  /** Most values per facet (DataHub's searchFlags.maxAggValues); default 20. */
  maxAggValues?: number | null | undefined;
  /** One of `max` disjoint slices that together cover the matches (DataHub's sliceOptions); checked by the caller. */
  slice?: { id: number; max: number } | undefined;
  /** Who asks, when view authorization may hide entities: hidden ones are in no page, total or facet. */
  viewer?: Viewer | undefined;
}

/** Printable ASCII → its code, for the slice hash of cypher/search/entities (Cypher has no char codes). */
const URN_CHAR_CODES: Readonly<Record<string, number>> = Object.fromEntries(
  Array.from({ length: 95 }, (_, i) => [String.fromCharCode(32 + i), 32 + i]),
);

/** Filter fields an entity search accepts (docs/wire-contract.md §Filters). */
const SEARCH_FILTER_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>([
  ...ENTITY_FILTER_FIELDS,
  ...LISTED_FILTER_FIELDS,
  'hasUpstreams',
  'typeNames',
]);

export interface EntitySearchResult {
  start: number;
  total: number;
  hits: Array<{ urn: string; entityType: string; score: number }>;
  /**
   * `_entityType`, `platform`, `origin`, `typeNames`, `domains`, `tags`, `glossaryTerms`, `owners`,
   * each over every match; empty when not asked.
   */
  facets: Facet[];
}

const MAX_SEARCH_PAGE = 1000;

/** User text → Lucene text for the search index; undefined when the text asks for everything. */
export function luceneQueryOf(text: string): string | undefined {
  const q = searchQueryOf(text);
  return q && luceneOf(q);
}

type Group = { entityType: string; platform: string | null; origin: string | null; count: number };
type Listed = { field: ListedField; value: string; count: number };
type ListedField = (typeof LISTED_FILTER_FIELDS)[number];

/** Value counts → aggregations: most frequent first, then by value, at most `max`. */
function aggregations(entries: Iterable<[string | null, number]>, max: number): FacetAggregation[] {
  const counts = new Map<string, number>();
  for (const [v, n] of entries) if (v !== null && v !== '') counts.set(v, (counts.get(v) ?? 0) + n);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, max);
}

/** DataHub's four default search facets, with its field names and display names. */
function facetsOf(groups: Group[], typeNames: Array<{ value: string; count: number }>, listed: Listed[], max: number): Facet[] {
  return [
    {
      field: '_entityType',
      displayName: 'Type',
      aggregations: aggregations(
        groups.map((g) => [entityTypeToGraphql(g.entityType), g.count]),
        max,
      ),
    },
    {
      field: 'platform',
      displayName: 'Platform',
      aggregations: aggregations(
        groups.map((g) => [g.platform, g.count]),
        max,
      ),
    },
    {
      field: 'origin',
      displayName: 'Environment',
      aggregations: aggregations(
        groups.map((g) => [g.origin, g.count]),
        max,
      ),
    },
    {
      field: 'typeNames',
      displayName: 'Sub Type',
      aggregations: aggregations(
        typeNames.map((t) => [t.value, t.count]),
        max,
      ),
    },
    ...LISTED_FACETS.map(({ field, displayName }) => ({
      field,
      displayName,
      aggregations: aggregations(
        listed.filter((l) => l.field === field).map((l) => [l.value, l.count]),
        max,
      ),
    })),
  ];
}

/**
 * The matches the viewer may see, filtered before anything is counted (docs/wire-contract.md §Auth,
 * "View authorization"): every match's urn, then one batch decision over them. The search runs
 * again restricted to these, so its page, total and facets are the visible entities' only.
 */
async function visibleMatches(
  viewer: Viewer,
  run: (extra: { facets: boolean; skip: number; limit: number; visible: null }) => Promise<Array<{ page: Array<{ urn: string }> }>>,
): Promise<string[]> {
  const all = (await run({ facets: false, skip: 0, limit: 2 ** 31 - 1, visible: null }))[0]?.page ?? [];
  const urns = all.map((h) => h.urn);
  const visible = await viewer.visible(urns);
  return urns.filter((u) => visible.has(u));
}

/** Which list-valued fields the statement reads: for facets, the filters and the program. */
function listsOf(facets: boolean, clauses: Clauses, program: StructuredProgram | null): Record<ListedField, boolean> {
  const named = new Set<string>([...(clauses ?? []).flat().map((c) => c.field), ...(program?.fields ?? [])]);
  return Object.fromEntries(LISTED_FILTER_FIELDS.map((f) => [f, facets || named.has(f)])) as Record<ListedField, boolean>;
}

export async function searchEntities(store: Store, input: EntitySearchInput): Promise<EntitySearchResult> {
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (!Number.isInteger(start) || start < 0) throw badRequest(`start must be a non-negative integer, got ${start}`);
  if (!Number.isInteger(count) || count < 0) throw badRequest(`count must be a non-negative integer, got ${count}`);
  const maxAgg = input.maxAggValues ?? 20;
  if (!Number.isInteger(maxAgg) || maxAgg < 0) throw badRequest(`maxAggValues must be a non-negative integer, got ${maxAgg}`);
  // No types: those taking part in lineage (the registry's defaultSearchTypes, from the descriptors).
  const typeNames = input.types?.length ? input.types : defaultSearchTypes();
  const types =
    input.entityTypes ??
    typeNames.map((t) => {
      const name = graphqlToEntityType(t);
      if (!name) throw badRequest(`Unknown entity type ${t}`);
      return name;
    });
  const program = structuredProgramOf(input.query, input.structured === true);
  const lucene = program ? null : (luceneQueryOf(input.query) ?? null);
  const { clauses, onRemoved } = parseClauses(input.orFilters, SEARCH_FILTER_FIELDS);
  const facets = input.facets !== false;
  // A structured query naming `removed` decides soft deletion itself, as a filter on it does.
  const programOnRemoved = program?.fields.includes('removed') === true;
  type Row = {
    total: number;
    page: Array<{ urn: string; entityType: string; score: number }>;
    groups: Group[];
    typeNames: Array<{ value: string; count: number }>;
    listed: Listed[];
  };
  const params = {
    lucene,
    text: program ? '' : input.query.trim(),
    types,
    clauses: clausesParam(clauses),
    program: program?.steps ?? null,
    urns: null,
    lists: listsOf(facets, clauses, program),
    removedFiltered: onRemoved || programOnRemoved || input.includeRemoved === true,
    sort: input.sort ?? 'relevance',
    descending: input.descending === true,
    slice: input.slice ? { id: int(input.slice.id), max: int(input.slice.max), codes: URN_CHAR_CODES } : null,
  };
  const run = (extra: { facets: boolean; skip: number; limit: number; visible: string[] | null }) =>
    store.read((tx) => tx.run<Row>('search/entities', { ...params, ...extra, skip: int(extra.skip), limit: int(extra.limit) }));
  const visible = input.viewer?.restricts ? await visibleMatches(input.viewer, run) : null;
  const rows = await run({ facets, skip: start, limit: Math.min(count, MAX_SEARCH_PAGE), visible });
  const row = rows[0];
  return {
    start,
    total: row?.total ?? 0,
    hits: row?.page ?? [],
    facets: facets && row ? facetsOf(row.groups, row.typeNames, row.listed, maxAgg) : [],
  };
}

/**
 * Which of some entities a structured query keeps (a lineage search's candidates): judged by the
 * search statement on those entities alone, ghosts and soft-deleted ones included — the caller's own
 * rules decide on those.
 */
export async function structuredMatches(store: Store, program: StructuredProgram, urns: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(urns)];
  if (unique.length === 0) return new Set();
  const rows = await store.read((tx) =>
    tx.run<{ page: Array<{ urn: string }> }>('search/entities', {
      lucene: null,
      text: '',
      types: [],
      clauses: null,
      program: program.steps,
      urns: unique,
      lists: listsOf(false, null, program),
      removedFiltered: true,
      facets: false,
      sort: 'urn',
      descending: false,
      skip: int(0),
      limit: int(unique.length),
      slice: null,
      visible: null,
    }),
  );
  return new Set((rows[0]?.page ?? []).map((h) => h.urn));
}
