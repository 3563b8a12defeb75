// search / searchAcrossEntities: parse, call the domain search, render DataHub's SearchResults.
import { decodeOffset, encodeOffset, searchEntities, type EntitySearchInput } from '@lineage/catalog/read';
import { badRequest, orFiltersOf, type RawFilter } from '@lineage/catalog/model';
import { requireRead, type RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';
import { renderFacet } from '../facets.ts';

interface SearchInputBase {
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: RawFilter[] | null;
  orFilters?: Array<{ and?: RawFilter[] | null }> | null;
  searchFlags?: { skipAggregates?: boolean | null; maxAggValues?: number | null; includeSoftDeleted?: boolean | null } | null;
}

type SortInput = { sortCriterion?: SortCriterion | null; sortCriteria?: SortCriterion[] | null } | null | undefined;
type SortCriterion = { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' };

/** The sort of searchAcrossEntities and scrollAcrossEntities: by urn or name; none = relevance. Other fields are a 400 naming them. */
function sortOf(input: SortInput): Pick<EntitySearchInput, 'sort' | 'descending'> {
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
    search: (_: unknown, { input }: { input: SearchInputBase & { type: string } }, ctx: RequestContext) =>
      render(ctx, { ...common(input), types: [input.type] }),
    searchAcrossEntities: (
      _: unknown,
      { input }: { input: SearchInputBase & { types?: string[] | null; sortInput?: SortInput } },
      ctx: RequestContext,
    ) => render(ctx, { ...common(input), types: input.types, ...sortOf(input.sortInput) }),
    globalViewsSettings: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireRead(ctx);
      return { defaultView: null };
    },
    appConfig: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireRead(ctx);
      return {
        telemetryConfig: { enableThirdPartyLogging: false },
        semanticSearchConfig: { enabled: false, enabledEntities: [], embeddingConfig: null },
      };
    },
    semanticSearchAcrossEntities: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireRead(ctx);
      throw badRequest('Semantic search is disabled in this environment');
    },
    // Cursor pages over the same search: the scrollId is the next offset, opaque to the client.
    scrollAcrossEntities: async (
      _: unknown,
      { input }: { input: SearchInputBase & { types?: string[] | null; scrollId?: string | null; sortInput?: SortInput } },
      ctx: RequestContext,
    ) => {
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
  },
};
