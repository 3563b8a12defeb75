// What an entity type is, written once (docs/lineage-model.md §Entity types): one descriptor per
// type, and every table the catalog used to keep per type (key parts, GraphQL type and EntityType,
// Neo4j label, name / platform / origin / parent, descriptive aspect, MCE snapshot class, the aspects
// it owns and the edges they derive, their PATCH templates, the fields GraphQL updateLineage writes,
// the label the page shows and the fields it asks for) is derived from these.
//
// Pure and browser-safe: the explorer imports this module as `@lineage/catalog/entity-types`.
//
// Adding a modelled type = a descriptor here (or in a registry built at start-up, entity-registry.ts)
// + its GraphQL SDL (docs/CONTRIBUTING.md §Add an entity type).

/** DataHub's EntityType enum in DataHub's order, then the values added since. */
export const GRAPHQL_ENTITY_TYPES = [
  'DOMAIN', 'DATASET', 'CORP_USER', 'CORP_GROUP', 'DATA_PLATFORM', 'ER_MODEL_RELATIONSHIP',
  'DASHBOARD', 'NOTEBOOK', 'CHART', 'DATA_FLOW', 'DATA_JOB', 'TAG', 'GLOSSARY_TERM', 'GLOSSARY_NODE',
  'CONTAINER', 'MLMODEL', 'MLMODEL_GROUP', 'MLFEATURE_TABLE', 'MLFEATURE', 'MLPRIMARY_KEY',
  'INGESTION_SOURCE', 'EXECUTION_REQUEST', 'ASSERTION', 'DATA_PROCESS_INSTANCE',
  'DATA_PLATFORM_INSTANCE', 'ACCESS_TOKEN', 'TEST', 'DATAHUB_POLICY', 'DATAHUB_ROLE', 'POST',
  'SCHEMA_FIELD', 'DATAHUB_VIEW', 'QUERY', 'DATA_PRODUCT', 'CUSTOM_OWNERSHIP_TYPE',
  'DATAHUB_CONNECTION', 'INCIDENT', 'ROLE', 'DATA_CONTRACT', 'STRUCTURED_PROPERTY', 'FORM',
  'DATA_TYPE', 'ENTITY_TYPE', 'RESTRICTED', 'OTHER', 'BUSINESS_ATTRIBUTE',
  'VERSION_SET', 'APPLICATION', 'DATAHUB_PAGE_TEMPLATE', 'DATAHUB_PAGE_MODULE', 'DOCUMENT',
] as const;
export type GraphqlEntityType = (typeof GRAPHQL_ENTITY_TYPES)[number];

/** FabricType (DataHub 0.15's twelve, then the five current clients send). */
export const FABRIC_TYPES = [
  'DEV', 'TEST', 'QA', 'UAT', 'EI', 'PRE', 'STG', 'NON_PROD', 'PROD', 'CORP', 'RVW', 'SANDBOX',
  'PRD', 'TST', 'SIT', 'SBX', 'CERT',
] as const;
export type FabricType = (typeof FABRIC_TYPES)[number];

/**
 * DataHub's relationship names the derivation can emit: each is a Neo4j relationship type, with an
 * owner index (cypher/schema/schema.cypher) and a branch of cypher/edges/owned-by.cypher, both
 * expanded from this list by the Cypher loader (catalog/src/store/cypher.ts, listing templates).
 */
