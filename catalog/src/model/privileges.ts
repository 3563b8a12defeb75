// Role-based authorization (docs/wire-contract.md §Auth). Privilege names and the operation → privilege table
// follow DataHub's PoliciesConfig (metadata-utils, com.linkedin.metadata.authorization), restricted
// to the operations this service offers. Privileges are global: DataHub evaluates policies per
// resource, but the built-in role policies we model apply to every entity alike.
import { forbidden, validationFailed } from './errors.ts';

export const PRIVILEGES = [
  'VIEW_ENTITY_PAGE',
  'EXISTS_ENTITY',
  'CREATE_ENTITY',
  'EDIT_ENTITY',
  'EDIT_LINEAGE',
  'DELETE_ENTITY',
  'GET_COUNTS_PRIVILEGE',
  'RESTORE_INDICES_PRIVILEGE',
  'MANAGE_ACCESS_TOKENS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  // Reading the change log (GET /openapi/v1/events/poll), a platform privilege in DataHub too.
  'GET_PLATFORM_EVENTS',
  // Platform privileges guarding the entities and aspects that grant access (systemPrivilegeOf).
  'MANAGE_USERS_AND_GROUPS',
  'MANAGE_USER_CREDENTIALS',
  'MANAGE_POLICIES',
  'MANAGE_SECRETS',
  // Domains (createDomain): DataHub's canCreateDomains accepts either.
  'MANAGE_DOMAINS',
  'CREATE_DOMAINS',
  // GET /openapi/v1/system-info/*: the server's settings (DataHub's SystemInfoController).
  'MANAGE_SYSTEM_OPERATIONS',
] as const;

export type Privilege = (typeof PRIVILEGES)[number];

export const ROLE_URNS = {
  Admin: 'urn:li:dataHubRole:Admin',
  Editor: 'urn:li:dataHubRole:Editor',
  Reader: 'urn:li:dataHubRole:Reader',
} as const;

export type RoleUrn = (typeof ROLE_URNS)[keyof typeof ROLE_URNS];

/** DataHub's root user; its built-in policies grant it everything without any roleMembership. */
export const ROOT_USER_URN = 'urn:li:corpuser:datahub';
/** The internal system actor (Basic system-client credentials); DataHub's authorizer allows it everything. */
export const SYSTEM_ACTOR_URN = 'urn:li:corpuser:__datahub_system';

const ALL_PRIVILEGES: ReadonlySet<Privilege> = new Set(PRIVILEGES);

export const ROLE_PRIVILEGES: Readonly<Record<RoleUrn, ReadonlySet<Privilege>>> = {
  [ROLE_URNS.Admin]: ALL_PRIVILEGES,
  [ROLE_URNS.Editor]: new Set<Privilege>([
    'VIEW_ENTITY_PAGE',
    'EXISTS_ENTITY',
    'CREATE_ENTITY',
    'EDIT_ENTITY',
    'EDIT_LINEAGE',
    'GENERATE_PERSONAL_ACCESS_TOKENS',
    // DataHub's editor-platform-policy grants it.
    'MANAGE_DOMAINS',
  ]),
  [ROLE_URNS.Reader]: new Set<Privilege>(['VIEW_ENTITY_PAGE', 'EXISTS_ENTITY']),
};

function isRoleUrn(urn: string): urn is RoleUrn {
  return Object.hasOwn(ROLE_PRIVILEGES, urn);
}

/** Union of the privileges of the given roles; unknown role urns grant nothing. */
export function privilegesOf(roleUrns: readonly string[], actorUrn: string): ReadonlySet<Privilege> {
  if (actorUrn === SYSTEM_ACTOR_URN || actorUrn === ROOT_USER_URN) return ALL_PRIVILEGES;
  const granted = new Set<Privilege>();
  for (const role of roleUrns) {
    if (!isRoleUrn(role)) continue;
    for (const p of ROLE_PRIVILEGES[role]) granted.add(p);
  }
  return granted;
}

