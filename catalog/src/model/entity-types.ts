// What an entity type is (docs/lineage-model.md §Entity types): the descriptor schema, and the
// building blocks the descriptors (descriptors/*.ts) are written with. Every table the catalog used
// to keep per type (key parts, GraphQL type and EntityType, Neo4j label, name / platform / origin /
// parent, descriptive aspect, MCE snapshot class, the aspects it owns and the edges they derive,
// their PATCH templates, the fields GraphQL updateLineage writes, the label the page shows and the
// fields and aspects it asks for) is derived from the descriptors (entity-registry.ts, browser.ts).
//
// Pure and browser-safe: the page bundles it through `@lineage/catalog/browser`.
//
// Adding a modelled type = a descriptor in descriptors/ (or in a registry built at start-up,
// entity-registry.ts) + its GraphQL SDL (docs/CONTRIBUTING.md §Add an entity type).

/** DataHub's EntityType enum in DataHub's order, then the values added since. */
export const GRAPHQL_ENTITY_TYPES = [
  'DOMAIN',
  'DATASET',
  'CORP_USER',
  'CORP_GROUP',
  'DATA_PLATFORM',
  'ER_MODEL_RELATIONSHIP',
  'DASHBOARD',
  'NOTEBOOK',
  'CHART',
  'DATA_FLOW',
  'DATA_JOB',
  'TAG',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'CONTAINER',
  'MLMODEL',
  'MLMODEL_GROUP',
  'MLFEATURE_TABLE',
  'MLFEATURE',
  'MLPRIMARY_KEY',
  'INGESTION_SOURCE',
  'EXECUTION_REQUEST',
  'ASSERTION',
  'DATA_PROCESS_INSTANCE',
  'DATA_PLATFORM_INSTANCE',
  'ACCESS_TOKEN',
  'TEST',
  'DATAHUB_POLICY',
  'DATAHUB_ROLE',
  'POST',
  'SCHEMA_FIELD',
  'DATAHUB_VIEW',
  'QUERY',
  'DATA_PRODUCT',
  'CUSTOM_OWNERSHIP_TYPE',
  'DATAHUB_CONNECTION',
  'INCIDENT',
  'ROLE',
  'DATA_CONTRACT',
  'STRUCTURED_PROPERTY',
  'FORM',
  'DATA_TYPE',
  'ENTITY_TYPE',
  'RESTRICTED',
  'OTHER',
  'BUSINESS_ATTRIBUTE',
  'VERSION_SET',
  'APPLICATION',
  'DATAHUB_PAGE_TEMPLATE',
  'DATAHUB_PAGE_MODULE',
  'DOCUMENT',
] as const;
export type GraphqlEntityType = (typeof GRAPHQL_ENTITY_TYPES)[number];

/** FabricType (DataHub 0.15's twelve, then the five current clients send). */
export const FABRIC_TYPES = [
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'SANDBOX',
  'PRD',
  'TST',
  'SIT',
  'SBX',
  'CERT',
] as const;
export type FabricType = (typeof FABRIC_TYPES)[number];

/**
 * DataHub's relationship names the derivation can emit: each is a Neo4j relationship type, with an
 * owner index (cypher/schema/schema.cypher) and a branch of cypher/edges/owned-by.cypher, both
 * expanded from this list by the Cypher loader (catalog/src/store/cypher.ts, listing templates).
 */
export const RELATIONSHIP_TYPES = [
  'DownstreamOf',
  'Consumes',
  'Produces',
  'IsPartOf',
  'Contains',
  'DashboardContainsDashboard',
  'DerivedFrom',
  'KeyedBy',
  'TrainedBy',
  'UsedBy',
  'MemberOf',
  'DeployedTo',
  'DataProcessInstanceConsumes',
  'DataProcessInstanceProduces',
  'InstanceOf',
  'ChildOf',
  'UpstreamOf',
  'consumesField',
  'TaggedWith',
  'TermedWith',
  'OwnedBy',
  'SchemaFieldTaggedWith',
  'SchemaFieldWithGlossaryTerm',
  'IsMemberOfGroup',
  'IsMemberOfNativeGroup',
] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** One part of a urn's key, in urn order: a field of the key aspect. */
export type KeyPart =
  | { readonly name: string; readonly kind: 'string'; readonly graphqlField?: string }
  | { readonly name: string; readonly kind: 'fabric'; readonly graphqlField?: string }
  | { readonly name: string; readonly kind: 'urn'; readonly urnTypes: readonly string[]; readonly graphqlField?: string };