export const RELATIONSHIP_TYPES = [
  'DownstreamOf', 'Consumes', 'Produces', 'IsPartOf', 'Contains', 'DashboardContainsDashboard', 'DerivedFrom',
  'KeyedBy', 'TrainedBy', 'UsedBy', 'MemberOf', 'DeployedTo', 'DataProcessInstanceConsumes',
  'DataProcessInstanceProduces', 'InstanceOf', 'ChildOf', 'UpstreamOf', 'consumesField', 'TaggedWith',
  'TermedWith', 'OwnedBy', 'SchemaFieldTaggedWith', 'SchemaFieldWithGlossaryTerm',
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
export interface PatchStamp { readonly time: number; readonly actor: string }

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
    /** The aspect whose fields name and describe it; writing it to a new urn creates the entity. */
    readonly descriptive?: { readonly aspect: string; readonly name: readonly string[]; readonly description: readonly string[] };
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
// Building blocks

const str = (name: string, graphqlField?: string): KeyPart => ({ name, kind: 'string', ...(graphqlField ? { graphqlField } : {}) });
const fabric = (name: string, graphqlField?: string): KeyPart => ({ name, kind: 'fabric', ...(graphqlField ? { graphqlField } : {}) });
const urnPart = (name: string, urnTypes: readonly string[], graphqlField?: string): KeyPart =>
  ({ name, kind: 'urn', urnTypes, ...(graphqlField ? { graphqlField } : {}) });

const edge = (field: string, shape: FieldShape, type: RelationshipType, to: readonly string[], lineage?: 'upstream' | 'downstream'): EdgeRule =>
  ({ field, shape, type, to, ...(lineage ? { lineage } : {}) });
const up = 'upstream' as const;
const down = 'downstream' as const;
/** An edge rule GraphQL updateLineage edits, with the legacy urn list of the same edges. */
const editable = (rule: EdgeRule, legacy?: string): EdgeRule => ({ ...rule, updateLineage: legacy ? { legacy } : {} });

/** Entity types whose columns can be schemaFields (docs/lineage-model.md §Columns). */
export const FIELD_PARENT_TYPES = ['dataset', 'chart', 'dashboard'] as const;

const DPI = 'dataProcessInstance';
const ML_JOBS = ['dataJob', DPI] as const;

// PATCH templates' keyed kinds (KeyedKind).
const EDGE: KeyedKind = { kind: 'edge' };
const URN: KeyedKind = { kind: 'urn' };
const FINE: KeyedKind = { kind: 'fineGrained' };

/**
 * Aspects any entity type may hold that derive edges: tags, terms, owners (not lineage). Their PATCH
 * templates address them as the Python client's builders do (/tags/<urn>, /terms/<urn>,
 * /owners/<urn>/<type>), with DataHub's template defaults.
 */
export const COMMON_ASPECTS: Readonly<Record<string, OwnedAspect>> = {
  globalTags: {
    edges: [edge('tags/*/tag', 'path', 'TaggedWith', ['tag'])],
    patch: { fields: { tags: { kind: 'record', keyField: 'tag' } }, defaultValue: () => ({ tags: [] }) },
  },
  glossaryTerms: {
    edges: [edge('terms/*/urn', 'path', 'TermedWith', ['glossaryTerm'])],
    patch: { fields: { terms: { kind: 'record', keyField: 'urn' } }, defaultValue: (stamp) => ({ terms: [], auditStamp: stamp() }) },
  },
  ownership: {
    edges: [edge('owners/*/owner', 'path', 'OwnedBy', ['corpuser', 'corpGroup'])],
    patch: { fields: { owners: { kind: 'owner' } }, defaultValue: (stamp) => ({ owners: [], ownerTypes: {}, lastModified: stamp() }) },
  },
};

/** An aspect that names no edge but belongs to one type (others may not hold it). */
const OWN: OwnedAspect = {};

/** A chart's or dashboard's input fields: the columns it reads, and its own columns downstream of them. */
const INPUT_FIELDS: OwnedAspect = {
  shared: true,
  edges: [edge('fields', 'inputFields', 'consumesField', ['schemaField'])],
  inputFieldEdges: true,
};

/** The names and look every descriptor built by a helper below is given. */
type Names = { name: string; graphqlType: GraphqlEntityType; graphqlTypename: string; snapshot: string };
type Look = { label: string; displayLabel: string; colour: string; updateLineageRejection?: string };

/**
 * Charts and dashboards have the same shape: a (dashboardTool, <name>Id) key, a `<name>Info` aspect
 * that titles and describes them and names their inputs, and inputFields for their columns. PATCH
 * keys the info's input arrays (`keyed`); an absent info starts titled '' with `arrays` empty.
 */
function visualisation(names: Names, look: Look, inputs: readonly EdgeRule[], keyed: Readonly<Record<string, KeyedKind>>, arrays: readonly string[]): EntityTypeDescriptor {
  const id = `${names.name}Id`;
  const info = `${names.name}Info`;
  const defaultValue = (stamp: () => PatchStamp) => ({
    title: '', description: '', lastModified: { created: stamp(), lastModified: stamp() }, ...Object.fromEntries(arrays.map((a) => [a, []])),
  });
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [str('dashboardTool', 'tool'), str(id, id)],
    modelled: {
      ...look, namePart: id, platformPart: 'dashboardTool', graphqlDescriptive: 'properties', relationships: true,
      descriptive: { aspect: info, name: ['title'], description: ['description'] },
    },
    aspects: { [info]: { edges: inputs, patch: { fields: keyed, defaultValue } }, inputFields: INPUT_FIELDS },
  };
}

