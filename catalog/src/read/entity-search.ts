// Catalogue-wide entity search (GraphQL search and searchAcrossEntities): the search fields of
// entity nodes through Neo4j's full-text index. Every query token must match (prefix match on each
// token), so "fct_users" finds fct_users_created and fct_users_deleted. Ghosts are never returned;
// soft-deleted entities only when a filter on `removed` asks for them. orFilters are evaluated in
// Neo4j, on the same fields and with the same meanings as everywhere (filters.ts).
import { graphqlToEntityType } from '../model/entity-registry.ts';
import { badRequest } from '../model/errors.ts';
import { clausesParam, parseClauses, type FilterField, type RawFilter } from '../model/filters.ts';
import { int, type Store } from '../store/store.ts';

/** What a search lists when `types` is null or empty: the types that take part in lineage. */
export const DEFAULT_SEARCH_TYPES = [
  'DATASET', 'DATA_JOB', 'CHART', 'DASHBOARD', 'MLFEATURE', 'MLPRIMARY_KEY', 'MLMODEL', 'MLMODEL_GROUP',
  'DATA_PROCESS_INSTANCE',
] as const;

export interface EntitySearchInput {
  query: string;
  /** GraphQL EntityType names; empty = the lineage-capable types. */
  types?: readonly string[] | null | undefined;
  start?: number | null | undefined;
  count?: number | null | undefined;
  /** Disjunction of conjunctions of criteria (DataHub's orFilters). */
  orFilters?: ReadonlyArray<{ and?: readonly RawFilter[] | null | undefined }> | null | undefined;
}

/** Filter fields an entity search accepts (docs/wire-contract.md §Filters). */
export const SEARCH_FILTER_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>(
  ['entityType', 'platform', 'origin', 'urn', 'removed', 'parent', 'name', 'description', 'hasUpstreams']);

export interface EntitySearchResult {
  start: number;
  total: number;
  hits: Array<{ urn: string; entityType: string; score: number }>;
}

export const MAX_SEARCH_PAGE = 1000;

// Lucene's query syntax characters; escaped so user text is always literal.
const LUCENE_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/** User text → a Lucene query: every token required, each as an escaped prefix match. */
export function luceneQueryOf(text: string): string | undefined {
  const tokens = text.trim().split(/\s+/).filter((t) => t.length > 0 && t !== '*');
  if (!tokens.length) return undefined;
  return tokens.map((t) => `+${t.toLowerCase().replace(LUCENE_SPECIAL, '\\$&')}*`).join(' ');
}

export async function searchEntities(store: Store, input: EntitySearchInput): Promise<EntitySearchResult> {
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (!Number.isInteger(start) || start < 0) throw badRequest(`start must be a non-negative integer, got ${start}`);
  if (!Number.isInteger(count) || count < 0) throw badRequest(`count must be a non-negative integer, got ${count}`);
  const typeNames = input.types?.length ? input.types : DEFAULT_SEARCH_TYPES;
  const types = typeNames.map((t) => {
    const name = graphqlToEntityType(t);
    if (!name) throw badRequest(`Unknown entity type ${t}`);
    return name;
  });
  const lucene = luceneQueryOf(input.query) ?? null;
  const { clauses, onRemoved } = parseClauses(input.orFilters, SEARCH_FILTER_FIELDS);
  type Row = { total: number; page: Array<{ urn: string; entityType: string; score: number }> };
  const rows = await store.read((tx) => tx.run<Row>('search/entities', {
    lucene, types, clauses: clausesParam(clauses), removedFiltered: onRemoved,
    skip: int(start), limit: int(Math.min(count, MAX_SEARCH_PAGE)),
  }));
  return { start, total: rows[0]?.total ?? 0, hits: rows[0]?.page ?? [] };
}