/**
 * How a field holds the urns it derives edges to (model/relationships.ts reads them):
 * - urn: a single urn; urnList: urn[]; unionList: chart `inputs`, `{"string": urn}` members;
 * - upstreams: Upstream[] (`dataset`, stamps `created`/`auditStamp`, `properties`, `query`);
 * - edges: Edge[] (`destinationUrn`, stamps `created`/`lastModified`, `properties`);
 * - inputFields: InputField[] (`schemaFieldUrn`);
 * - path: a slash-separated path into the value ending at a urn, a `*` segment stepping into every
 *   element of an array (the tags of every schema field: fields/ * /globalTags/tags/ * /tag).
 */
export type FieldShape = 'urn' | 'urnList' | 'unionList' | 'upstreams' | 'edges' | 'inputFields' | 'path';

/** One field of an aspect that derives typed edges from its owner to the urns it names. */
export interface EdgeRule {
  /** Field name, or for `path` a slash-separated path (`*` steps into every element of an array). */
  readonly field: string;
  readonly shape: FieldShape;
  /** DataHub's relationship name. */
  readonly type: RelationshipType;
  /** Entity types a urn of the field may have; others derive nothing. */
  readonly to: readonly string[];
  /** Whether the destination is the upstream or the downstream end of lineage; absent = not lineage. */
  readonly lineage?: 'upstream' | 'downstream';
  /**
   * GraphQL updateLineage writes an edge between the owner and a `to` type here (an `edges` or
   * `upstreams` field; docs/wire-contract.md §GraphQL). `legacy`: the older urn list of the same
   * aspect holding the same edges, which counts as listing them and loses them on removal.
   */
  readonly updateLineage?: { readonly legacy?: string };
}

/**
 * How PATCH sees one keyed array of an aspect, as DataHub's AspectTemplateEngine does: a map from
 * key to entry (model/patch/templates.ts), so a client addresses an entry by its urn.
 */
export type KeyedKind =
  | { readonly kind: 'record'; readonly keyField: string } // Upstream, keyed by `dataset`
  | { readonly kind: 'edge' } //                              Edge, keyed by `destinationUrn`
  | { readonly kind: 'urn' } //                               Urn[], keyed by the urn itself
  | { readonly kind: 'chartInput' } //                        ChartDataSourceType[]: {"string": urn}
  | { readonly kind: 'owner' } //                             Owner[], keyed by owner urn, then ownership type
  | { readonly kind: 'fineGrained' }; //                      fineGrainedLineages: operation/downstream/query/upstream

/** An audit stamp as PATCH defaults carry it. */
export interface PatchStamp {
  readonly time: number;
  readonly actor: string;
}

/**
 * An aspect's PATCH template (DataHub's `<Aspect>Template`; model/patch/templates.ts applies it):
 * which of its arrays are keyed and how, and the value an absent aspect starts from.
 */
export interface PatchTemplate {
  readonly fields: Readonly<Record<string, KeyedKind>>;
  /** `stamp()` is a fresh audit stamp of the patch (its time, the system actor). */
  readonly defaultValue: (stamp: () => PatchStamp) => Record<string, unknown>;
}

/** An aspect an entity type owns: only this type may hold it, and what it derives. */
export interface OwnedAspect {
  /** Other entity types may hold it too (this type only says what it derives here). */
  readonly shared?: true;
  readonly edges?: readonly EdgeRule[];
  /** fineGrainedLineages make column edges; their via is the query on the entry, or the owner (jobs). */
  readonly fineGrained?: 'query' | 'owner';
  /** inputFields make the owner's own fields downstream of their inputs (charts, dashboards). */
  readonly inputFieldEdges?: true;
  /** Its PATCH template, when DataHub's SDK patches it through one; absent = plain JSON Patch. */
  readonly patch?: PatchTemplate;
  /**
   * The (empty) arrays it starts with when updateLineage adds an edge to an owner that lacks it;
   * absent = updateLineage needs it to exist (a chart's or dashboard's info).
   */
  readonly updateLineageStart?: readonly string[];
}

