// GraphQL documents the page sends. Path steps select only key-derived fields (urn, type): resolving
// names for every step of every path doubled the time of a 500-result page, and a step that is not
// itself a result is drawn from its urn.
// Only operations of the public API (lineage-service SDL):
// entity, entities, scrollAcrossLineage, searchAcrossEntities.
import { describedTypenames, describingAspectsOf, pageEntityFragment, type JobRun } from '@lineage/catalog/browser';
import type { RawEntity, RawResult } from './model.ts';
import type { FineGrainedLineage } from './columns.ts';

// What names an entity of each type the page draws (its name, platform, whether it exists) follows
// from the entity type descriptors.
const ENTITY_FIELDS = pageEntityFragment();

export const ENTITY_QUERY = `query explorerEntity($urn: String!) { entity(urn: $urn) { ...ExplorerEntity } }
${ENTITY_FIELDS}`;

export const SEARCH_QUERY = `query explorerSearch($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { ...ExplorerEntity } } } }
${ENTITY_FIELDS}`;

export interface SearchReply {
  searchAcrossEntities: { total: number; searchResults: Array<{ entity: RawEntity }> } | null;
}

export interface EntityReply {
  entity: RawEntity | null;
}

export const SCROLL_QUERY = `query explorerLineage($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) {
    nextScrollId
    total
    isPartial
    facets { field displayName aggregations { value count displayName entity { urn ... on DataPlatform { name properties { displayName } } } } }
    searchResults { degree entity { ...ExplorerEntity } paths { path { urn type } } }
  }
}
${ENTITY_FIELDS}`;

export interface FacetAggregation {
  value: string;
  count: number;
  displayName?: string | null;
  entity?: { urn: string; name?: string; properties?: { displayName?: string | null } | null } | null;
}

export interface Facet {
  field: string;
  displayName?: string | null;
  aggregations: FacetAggregation[];
}

export interface ScrollReply {
  scrollAcrossLineage: {
    nextScrollId: string | null;
    total: number;
    isPartial: boolean | null;
    facets: Facet[] | null;
    searchResults: RawResult[];
  } | null;
}

/**
 * Column impact: searchAcrossLineage from a schemaField with a groupingSpec that has no
 * SCHEMA_FIELD → DATASET criterion, so reached columns stay columns (docs/lineage-model.md §Columns)
 * — dataset, chart and dashboard fields across every hop, and the jobs whose column lineage a walk
 * took. Paths keep columns.
 */
export const COLUMN_IMPACT_QUERY = `query explorerColumnImpact($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    start
    count
    total
    isPartial
    searchResults { degree entity { ...ExplorerEntity ... on SchemaFieldEntity { parent { urn type ... on Chart { properties { name } } ... on Dashboard { properties { name } } } } } paths { path { urn type } } }
  }
}
${ENTITY_FIELDS}`;

export interface ColumnImpactReply {
  searchAcrossLineage: {
    start: number;
    count: number;
    total: number;
    isPartial: boolean | null;
    searchResults: Array<
      RawResult & { entity: RawEntity & { parent?: { urn: string; type: string; properties?: { name?: string | null } | null } | null } }
    >;
  } | null;
}

/**
 * Columns for the column display, in one request: each dataset's column lineage and schema, each
 * chart's and dashboard's inputFields (their own columns and the columns those read).
 */
export const COLUMNS_QUERY = `query explorerColumns($urns: [String!]!) {
  entities(urns: $urns) {
    urn
    ... on Dataset {
      fineGrainedLineages { upstreams { urn path } downstreams { urn path } }
      aspects(input: { aspectNames: ["schemaMetadata"] }) { aspectName payload }
    }
    ... on Chart { aspects(input: { aspectNames: ["inputFields"] }) { aspectName payload } }
    ... on Dashboard { aspects(input: { aspectNames: ["inputFields"] }) { aspectName payload } }
  }
}`;

export interface ColumnsReply {
  entities: Array<{
    urn: string;
    fineGrainedLineages?: FineGrainedLineage[] | null;
    aspects?: Array<{ aspectName: string; payload: string | null }> | null;
  } | null>;
}

/**
 * The impact export's pages (impact-export.ts): scrollAcrossLineage without paths or facets, which
 * the file does not hold and the catalog would otherwise work out for every page.
 */
export const IMPACT_EXPORT_QUERY = `query explorerImpactExport($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId total isPartial searchResults { degree entity { ...ExplorerEntity } } }
}
${ENTITY_FIELDS}`;

export interface ImpactExportReply {
  scrollAcrossLineage: { nextScrollId: string | null; total: number; isPartial: boolean | null; searchResults: RawResult[] } | null;
}