/** The jobs (or runs) that train a model or group, and those that use it. */
const TRAINED_BY = edge('trainingJobs', 'urnList', 'TrainedBy', ML_JOBS, up);
const USED_BY = edge('downstreamJobs', 'urnList', 'UsedBy', ML_JOBS, down);

/**
 * ML models and model groups have the same shape: a (platform, name, origin) key, and a
 * `<name>Properties` aspect that names and describes them and lists the jobs around them.
 */
function modelLike(names: Names, look: Look, edges: readonly EdgeRule[]): EntityTypeDescriptor {
  const properties = `${names.name}Properties`;
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [urnPart('platform', ['dataPlatform']), str('name', 'name'), fabric('origin', 'origin')],
    modelled: {
      ...look, namePart: 'name', platformPart: 'platform', originPart: 'origin', graphqlDescriptive: 'description', relationships: true,
      descriptive: { aspect: properties, name: ['name'], description: ['description'] },
    },
    aspects: { [properties]: { edges } },
  };
}

/**
 * ML features and primary keys have the same shape: a (featureNamespace, name) key, and a
 * `<name>Properties` aspect that describes them and whose `sources` are the datasets they derive from.
 */
function featureLike(names: Names, look: Look): EntityTypeDescriptor {
  const properties = `${names.name}Properties`;
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [str('featureNamespace', 'featureNamespace'), str('name', 'name')],
    modelled: {
      ...look, namePart: 'name', graphqlDescriptive: 'description', relationships: true,
      descriptive: { aspect: properties, name: [], description: ['description'] },
    },
    aspects: { [properties]: { edges: [edge('sources', 'urnList', 'DerivedFrom', ['dataset'], up)] } },
  };
}

// ---------------------------------------------------------------------------------------------
// The modelled types (key aspect names and field orders as in KEY_ASPECTS of acryl-datahub 1.7)

