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
//
// The registry is one immutable value built from a list of descriptors (buildEntityRegistry): every
// table below is computed once when it is built. The process reads one registry (entityRegistry):
// the built-in types, unless start-up installs another before anything reads it (a test that needs
// an extra type does; installing later throws, so import order can never silently matter).
import { validationFailed } from './errors.ts';
import {
  BUILT_IN_ENTITY_TYPES, COMMON_ASPECTS, FABRIC_TYPES, GRAPHQL_ENTITY_TYPES, GRAPHQL_TYPE_OF_UNREGISTERED,
  type EntityTypeDescriptor, type FabricType, type KeyPart, type OwnedAspect, type PatchTemplate, type RelationshipType,
} from './entity-types.ts';
import { InvalidUrnError, parseUrn, type Urn } from './urn.ts';


const FABRIC_SET: ReadonlySet<string> = new Set(FABRIC_TYPES);
export function isFabricType(value: string): value is FabricType {
  return FABRIC_SET.has(value);
}

// ---------------------------------------------------------------------------------------------
// The registry value

export type LineageEnd = 'upstream' | 'downstream';

/** A (source type, relationship, destination type) triple that is lineage (DataHub's LineageRegistry). */
export interface LineageTriple {
  readonly sourceType: string;
  readonly type: RelationshipType;
  readonly destinationType: string;
  readonly destinationIs: LineageEnd;
}

/** What the page shows of a type. */
export interface PageLook {
  readonly label: string;
  readonly colour?: string;
}

/** Every table the catalog derives from the descriptors, computed once by buildEntityRegistry. */
export interface EntityRegistry {
  /** Every descriptor, in the order given (the built-in types first). */
  readonly descriptors: readonly EntityTypeDescriptor[];
  readonly byName: ReadonlyMap<string, EntityTypeDescriptor>;
  /** Every EntityType value: DataHub's, in DataHub's order, then those the descriptors add. */
  readonly graphqlTypes: readonly string[];
  readonly graphqlTypeSet: ReadonlySet<string>;
  /** GraphQL EntityType by entity name, and back (OTHER names many types, so maps back to none). */
  readonly graphqlOfName: ReadonlyMap<string, string>;
  readonly nameOfGraphql: ReadonlyMap<string, string>;
  readonly specs: ReadonlyMap<string, EntityTypeSpec>;
  readonly modelledEntityTypes: readonly string[];
  readonly registeredEntityTypes: readonly string[];
  readonly entityLabels: readonly string[];
  readonly keyAspectOwner: ReadonlyMap<string, string>;
  /** Entity-specific aspects (a descriptor's own aspects not marked shared) → the types that own them. */
  readonly aspectOwners: ReadonlyMap<string, readonly string[]>;
  /** MetadataChangeEvent Snapshot class FQCN → entity name, and back. */
  readonly snapshotEntityTypes: ReadonlyMap<string, string>;
  readonly snapshotFqcns: ReadonlyMap<string, string>;
  /** Every lineage triple: the edge rules marked lineage, plus schemaField→schemaField column lineage. */
  readonly lineageTriples: readonly LineageTriple[];
  /** tripleKey(source, type, destination) → which end the destination is. */
  readonly lineageDirections: ReadonlyMap<string, LineageEnd>;
  readonly lineageEntityTypes: ReadonlySet<string>;
  readonly lineageAspects: ReadonlySet<string>;
  /** By GraphQL EntityType value; OTHER names several types, so it gets none of theirs. */
  readonly pageLooks: ReadonlyMap<string, PageLook>;
  /** Aspect → its PATCH template (model/patch/templates.ts): tags, terms and owners, then the first descriptor declaring one. */
  readonly patchTemplates: ReadonlyMap<string, PatchTemplate>;
}

export function tripleKey(sourceType: string, type: string, destinationType: string): string {
  return `${sourceType}\u0000${type}\u0000${destinationType}`;
}

const SNAPSHOT_PACKAGE = 'com.linkedin.metadata.snapshot.';

const makesFieldLineage = (a: OwnedAspect) => a.fineGrained !== undefined || a.inputFieldEdges === true;

function lineageTables(descriptors: readonly EntityTypeDescriptor[]) {
  const triples = new Map<string, LineageTriple>();
  const add = (t: LineageTriple) => {
    const key = tripleKey(t.sourceType, t.type, t.destinationType);
    const existing = triples.get(key);
    if (existing && existing.destinationIs !== t.destinationIs) {
      throw new Error(`Entity types disagree on the lineage direction of ${t.sourceType} -[${t.type}]-> ${t.destinationType}`);
    }
    triples.set(key, t);
  };
  const aspects = new Set<string>();
  for (const d of descriptors) {
    for (const [aspectName, aspect] of Object.entries(d.aspects ?? {})) {
      for (const rule of aspect.edges ?? []) {
        if (!rule.lineage) continue;
        aspects.add(aspectName);
        for (const to of rule.to) add({ sourceType: d.name, type: rule.type, destinationType: to, destinationIs: rule.lineage });
      }
      if (makesFieldLineage(aspect)) aspects.add(aspectName);
    }
  }
  // Column lineage (fineGrainedLineages, inputFields) is schemaField -[DownstreamOf]-> schemaField,
  // hard-coded in DataHub's registry too.
  if (descriptors.some((d) => Object.values(d.aspects ?? {}).some(makesFieldLineage))) {
    add({ sourceType: 'schemaField', type: 'DownstreamOf', destinationType: 'schemaField', destinationIs: 'upstream' });
  }
  const list = Object.freeze([...triples.values()].map((t) => Object.freeze(t)));
  return {
    lineageTriples: list,
    lineageDirections: new Map([...triples].map(([k, t]) => [k, t.destinationIs])),
    lineageEntityTypes: new Set(list.flatMap((t) => [t.sourceType, t.destinationType])),
    lineageAspects: aspects,
  };
}