/** The column impact export's pages: COLUMN_IMPACT_QUERY without paths. */
export const COLUMN_IMPACT_EXPORT_QUERY = `query explorerColumnImpactExport($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    total
    isPartial
    searchResults { degree entity { ...ExplorerEntity ... on SchemaFieldEntity { parent { urn type ... on Chart { properties { name } } ... on Dashboard { properties { name } } } } } }
  }
}
${ENTITY_FIELDS}`;

export interface ColumnImpactExportReply {
  searchAcrossLineage: Pick<NonNullable<ColumnImpactReply['searchAcrossLineage']>, 'total' | 'isPartial' | 'searchResults'> | null;
}

/** The aspects that describe the drawn types and their hand-edited twins, as their descriptors say. */
export const DESCRIBING_ASPECTS = describingAspectsOf();

/** Aspects the details sheet reads (schema, description and properties, owners, tags, terms). */
export const DETAIL_ASPECTS: readonly string[] = [
  'schemaMetadata',
  'editableSchemaMetadata',
  ...DESCRIBING_ASPECTS.flatMap((a) => [a.aspect, ...(a.editable ? [a.editable] : [])]),
  'ownership',
  'globalTags',
  'glossaryTerms',
];

/** The types whose aspects the details sheet reads: those with a descriptive aspect. */
const WITH_ASPECTS = describedTypenames();

/**
 * The details sheet in one request: the entity and its aspects, and how many entities lie at each
 * degree upstream and downstream (scrollAcrossLineage's degree facet, one result asked for).
 */
export const DETAILS_QUERY = `query explorerDetails($urn: String!, $aspects: [String!]!, $up: ScrollAcrossLineageInput!, $down: ScrollAcrossLineageInput!) {
  entity(urn: $urn) {
    ...ExplorerEntity
    ${WITH_ASPECTS.map((t) => `... on ${t} { aspects(input: { aspectNames: $aspects }) { aspectName payload } }`).join('\n    ')}
  }
  up: scrollAcrossLineage(input: $up) { total isPartial facets { field aggregations { value count } } }
  down: scrollAcrossLineage(input: $down) { total isPartial facets { field aggregations { value count } } }
}
${ENTITY_FIELDS}`;

interface DegreeCounts {
  total: number;
  isPartial: boolean | null;
  facets: Array<{ field: string; aggregations: Array<{ value: string; count: number }> }> | null;
}

export interface DetailsReply {
  entity: (RawEntity & { aspects?: Array<{ aspectName: string; payload: string | null }> | null }) | null;
  up: DegreeCounts | null;
  down: DegreeCounts | null;
}

export const COLUMN_COUNTS_QUERY = `query explorerColumnCounts($urn: String!) {
  columnLineageCounts(urn: $urn) { fieldPath upstream downstream }
}`;

export interface ColumnCountsReply {
  columnLineageCounts: Array<{ fieldPath: string; upstream: number; downstream: number }>;
}

export const JOB_RUNS_QUERY = `query explorerJobRuns($urn: String!, $count: Int) {
  dataJobRuns(urn: $urn, count: $count) { total runs { urn name status result startTimeMillis durationMillis errorMessage } }
}`;

export interface JobRunsReply {
  dataJobRuns: {
    total: number;
    runs: JobRun[];
  };
}

export const RECENT_LINEAGE_QUERY = `query explorerRecentLineage($urn: String!, $count: Int) {
  recentLineageChanges(urn: $urn, count: $count) {
    recorded reason more changes { offset time actor operation direction other otherEntity { ...ExplorerEntity } relationshipType aspectName via } } }
${ENTITY_FIELDS}`;

export interface RecentLineageReply {
  recentLineageChanges: {
    recorded: boolean;
    reason: string | null;
    more: boolean;
    /** Null when the catalog does not record lineage changes (recorded: false). */
    changes: Array<{
      offset: number;
      time: number;
      actor: string;
      operation: string;
      direction: 'UPSTREAM' | 'DOWNSTREAM';
      other: string;
      otherEntity: RawEntity | null;
      relationshipType: string;
      aspectName: string;
      via: string | null;
    }> | null;
  };
}

export const START_QUERY = `query explorerStart($count: Int) {
  mostConnectedEntities(count: $count) { links entity { ...ExplorerEntity } }
  recentlyChangedEntities(count: $count) { changedAt entity { ...ExplorerEntity } }
}
${ENTITY_FIELDS}`;

export interface StartReply {
  mostConnectedEntities: Array<{ links: number; entity: RawEntity }>;
  recentlyChangedEntities: Array<{ changedAt: number; entity: RawEntity }>;
}
