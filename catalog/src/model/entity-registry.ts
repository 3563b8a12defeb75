// The entity types the catalog knows: how a urn's key parts map onto its key aspect, which GraphQL
// EntityType and Neo4j label it gets, and the search fields (platform, name, origin) its key implies.
//
// Three tiers (wire-compat §8.2):
// - modelled: the lineage-capable types below. Key parts are typed (urn of a given entity type,
//   FabricType, string) and checked; each has its own Neo4j label.
// - known generic: any other entity type DataHub's SDK knows (tag, container, domain, …). Key
//   parts map positionally onto DataHub's own key field names, as plain strings, so that the key
//   aspect we serve (`GET /aspects/<urn>?aspect=tagKey`, `exists()`) is the record the Python client
//   expects. Wrong part count is rejected, as DataHub does.
// - unknown generic: every other syntactically valid type. Stored and served, key aspect
//   `<type>Key` = `{"id": <whole key text>}`.
// Generic entities share the label `Generic` (labels must come from this whitelist, never from
// input), take no part in lineage, and map to their GraphQL EntityType when DataHub has one, else
// OTHER.
import { validationFailed } from './errors.ts';
import { InvalidUrnError, parseUrn, type Urn } from './urn.ts';

/**
 * FabricType. The first twelve are the values of wire-compat §8.2 (DataHub 0.15); the last five
 * (PRD TST SIT SBX CERT) were added later and are sent by current clients: verified against the
 * FabricTypeClass of acryl-datahub 1.7.0.17.
 */
export const FABRIC_TYPES = [
  'DEV', 'TEST', 'QA', 'UAT', 'EI', 'PRE', 'STG', 'NON_PROD', 'PROD', 'CORP', 'RVW', 'SANDBOX',
  'PRD', 'TST', 'SIT', 'SBX', 'CERT',
] as const;
export type FabricType = (typeof FABRIC_TYPES)[number];
const FABRIC_SET: ReadonlySet<string> = new Set(FABRIC_TYPES);
export function isFabricType(value: string): value is FabricType {
  return FABRIC_SET.has(value);
}

// ---------------------------------------------------------------------------------------------
// GraphQL EntityType (wire-compat §3.4)

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
const GRAPHQL_SET: ReadonlySet<string> = new Set(GRAPHQL_ENTITY_TYPES);
export function isGraphqlEntityType(value: string): value is GraphqlEntityType {
  return GRAPHQL_SET.has(value);
}