export interface Actor {
  urn: string;
  privileges: ReadonlySet<Privilege>;
  /** Stored id (tokens.ts tokenId) of the version-2 token the request presented, if any. */
  tokenId?: string;
}

/**
 * What a request wants to do. Ingest splits by change type: use ingestOperation().
 * GENERATE_PERSONAL_ACCESS_TOKEN / MANAGE_ACCESS_TOKENS cover the token mutations (§Auth): DataHub's
 * CreateAccessTokenResolver allows canManageTokens || (actorUrn is the caller && canGeneratePersonalAccessToken),
 * so a token for oneself needs either privilege; for another actor, or revoking someone else's
 * token, MANAGE_ACCESS_TOKENS.
 */
export type Operation =
  | 'READ'
  | 'INGEST'
  | 'INGEST_CREATE'
  | 'DELETE'
  | 'EXISTS'
  | 'GET_COUNT'
  | 'RESTORE_INDICES'
  | 'EDIT_LINEAGE'
  | 'GENERATE_PERSONAL_ACCESS_TOKEN'
  | 'MANAGE_ACCESS_TOKENS'
  | 'GET_PLATFORM_EVENTS'
  | 'MANAGE_USERS_AND_GROUPS'
  | 'MANAGE_POLICIES'
  | 'MANAGE_USER_CREDENTIALS'
  | 'CREATE_DOMAIN'
  | 'MANAGE_SYSTEM_OPERATIONS';

const READ_PRIVILEGES = ['VIEW_ENTITY_PAGE', 'EDIT_ENTITY', 'DELETE_ENTITY'] as const satisfies readonly Privilege[];

/** Operation → privileges, any one of which suffices (DataHub's Disjunctive groups). */
const REQUIRED_PRIVILEGES: Readonly<Record<Operation, readonly Privilege[]>> = {
  READ: READ_PRIVILEGES,
  INGEST: ['EDIT_ENTITY'],
  INGEST_CREATE: ['CREATE_ENTITY', 'EDIT_ENTITY'],
  DELETE: ['DELETE_ENTITY'],
  EXISTS: ['EXISTS_ENTITY', ...READ_PRIVILEGES],
  GET_COUNT: ['GET_COUNTS_PRIVILEGE'],
  RESTORE_INDICES: ['RESTORE_INDICES_PRIVILEGE'],
  EDIT_LINEAGE: ['EDIT_LINEAGE', 'EDIT_ENTITY'],
  GENERATE_PERSONAL_ACCESS_TOKEN: ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'],
  MANAGE_ACCESS_TOKENS: ['MANAGE_ACCESS_TOKENS'],
  GET_PLATFORM_EVENTS: ['GET_PLATFORM_EVENTS'],
  MANAGE_USERS_AND_GROUPS: ['MANAGE_USERS_AND_GROUPS'],
  MANAGE_POLICIES: ['MANAGE_POLICIES'],
  MANAGE_USER_CREDENTIALS: ['MANAGE_USER_CREDENTIALS'],
  CREATE_DOMAIN: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  MANAGE_SYSTEM_OPERATIONS: ['MANAGE_SYSTEM_OPERATIONS'],
};

/** The operation a Rest.li proposal with this changeType needs (UPSERT, PATCH, RESTATE, … → INGEST). */
export function ingestOperation(changeType: string): Operation {
  if (changeType === 'DELETE') return 'DELETE';
  if (changeType === 'CREATE' || changeType === 'CREATE_ENTITY') return 'INGEST_CREATE';
  return 'INGEST';
}

export function can(actor: Actor, op: Operation): boolean {
  return REQUIRED_PRIVILEGES[op].some((p) => actor.privileges.has(p));
}

export function assertCan(actor: Actor, op: Operation, message: string): void {
  if (!can(actor, op)) throw forbidden(message);
}

// DataHub's denial messages, verbatim from its Rest.li resources and GraphQL resolvers.

