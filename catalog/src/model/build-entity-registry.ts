// The registry value (docs/lineage-model.md §Entity types): every table the catalog derives from a
// list of entity type descriptors (entity-types.ts), computed once when it is built and never again.
// The process reads one such value (entity-registry.ts).
//
// Three tiers:
// - modelled: the types with a descriptor of their own. Key parts are typed (urn of given entity
//   types, FabricType, string) and checked; each has its own Neo4j label.
// - known generic: every other entity type DataHub's SDK knows (tag, container, domain, …). Key
//   parts map positionally onto DataHub's own key field names, as plain strings, so the key aspect
//   we serve (`GET /aspects/<urn>?aspect=tagKey`, `exists()`) is the record the Python client
//   expects. Wrong part count is rejected, as DataHub does.
// - unknown generic: every other syntactically valid type. Stored and served, key aspect
//   `<type>Key` = `{"id": <whole key text>}` (entity-type-spec.ts).
// Generic entities share the label `Generic` (labels come from this whitelist, never from input),
// take no part in lineage, and map to their GraphQL EntityType when DataHub has one, else OTHER.
import { COMMON_ASPECTS } from './descriptors/common-aspects.ts';
import { GRAPHQL_TYPE_OF_UNREGISTERED } from './descriptors/generic.ts';
import {
  GRAPHQL_ENTITY_TYPES,
  type EntityTypeDescriptor,
  type KeyPart,
  type OwnedAspect,
  type PatchTemplate,
  type RelationshipType,
} from './entity-types.ts';

export type LineageEnd = 'upstream' | 'downstream';

/** A (source type, relationship, destination type) triple that is lineage (DataHub's LineageRegistry). */
export interface LineageTriple {
  readonly sourceType: string;
  readonly type: RelationshipType;
  readonly destinationType: string;
  readonly destinationIs: LineageEnd;
}

/** What the page shows of a type. */
interface PageLook {
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
  /**
   * What a search lists when it names no type (GraphQL EntityType values, in registry order): the
   * types that take part in lineage and have an EntityType of their own, but columns, which are
   * found through their parent.
   */
  readonly defaultSearchTypes: readonly string[];
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

/** The default search types (EntityRegistry.defaultSearchTypes) of some descriptors, given their lineage types. */
function defaultSearchTypesOf(descriptors: readonly EntityTypeDescriptor[], lineageEntityTypes: ReadonlySet<string>): readonly string[] {
  return Object.freeze([
    ...new Set(
      descriptors.flatMap((d) =>
        lineageEntityTypes.has(d.name) && d.graphqlType !== 'OTHER' && d.modelled?.parentPart === undefined ? [d.graphqlType] : [],
      ),
    ),
  ]);
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
  const lineage = lineageTables(list);
  return Object.freeze({
    descriptors: list,
    byName,
    graphqlTypes,
    graphqlTypeSet: new Set(graphqlTypes),
    graphqlOfName,
    nameOfGraphql: new Map([...graphqlOfName].filter(([, v]) => v !== 'OTHER').map(([n, v]) => [v, n])),
    specs: new Map<string, EntityTypeSpec>(
      list.map((d) => [
        d.name,
        Object.freeze<EntityTypeSpec>({
          name: d.name,
          tier: d.modelled ? 'modelled' : 'knownGeneric',
          keyAspect: d.keyAspect,
          keyFields: d.key,
          graphqlType: d.graphqlType,
          label: d.modelled?.label ?? GENERIC_LABEL,
          descriptor: d.modelled ? d : undefined,
        }),
      ]),
    ),
    modelledEntityTypes: Object.freeze(list.filter((d) => d.modelled).map((d) => d.name)),
    registeredEntityTypes: Object.freeze(list.map((d) => d.name)),
    entityLabels: Object.freeze([...list.flatMap((d) => (d.modelled ? [d.modelled.label] : [])), GENERIC_LABEL]),
    keyAspectOwner: new Map(list.map((d) => [d.keyAspect, d.name])),
    aspectOwners,
    snapshotEntityTypes: new Map(withSnapshot.map((d) => [SNAPSHOT_PACKAGE + d.snapshot!, d.name])),
    snapshotFqcns: new Map(withSnapshot.map((d) => [d.name, SNAPSHOT_PACKAGE + d.snapshot!])),
    ...lineage,
    pageLooks: new Map<string, PageLook>(
      list.flatMap((d) =>
        d.modelled && d.graphqlType !== 'OTHER'
          ? [[d.graphqlType, { label: d.modelled.displayLabel, ...(d.modelled.colour ? { colour: d.modelled.colour } : {}) }] as const]
          : [],
      ),
    ),
    patchTemplates: patchTemplatesOf(list),
    defaultSearchTypes: defaultSearchTypesOf(list, lineage.lineageEntityTypes),
  });
}

type EntityTier = 'modelled' | 'knownGeneric' | 'generic';

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
