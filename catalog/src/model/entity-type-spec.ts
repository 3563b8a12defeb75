// What the write path, the store and the readers ask of an entity type by name: its spec (tier,
// key aspect and fields, label), for a registered type from the registry, for any other
// syntactically valid type the generic `{id}` spec.
import { GENERIC_LABEL, type EntityTypeSpec } from './build-entity-registry.ts';
import { descriptorOf, entityRegistry, entityTypeToGraphql } from './entity-registry.ts';
import { validationFailed } from './errors.ts';

const ENTITY_TYPE_NAME = /^[a-z][A-Za-z0-9_]*$/;

/** The modelled entity types, in registry order. */
export function modelledEntityTypes(): readonly string[] {
  return entityRegistry().modelledEntityTypes;
}

/** Modelled and known-generic entity types: those with a key aspect spec of their own. */
export function registeredEntityTypes(): readonly string[] {
  return entityRegistry().registeredEntityTypes;
}

/** Every Neo4j type label the catalog may write: one per modelled type, plus `Generic`. */
export function entityLabels(): readonly string[] {
  return entityRegistry().entityLabels;
}

export function isModelledEntityType(entityType: string): boolean {
  return descriptorOf(entityType)?.modelled !== undefined;
}

/** Spec of any syntactically valid entity type; unknown types get the generic `{id}` spec. */
export function entityTypeSpec(entityType: string): EntityTypeSpec {
  const known = entityRegistry().specs.get(entityType);
  if (known) return known;
  if (!ENTITY_TYPE_NAME.test(entityType)) throw validationFailed(`Invalid entity type '${entityType}'`);
  return {
    name: entityType,
    tier: 'generic',
    keyAspect: `${entityType}Key`,
    keyFields: [{ name: 'id', kind: 'string' }],
    graphqlType: entityTypeToGraphql(entityType),
    label: GENERIC_LABEL,
    descriptor: undefined,
  };
}

/** Key aspect name of an entity type (`corpuser` → `corpUserKey`, unknown `foo` → `fooKey`). */
export function keyAspectNameOf(entityType: string): string {
  return entityTypeSpec(entityType).keyAspect;
}

/**
 * Entity type whose key aspect is `aspectName`, for registered types only: `fooKey` of an unknown
 * type `foo` is a key aspect only on `foo` urns, which the caller checks with keyAspectNameOf.
 */
export function entityTypeOfKeyAspect(aspectName: string): string | undefined {
  return entityRegistry().keyAspectOwner.get(aspectName);
}