export const MODELLED_ENTITY_TYPES: readonly EntityTypeDescriptor[] = [
  {
    name: 'dataset', keyAspect: 'datasetKey', graphqlType: 'DATASET', graphqlTypename: 'Dataset', snapshot: 'DatasetSnapshot',
    key: [urnPart('platform', ['dataPlatform']), str('name', 'name'), fabric('origin', 'origin')],
    modelled: {
      label: 'Dataset', displayLabel: 'Dataset', colour: '#2563eb', namePart: 'name', platformPart: 'platform', originPart: 'origin', relationships: true,
      descriptive: { aspect: 'datasetProperties', name: ['name'], description: ['description'] }, graphqlDescriptive: 'properties',
      updateLineageRejection: 'Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: {urn}',
    },
    aspects: {
      upstreamLineage: {
        edges: [editable(edge('upstreams', 'upstreams', 'DownstreamOf', ['dataset'], up))],
        fineGrained: 'query',
        updateLineageStart: ['upstreams'],
        patch: {
          fields: { upstreams: { kind: 'record', keyField: 'dataset' }, fineGrainedLineages: FINE },
          defaultValue: () => ({ upstreams: [], fineGrainedLineages: [] }),
        },
      },
      datasetProperties: OWN,
      schemaMetadata: {
        shared: true,
        edges: [
          edge('fields/*/globalTags/tags/*/tag', 'path', 'SchemaFieldTaggedWith', ['tag']),
          edge('fields/*/glossaryTerms/terms/*/urn', 'path', 'SchemaFieldWithGlossaryTerm', ['glossaryTerm']),
        ],
      },
    },
  },
  {
    name: 'schemaField', keyAspect: 'schemaFieldKey', graphqlType: 'SCHEMA_FIELD', graphqlTypename: 'SchemaFieldEntity', snapshot: 'SchemaFieldSnapshot',
    key: [urnPart('parent', FIELD_PARENT_TYPES, 'parent'), str('fieldPath', 'fieldPath')],
    modelled: { label: 'SchemaField', displayLabel: 'Column', namePart: 'fieldPath', platformPart: 'parent', parentPart: 'parent', relationships: true },
  },
  {
    name: 'dataJob', keyAspect: 'dataJobKey', graphqlType: 'DATA_JOB', graphqlTypename: 'DataJob', snapshot: 'DataJobSnapshot',
    key: [urnPart('flow', ['dataFlow'], 'dataFlow'), str('jobId', 'jobId')],
    modelled: {
      label: 'DataJob', displayLabel: 'Data job', colour: '#c2410c', namePart: 'jobId', platformPart: 'flow', relationships: true,
      descriptive: { aspect: 'dataJobInfo', name: ['name'], description: ['description'] }, graphqlDescriptive: 'properties',
      // "datJob" (sic) is DataHub's text.
      updateLineageRejection: "Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: {urn}",
    },
    aspects: {
      dataJobKey: { edges: [edge('flow', 'urn', 'IsPartOf', ['dataFlow'])] },
      dataJobInfo: OWN,
      dataJobInputOutput: {
        edges: [
          edge('inputDatasets', 'urnList', 'Consumes', ['dataset'], up),
          editable(edge('inputDatasetEdges', 'edges', 'Consumes', ['dataset'], up), 'inputDatasets'),
          edge('outputDatasets', 'urnList', 'Produces', ['dataset'], down),
          editable(edge('outputDatasetEdges', 'edges', 'Produces', ['dataset'], down), 'outputDatasets'),
          edge('inputDatajobs', 'urnList', 'DownstreamOf', ['dataJob'], up),
          editable(edge('inputDatajobEdges', 'edges', 'DownstreamOf', ['dataJob'], up), 'inputDatajobs'),
          edge('inputDatasetFields', 'urnList', 'Consumes', ['schemaField']),
          edge('outputDatasetFields', 'urnList', 'Produces', ['schemaField']),
        ],
        fineGrained: 'owner',
        updateLineageStart: ['inputDatasets', 'outputDatasets'],
        patch: {
          fields: {
            inputDatasetEdges: EDGE, outputDatasetEdges: EDGE, inputDatajobEdges: EDGE,
            inputDatasetFields: URN, outputDatasetFields: URN, fineGrainedLineages: FINE,
          },
          defaultValue: () => ({
            inputDatasets: [], outputDatasets: [], inputDatajobs: [], inputDatasetEdges: [], outputDatasetEdges: [],
            inputDatajobEdges: [], inputDatasetFields: [], outputDatasetFields: [], fineGrainedLineages: [],
          }),
        },
      },
    },
  },
  {
    name: 'dataFlow', keyAspect: 'dataFlowKey', graphqlType: 'DATA_FLOW', graphqlTypename: 'DataFlow', snapshot: 'DataFlowSnapshot',
    key: [str('orchestrator', 'orchestrator'), str('flowId', 'flowId'), str('cluster', 'cluster')],
    modelled: {
      label: 'DataFlow', displayLabel: 'Data flow', colour: '#9a3412', namePart: 'flowId', platformPart: 'orchestrator', relationships: true,
      descriptive: { aspect: 'dataFlowInfo', name: ['name'], description: ['description'] }, graphqlDescriptive: 'properties',
    },
    aspects: { dataFlowInfo: OWN },
  },
  visualisation({ name: 'chart', graphqlType: 'CHART', graphqlTypename: 'Chart', snapshot: 'ChartSnapshot' },
    { label: 'Chart', displayLabel: 'Chart', colour: '#15803d', updateLineageRejection: "Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: {urn}" },
    [edge('inputs', 'unionList', 'Consumes', ['dataset'], up), editable(edge('inputEdges', 'edges', 'Consumes', ['dataset', 'chart'], up), 'inputs')],
    { inputEdges: EDGE, inputs: { kind: 'chartInput' } }, ['inputs', 'inputEdges']),
  visualisation({ name: 'dashboard', graphqlType: 'DASHBOARD', graphqlTypename: 'Dashboard', snapshot: 'DashboardSnapshot' },
    { label: 'Dashboard', displayLabel: 'Dashboard', colour: '#0f766e', updateLineageRejection: "Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: {urn}" },
    [
      edge('charts', 'urnList', 'Contains', ['chart'], up),
      editable(edge('chartEdges', 'edges', 'Contains', ['chart'], up), 'charts'),
      edge('datasets', 'urnList', 'Consumes', ['dataset'], up),
      editable(edge('datasetEdges', 'edges', 'Consumes', ['dataset'], up), 'datasets'),
      edge('dashboards', 'edges', 'DashboardContainsDashboard', ['dashboard'], up),
    ],
    // `dashboards` (dashboard → dashboard edges) is keyed too, as in DataHub's DashboardInfoTemplate.
    { charts: URN, chartEdges: EDGE, datasets: URN, datasetEdges: EDGE, dashboards: EDGE }, ['charts', 'chartEdges', 'datasets', 'datasetEdges']),
  featureLike({ name: 'mlPrimaryKey', graphqlType: 'MLPRIMARY_KEY', graphqlTypename: 'MLPrimaryKey', snapshot: 'MLPrimaryKeySnapshot' },
    { label: 'MlPrimaryKey', displayLabel: 'ML primary key', colour: '#6d28d9' }),
  featureLike({ name: 'mlFeature', graphqlType: 'MLFEATURE', graphqlTypename: 'MLFeature', snapshot: 'MLFeatureSnapshot' },
    { label: 'MlFeature', displayLabel: 'ML feature', colour: '#7e22ce' }),
  {
    name: 'mlFeatureTable', keyAspect: 'mlFeatureTableKey', graphqlType: 'MLFEATURE_TABLE', graphqlTypename: 'MLFeatureTable', snapshot: 'MLFeatureTableSnapshot',
    key: [urnPart('platform', ['dataPlatform']), str('name', 'name')],
    modelled: {
      label: 'MlFeatureTable', displayLabel: 'ML feature table', colour: '#a21caf', namePart: 'name', platformPart: 'platform', relationships: true,
      descriptive: { aspect: 'mlFeatureTableProperties', name: [], description: ['description'] }, graphqlDescriptive: 'description',
    },
    aspects: {
      mlFeatureTableProperties: {
        edges: [edge('mlFeatures', 'urnList', 'Contains', ['mlFeature']), edge('mlPrimaryKeys', 'urnList', 'KeyedBy', ['mlPrimaryKey'])],
      },
    },
  },
  modelLike({ name: 'mlModel', graphqlType: 'MLMODEL', graphqlTypename: 'MLModel', snapshot: 'MLModelSnapshot' },
    { label: 'MlModel', displayLabel: 'ML model', colour: '#be185d' },
    [
      edge('mlFeatures', 'urnList', 'Consumes', ['mlFeature'], up),
      TRAINED_BY,
      USED_BY,
      edge('groups', 'urnList', 'MemberOf', ['mlModelGroup'], down),
      edge('deployments', 'urnList', 'DeployedTo', ['mlModelDeployment']),
    ]),
  modelLike({ name: 'mlModelGroup', graphqlType: 'MLMODEL_GROUP', graphqlTypename: 'MLModelGroup', snapshot: 'MLModelGroupSnapshot' },
    { label: 'MlModelGroup', displayLabel: 'ML model group', colour: '#9d174d' },
    [TRAINED_BY, USED_BY]),
  {
    name: 'corpuser', keyAspect: 'corpUserKey', graphqlType: 'CORP_USER', graphqlTypename: 'CorpUser', snapshot: 'CorpUserSnapshot',
    key: [str('username', 'username')],
    modelled: {
      label: 'Corpuser', displayLabel: 'User', namePart: 'username',
      descriptive: { aspect: 'corpUserInfo', name: ['displayName', 'fullName'], description: [] },
    },
    aspects: { corpUserInfo: OWN },
  },
  {
    name: 'corpGroup', keyAspect: 'corpGroupKey', graphqlType: 'CORP_GROUP', graphqlTypename: 'CorpGroup', snapshot: 'CorpGroupSnapshot',
    key: [str('name')],
    modelled: { label: 'CorpGroup', displayLabel: 'Group', namePart: 'name' },
  },
  {
    name: 'dataPlatform', keyAspect: 'dataPlatformKey', graphqlType: 'DATA_PLATFORM', graphqlTypename: 'DataPlatform', snapshot: 'DataPlatformSnapshot',
    key: [str('platformName', 'name')],
    modelled: {
      label: 'DataPlatform', displayLabel: 'Platform', namePart: 'platformName',
      descriptive: { aspect: 'dataPlatformInfo', name: ['displayName'], description: [] },
    },
    aspects: { dataPlatformInfo: OWN },
  },
  {
    name: 'query', keyAspect: 'queryKey', graphqlType: 'QUERY', graphqlTypename: 'QueryEntity',
    key: [str('id')],
    modelled: { label: 'Query', displayLabel: 'Query', namePart: 'id' },
  },
  {
    name: DPI, keyAspect: 'dataProcessInstanceKey', graphqlType: 'DATA_PROCESS_INSTANCE', graphqlTypename: 'DataProcessInstance',
    key: [str('id')],
    modelled: { label: 'DataProcessInstance', displayLabel: 'Process run', namePart: 'id', relationships: true },
    aspects: {
      dataProcessInstanceInput: {
        edges: [
          edge('inputs', 'urnList', 'Consumes', ['dataset', 'mlModel']),
          edge('inputEdges', 'edges', 'DataProcessInstanceConsumes', ['dataset', 'mlModel', DPI], up),
        ],
      },
      dataProcessInstanceOutput: {
        edges: [
          edge('outputs', 'urnList', 'Produces', ['dataset', 'mlModel']),
          edge('outputEdges', 'edges', 'DataProcessInstanceProduces', ['dataset', 'mlModel', DPI], down),
        ],
      },
      dataProcessInstanceRelationships: {
        shared: true,
        edges: [
          edge('parentTemplate', 'urn', 'InstanceOf', ['dataJob', 'dataFlow', 'dataset']),
          edge('parentInstance', 'urn', 'ChildOf', [DPI]),
          edge('upstreamInstances', 'urnList', 'UpstreamOf', [DPI]),
        ],
      },
    },
  },
  {
    // The legacy process: outputs are modelled as Consumes too, so they read as upstream.
    name: 'dataProcess', keyAspect: 'dataProcessKey', graphqlType: 'OTHER', snapshot: 'DataProcessSnapshot',
    key: [str('name'), str('orchestrator'), fabric('origin')],
    modelled: { label: 'DataProcess', displayLabel: 'Process', namePart: 'name', platformPart: 'orchestrator', originPart: 'origin' },
    aspects: {
      dataProcessInfo: { edges: [edge('inputs', 'urnList', 'Consumes', ['dataset'], up), edge('outputs', 'urnList', 'Consumes', ['dataset'], up)] },
    },
  },
  {
    name: 'dataHubAccessToken', keyAspect: 'dataHubAccessTokenKey', graphqlType: 'ACCESS_TOKEN',
    key: [str('id')],
    modelled: { label: 'DataHubAccessToken', displayLabel: 'Access token', namePart: 'id' },
  },
  {
    name: 'dataHubRole', keyAspect: 'dataHubRoleKey', graphqlType: 'DATAHUB_ROLE',
    key: [str('id')],
    modelled: { label: 'DataHubRole', displayLabel: 'Role', namePart: 'id' },
  },
  {
    name: 'telemetry', keyAspect: 'telemetryKey', graphqlType: 'OTHER',
    key: [str('name')],
    modelled: { label: 'Telemetry', displayLabel: 'Telemetry', namePart: 'name' },
    aspects: { telemetryClientId: OWN },
  },
];

