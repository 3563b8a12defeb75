// searchAcrossEntities: parse, call the domain search, render DataHub's SearchResults.
import { searchEntities } from '@lineage/catalog/entity-search';
import { requireRead, type RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';

interface SearchAcrossEntitiesInput {
  types?: string[] | null;
  query: string;
  start?: number | null;
  count?: number | null;
}

export const searchResolvers = {
  Query: {
    searchAcrossEntities: async (_: unknown, { input }: { input: SearchAcrossEntitiesInput }, ctx: RequestContext) => {
      requireRead(ctx);
      const result = await searchEntities(ctx.store, { query: input.query, types: input.types, start: input.start, count: input.count });
      const searchResults = result.hits
        .map((h) => storedRef(h.urn))
        .filter((ref) => ref !== null)
        .map((entity) => ({ entity, insights: [], matchedFields: [] }));
      return { start: result.start, count: searchResults.length, total: result.total, searchResults, facets: [], suggestions: [] };
    },
  },
};