/**
 * Rest.li ingest (AspectResource.ingestProposals / EntityResource): one
 * "HttpStatus: 403 Urn: <urn>" entry per denied proposal, joined with ", ".
 */
export function modifyEntityDenied(actorUrn: string, urns: string | readonly string[]): string {
  const list = typeof urns === 'string' ? [urns] : urns;
  return `User ${actorUrn} is unauthorized to modify entity: ${list.map((u) => `HttpStatus: 403 Urn: ${u}`).join(', ')}`;
}

export const getAspectDenied = (urn: string) => `User is unauthorized to get aspect for ${urn}`;
/** `aspects?action=getCount`. */
export const getCountsDenied = () => 'User is unauthorized to get aspect counts.';
/** The OpenLineage routes: ingesting events needs EDIT_LINEAGE (or EDIT_ENTITY). */
export const openLineageDenied = (actorUrn: string) => `User ${actorUrn} is unauthorized to ingest OpenLineage events`;
/** `operations?action=restoreIndices`. */
export const restoreIndicesDenied = () => 'User is unauthorized to restore indices.';
/** `GET /operations/backup` (the logical export): the privilege of restoreIndices. */
export const exportCatalogDenied = () => 'User is unauthorized to export the catalog.';
/** `GET /openapi/v1/events/poll` (DataHub answers an empty 403; we say why). */
export const getPlatformEventsDenied = (actorUrn: string) =>
  `User ${actorUrn} is unauthorized to read platform events (GET_PLATFORM_EVENTS).`;
/** `aspects?action=restoreIndices`. */
export const updateEntitiesDenied = () => 'User is unauthorized to update entities.';
/** GraphQL updateLineage; entityType is the denied urn's entity type (e.g. "dataset"). */
export const editLineageDenied = (entityType: string) =>
  `Unauthorized to edit ${entityType} lineage. Please contact your DataHub administrator.`;
/** Generic GraphQL resolver denial (createAccessToken, revokeAccessToken, …). */
export const graphqlDenied = () => 'Unauthorized to perform this action. Please contact your DataHub administrator.';
/** GET /openapi/v1/system-info/* (SystemInfoController). */
export const systemOperationsDenied = (actorUrn: string) => `${actorUrn} is not authorized for system operations.`;
/** batchAssignRole (BatchAssignRoleResolver). */
export const assignRoleDenied = () =>
  'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.';
/** getInviteToken / createInviteToken (GetInviteTokenResolver, CreateInviteTokenResolver). */
export const inviteTokenDenied = (verb: 'get' | 'create') =>
  `Unauthorized to ${verb} invite tokens. Please contact your DataHub administrator if this needs corrective action.`;

// ---------------------------------------------------------------------------------------------
// Authorization by what a write writes (docs/wire-contract.md §Auth, "System entities and aspects").
// A route's privilege (EDIT_ENTITY, DELETE_ENTITY) says an actor may change metadata; some entities
// and aspects are not metadata but access itself: who holds which role, which tokens are live,
// which policies apply, passwords and secrets. DataHub guards each of these with a platform
// privilege in the resolver that edits it (BatchAssignRoleResolver and the group-membership
// resolvers: MANAGE_USERS_AND_GROUPS; password reset: MANAGE_USER_CREDENTIALS; policies:
// MANAGE_POLICIES; tokens: MANAGE_ACCESS_TOKENS; secrets: MANAGE_SECRETS); through the generic
// write doors we require the same privilege, whatever the door or the change type.

/** Entity types that are access itself: every write to them, and deleting them, needs the privilege. */
export const SYSTEM_ENTITY_PRIVILEGES: Readonly<Record<string, Privilege>> = {
  dataHubAccessToken: 'MANAGE_ACCESS_TOKENS',
  dataHubPolicy: 'MANAGE_POLICIES',
  // A role is the set of policies its members get.
  dataHubRole: 'MANAGE_POLICIES',
  dataHubSecret: 'MANAGE_SECRETS',
  // An invite token lets whoever holds it sign up.
  inviteToken: 'MANAGE_USER_CREDENTIALS',
};

