// The entity types as the rest of the domain asks about them, all derived from the descriptors of
// entity-types.ts (docs/lineage-model.md §Entity types): how a urn's key parts map onto its key
// aspect, which GraphQL EntityType and Neo4j label it gets, and the search fields (platform, name,
// origin, parent) its key implies.
//
// Three tiers:
// - modelled: the types with a descriptor of their own. Key parts are typed (urn of given entity
//   types, FabricType, string) and checked; each has its own Neo4j label.
// - known generic: every other entity type DataHub's SDK knows (tag, container, domain, …). Key
//   parts map positionally onto DataHub's own key field names, as plain strings, so the key aspect
//   we serve (`GET /aspects/<urn>?aspect=tagKey`, `exists()`) is the record the Python client
//   expects. Wrong part count is rejected, as DataHub does.
// - unknown generic: every other syntactically valid type. Stored and served, key aspect
//   `<type>Key` = `{"id": <whole key text>}`.
// Generic entities share the label `Generic` (labels come from this whitelist, never from input),
// take no part in lineage, and map to their GraphQL EntityType when DataHub has one, else OTHER.
import { validationFailed } from './errors.ts';
import {
  derived, descriptorOf, FABRIC_TYPES, graphqlEntityTypes, GRAPHQL_TYPE_OF_UNREGISTERED,
  type EntityTypeDescriptor, type FabricType, type KeyPart,
} from './entity-types.ts';
import { InvalidUrnError, parseUrn, type Urn } from './urn.ts';


const FABRIC_SET: ReadonlySet<string> = new Set(FABRIC_TYPES);
export function isFabricType(value: string): value is FabricType {
  return FABRIC_SET.has(value);
}

const graphqlValues = derived(() => new Set(graphqlEntityTypes()));

/** Whether a value is an EntityType value: DataHub's, or one a registered type added. */
export function isGraphqlEntityType(value: string): boolean {
  return graphqlValues().has(value);
}

// ---------------------------------------------------------------------------------------------
// GraphQL EntityType

const graphqlTables = derived((ds) => {
  const byName = new Map<string, string>(ds.map((d) => [d.name, d.graphqlType]));
  for (const [name, value] of Object.entries(GRAPHQL_TYPE_OF_UNREGISTERED)) byName.set(name, value);
  // OTHER stands for many types, so it maps back to none.
  const toName = new Map<string, string>([...byName].filter(([, v]) => v !== 'OTHER').map(([n, v]) => [v, n]));
  return { byName, toName };
});

/** GraphQL EntityType of a DataHub entity name; OTHER for names DataHub's enum has no value for. */
export function entityTypeToGraphql(entityType: string): string {
  return graphqlTables().byName.get(entityType) ?? 'OTHER';
}