// Explicit, because neither rule of thumb is right for every row: camelCase→UPPER_SNAKE breaks on
// corpuser / ml* / dataHub*, and the Python client's "strip DATA_HUB_" breaks on dataHubPolicy,
// dataHubRole, dataHubView. Entity names are DataHub's (Constants.*_ENTITY_NAME). OTHER has none.
const ENTITY_NAME_TO_GRAPHQL: ReadonlyMap<string, GraphqlEntityType> = new Map<string, GraphqlEntityType>([
  ['domain', 'DOMAIN'],
  ['dataset', 'DATASET'],
  ['corpuser', 'CORP_USER'],
  ['corpGroup', 'CORP_GROUP'],
  ['dataPlatform', 'DATA_PLATFORM'],
  ['erModelRelationship', 'ER_MODEL_RELATIONSHIP'],
  ['dashboard', 'DASHBOARD'],
  ['notebook', 'NOTEBOOK'],
  ['chart', 'CHART'],
  ['dataFlow', 'DATA_FLOW'],
  ['dataJob', 'DATA_JOB'],
  ['tag', 'TAG'],
  ['glossaryTerm', 'GLOSSARY_TERM'],
  ['glossaryNode', 'GLOSSARY_NODE'],
  ['container', 'CONTAINER'],
  ['mlModel', 'MLMODEL'],
  ['mlModelGroup', 'MLMODEL_GROUP'],
  ['mlFeatureTable', 'MLFEATURE_TABLE'],
  ['mlFeature', 'MLFEATURE'],
  ['mlPrimaryKey', 'MLPRIMARY_KEY'],
  ['dataHubIngestionSource', 'INGESTION_SOURCE'],
  ['dataHubExecutionRequest', 'EXECUTION_REQUEST'],
  ['assertion', 'ASSERTION'],
  ['dataProcessInstance', 'DATA_PROCESS_INSTANCE'],
  ['dataPlatformInstance', 'DATA_PLATFORM_INSTANCE'],
  ['dataHubAccessToken', 'ACCESS_TOKEN'],
  ['test', 'TEST'],
  ['dataHubPolicy', 'DATAHUB_POLICY'],
  ['dataHubRole', 'DATAHUB_ROLE'],
  ['post', 'POST'],
  ['schemaField', 'SCHEMA_FIELD'],
  ['dataHubView', 'DATAHUB_VIEW'],
  ['query', 'QUERY'],
  ['dataProduct', 'DATA_PRODUCT'],
  ['ownershipType', 'CUSTOM_OWNERSHIP_TYPE'],
  ['dataHubConnection', 'DATAHUB_CONNECTION'],
  ['incident', 'INCIDENT'],
  ['role', 'ROLE'],
  ['dataContract', 'DATA_CONTRACT'],
  ['structuredProperty', 'STRUCTURED_PROPERTY'],
  ['form', 'FORM'],
  ['dataType', 'DATA_TYPE'],
  ['entityType', 'ENTITY_TYPE'],
  ['restricted', 'RESTRICTED'],
  ['businessAttribute', 'BUSINESS_ATTRIBUTE'],
  ['versionSet', 'VERSION_SET'],
  ['application', 'APPLICATION'],
  ['dataHubPageTemplate', 'DATAHUB_PAGE_TEMPLATE'],
  ['dataHubPageModule', 'DATAHUB_PAGE_MODULE'],
  ['document', 'DOCUMENT'],
]);
const GRAPHQL_TO_ENTITY_NAME: ReadonlyMap<GraphqlEntityType, string> = new Map(
  [...ENTITY_NAME_TO_GRAPHQL].map(([name, value]) => [value, name]),
);

/** GraphQL EntityType of a DataHub entity name; OTHER for names DataHub's enum has no value for. */
export function entityTypeToGraphql(entityType: string): GraphqlEntityType {
  return ENTITY_NAME_TO_GRAPHQL.get(entityType) ?? 'OTHER';
}

