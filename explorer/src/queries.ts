// GraphQL documents the page sends. Path steps select only key-derived fields (urn, type): resolving
// names for every step of every path doubled the time of a 500-result page, and a step that is not
// itself a result is drawn from its urn.
// Only operations of the public API (lineage-service SDL):
// entity, entities, scrollAcrossLineage, searchAcrossEntities.
import type { RawEntity, RawResult } from './model.ts';
import type { FineGrainedLineage } from './columns.ts';

const ENTITY_FIELDS = `
fragment ExplorerEntity on Entity {
  urn
  type
  ... on Dataset { exists name platform { urn name properties { displayName } } properties { name } }
  ... on DataJob { exists jobId properties { name } dataFlow { orchestrator } }
  ... on DataFlow { exists flowId orchestrator properties { name } }
  ... on Chart { exists chartId tool properties { name } }
  ... on Dashboard { exists dashboardId tool properties { name } }
  ... on MLFeature { exists name featureNamespace }
  ... on MLPrimaryKey { exists name featureNamespace }
  ... on MLFeatureTable { exists name platform { urn name properties { displayName } } }
  ... on MLModel { exists name platform { urn name properties { displayName } } }
  ... on MLModelGroup { exists name platform { urn name properties { displayName } } }
  ... on SchemaFieldEntity { exists fieldPath }
  ... on DataProcessInstance { exists }
}`;

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
    searchResults { degree entity { ...ExplorerEntity ... on SchemaFieldEntity { parent { urn type } } } paths { path { urn type } } }
  }
}
${ENTITY_FIELDS}`;

export interface ColumnImpactReply {
  searchAcrossLineage: {
    start: number;
    count: number;
    total: number;
    isPartial: boolean | null;
    searchResults: Array<RawResult & { entity: RawEntity & { parent?: { urn: string; type: string } | null } }>;
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
  entities: Array<{ urn: string; fineGrainedLineages?: FineGrainedLineage[] | null; aspects?: Array<{ aspectName: string; payload: string | null }> | null } | null>;
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
    searchResults { degree entity { ...ExplorerEntity ... on SchemaFieldEntity { parent { urn type } } } }
  }
}
${ENTITY_FIELDS}`;

export interface ColumnImpactExportReply {
  searchAcrossLineage: Pick<NonNullable<ColumnImpactReply['searchAcrossLineage']>, 'total' | 'isPartial' | 'searchResults'> | null;
}
