// The public face of the operations layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name.
// Access tokens: the store of issued tokens and the GraphQL token mutations.
export {
  accessTokenInfo,
  createTokenStore,
  issueAccessToken,
  revokeAccessToken,
  type AccessTokenMetadata,
  type IssuedToken,
  type TokenSecrets,
} from './auth/access-tokens.ts';
// Authentication of a request at every door.
export { authConfigOf, authenticate, type AuthConfig, type TokenStore } from './auth/authenticate.ts';
// Policy management (GraphQL createPolicy, updatePolicy, deletePolicy, listPolicies, getGrantedPrivileges).
export { createPolicy, deletePolicy, grantedPrivilegesOf, listPolicies, updatePolicy, type ListPoliciesInput } from './auth/policies.ts';
// Token durations as the GraphQL token input names them.
export { type AccessTokenDuration } from './auth/tokens.ts';
// Rest.li restoreIndices and its progress metrics.
export { restoreIndices } from './restore/restore-indices.ts';
export type { RestoreArgs } from './restore/restore-args.ts';
export type { RestoreProgress, RestoreResult } from './restore/restore-report.ts';
// The catalog export served by the ingestion service.
export { prepareExport } from './backup/index.ts';
// Change-log retention, run in the background by the ingestion service.
export { pruneChangeLog, startChangeLogRetention, type PruneResult } from './events/retention.ts';
// Groups, users, roles and invite tokens: the identity mutations of GraphQL.
export { addGroupMembers, createGroup, removeGroupMembers } from './identity/groups.ts';
export { batchAssignRole, removeGroup, removeUser } from './identity/users.ts';
export { createInviteToken, getInviteToken } from './identity/invite-tokens.ts';
export { logIn, signUp, SESSION_TTL_MS, type Session } from './identity/credentials.ts';
// Access tokens as GraphQL lists and describes them.
export { accessTokenMetadata, listAccessTokens } from './auth/token-listing.ts';
// Domains and data products.
export { createDataProduct, createDomain, setDomain, unsetDomain } from './domains/domains.ts';
export {
  createIngestionSource,
  createSecret,
  deleteIngestionSource,
  deleteSecret,
  getSecretValues,
  ingestionSource,
  listIngestionSources,
  listSecrets,
  updateIngestionSource,
  updateSecret,
} from './ingest/managed.ts';
