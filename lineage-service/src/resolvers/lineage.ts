// Lineage over GraphQL: updateLineage (docs/wire-contract.md §GraphQL), scrollAcrossLineage /
// searchAcrossLineage (§Lineage search) and the one-hop `lineage(input)` field of every
// EntityWithRelationships (§GraphQL). Each resolver parses its input, calls one domain function and
// renders the result in DataHub's shapes.
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { updateLineage, type LineageEdgeInput } from '@lineage/catalog/write';
import {
  lineageNeighbours,
  scrollLineage,
  searchLineage,
  type LineageHit,
  type LineagePage,
  type LineageQuery,
  countLineage,
  maskUrns,
  restrictHits,
  type Viewer,
} from '@lineage/catalog/read';
import { LISTED_FILTER_FIELDS, orFiltersOf } from '@lineage/catalog/model';
import { requireRead, type RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import { renderFacet } from '../facets.ts';
import type { LineageInput, MutationResolvers, QueryResolvers, SearchAcrossLineageInput, SearchFlags } from '../generated/schema-types.ts';
import { MAX_PAGE_SIZE, pageArgument } from '../paging.ts';

/** Facets whose values are entities a hit holds (tags, terms, owners, domains). */
const LISTED_FACET_FIELDS: ReadonlySet<string> = new Set(LISTED_FILTER_FIELDS);

/** DataHub's default page size for both lineage searches. */
const DEFAULT_COUNT = 10;

/** What both lineage searches' inputs share (scrollAcrossLineage pages by scrollId and has no deprecated filters). */
type LineageSearchInput = Omit<SearchAcrossLineageInput, 'start' | 'viewUrn'>;

/** Whether the operation selects `path` under this field (paths are computed only when asked for). */
function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const has = (set: SelectionSetNode | undefined, depth: number): boolean =>
    !!set &&
    set.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === path[depth] && (depth === path.length - 1 || has(s.selectionSet, depth + 1));
      if (s.kind === Kind.INLINE_FRAGMENT) return has(s.selectionSet, depth);
      return has(info.fragments[s.name.value]?.selectionSet, depth);
    });
  return info.fieldNodes.some((f) => has(f.selectionSet, 0));
}

/**
 * Whether schemaField results become their parents. searchAcrossLineage lifts them unless its
 * groupingSpec is given without the SCHEMA_FIELD → DATASET criterion; scrollAcrossLineage always
 * lifts, whatever the spec says (both as DataHub does: docs/lineage-model.md §Columns).
 */
function liftsFields(searchFlags: SearchFlags | null | undefined): boolean {
  const spec = searchFlags?.groupingSpec;
  if (!spec) return true;
  return (spec.groupingCriteria ?? []).some((c) => c.baseEntityType === 'SCHEMA_FIELD' && c.groupingEntityType === 'DATASET');
}

function lineageQuery(input: LineageSearchInput, info: GraphQLResolveInfo, liftFields: boolean, viewer: Viewer): LineageQuery {
  const orFilters = orFiltersOf(input);
  return {
    urn: input.urn ?? '',
    direction: input.direction,
    types: input.types,
    query: input.query,
    orFilters,
    startTimeMillis: input.startTimeMillis,
    endTimeMillis: input.endTimeMillis,
    lineageFlags: input.lineageFlags,
    includeSoftDeleted: input.searchFlags?.includeSoftDeleted,
    skipAggregates: input.searchFlags?.skipAggregates,
    maxAggValues: input.searchFlags?.maxAggValues,
    includePaths: selects(info, ['searchResults', 'paths']),
    // The tags, terms, owners and domains facets are read only for an operation that selects facets,
    // and never for a caller who does not view everything: their values would name what restricted
    // entities hold (renderPage drops them under a filter on those fields too).
    listedFacets: selects(info, ['facets']) && !viewer.restricts,
    liftFields,
  };
}

const pageSize = (count: number | null | undefined) => pageArgument('count', count, DEFAULT_COUNT, MAX_PAGE_SIZE);