export interface EntityTypeDescriptor {
  /** DataHub's entity name, as in urns (`dataset`, `dataJob`). */
  readonly name: string;
  readonly keyAspect: string;
  readonly key: readonly KeyPart[];
  /**
   * The GraphQL EntityType value: DataHub's (OTHER when DataHub's enum has none), or for a type
   * added at start-up (installEntityRegistry) a new value its SDL adds (`extend enum EntityType { WIDGET }`).
   */
  readonly graphqlType: GraphqlEntityType | (string & {});
  /**
   * The GraphQL object type rendering it, when the subgraph has one. Its fields resolve from this
   * descriptor (key parts with a graphqlField, platform, the descriptive aspect, lineage).
   */
  readonly graphqlTypename?: string;
  /**
   * SDL of that object type (and its `Query` getter), for a type added at start-up (installEntityRegistry); the
   * built-in types' SDL is lineage-service/src/schema/entities.graphql.
   */
  readonly graphqlSdl?: string;
  /**
   * Modelled types only (absent on the known generic ones, which share the label `Generic`, take no
   * part in lineage and have no GraphQL object type of their own).
   */
  readonly modelled?: {
    /** Neo4j label next to `:Entity`. */
    readonly label: string;
    /** What the page calls it. */
    readonly displayLabel: string;
    /** The colour the page draws it in (and lists in its legend); absent = the page's neutral colour. */
    readonly colour?: string;
    /** The key part that is the entity's name. */
    readonly namePart?: string;
    /** The key part that gives the platform: a dataPlatform urn, a platform name, or a urn whose platform it is. */
    readonly platformPart?: string;
    /** The key part that is a FabricType. */
    readonly originPart?: string;
    /** The key part that is the parent (a schemaField's dataset, chart or dashboard). */
    readonly parentPart?: string;
    /**
     * The aspect whose fields name and describe it; writing it to a new urn creates the entity.
     * `editable`: the aspect DataHub's UI writes a description edited by hand to, which the page's
     * details sheet shows before the descriptive one (absent = it shows only the descriptive one).
     */
    readonly descriptive?: {
      readonly aspect: string;
      readonly name: readonly string[];
      readonly description: readonly string[];
      readonly editable?: string;
    };
    /** GraphQL: the descriptive aspect as `properties {name description …}`, or only as `description`. */
    readonly graphqlDescriptive?: 'properties' | 'description';
    /**
     * Its GraphQL type implements `EntityWithRelationships` (relationships, lineage): the page draws
     * it and asks for its name and platform (model/browser.ts `pageEntityFragment`).
     */
    readonly relationships?: true;
    /**
     * DataHub's updateLineage message when an upstream of this type is not one it accepts, `{urn}`
     * standing for that upstream (DataHub's texts, typos included); absent = "Unsupported lineage edge".
     */
    readonly updateLineageRejection?: string;
  };
  /** MetadataChangeEvent snapshot class (`DatasetSnapshot`) when DataHub has one. */
  readonly snapshot?: string;
  /** Aspects only this type may hold, with the edges they derive. */
  readonly aspects?: Readonly<Record<string, OwnedAspect>>;
}

// ---------------------------------------------------------------------------------------------
// Building blocks of the descriptors

export const str = (name: string, graphqlField?: string): KeyPart => ({ name, kind: 'string', ...(graphqlField ? { graphqlField } : {}) });
export const fabric = (name: string, graphqlField?: string): KeyPart => ({
  name,
  kind: 'fabric',
  ...(graphqlField ? { graphqlField } : {}),
});
export const urnPart = (name: string, urnTypes: readonly string[], graphqlField?: string): KeyPart => ({
  name,
  kind: 'urn',
  urnTypes,
  ...(graphqlField ? { graphqlField } : {}),
});

export const edge = (
  field: string,
  shape: FieldShape,
  type: RelationshipType,
  to: readonly string[],
  lineage?: 'upstream' | 'downstream',
): EdgeRule => ({ field, shape, type, to, ...(lineage ? { lineage } : {}) });
export const up = 'upstream' as const;
export const down = 'downstream' as const;
/** An edge rule GraphQL updateLineage edits, with the legacy urn list of the same edges. */
export const editable = (rule: EdgeRule, legacy?: string): EdgeRule => ({ ...rule, updateLineage: legacy ? { legacy } : {} });

// PATCH templates' keyed kinds (KeyedKind).
export const EDGE: KeyedKind = { kind: 'edge' };
export const URN: KeyedKind = { kind: 'urn' };
export const FINE: KeyedKind = { kind: 'fineGrained' };

/** An aspect that names no edge but belongs to one type (others may not hold it). */
export const OWN: OwnedAspect = {};

/** The names and look every descriptor built by a helper (descriptors/bi.ts, ml.ts) is given. */
export type Names = { name: string; graphqlType: GraphqlEntityType; graphqlTypename: string; snapshot: string };
export type Look = { label: string; displayLabel: string; colour: string; updateLineageRejection?: string };