/** DataHub entity name of a GraphQL EntityType; undefined for OTHER and unknown values. */
export function graphqlToEntityType(value: string): string | undefined {
  return isGraphqlEntityType(value) ? graphqlTables().toName.get(value) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Entity types

export type EntityTier = 'modelled' | 'knownGeneric' | 'generic';

/** What the write path, the store and the readers ask of a type. */
export interface EntityTypeSpec {
  /** DataHub's entity name, as it appears in urns (`dataset`, `corpuser`, `dataJob`). */
  readonly name: string;
  readonly tier: EntityTier;
  /** Key aspect name (`datasetKey`, `corpUserKey`). */
  readonly keyAspect: string;
  /** Key aspect fields, in urn part order. */
  readonly keyFields: readonly KeyPart[];
  readonly graphqlType: string;
  /** Neo4j type label, next to `:Entity`. */
  readonly label: string;
  /** The modelled type's descriptor; undefined for generic types. */
  readonly descriptor: EntityTypeDescriptor | undefined;
}

/** Label shared by every entity type that is not modelled. */
export const GENERIC_LABEL = 'Generic';

const ENTITY_TYPE_NAME = /^[a-z][A-Za-z0-9_]*$/;

const specs = derived((ds) => new Map<string, EntityTypeSpec>(ds.map((d) => [d.name, {
  name: d.name,
  tier: d.modelled ? 'modelled' : 'knownGeneric',
  keyAspect: d.keyAspect,
  keyFields: d.key,
  graphqlType: d.graphqlType,
  label: d.modelled?.label ?? GENERIC_LABEL,
  descriptor: d.modelled ? d : undefined,
}])));

/** The modelled entity types, in registry order. */
export const modelledEntityTypes = derived((ds) => ds.filter((d) => d.modelled).map((d) => d.name));

/** Modelled and known-generic entity types: those with a key aspect spec of their own. */
export const registeredEntityTypes = derived((ds) => ds.map((d) => d.name));

/** Every Neo4j type label the catalog may write: one per modelled type, plus `Generic`. */
export const entityLabels = derived((ds) => [...ds.flatMap((d) => (d.modelled ? [d.modelled.label] : [])), GENERIC_LABEL]);

export function isModelledEntityType(entityType: string): boolean {
  return descriptorOf(entityType)?.modelled !== undefined;
}

/** Spec of any syntactically valid entity type; unknown types get the generic `{id}` spec. */
export function entityTypeSpec(entityType: string): EntityTypeSpec {
  const known = specs().get(entityType);
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

const keyAspectOwner = derived((ds) => new Map(ds.map((d) => [d.keyAspect, d.name])));

/**
 * Entity type whose key aspect is `aspectName`, for registered types only: `fooKey` of an unknown
 * type `foo` is a key aspect only on `foo` urns, which the caller checks with keyAspectNameOf.
 */
export function entityTypeOfKeyAspect(aspectName: string): string | undefined {
  return keyAspectOwner().get(aspectName);
}

// ---------------------------------------------------------------------------------------------
// Key aspects

/** Text after `urn:<ns>:<type>:` in canonical form; '' for a urn without a key. */
function keyTextOf(u: Urn): string {
  const prefix = `urn:${u.namespace}:${u.entityType}`;
  return u.text.length > prefix.length ? u.text.slice(prefix.length + 1) : '';
}

/** Why a key does not fit its spec, or undefined when it does. Recurses into urn-typed parts. */
function keyProblem(u: Urn, spec: EntityTypeSpec): string | undefined {
  const { keyFields } = spec;
  if (u.parts.length !== keyFields.length) {
    const names = keyFields.map((f) => f.name).join(', ');
    return `expected ${keyFields.length} key part${keyFields.length === 1 ? '' : 's'} (${names}), got ${u.parts.length}`;
  }
  for (let i = 0; i < keyFields.length; i++) {
    const field = keyFields[i]!;
    const part = u.parts[i]!;
    if (spec.tier === 'modelled' && part === '') return `${field.name} is empty`;
    if (field.kind === 'fabric' && !isFabricType(part)) {
      return `${field.name} '${part}' is not a FabricType (${FABRIC_TYPES.join('|')})`;
    }
    if (field.kind === 'urn') {
      let inner: Urn;
      try {
        inner = parseUrn(part);
      } catch (e) {
        if (e instanceof InvalidUrnError) return `${field.name} '${part}' is not a valid urn (${e.reason})`;
        throw e;
      }
      if (!field.urnTypes.includes(inner.entityType)) return `${field.name} '${part}' is not a ${field.urnTypes.join(' or ')} urn`;
      const innerProblem = keyProblem(inner, entityTypeSpec(inner.entityType));
      if (innerProblem) return `${field.name} '${part}': ${innerProblem}`;
    }
  }
  return undefined;
}

/** Throws validationFailed naming the urn when its key does not fit its entity type. */
export function validateUrnKey(u: Urn): void {
  const problem = keyProblem(u, entityTypeSpec(u.entityType));
  if (problem) throw validationFailed(`Invalid urn ${u.text}: ${problem}`);
}

/** The key aspect of an entity, derived positionally from its urn. */
export function keyAspectOf(u: Urn): { aspectName: string; value: Record<string, unknown> } {
  const spec = entityTypeSpec(u.entityType);
  if (spec.tier === 'generic') return { aspectName: spec.keyAspect, value: { id: keyTextOf(u) } };
  validateUrnKey(u);
  const value: Record<string, unknown> = {};
  spec.keyFields.forEach((field, i) => {
    value[field.name] = u.parts[i]!;
  });
  return { aspectName: spec.keyAspect, value };
}

// ---------------------------------------------------------------------------------------------
// Search fields. These read a urn already accepted by keyAspectOf; for a urn whose key does not
// fit they answer undefined rather than throw, so display code never fails on a ghost.

/** The key part a descriptor names (namePart, platformPart, …) and its spec, when the key fits. */
function keyPartOf(u: Urn, partName: string | undefined): { text: string; part: KeyPart } | undefined {
  const d = descriptorOf(u.entityType);
  if (partName === undefined || !d || u.parts.length !== d.key.length) return undefined;
  const i = d.key.findIndex((k) => k.name === partName);
  return i < 0 ? undefined : { text: u.parts[i]!, part: d.key[i]! };
}

function tryParse(text: string | undefined): Urn | undefined {
  if (text === undefined) return undefined;
  try {
    return parseUrn(text);
  } catch {
    return undefined;
  }
}

/**
 * Platform urn implied by an entity's key, where its key has one: a dataPlatform urn part as it is,
 * a platform name part (orchestrator, dashboard tool) as its urn, a nested urn's own platform.
 */
export function platformOf(u: Urn): string | undefined {
  const at = keyPartOf(u, descriptorOf(u.entityType)?.modelled?.platformPart);
  if (!at || at.text === '') return undefined;
  if (at.part.kind !== 'urn') return `urn:li:dataPlatform:${at.text}`;
  const inner = tryParse(at.text);
  if (!inner) return undefined;
  return inner.entityType === 'dataPlatform' ? inner.text : platformOf(inner);
}

/**
 * Name search field: dataset name, dataJob jobId, dataFlow flowId, chart chartId, schemaField
 * fieldPath, … For generic entities: the whole key text.
 */
export function nameOf(u: Urn): string | undefined {
  const d = descriptorOf(u.entityType);
  if (!d?.modelled) return keyTextOf(u);
  return keyPartOf(u, d.modelled.namePart)?.text;
}

/** Origin (FabricType) from the key: dataset, mlModel, mlModelGroup, dataProcess. */
export function originOf(u: Urn): FabricType | undefined {
  const origin = keyPartOf(u, descriptorOf(u.entityType)?.modelled?.originPart)?.text;
  return origin !== undefined && isFabricType(origin) ? origin : undefined;
}

/** Parent (dataset, chart or dashboard) of a schemaField urn; undefined for anything else. */
export function parentOf(u: Urn): Urn | undefined {
  return tryParse(keyPartOf(u, descriptorOf(u.entityType)?.modelled?.parentPart)?.text);
}

/**
 * The schemaField urn of a parent's field. DataHub percent-encodes the urn grammar's characters
 * ( ) , of a fieldPath it puts into a urn; we do the same, so both name one column alike.
 */
export function schemaFieldUrnOf(parent: string, fieldPath: string): string {
  const encoded = fieldPath.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C');
  return `urn:li:schemaField:(${parent},${encoded})`;
}

/**
 * The names one column goes by: its fieldPath as declared, and for a v2 fieldPath
 * (`[version=2.0].[type=struct].address.[type=string].city`) the plain path (`address.city`).
 */
export function fieldPathAliases(fieldPath: string): string[] {
  const plain = fieldPath.split('.').filter((s) => !(s.startsWith('[') && s.endsWith(']'))).join('.');
  return plain === fieldPath ? [fieldPath] : [fieldPath, plain];
}