function renderHit(h: LineageHit) {
  return {
    entity: storedRef(h.urn),
    insights: [],
    matchedFields: [],
    paths: h.paths ? h.paths.map((p) => ({ path: p.map(storedRef) })) : null,
    degree: h.degree,
    degrees: [h.degree],
    explored: h.explored === true,
    truncatedChildren: h.truncatedChildren,
    ignoredAsHop: h.ignoredAsHop,
  };
}

/**
 * DataHub's results mappers answer the requested page size as `count`, not the hits returned.
 * Hits the caller may not view are Restricted entities; the total and facets still count them.
 */
async function renderPage(page: LineagePage, pageSize: number, viewer: Viewer) {
  return {
    count: pageSize,
    total: page.total,
    searchResults: (await restrictHits(viewer, page.hits)).map(renderHit),
    facets: page.facets.filter((f) => !viewer.restricts || !LISTED_FACET_FIELDS.has(f.field)).map(renderFacet),
    freshness: null,
    isPartial: page.isPartial,
  };
}

/** `lineage(input)` on every EntityWithRelationships: one hop, degree 1. */
export async function lineageField(ref: EntityRef, { input }: { input: LineageInput }, ctx: RequestContext) {
  const page = await lineageNeighbours(ctx.store, ref.urn.text, input.direction, {
    ...input,
    start: pageArgument('start', input.start, 0),
    count: pageArgument('count', input.count, 100, MAX_PAGE_SIZE),
  });
  const as = await maskUrns(
    ctx.viewer,
    page.relationships.map((r) => r.urn),
  );
  return {
    start: page.start,
    count: page.count,
    total: page.total,
    filtered: page.filtered,
    relationships: page.relationships.map((r) => ({
      type: r.type,
      entity: storedRef(as(r.urn)),
      degree: r.degree,
      createdOn: r.createdOn,
      createdActor: storedRef(r.createdActor),
      updatedOn: r.updatedOn,
      updatedActor: storedRef(r.updatedActor),
      isManual: r.isManual,
      paths: [{ path: [ref, storedRef(as(r.urn))] }],
    })),
  };
}

export const lineageResolvers = {
  // What an entity the caller may not view shows: its opaque urn and type, nothing it relates to.
  Restricted: {
    urn: (ref: EntityRef) => ref.urn.text,
    type: () => 'RESTRICTED',
    relationships: () => null,
    lineage: () => null,
  },
  Mutation: {
    updateLineage: async (_, { input }, ctx) => {
      const present = (edges: ReadonlyArray<LineageEdgeInput | null | undefined>) => edges.filter((e): e is LineageEdgeInput => !!e);
      return updateLineage(ctx.store, { edgesToAdd: present(input.edgesToAdd), edgesToRemove: present(input.edgesToRemove) }, ctx.actor);
    },
  } satisfies MutationResolvers,
  Query: {
    scrollAcrossLineage: async (_, { input }, ctx, info) => {
      requireRead(ctx);
      const count = pageSize(input.count);
      const page = await scrollLineage(
        ctx.store,
        lineageQuery(input, info, true, ctx.viewer),
        { count, scrollId: input.scrollId },
        ctx.limits,
      );
      ctx.lineagePlans.push({ field: info.path.key.toString(), strategy: page.strategy, plan: page.plan });
      return { nextScrollId: page.nextCursor, ...(await renderPage(page, count, ctx.viewer)) };
    },
    searchAcrossLineageCounts: async (_, { input }, ctx) => {
      requireRead(ctx);
      return { total: await countLineage(ctx.store, input, ctx.limits) };
    },
    searchAcrossLineage: async (_, { input }, ctx, info) => {
      requireRead(ctx);
      const start = pageArgument('start', input.start, 0);
      const count = pageSize(input.count);
      const page = await searchLineage(
        ctx.store,
        lineageQuery(input, info, liftsFields(input.searchFlags), ctx.viewer),
        { start, count },
        ctx.limits,
      );
      ctx.lineagePlans.push({ field: info.path.key.toString(), strategy: page.strategy, plan: page.plan });
      return { start, ...(await renderPage(page, count, ctx.viewer)), lineageSearchPath: null };
    },
  } satisfies QueryResolvers,
};
