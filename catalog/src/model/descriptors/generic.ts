// The known generic types: every other entity type DataHub's SDK knows, with no descriptor of its
// own beyond its key (docs/lineage-model.md §Entity types).
import { type EntityTypeDescriptor, type GraphqlEntityType, str } from '../entity-types.ts';

// Every other entity type of KEY_ASPECTS in acryl-datahub 1.7 (key aspect fields as plain strings),
// with its GraphQL EntityType and MCE snapshot class where DataHub has them. Regenerate with: for
// k, c in KEY_ASPECTS.items(): (k, c.ASPECT_NAME, [f.name for f in c.RECORD_SCHEMA.fields]).
const known = (
  name: string,
  keyAspect: string,
  fields: readonly string[],
  graphqlType: GraphqlEntityType = 'OTHER',
  snapshot?: string,
): EntityTypeDescriptor => ({ name, keyAspect, key: fields.map((f) => str(f)), graphqlType, ...(snapshot ? { snapshot } : {}) });

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
  {
    ...known('dataPlatformInstance', 'dataPlatformInstanceKey', ['platform', 'instance'], 'DATA_PLATFORM_INSTANCE'),
    graphqlTypename: 'DataPlatformInstance',
  },
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
