// The one entity registry the process reads (built by build-entity-registry.ts from the descriptors),
// and what every layer asks of it by name: descriptors, PATCH templates, GraphQL EntityType values,
// what the page calls and colours a type, what a search lists by default.
//
// The process reads one registry: the built-in types, unless start-up installs another before
// anything reads it (a test that needs an extra type does; installing later throws, so import order
// can never silently matter).
import { buildEntityRegistry, type EntityRegistry } from './build-entity-registry.ts';
import { BUILT_IN_ENTITY_TYPES } from './descriptors/built-in-entity-types.ts';
import type { EntityTypeDescriptor, PatchTemplate } from './entity-types.ts';

let installed: EntityRegistry | undefined;
/** Where the registry was first read, for the error a late install gets. */
let firstReadAt: string | undefined;

/**
 * Makes `registry` the one the whole process reads (entity types with their SDL, urn keys, aspect
 * placement, lineage triples, …). Only at start-up, before anything reads the registry: the default
 * is then never built into a table a running server holds. Throws when called twice or too late.
 */
export function installEntityRegistry(registry: EntityRegistry): void {
  if (installed !== undefined) {
    throw new Error(
      `installEntityRegistry: an entity registry is already ${firstReadAt ? `in use (first read ${firstReadAt})` : 'installed'}; install one registry, once, at start-up before anything reads it`,
    );
  }
  installed = registry;
}

/** The process's registry: the one installed at start-up, else the built-in types. */
export function entityRegistry(): EntityRegistry {
  if (firstReadAt === undefined) {
    firstReadAt =
      new Error().stack
        ?.split('\n')
        .slice(2, 5)
        .map((l) => l.trim())
        .join(' < ') ?? 'earlier';
    installed ??= buildEntityRegistry(BUILT_IN_ENTITY_TYPES);
  }
  return installed!;
}

/** Every descriptor of the process's registry. */
export function entityTypeDescriptors(): readonly EntityTypeDescriptor[] {
  return entityRegistry().descriptors;
}

/** The PATCH template of an aspect (model/patch/templates.ts); undefined = none. */
export function patchTemplateOf(aspectName: string): PatchTemplate | undefined {
  return entityRegistry().patchTemplates.get(aspectName);
}

/** The descriptor of a registered entity type; undefined for any other name. */
export function descriptorOf(entityType: string): EntityTypeDescriptor | undefined {
  return entityRegistry().byName.get(entityType);
}

/** Every EntityType value: DataHub's, in DataHub's order, then those registered types added. */
export function graphqlEntityTypes(): readonly string[] {
  return entityRegistry().graphqlTypes;
}

/** Whether a value is an EntityType value: DataHub's, or one a registered type added. */
function isGraphqlEntityType(value: string): boolean {
  return entityRegistry().graphqlTypeSet.has(value);
}

/** What the page calls an entity type, by its GraphQL EntityType value (`DATA_JOB` → "Data job"). */
export function displayLabelOf(graphqlType: string): string {
  return entityRegistry().pageLooks.get(graphqlType)?.label ?? graphqlType.toLowerCase().replaceAll('_', ' ');
}

/** The colour the page draws an entity type in, by its GraphQL EntityType value; undefined = neutral. */
export function displayColourOf(graphqlType: string): string | undefined {
  return entityRegistry().pageLooks.get(graphqlType)?.colour;
}

/** The GraphQL EntityType values that have a colour of their own: the page's legend. */
export function colouredTypes(): string[] {
  return [...entityRegistry().pageLooks].flatMap(([type, look]) => (look.colour ? [type] : []));
}

// ---------------------------------------------------------------------------------------------
// GraphQL EntityType

/** GraphQL EntityType of a DataHub entity name; OTHER for names DataHub's enum has no value for. */
export function entityTypeToGraphql(entityType: string): string {
  return entityRegistry().graphqlOfName.get(entityType) ?? 'OTHER';
}

/** DataHub entity name of a GraphQL EntityType; undefined for OTHER and unknown values. */
export function graphqlToEntityType(value: string): string | undefined {
  return isGraphqlEntityType(value) ? entityRegistry().nameOfGraphql.get(value) : undefined;
}

/** The GraphQL EntityType values a search lists when it names none (EntityRegistry.defaultSearchTypes). */
export function defaultSearchTypes(): readonly string[] {
  return entityRegistry().defaultSearchTypes;
}