/** The PATCH templates by aspect: COMMON_ASPECTS' own, then the first descriptor that declares one. */
function patchTemplatesOf(descriptors: readonly EntityTypeDescriptor[]): Map<string, PatchTemplate> {
  const templates = new Map<string, PatchTemplate>();
  for (const [aspectName, aspect] of Object.entries(COMMON_ASPECTS)) if (aspect.patch) templates.set(aspectName, aspect.patch);
  for (const d of descriptors) {
    for (const [aspectName, aspect] of Object.entries(d.aspects ?? {})) {
      if (aspect.patch && !templates.has(aspectName) && !Object.hasOwn(COMMON_ASPECTS, aspectName)) templates.set(aspectName, aspect.patch);
    }
  }
  return templates;
}

/**
 * The registry of these entity types, every table computed here and never again. Throws when two
 * descriptors share a name, or their edge rules disagree on a lineage direction.
 */
export function buildEntityRegistry(descriptors: readonly EntityTypeDescriptor[]): EntityRegistry {
  const list = Object.freeze([...descriptors]);
  const byName = new Map<string, EntityTypeDescriptor>();
  for (const d of list) {
    if (byName.has(d.name)) throw new Error(`Entity type ${d.name} is described twice`);
    byName.set(d.name, d);
  }
  const graphqlTypes = Object.freeze([...new Set<string>([...GRAPHQL_ENTITY_TYPES, ...list.map((d) => d.graphqlType)])]);
  const graphqlOfName = new Map<string, string>(list.map((d) => [d.name, d.graphqlType]));
  for (const [name, value] of Object.entries(GRAPHQL_TYPE_OF_UNREGISTERED)) graphqlOfName.set(name, value);
  const aspectOwners = new Map<string, string[]>();
  for (const d of list) {
    for (const [aspectName, aspect] of Object.entries(d.aspects ?? {})) {
      if (aspect.shared || aspectName === d.keyAspect) continue;
      aspectOwners.set(aspectName, [...(aspectOwners.get(aspectName) ?? []), d.name]);
    }
  }
  const withSnapshot = list.filter((d) => d.snapshot !== undefined);
  return Object.freeze({
    descriptors: list,
    byName,
    graphqlTypes,
    graphqlTypeSet: new Set(graphqlTypes),
    graphqlOfName,
    nameOfGraphql: new Map([...graphqlOfName].filter(([, v]) => v !== 'OTHER').map(([n, v]) => [v, n])),
    specs: new Map<string, EntityTypeSpec>(list.map((d) => [d.name, Object.freeze<EntityTypeSpec>({
      name: d.name,
      tier: d.modelled ? 'modelled' : 'knownGeneric',
      keyAspect: d.keyAspect,
      keyFields: d.key,
      graphqlType: d.graphqlType,
      label: d.modelled?.label ?? GENERIC_LABEL,
      descriptor: d.modelled ? d : undefined,
    })])),
    modelledEntityTypes: Object.freeze(list.filter((d) => d.modelled).map((d) => d.name)),
    registeredEntityTypes: Object.freeze(list.map((d) => d.name)),
    entityLabels: Object.freeze([...list.flatMap((d) => (d.modelled ? [d.modelled.label] : [])), GENERIC_LABEL]),
    keyAspectOwner: new Map(list.map((d) => [d.keyAspect, d.name])),
    aspectOwners,
    snapshotEntityTypes: new Map(withSnapshot.map((d) => [SNAPSHOT_PACKAGE + d.snapshot!, d.name])),
    snapshotFqcns: new Map(withSnapshot.map((d) => [d.name, SNAPSHOT_PACKAGE + d.snapshot!])),
    ...lineageTables(list),
    pageLooks: new Map<string, PageLook>(list.flatMap((d) =>
      d.modelled && d.graphqlType !== 'OTHER' ? [[d.graphqlType, { label: d.modelled.displayLabel, ...(d.modelled.colour ? { colour: d.modelled.colour } : {}) }] as const] : [])),
    patchTemplates: patchTemplatesOf(list),
  });
}

// ---------------------------------------------------------------------------------------------
// The process registry: set at most once, before its first read

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
    throw new Error(`installEntityRegistry: an entity registry is already ${firstReadAt ? `in use (first read ${firstReadAt})` : 'installed'}; install one registry, once, at start-up before anything reads it`);
  }
  installed = registry;
}

/** The process's registry: the one installed at start-up, else the built-in types. */
export function entityRegistry(): EntityRegistry {
  if (firstReadAt === undefined) {
    firstReadAt = new Error().stack?.split('\n').slice(2, 5).map((l) => l.trim()).join(' < ') ?? 'earlier';
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
export function isGraphqlEntityType(value: string): boolean {
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

/** Why a parsed urn's key does not fit its entity type, naming the urn; undefined when it fits. */
export function urnKeyProblem(u: Urn): string | undefined {
  const problem = keyProblem(u, entityTypeSpec(u.entityType));
  return problem === undefined ? undefined : `Invalid urn ${u.text}: ${problem}`;
}

/** Throws validationFailed naming the urn when its key does not fit its entity type. */
export function validateUrnKey(u: Urn): void {
  const problem = urnKeyProblem(u);
  if (problem !== undefined) throw validationFailed(problem);
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

/** The search fields an entity's key implies (what a ghost node carries besides its urn), in one lookup. */
export function keySearchFieldsOf(u: Urn): { platform: string | undefined; origin: FabricType | undefined; name: string | undefined; parent: Urn | undefined } {
  return { platform: platformOf(u), origin: originOf(u), name: nameOf(u), parent: parentOf(u) };
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
