// The catalog operations the page performs, one typed function each, over api.ts's transport and
// queries.ts's documents. They take what they need as arguments and never touch page state.
import { ApiError, graphql } from './api.ts';
import { inputFieldColumns, schemaFieldsOf, type DatasetColumnsInput } from './columns.ts';
import type { Direction, RawEntity } from './model.ts';
import {
  COLUMN_IMPACT_QUERY,
  COLUMNS_QUERY,
  ENTITY_QUERY,
  SCROLL_QUERY,
  SEARCH_QUERY,
  type ColumnImpactReply,
  type ColumnsReply,
  type EntityReply,
  type ScrollReply,
  type SearchReply,
} from './queries.ts';
import { COLUMN_IMPACT_EXPORT_QUERY, IMPACT_EXPORT_QUERY, type ColumnImpactExportReply, type ImpactExportReply } from './queries.ts';
import {
  COLUMN_COUNTS_QUERY,
  DETAIL_ASPECTS,
  DETAILS_QUERY,
  JOB_RUNS_QUERY,
  START_QUERY,
  type ColumnCountsReply,
  type DetailsReply,
  type JobRunsReply,
  type StartReply,
} from './queries.ts';
import { RECENT_LINEAGE_QUERY, type RecentLineageReply } from './queries.ts';

export type LineagePage = NonNullable<ScrollReply['scrollAcrossLineage']>;
export type SearchPage = SearchReply['searchAcrossEntities'];

/** What a lineage page is restricted to; empty type or platform sets restrict nothing. */
export interface LineageFilter {
  degrees: readonly string[];
  types: ReadonlySet<string>;
  platforms: ReadonlySet<string>;
  /** Only edges observed in this window (either end may be open). */
  timeWindow?: { startTimeMillis: number | null; endTimeMillis: number | null };
}

/** The time window as scrollAcrossLineage input fields; an open end is left out. */
function timeWindowInput(filter: LineageFilter): { startTimeMillis?: number; endTimeMillis?: number } {
  const w = filter.timeWindow;
  return {
    ...(w?.startTimeMillis !== null && w?.startTimeMillis !== undefined ? { startTimeMillis: w.startTimeMillis } : {}),
    ...(w?.endTimeMillis !== null && w?.endTimeMillis !== undefined ? { endTimeMillis: w.endTimeMillis } : {}),
  };
}

/** null when the catalog does not support the urn's entity type. */
export async function fetchEntity(urn: string): Promise<RawEntity | null> {
  return (await graphql<EntityReply>(ENTITY_QUERY, { urn })).entity;
}

export async function searchEntities(text: string, count: number): Promise<SearchPage> {
  const r = await graphql<SearchReply>(SEARCH_QUERY, { input: { query: text, start: 0, count } });
  return r.searchAcrossEntities;
}

function filterClause(filter: LineageFilter): Array<Record<string, unknown>> {
  const and: Array<Record<string, unknown>> = [{ field: 'degree', values: [...filter.degrees] }];
  if (filter.types.size) and.push({ field: '_entityType', values: [...filter.types] });
  if (filter.platforms.size) and.push({ field: 'platform', values: [...filter.platforms] });
  return [{ and }];
}

/** The scrollAcrossLineage input of one page of a walk. */
function scrollInput(urn: string, direction: Direction, filter: LineageFilter, scrollId: string | null, count: number) {
  return { urn, direction, count, orFilters: filterClause(filter), ...timeWindowInput(filter), ...(scrollId ? { scrollId } : {}) };
}

/** One page of scrollAcrossLineage: the first when scrollId is null, else the page it names. */
export async function scrollLineage(
  urn: string,
  direction: Direction,
  filter: LineageFilter,
  scrollId: string | null,
  count: number,
): Promise<LineagePage> {
  const reply = await graphql<ScrollReply>(SCROLL_QUERY, {
    // Later pages need no facets: the first page's already fill the filters.
    input: { ...scrollInput(urn, direction, filter, scrollId, count), ...(scrollId ? { searchFlags: { skipAggregates: true } } : {}) },
  });
  if (!reply.scrollAcrossLineage) throw new ApiError('server', 'scrollAcrossLineage returned nothing');
  return reply.scrollAcrossLineage;
}

export type ColumnImpactPage = NonNullable<ColumnImpactReply['searchAcrossLineage']>;

/** searchAcrossLineage's input for a column walk that keeps columns as columns. */
function columnImpactInput(
  schemaFieldUrn: string,
  direction: Direction,
  filter: LineageFilter,
  start: number,
  count: number,
  skipAggregates: boolean,
) {
  return {
    // Reached columns are SCHEMA_FIELD results, so an entity-type filter would drop them all.
    urn: schemaFieldUrn,
    direction,
    start,
    count,
    orFilters: filterClause({ ...filter, types: new Set() }),
    ...timeWindowInput(filter),
    searchFlags: { groupingSpec: { groupingCriteria: [] }, ...(skipAggregates ? { skipAggregates: true } : {}) },
  };
}

