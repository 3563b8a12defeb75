// search / searchAcrossEntities: parse, call the domain search, render DataHub's SearchResults.
import { searchEntities, type EntitySearchInput } from '@lineage/catalog/read';
import { orFiltersOf, type RawFilter } from '@lineage/catalog/model';
import { requireRead, type RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';

interface SearchInputBase {
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: RawFilter[] | null;
  orFilters?: Array<{ and?: RawFilter[] | null }> | null;
}


async function render(ctx: RequestContext, query: EntitySearchInput) {
  requireRead(ctx);
  const result = await searchEntities(ctx.store, query);
  const searchResults = result.hits
    .map((h) => storedRef(h.urn))
    .filter((ref) => ref !== null)
    .map((entity) => ({ entity, insights: [], matchedFields: [] }));
  return { start: result.start, count: searchResults.length, total: result.total, searchResults, facets: [], suggestions: [] };
}

export const searchResolvers = {
  Query: {
    search: (_: unknown, { input }: { input: SearchInputBase & { type: string } }, ctx: RequestContext) =>
      render(ctx, { query: input.query, types: [input.type], start: input.start, count: input.count, orFilters: orFiltersOf(input) }),
    searchAcrossEntities: (_: unknown, { input }: { input: SearchInputBase & { types?: string[] | null } }, ctx: RequestContext) =>
      render(ctx, { query: input.query, types: input.types, start: input.start, count: input.count, orFilters: orFiltersOf(input) }),
  },
};
