// The public face of the model layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name. A name another package needs is added here; the rest stays inside the layer.
// Aspect names and snapshot classes, for the Rest.li wire (snapshots, restore, FQCN-keyed aspects).
export { ASPECT_NAME, aspectFqcn, aspectNameOfFqcn, canonicalAspectName, snapshotEntityType } from './aspects/index.ts';
// The entity registry: GraphQL type names (the process registry), key aspects and registered names
// (entity type specs), names and platforms (key search fields), urn keys (the urn-key grammar).
export { entityTypeToGraphql } from './entity-registry.ts';
export { keyAspectNameOf, registeredEntityTypes } from './entity-type-spec.ts';
export { nameOf, platformOf } from './key-search-fields.ts';
export { validateUrnKey } from './urn-key.ts';
// The registry value: the process reads one, the built-in types unless start-up installs another;
// and the descriptors it holds, for the subgraph's per-type resolvers and schema.
export { buildEntityRegistry, type EntityRegistry } from './build-entity-registry.ts';
export { descriptorOf, entityRegistry, entityTypeDescriptors, installEntityRegistry } from './entity-registry.ts';
export { BUILT_IN_ENTITY_TYPES } from './descriptors/built-in-entity-types.ts';
export type { EntityTypeDescriptor } from './entity-types.ts';
// The error taxonomy the doors render (REST status, GraphQL code).
export { badRequest, CatalogError, forbidden, isCatalogError, notFound, unavailable, validationFailed, type ErrorKind } from './errors.ts';
// Search filters of DataHub's search and lineage inputs.
export { LISTED_FILTER_FIELDS, orFiltersOf, type OrFilters, type RawFilter } from './filters.ts';
// JSON objects as the doors receive them.
export { isJsonRecord, type JsonRecord } from './json.ts';
// The shared JSON nesting limit on request bodies.
export { jsonDepthProblem } from './json-depth.ts';
// OpenLineage events as the OpenLineage door parses them.
export { parseOpenLineageEvent, type OpenLineageEvent } from './openlineage/events.ts';
// Who may do what: the privilege checks every door runs before calling the domain.
export {
  assertCan,
  authorizeWrite,
  can,
  canView,
  holdsOn,
  privilegesFor,
  exportCatalogDenied,
  getAspectDenied,
  getCountsDenied,
  getPlatformEventsDenied,
  graphqlDenied,
  openLineageDenied,
  privilegesOf,
  restoreIndicesDenied,
  ROLE_URNS,
  systemOperationsDenied,
  updateEntitiesDenied,
  type Actor,
  type ActorAccess,
} from './privileges.ts';
// Policies: their aspect, the defaults, the engine (model/policies/).
export { DEFAULT_POLICIES, withDefaults } from './policies/defaults.ts';
export { grantedPrivileges, type PolicyActor, type ResourceOwner, type ResourceSpec } from './policies/engine.ts';
export { policyInfoSchema, toPolicy, type Policy } from './policies/policy-info.ts';
export { isPrivilege, METADATA_PRIVILEGES, PLATFORM_PRIVILEGES, type Privilege } from './policies/privilege-names.ts';
// Urn parsing.
export { InvalidUrnError, parseUrn, parseUrnOrThrow, type Urn } from './urn.ts';