/** DataHub entity name of a GraphQL EntityType; undefined for OTHER and unknown values. */
export function graphqlToEntityType(value: string): string | undefined {
  return isGraphqlEntityType(value) ? GRAPHQL_TO_ENTITY_NAME.get(value) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Entity types

export type KeyField =
  | { readonly name: string; readonly kind: 'string' }
  | { readonly name: string; readonly kind: 'fabric' }
  | { readonly name: string; readonly kind: 'urn'; readonly urnTypes: readonly string[] };

export type EntityTier = 'modelled' | 'knownGeneric' | 'generic';

export interface EntityTypeSpec {
  /** DataHub's entity name, as it appears in urns (`dataset`, `corpuser`, `dataJob`). */
  readonly name: string;
  readonly tier: EntityTier;
  /** Key aspect name (`datasetKey`, `corpUserKey`). */
  readonly keyAspect: string;
  /** Key aspect fields, in urn part order. */
  readonly keyFields: readonly KeyField[];
  readonly graphqlType: GraphqlEntityType;
  /** Neo4j type label, next to `:Entity`. */
  readonly label: string;
}

/** Label shared by every entity type that is not modelled. */
export const GENERIC_LABEL = 'Generic';

const str = (name: string): KeyField => ({ name, kind: 'string' });
const fabric = (name: string): KeyField => ({ name, kind: 'fabric' });
const urn = (name: string, ...urnTypes: string[]): KeyField => ({ name, kind: 'urn', urnTypes });

/**
 * Entity types whose columns can be schemaFields: datasets (schemaMetadata) and the charts and
 * dashboards whose `inputFields` name their own fields (docs/lineage-model.md §Columns).
 */
export const FIELD_PARENT_TYPES = ['dataset', 'chart', 'dashboard'] as const;

// Key aspect names and field orders verified against KEY_ASPECTS of acryl-datahub 1.7.0.17.
const MODELLED_KEYS: ReadonlyArray<readonly [string, string, readonly KeyField[]]> = [
  ['dataset', 'datasetKey', [urn('platform', 'dataPlatform'), str('name'), fabric('origin')]],
  ['schemaField', 'schemaFieldKey', [urn('parent', ...FIELD_PARENT_TYPES), str('fieldPath')]],
  ['dataJob', 'dataJobKey', [urn('flow', 'dataFlow'), str('jobId')]],
  ['dataFlow', 'dataFlowKey', [str('orchestrator'), str('flowId'), str('cluster')]],
  ['chart', 'chartKey', [str('dashboardTool'), str('chartId')]],
  ['dashboard', 'dashboardKey', [str('dashboardTool'), str('dashboardId')]],
  ['mlPrimaryKey', 'mlPrimaryKeyKey', [str('featureNamespace'), str('name')]],
  ['mlFeature', 'mlFeatureKey', [str('featureNamespace'), str('name')]],
  ['mlFeatureTable', 'mlFeatureTableKey', [urn('platform', 'dataPlatform'), str('name')]],
  ['mlModel', 'mlModelKey', [urn('platform', 'dataPlatform'), str('name'), fabric('origin')]],
  ['mlModelGroup', 'mlModelGroupKey', [urn('platform', 'dataPlatform'), str('name'), fabric('origin')]],
  ['corpuser', 'corpUserKey', [str('username')]],
  ['corpGroup', 'corpGroupKey', [str('name')]],
  ['dataPlatform', 'dataPlatformKey', [str('platformName')]],
  ['query', 'queryKey', [str('id')]],
  ['dataProcessInstance', 'dataProcessInstanceKey', [str('id')]],
  ['dataProcess', 'dataProcessKey', [str('name'), str('orchestrator'), fabric('origin')]],
  ['dataHubAccessToken', 'dataHubAccessTokenKey', [str('id')]],
  ['dataHubRole', 'dataHubRoleKey', [str('id')]],
  ['telemetry', 'telemetryKey', [str('name')]],
];

// Every other entity type in KEY_ASPECTS of acryl-datahub 1.7.0.17: key aspect name and field
// names. Regenerate with: for k, c in KEY_ASPECTS.items(): (k, c.ASPECT_NAME, [f.name for f in
// c.RECORD_SCHEMA.fields]).
const KNOWN_GENERIC_KEYS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ['agentSkill', 'agentSkillKey', ['id']],
  ['aiAgent', 'aiAgentKey', ['id']],
  ['api', 'apiKey', ['id']],
  ['application', 'applicationKey', ['id']],
  ['assertion', 'assertionKey', ['assertionId']],
  ['businessAttribute', 'businessAttributeKey', ['id']],
  ['container', 'containerKey', ['guid']],
  ['dataContract', 'dataContractKey', ['id']],
  ['dataHubAction', 'dataHubActionKey', ['id']],
  ['dataHubConnection', 'dataHubConnectionKey', ['id']],
  ['dataHubExecutionRequest', 'dataHubExecutionRequestKey', ['id']],
  ['dataHubFile', 'dataHubFileKey', ['id']],
  ['dataHubIngestionSource', 'dataHubIngestionSourceKey', ['id']],
  ['dataHubOpenAPISchema', 'dataHubOpenAPISchemaKey', ['id']],
  ['dataHubPageModule', 'dataHubPageModuleKey', ['id']],
  ['dataHubPageTemplate', 'dataHubPageTemplateKey', ['id']],
  ['dataHubPersona', 'dataHubPersonaKey', ['id']],
  ['dataHubPolicy', 'dataHubPolicyKey', ['id']],
  ['dataHubRetention', 'dataHubRetentionKey', ['entityName', 'aspectName']],
  ['dataHubSecret', 'dataHubSecretKey', ['id']],
  ['dataHubStepState', 'dataHubStepStateKey', ['id']],
  ['dataHubUpgrade', 'dataHubUpgradeKey', ['id']],
  ['dataHubView', 'dataHubViewKey', ['id']],
  ['dataPlatformInstance', 'dataPlatformInstanceKey', ['platform', 'instance']],
  ['dataProduct', 'dataProductKey', ['id']],
  ['dataType', 'dataTypeKey', ['id']],
  ['document', 'documentKey', ['id']],
  ['domain', 'domainKey', ['id']],
  ['entityType', 'entityTypeKey', ['id']],
  ['erModelRelationship', 'erModelRelationshipKey', ['id']],
  ['form', 'formKey', ['id']],
  ['globalSettings', 'globalSettingsKey', ['id']],
  ['glossaryNode', 'glossaryNodeKey', ['name']],
  ['glossaryTerm', 'glossaryTermKey', ['name']],
  ['incident', 'incidentKey', ['id']],
  ['inviteToken', 'inviteTokenKey', ['id']],
  ['lifecycleStageType', 'lifecycleStageTypeKey', ['id']],
  ['metric', 'metricKey', ['platform', 'path', 'id']],
  ['mlModelDeployment', 'mlModelDeploymentKey', ['platform', 'name', 'origin']],
  ['notebook', 'notebookKey', ['notebookTool', 'notebookId']],
  ['ownershipType', 'ownershipTypeKey', ['id']],
  ['platformResource', 'platformResourceKey', ['id']],
  ['post', 'postKey', ['id']],
  ['repository', 'repositoryKey', ['id']],
  ['role', 'roleKey', ['id']],
  ['searchTemplate', 'searchTemplateKey', ['id']],
  ['semanticModel', 'semanticModelKey', ['platform', 'path', 'id']],
  ['service', 'serviceKey', ['id']],
  ['structuredProperty', 'structuredPropertyKey', ['id']],
  ['tag', 'tagKey', ['name']],
  ['test', 'testKey', ['id']],
  ['versionSet', 'versionSetKey', ['id', 'entityType']],
];

const labelOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const SPECS: ReadonlyMap<string, EntityTypeSpec> = new Map<string, EntityTypeSpec>([
  ...MODELLED_KEYS.map(([name, keyAspect, keyFields]): [string, EntityTypeSpec] => [
    name,
    { name, tier: 'modelled', keyAspect, keyFields, graphqlType: entityTypeToGraphql(name), label: labelOf(name) },
  ]),
  ...KNOWN_GENERIC_KEYS.map(([name, keyAspect, fields]): [string, EntityTypeSpec] => [
    name,
    {
      name,
      tier: 'knownGeneric',
      keyAspect,
      keyFields: fields.map(str),
      graphqlType: entityTypeToGraphql(name),
      label: GENERIC_LABEL,
    },
  ]),
]);

const ENTITY_TYPE_NAME = /^[a-z][A-Za-z0-9_]*$/;

/** The modelled (lineage-capable) entity types, in registry order. */
export const MODELLED_ENTITY_TYPES: readonly string[] = MODELLED_KEYS.map(([name]) => name);

/** Modelled and known-generic entity types: those with a key aspect spec of their own. */
export const REGISTERED_ENTITY_TYPES: readonly string[] = [...SPECS.keys()];

/** Every Neo4j type label the catalog may write: one per modelled type, plus `Generic`. */
export const ENTITY_LABELS: readonly string[] = [...MODELLED_ENTITY_TYPES.map(labelOf), GENERIC_LABEL];

export function isModelledEntityType(entityType: string): boolean {
  return SPECS.get(entityType)?.tier === 'modelled';
}

/** Spec of any syntactically valid entity type; unknown types get the generic `{id}` spec. */
export function entityTypeSpec(entityType: string): EntityTypeSpec {
  const known = SPECS.get(entityType);
  if (known) return known;
  if (!ENTITY_TYPE_NAME.test(entityType)) throw validationFailed(`Invalid entity type '${entityType}'`);
  return {
    name: entityType,
    tier: 'generic',
    keyAspect: `${entityType}Key`,
    keyFields: [str('id')],
    graphqlType: entityTypeToGraphql(entityType),
    label: GENERIC_LABEL,
  };
}

/** Key aspect name of an entity type (`corpuser` → `corpUserKey`, unknown `foo` → `fooKey`). */
export function keyAspectNameOf(entityType: string): string {
  return entityTypeSpec(entityType).keyAspect;
}