/**
 * One page (start/count) of the columns a column reaches in `direction`, kept as columns, under the
 * same degree, platform and time-window filter as the graph (the platform is the column's parent's).
 */
export async function columnImpact(
  schemaFieldUrn: string,
  direction: Direction,
  filter: LineageFilter,
  start: number,
  count: number,
): Promise<ColumnImpactPage> {
  const reply = await graphql<ColumnImpactReply>(COLUMN_IMPACT_QUERY, {
    input: columnImpactInput(schemaFieldUrn, direction, filter, start, count, start > 0),
  });
  if (!reply.searchAcrossLineage) throw new ApiError('server', 'searchAcrossLineage returned nothing');
  return reply.searchAcrossLineage;
}

/**
 * Columns and column lineage of datasets, charts and dashboards, in one request; urns the catalog
 * does not know are left out.
 */
export async function fetchColumns(urns: readonly string[]): Promise<DatasetColumnsInput[]> {
  const reply = await graphql<ColumnsReply>(COLUMNS_QUERY, { urns });
  const out: DatasetColumnsInput[] = [];
  for (const e of reply.entities) {
    if (!e) continue;
    const inputFields = e.aspects?.find((a) => a.aspectName === 'inputFields');
    if (inputFields) {
      out.push(inputFieldColumns(e.urn, inputFields.payload));
      continue;
    }
    const schema = e.aspects?.find((a) => a.aspectName === 'schemaMetadata');
    out.push({ urn: e.urn, fineGrainedLineages: e.fineGrainedLineages ?? [], schemaFields: schemaFieldsOf(schema?.payload) });
  }
  return out;
}

export type ImpactExportPage = NonNullable<ImpactExportReply['scrollAcrossLineage']>;

/**
 * One page of the impact export: scrollLineage's page without paths. Facets are skipped from the
 * first page on: the file does not hold them, and the catalog keeps one snapshot per facet setting,
 * so asking for them on the first page only would walk the lineage twice.
 */
export async function exportLineagePage(
  urn: string,
  direction: Direction,
  filter: LineageFilter,
  scrollId: string | null,
  count: number,
): Promise<ImpactExportPage> {
  const reply = await graphql<ImpactExportReply>(IMPACT_EXPORT_QUERY, {
    input: { ...scrollInput(urn, direction, filter, scrollId, count), searchFlags: { skipAggregates: true } },
  });
  if (!reply.scrollAcrossLineage) throw new ApiError('server', 'scrollAcrossLineage returned nothing');
  return reply.scrollAcrossLineage;
}

export type ColumnImpactExportPage = NonNullable<ColumnImpactExportReply['searchAcrossLineage']>;

/** One page of the column impact export: columnImpact's page without paths, facets skipped throughout. */
export async function exportColumnImpactPage(
  schemaFieldUrn: string,
  direction: Direction,
  filter: LineageFilter,
  start: number,
  count: number,
): Promise<ColumnImpactExportPage> {
  const reply = await graphql<ColumnImpactExportReply>(COLUMN_IMPACT_EXPORT_QUERY, {
    input: columnImpactInput(schemaFieldUrn, direction, filter, start, count, true),
  });
  if (!reply.searchAcrossLineage) throw new ApiError('server', 'searchAcrossLineage returned nothing');
  return reply.searchAcrossLineage;
}

/** The details sheet's entity, aspects and per-degree counts both ways, under the graph's filter. */
export async function fetchDetails(urn: string, filter: LineageFilter): Promise<DetailsReply> {
  const side = (direction: Direction) => ({
    urn,
    direction,
    count: 1,
    orFilters: filterClause({ ...filter, degrees: ['1', '2', '3+'] }),
    ...timeWindowInput(filter),
  });
  return graphql<DetailsReply>(DETAILS_QUERY, { urn, aspects: [...DETAIL_ASPECTS], up: side('UPSTREAM'), down: side('DOWNSTREAM') });
}

export async function fetchColumnCounts(urn: string): Promise<ColumnCountsReply['columnLineageCounts']> {
  return (await graphql<ColumnCountsReply>(COLUMN_COUNTS_QUERY, { urn })).columnLineageCounts;
}

export async function fetchJobRuns(urn: string, count: number): Promise<JobRunsReply['dataJobRuns']> {
  return (await graphql<JobRunsReply>(JOB_RUNS_QUERY, { urn, count })).dataJobRuns;
}

/** An entity's newest lineage changes from the change log; `recorded: false` when the catalog keeps none. */
export async function fetchRecentLineage(urn: string, count: number): Promise<RecentLineageReply['recentLineageChanges']> {
  return (await graphql<RecentLineageReply>(RECENT_LINEAGE_QUERY, { urn, count })).recentLineageChanges;
}

export async function fetchStart(count: number): Promise<StartReply> {
  return graphql<StartReply>(START_QUERY, { count });
}
