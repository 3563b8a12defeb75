// DataHub's own modelled types: users and groups, platforms, queries, access tokens, roles, telemetry.
import { type EntityTypeDescriptor, type GraphqlEntityType, OWN, edge, str } from '../entity-types.ts';

/** A type keyed by one string field that also names it in the graph, its key aspect `<name>Key`. */
const keyedBy = (
  name: string,
  field: string,
  graphqlType: GraphqlEntityType,
  label: string,
  displayLabel: string,
): EntityTypeDescriptor => ({
  name,
  keyAspect: `${name}Key`,
  graphqlType,
  key: [str(field)],
  modelled: { label, displayLabel, namePart: field },
});

export const CORP_USER: EntityTypeDescriptor = {
  name: 'corpuser',
  keyAspect: 'corpUserKey',
  graphqlType: 'CORP_USER',
  graphqlTypename: 'CorpUser',
  snapshot: 'CorpUserSnapshot',
  key: [str('username', 'username')],
  modelled: {
    label: 'Corpuser',
    displayLabel: 'User',
    namePart: 'username',
    descriptive: { aspect: 'corpUserInfo', name: ['displayName', 'fullName'], description: [] },
  },
  aspects: {
    corpUserInfo: OWN,
    // A user's groups as DataHub relates them (what `relationships(types: [IsMemberOfGroup])` reads);
    // who may do what reads the aspects themselves (policies/resource-spec.ts).
    groupMembership: { edges: [edge('groups', 'urnList', 'IsMemberOfGroup', ['corpGroup'])] },
    nativeGroupMembership: { edges: [edge('nativeGroups', 'urnList', 'IsMemberOfNativeGroup', ['corpGroup'])] },
  },
};

export const CORP_GROUP: EntityTypeDescriptor = {
  ...keyedBy('corpGroup', 'name', 'CORP_GROUP', 'CorpGroup', 'Group'),
  graphqlTypename: 'CorpGroup',
  snapshot: 'CorpGroupSnapshot',
};

export const DATA_PLATFORM: EntityTypeDescriptor = {
  name: 'dataPlatform',
  keyAspect: 'dataPlatformKey',
  graphqlType: 'DATA_PLATFORM',
  graphqlTypename: 'DataPlatform',
  snapshot: 'DataPlatformSnapshot',
  key: [str('platformName', 'name')],
  modelled: {
    label: 'DataPlatform',
    displayLabel: 'Platform',
    namePart: 'platformName',
    descriptive: { aspect: 'dataPlatformInfo', name: ['displayName'], description: [] },
  },
  aspects: { dataPlatformInfo: OWN },
};

export const QUERY: EntityTypeDescriptor = { ...keyedBy('query', 'id', 'QUERY', 'Query', 'Query'), graphqlTypename: 'QueryEntity' };

export const ACCESS_TOKEN = keyedBy('dataHubAccessToken', 'id', 'ACCESS_TOKEN', 'DataHubAccessToken', 'Access token');

export const ROLE = keyedBy('dataHubRole', 'id', 'DATAHUB_ROLE', 'DataHubRole', 'Role');

export const TELEMETRY: EntityTypeDescriptor = {
  ...keyedBy('telemetry', 'name', 'OTHER', 'Telemetry', 'Telemetry'),
  aspects: { telemetryClientId: OWN },
};