// Every other entity type of KEY_ASPECTS in acryl-datahub 1.7 (key aspect fields as plain strings),
// with its GraphQL EntityType and MCE snapshot class where DataHub has them. Regenerate with: for
// k, c in KEY_ASPECTS.items(): (k, c.ASPECT_NAME, [f.name for f in c.RECORD_SCHEMA.fields]).
const known = (name: string, keyAspect: string, fields: readonly string[], graphqlType: GraphqlEntityType = 'OTHER', snapshot?: string): EntityTypeDescriptor =>
  ({ name, keyAspect, key: fields.map((f) => str(f)), graphqlType, ...(snapshot ? { snapshot } : {}) });

// Those with a graphqlTypename are rendered in GraphQL: the SDK's search and DataHub's MCP server read
// them off datasets, charts, … (tags, terms, owners, domains, structured properties, documents).
export const KNOWN_GENERIC_ENTITY_TYPES: readonly EntityTypeDescriptor[] = [
  known('agentSkill', 'agentSkillKey', ['id']),
  known('aiAgent', 'aiAgentKey', ['id']),
  known('api', 'apiKey', ['id']),
  { ...known('application', 'applicationKey', ['id'], 'APPLICATION'), graphqlTypename: 'Application' },
  { ...known('assertion', 'assertionKey', ['assertionId'], 'ASSERTION'), graphqlTypename: 'Assertion' },
  { ...known('businessAttribute', 'businessAttributeKey', ['id'], 'BUSINESS_ATTRIBUTE'), graphqlTypename: 'BusinessAttribute' },
  { ...known('container', 'containerKey', ['guid'], 'CONTAINER'), graphqlTypename: 'Container' },
  known('dataContract', 'dataContractKey', ['id'], 'DATA_CONTRACT'),
  known('dataHubAction', 'dataHubActionKey', ['id']),
  known('dataHubConnection', 'dataHubConnectionKey', ['id'], 'DATAHUB_CONNECTION'),
  known('dataHubExecutionRequest', 'dataHubExecutionRequestKey', ['id'], 'EXECUTION_REQUEST'),
  known('dataHubFile', 'dataHubFileKey', ['id']),
  known('dataHubIngestionSource', 'dataHubIngestionSourceKey', ['id'], 'INGESTION_SOURCE'),
  known('dataHubOpenAPISchema', 'dataHubOpenAPISchemaKey', ['id']),
  known('dataHubPageModule', 'dataHubPageModuleKey', ['id'], 'DATAHUB_PAGE_MODULE'),
  known('dataHubPageTemplate', 'dataHubPageTemplateKey', ['id'], 'DATAHUB_PAGE_TEMPLATE'),
  known('dataHubPersona', 'dataHubPersonaKey', ['id']),
  known('dataHubPolicy', 'dataHubPolicyKey', ['id'], 'DATAHUB_POLICY', 'DataHubPolicySnapshot'),
  known('dataHubRetention', 'dataHubRetentionKey', ['entityName', 'aspectName'], 'OTHER', 'DataHubRetentionSnapshot'),
  known('dataHubSecret', 'dataHubSecretKey', ['id']),
  known('dataHubStepState', 'dataHubStepStateKey', ['id']),
  known('dataHubUpgrade', 'dataHubUpgradeKey', ['id']),
  known('dataHubView', 'dataHubViewKey', ['id'], 'DATAHUB_VIEW'),
  { ...known('dataPlatformInstance', 'dataPlatformInstanceKey', ['platform', 'instance'], 'DATA_PLATFORM_INSTANCE'), graphqlTypename: 'DataPlatformInstance' },
  { ...known('dataProduct', 'dataProductKey', ['id'], 'DATA_PRODUCT'), graphqlTypename: 'DataProduct' },
  { ...known('dataType', 'dataTypeKey', ['id'], 'DATA_TYPE'), graphqlTypename: 'DataTypeEntity' },
  { ...known('document', 'documentKey', ['id'], 'DOCUMENT'), graphqlTypename: 'Document' },
  { ...known('domain', 'domainKey', ['id'], 'DOMAIN'), graphqlTypename: 'Domain' },
  { ...known('entityType', 'entityTypeKey', ['id'], 'ENTITY_TYPE'), graphqlTypename: 'EntityTypeEntity' },
  known('erModelRelationship', 'erModelRelationshipKey', ['id'], 'ER_MODEL_RELATIONSHIP'),
  known('form', 'formKey', ['id'], 'FORM'),
  known('globalSettings', 'globalSettingsKey', ['id']),
  { ...known('glossaryNode', 'glossaryNodeKey', ['name'], 'GLOSSARY_NODE', 'GlossaryNodeSnapshot'), graphqlTypename: 'GlossaryNode' },
  { ...known('glossaryTerm', 'glossaryTermKey', ['name'], 'GLOSSARY_TERM', 'GlossaryTermSnapshot'), graphqlTypename: 'GlossaryTerm' },
  { ...known('incident', 'incidentKey', ['id'], 'INCIDENT'), graphqlTypename: 'Incident' },
  known('inviteToken', 'inviteTokenKey', ['id']),
  known('lifecycleStageType', 'lifecycleStageTypeKey', ['id']),
  known('metric', 'metricKey', ['platform', 'path', 'id']),
  known('mlModelDeployment', 'mlModelDeploymentKey', ['platform', 'name', 'origin'], 'OTHER', 'MLModelDeploymentSnapshot'),
  known('notebook', 'notebookKey', ['notebookTool', 'notebookId'], 'NOTEBOOK'),
  { ...known('ownershipType', 'ownershipTypeKey', ['id'], 'CUSTOM_OWNERSHIP_TYPE'), graphqlTypename: 'OwnershipTypeEntity' },
  known('platformResource', 'platformResourceKey', ['id']),
  known('post', 'postKey', ['id'], 'POST'),
  known('repository', 'repositoryKey', ['id']),
  known('role', 'roleKey', ['id'], 'ROLE'),
  known('searchTemplate', 'searchTemplateKey', ['id']),
  known('semanticModel', 'semanticModelKey', ['platform', 'path', 'id']),
  known('service', 'serviceKey', ['id']),
  { ...known('structuredProperty', 'structuredPropertyKey', ['id'], 'STRUCTURED_PROPERTY'), graphqlTypename: 'StructuredPropertyEntity' },
  { ...known('tag', 'tagKey', ['name'], 'TAG', 'TagSnapshot'), graphqlTypename: 'Tag' },
  known('test', 'testKey', ['id'], 'TEST'),
  known('versionSet', 'versionSetKey', ['id', 'entityType'], 'VERSION_SET'),
];

/**
 * Entity names DataHub's EntityType enum has a value for but no key aspect the SDK knows of: they
 * are unknown generic types here (key aspect `<name>Key` = `{id}`), with their GraphQL value.
 */
export const GRAPHQL_TYPE_OF_UNREGISTERED: Readonly<Record<string, GraphqlEntityType>> = { restricted: 'RESTRICTED' };

// ---------------------------------------------------------------------------------------------
// The built-in types: what the process registry (entity-registry.ts) is built from unless start-up
// installs one of its own (a test that needs an extra type builds `[...BUILT_IN_ENTITY_TYPES, extra]`).

export const BUILT_IN_ENTITY_TYPES: readonly EntityTypeDescriptor[] = Object.freeze([...MODELLED_ENTITY_TYPES, ...KNOWN_GENERIC_ENTITY_TYPES]);
