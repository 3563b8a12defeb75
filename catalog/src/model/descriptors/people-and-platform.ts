// DataHub's own modelled types: users and groups, platforms, queries, access tokens, roles, telemetry.
import { type EntityTypeDescriptor, OWN, str } from '../entity-types.ts';

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
  aspects: { corpUserInfo: OWN },
};

export const CORP_GROUP: EntityTypeDescriptor = {
  name: 'corpGroup',
  keyAspect: 'corpGroupKey',
  graphqlType: 'CORP_GROUP',
  graphqlTypename: 'CorpGroup',
  snapshot: 'CorpGroupSnapshot',
  key: [str('name')],
  modelled: { label: 'CorpGroup', displayLabel: 'Group', namePart: 'name' },
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

export const QUERY: EntityTypeDescriptor = {
  name: 'query',
  keyAspect: 'queryKey',
  graphqlType: 'QUERY',
  graphqlTypename: 'QueryEntity',
  key: [str('id')],
  modelled: { label: 'Query', displayLabel: 'Query', namePart: 'id' },
};

export const ACCESS_TOKEN: EntityTypeDescriptor = {
  name: 'dataHubAccessToken',
  keyAspect: 'dataHubAccessTokenKey',
  graphqlType: 'ACCESS_TOKEN',
  key: [str('id')],
  modelled: { label: 'DataHubAccessToken', displayLabel: 'Access token', namePart: 'id' },
};

export const ROLE: EntityTypeDescriptor = {
  name: 'dataHubRole',
  keyAspect: 'dataHubRoleKey',
  graphqlType: 'DATAHUB_ROLE',
  key: [str('id')],
  modelled: { label: 'DataHubRole', displayLabel: 'Role', namePart: 'id' },
};

export const TELEMETRY: EntityTypeDescriptor = {
  name: 'telemetry',
  keyAspect: 'telemetryKey',
  graphqlType: 'OTHER',
  key: [str('name')],
  modelled: { label: 'Telemetry', displayLabel: 'Telemetry', namePart: 'name' },
  aspects: { telemetryClientId: OWN },
};