const KEY_ASPECT_OWNER: ReadonlyMap<string, string> = new Map(
  [...SPECS.values()].map((spec) => [spec.keyAspect, spec.name]),
);

/**
 * Entity type whose key aspect is `aspectName`, for registered types only: `fooKey` of an unknown
 * type `foo` is a key aspect only on `foo` urns, which the caller checks with keyAspectNameOf.
 */
export function entityTypeOfKeyAspect(aspectName: string): string | undefined {
  return KEY_ASPECT_OWNER.get(aspectName);
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

function partOf(u: Urn, entityType: string, index: number, arity: number): string | undefined {
  return u.entityType === entityType && u.parts.length === arity ? u.parts[index] : undefined;
}

function tryParse(text: string | undefined): Urn | undefined {
  if (text === undefined) return undefined;
  try {
    return parseUrn(text);
  } catch {
    return undefined;
  }
}

const platformUrn = (name: string | undefined) => (name ? `urn:li:dataPlatform:${name}` : undefined);

/** Platform urn implied by an entity's key, where its key has one. */
export function platformOf(u: Urn): string | undefined {
  switch (u.entityType) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return partOf(u, u.entityType, 0, 3);
    case 'mlFeatureTable':
      return partOf(u, u.entityType, 0, 2);
    case 'dataFlow':
      return platformUrn(partOf(u, 'dataFlow', 0, 3));
    case 'dataJob': {
      const flow = tryParse(partOf(u, 'dataJob', 0, 2));
      return flow?.entityType === 'dataFlow' ? platformOf(flow) : undefined;
    }
    case 'chart':
    case 'dashboard':
      return platformUrn(partOf(u, u.entityType, 0, 2));
    case 'dataProcess':
      return platformUrn(partOf(u, 'dataProcess', 1, 3));
    case 'schemaField': {
      const parent = parentOf(u);
      return parent ? platformOf(parent) : undefined;
    }
    default:
      return undefined;
  }
}

// Index of the key part that serves as the entity's name, by modelled type and key arity.
const NAME_PART: Readonly<Record<string, readonly [index: number, arity: number]>> = {
  dataset: [1, 3],
  schemaField: [1, 2],
  dataJob: [1, 2],
  dataFlow: [1, 3],
  chart: [1, 2],
  dashboard: [1, 2],
  mlPrimaryKey: [1, 2],
  mlFeature: [1, 2],
  mlFeatureTable: [1, 2],
  mlModel: [1, 3],
  mlModelGroup: [1, 3],
  corpuser: [0, 1],
  corpGroup: [0, 1],
  dataPlatform: [0, 1],
  query: [0, 1],
  dataProcessInstance: [0, 1],
  dataProcess: [0, 3],
  dataHubAccessToken: [0, 1],
  dataHubRole: [0, 1],
  telemetry: [0, 1],
};

/**
 * Name search field: dataset name, dataJob jobId, dataFlow flowId, chart chartId, schemaField
 * fieldPath, … For generic entities: the whole key text.
 */
export function nameOf(u: Urn): string | undefined {
  const at = Object.hasOwn(NAME_PART, u.entityType) ? NAME_PART[u.entityType] : undefined;
  if (!at) return isModelledEntityType(u.entityType) ? undefined : keyTextOf(u);
  return partOf(u, u.entityType, at[0], at[1]);
}

/** Origin (FabricType) from the key: dataset, mlModel, mlModelGroup, dataProcess. */
export function originOf(u: Urn): FabricType | undefined {
  const origin =
    u.entityType === 'dataProcess' ? partOf(u, 'dataProcess', 2, 3)
    : u.entityType === 'dataset' || u.entityType === 'mlModel' || u.entityType === 'mlModelGroup'
      ? partOf(u, u.entityType, 2, 3)
      : undefined;
  return origin !== undefined && isFabricType(origin) ? origin : undefined;
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

/** Parent (dataset, chart or dashboard) of a schemaField urn; undefined for anything else. */
export function parentOf(u: Urn): Urn | undefined {
  return tryParse(partOf(u, 'schemaField', 0, 2));
}
