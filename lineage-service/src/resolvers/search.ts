// search / searchAcrossEntities: parse, call the domain search, render DataHub's SearchResults.
import { searchEntities, type EntitySearchInput, type Facet } from '@lineage/catalog/read';
import { orFiltersOf, type RawFilter } from '@lineage/catalog/model';
import { requireRead, type RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';

interface SearchInputBase {
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: RawFilter[] | null;
  orFilters?: Array<{ and?: RawFilter[] | null }> | null;
  searchFlags?: { skipAggregates?: boolean | null; maxAggValues?: number | null } | null;
}

function renderFacet(f: Facet) {
  return {
    field: f.field,
    displayName: f.displayName,
    entity: null,
    aggregations: f.aggregations.map((a) => ({
      value: a.value,
      count: a.count,
      entity: f.field === 'platform' ? storedRef(a.value) : null,
      displayName: null,
    })),
  };
}

async function render(ctx: RequestContext, query: EntitySearchInput) {
  requireRead(ctx);
  const result = await searchEntities(ctx.store, query);
  const searchResults = result.hits
    .map((h) => storedRef(h.urn))
    .filter((ref) => ref !== null)
    .map((entity) => ({ entity, insights: [], matchedFields: [] }));
  return {
    start: result.start, count: searchResults.length, total: result.total, searchResults,
    facets: result.facets.map(renderFacet), suggestions: [],
  };
}

const common = (input: SearchInputBase) => ({
  query: input.query, start: input.start, count: input.count, orFilters: orFiltersOf(input),
  facets: input.searchFlags?.skipAggregates !== true, maxAggValues: input.searchFlags?.maxAggValues,
});

export const searchResolvers = {
  Query: {
    search: (_: unknown, { input }: { input: SearchInputBase & { type: string } }, ctx: RequestContext) =>
      render(ctx, { ...common(input), types: [input.type] }),
    searchAcrossEntities: (_: unknown, { input }: { input: SearchInputBase & { types?: string[] | null } }, ctx: RequestContext) =>
      render(ctx, { ...common(input), types: input.types }),
  },
};
