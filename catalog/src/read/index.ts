// The public face of the read layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name.
// Aspects and existence, for the Rest.li, OpenAPI and GraphQL entity reads.
export {
  countLatest,
  entityExistence,
  getAspect,
  getLatestAspects,
  getLatestAspectsOf,
  latestRowsNaming,
  syntheticKeyAspect,
} from './aspect-reader.ts';
// Catalogue search (GraphQL search / searchAcrossEntities).
export { searchEntities, type EntitySearchInput } from './entity-search.ts';
// Lineage counts per direction (GraphQL lineage counts).
export { countLineage, type LineageCountQuery } from './lineage/counts.ts';
// The shape of a lineage query, as the resolvers build it.
export { type AndFilter, type FacetFilter, type LineageDirection, type LineageFlags, type LineageQuery } from './lineage/query.ts';
// The shape of lineage results: hits and facets.
export { type Facet, type LineageHit } from './lineage/results.ts';
// Impact analysis: multi-hop scroll/search and one-hop neighbours.
export { scrollLineage, searchLineage, type LineagePage, type LineagePlan } from './lineage/service.ts';
export { lineageNeighbours } from './lineage/neighbours.ts';
// The traversal's limits, from the process config.
export { lineageLimitsFromConfig, type LineageLimits } from './lineage/query.ts';
// The explorer's start page and details sheet.
export { columnLineageCounts, jobRuns, mostConnectedEntities, recentlyChangedEntities } from './entity-details.ts';
// Entities as the OpenAPI v3 doors answer them, and the offset cursor search pages share.
export {
  aspectVersionDocument,
  aspectVersionDocumentsOf,
  decodeOffset,
  encodeOffset,
  latestAspectDocuments,
  scrollEntities,
  scrollRelationships,
  type EntityDocument,
} from './entity-documents.ts';
// Typed relationship edges, for every door that asks about them.
export {
  lineageEdgePage,
  relatedEntities,
  relationshipTypesOf,
  type LineageEdge,
  type LineageEdgeKey,
  type LineageEdgeQuery,
  type LineageScrollDirection,
  type RelationshipDirection,
} from './relationships.ts';
// The Events API's poll (GET /openapi/v1/events/poll): its parameters, checked, and the long poll.
export { parsePollRequest, pollChanges, type PollAnswer, type PollRequest } from './change-events.ts';
// An entity's recent lineage changes from the change log (the explorer's details sheet).
export { recentLineageChanges, type RecentLineageChange, type RecentLineageChanges } from './recent-lineage-changes.ts';
// Marquez 0.51's read API (docs/marquez-compatibility.md): namespaces, datasets, jobs, runs and lineage.
export {
  datasetRows,
  getDataset,
  getJob,
  getNamespace,
  getRun,
  getRunFacets,
  jobOrThrow,
  listDatasets,
  namespaceContents,
  listJobs,
  listNamespaces,
  listRuns,
  type Page,
} from './marquez/reads.ts';
export { DEFAULT_LINEAGE_DEPTH, marquezLineage, MAX_LINEAGE_DEPTH, type MarquezLineage } from './marquez/lineage.ts';
export { marquezColumnLineage } from './marquez/column-lineage.ts';
export { fieldTagChange } from './marquez/field-tags.ts';
export { DEFAULT_SEARCH_LIMIT, marquezSearch, marquezSource, marquezSources, marquezTags } from './marquez/search.ts';
// View authorization on reads: who may see which entities, and restricted lineage nodes.
export {
  assertViewable,
  maskUrns,
  mayRead,
  RESTRICTED_ENTITY_TYPE,
  viewerOf,
  viewSettingsFromConfig,
  type Viewer,
  type ViewSettings,
} from './view-authorization.ts';
export { restrictHits } from './lineage/restricted.ts';
