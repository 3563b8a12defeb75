// search / searchAcrossEntities: parse, call the domain search, render DataHub's SearchResults.
import { decodeOffset, encodeOffset, searchEntities, type EntitySearchInput } from '@lineage/catalog/read';
import { badRequest, orFiltersOf } from '@lineage/catalog/model';
import { requireRead, type RequestContext } from '../context.ts';
import type { QueryResolvers, SearchAcrossEntitiesInput, SearchSortInput } from '../generated/schema-types.ts';
import { storedRef } from '../entity-ref.ts';
import { renderFacet } from '../facets.ts';

/** What every entity search's input shares (scrollAcrossEntities pages by scrollId, so it has no start and no filters). */
type SearchInputBase = Pick<SearchAcrossEntitiesInput, 'query' | 'count' | 'orFilters' | 'searchFlags'> &
  Partial<Pick<SearchAcrossEntitiesInput, 'start' | 'filters'>>;

/** The sort of searchAcrossEntities and scrollAcrossEntities: by urn or name; none = relevance. Other fields are a 400 naming them. */
function sortOf(input: SearchSortInput | null | undefined): Pick<EntitySearchInput, 'sort' | 'descending'> {
  const criteria = [...(input?.sortCriteria ?? []), ...(input?.sortCriterion ? [input.sortCriterion] : [])];
  if (criteria.length === 0) return {};
  if (criteria.length > 1) throw badRequest('Only one sort criterion is supported');
  const c = criteria[0]!;
  if (c.field !== 'urn' && c.field !== 'name' && c.field !== '_score')
    throw badRequest(`Unknown sort field '${c.field}': sort by urn, name or _score`);
  return { sort: c.field === '_score' ? 'relevance' : c.field, descending: c.sortOrder === 'DESCENDING' };
}

async function render(ctx: RequestContext, query: EntitySearchInput) {
  requireRead(ctx);
  const result = await searchEntities(ctx.store, { ...query, viewer: ctx.viewer });
  const searchResults = result.hits.flatMap((h) => {
    const entity = storedRef(h.urn);
    return entity ? [{ entity, score: h.score, insights: [], matchedFields: [], extraProperties: [] }] : [];
  });
  return {
    start: result.start,
    count: searchResults.length,
    total: result.total,
    searchResults,
    facets: result.facets.map(renderFacet),
    suggestions: [],
  };
}

const common = (input: SearchInputBase) => ({
  query: input.query,
  start: input.start,
  count: input.count,
  orFilters: orFiltersOf(input),
  facets: input.searchFlags?.skipAggregates !== true,
  maxAggValues: input.searchFlags?.maxAggValues,
});

export const searchResolvers = {
  Query: {
    search: (_, { input }, ctx) => render(ctx, { ...common(input), types: [input.type] }),
    searchAcrossEntities: (_, { input }, ctx) => render(ctx, { ...common(input), types: input.types, ...sortOf(input.sortInput) }),
    globalViewsSettings: (_, __, ctx) => {
      requireRead(ctx);
      return { defaultView: null };
    },
    appConfig: (_, __, ctx) => {
      requireRead(ctx);
      return {
        telemetryConfig: { enableThirdPartyLogging: false },
        semanticSearchConfig: { enabled: false, enabledEntities: [], embeddingConfig: null },
      };
    },
    semanticSearchAcrossEntities: (_, __, ctx) => {
      requireRead(ctx);
      throw badRequest('Semantic search is disabled in this environment');
    },
    // Cursor pages over the same search: the scrollId is the next offset, opaque to the client.
    scrollAcrossEntities: async (_, { input }, ctx) => {
      const start = decodeOffset(input.scrollId);
      const page = await render(ctx, {
        ...common(input),
        types: input.types,
        start,
        ...sortOf(input.sortInput),
        includeRemoved: input.searchFlags?.includeSoftDeleted === true,
      });
      const next = start + page.searchResults.length;
      return { ...page, nextScrollId: page.searchResults.length > 0 && next < page.total ? encodeOffset(next) : null };
    },
  } satisfies QueryResolvers,
};