/** Aspects that grant or restore access on any entity type that holds them (users, groups). */
export const SYSTEM_ASPECT_PRIVILEGES: Readonly<Record<string, Privilege>> = {
  roleMembership: 'MANAGE_USERS_AND_GROUPS',
  // DataHub gives a group's roles and policies to its members.
  groupMembership: 'MANAGE_USERS_AND_GROUPS',
  nativeGroupMembership: 'MANAGE_USERS_AND_GROUPS',
  // Suspension: writing ACTIVE over SUSPENDED restores access.
  corpUserStatus: 'MANAGE_USERS_AND_GROUPS',
  corpUserCredentials: 'MANAGE_USER_CREDENTIALS',
};

/** Deleting a whole user or group removes (or, re-created, resets) its access: DataHub's RemoveUser/RemoveGroup. */
const PRINCIPAL_ENTITY_TYPES: ReadonlySet<string> = new Set(['corpuser', 'corpGroup']);

/** What one write touches. `aspectName` undefined = the whole entity (hard delete). */
export interface WriteTarget {
  urn: string;
  entityType: string;
  aspectName?: string;
  /** A change type (UPSERT, PATCH, DELETE, …) or 'DELETE_ENTITY' for a hard delete of the entity. */
  changeType: string;
}

/** The platform privilege a write needs beyond its route's, or undefined for ordinary metadata. */
export function systemPrivilegeOf(target: WriteTarget): Privilege | undefined {
  const byType = Object.hasOwn(SYSTEM_ENTITY_PRIVILEGES, target.entityType) ? SYSTEM_ENTITY_PRIVILEGES[target.entityType] : undefined;
  if (byType) return byType;
  if (target.aspectName === undefined) return PRINCIPAL_ENTITY_TYPES.has(target.entityType) ? 'MANAGE_USERS_AND_GROUPS' : undefined;
  return Object.hasOwn(SYSTEM_ASPECT_PRIVILEGES, target.aspectName) ? SYSTEM_ASPECT_PRIVILEGES[target.aspectName] : undefined;
}

/** Denial of a system write: DataHub's Rest.li wording, plus what was missing. */
const systemWriteDenied = (actorUrn: string, target: WriteTarget, privilege: Privilege) =>
  `${modifyEntityDenied(actorUrn, target.urn)} (${target.aspectName === undefined ? `deleting a ${target.entityType}` : `writing ${target.aspectName}`} needs the ${privilege} privilege)`;

/** Why token entities are never written through the doors, even by a token manager. */
const ACCESS_TOKEN_WRITE_REFUSED =
  'dataHubAccessToken entities are written only by createAccessToken (and deleted by revokeAccessToken or a delete): writing one directly could bring a revoked token back';

/**
 * The one authorization of a write, every door alike (Rest.li, OpenAPI, batches, PATCH, deletes):
 * the route's privilege for the change type, then the platform privilege of a system entity or
 * aspect. A revoked token is a deleted dataHubAccessToken entity and authentication trusts only
 * what createAccessToken stored, so no door may write one — only delete it (revocation).
 */
export function authorizeWrite(actor: Actor, target: WriteTarget): void {
  const op: Operation = target.changeType === 'DELETE_ENTITY' ? 'DELETE' : ingestOperation(target.changeType);
  assertCan(actor, op, modifyEntityDenied(actor.urn, target.urn));
  const privilege = systemPrivilegeOf(target);
  if (privilege && !actor.privileges.has(privilege)) throw forbidden(systemWriteDenied(actor.urn, target, privilege));
  const deletes = target.changeType === 'DELETE' || target.changeType === 'DELETE_ENTITY';
  if (target.entityType === 'dataHubAccessToken' && !deletes) throw validationFailed(`${ACCESS_TOKEN_WRITE_REFUSED} (${target.urn})`);
}
