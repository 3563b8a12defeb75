// Authorization (docs/wire-contract.md §Auth). Privilege names and the operation → privilege table
// follow DataHub's PoliciesConfig (metadata-utils, com.linkedin.metadata.authorization), restricted
// to the operations this service offers. Who holds a privilege is decided by policies
// (model/policies/): an Actor carries the privileges it holds on every resource, and the policies
// and context to decide the rest per resource (write/authorize.ts).
import { forbidden, validationFailed } from './errors.ts';
import { isLineageAspect } from './relationships.ts';
import { DEFAULT_POLICIES } from './policies/defaults.ts';
import { isGranted, mayGrantOnSomeResource, unconditionalPrivileges, type PolicyActor, type ResourceSpec } from './policies/engine.ts';
import type { Policy } from './policies/policy-info.ts';
import { PRIVILEGES, type Privilege } from './policies/privilege-names.ts';

export { PRIVILEGES, type Privilege };

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

/** What each built-in role grants on every resource under the default policies (all users' grants included). */
const roleGrants = (role: RoleUrn) => unconditionalPrivileges(DEFAULT_POLICIES, { urn: '', groups: [], roles: [role] });
export const ROLE_PRIVILEGES: Readonly<Record<RoleUrn, ReadonlySet<Privilege>>> = {
  [ROLE_URNS.Admin]: roleGrants(ROLE_URNS.Admin),
  [ROLE_URNS.Editor]: roleGrants(ROLE_URNS.Editor),
  [ROLE_URNS.Reader]: roleGrants(ROLE_URNS.Reader),
};

/** The privileges the default policies grant on every resource to a user with these roles and no group. */
export function privilegesOf(roleUrns: readonly string[], actorUrn: string): ReadonlySet<Privilege> {
  if (actorUrn === SYSTEM_ACTOR_URN) return ALL_PRIVILEGES;
  return unconditionalPrivileges(DEFAULT_POLICIES, { urn: actorUrn, groups: [], roles: roleUrns });
}

/** What a per-resource decision needs: who the actor is to the policies, and the policies in force. */
export interface ActorAccess {
  context: PolicyActor;
  policies: readonly Policy[];
}

export interface Actor {
  urn: string;
  /** The privileges held on every resource (platform ones included). */
  privileges: ReadonlySet<Privilege>;
  /**
   * The groups, roles and policies behind `privileges`, for privileges held only on some
   * resources. Absent (the system actor, hand-built actors): `privileges` is all there is.
   */
  access?: ActorAccess;
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
  | 'MANAGE_SYSTEM_OPERATIONS'
  | 'MANAGE_SECRETS'
  | 'MANAGE_INGESTION';

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
  MANAGE_SECRETS: ['MANAGE_SECRETS'],
  MANAGE_INGESTION: ['MANAGE_INGESTION'],
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

/** The privileges an operation needs, any one of which suffices. */
export const privilegesFor = (op: Operation): readonly Privilege[] => REQUIRED_PRIVILEGES[op];

/**
 * Whether the actor holds one of the privileges on the resource: on every resource (its
 * unconditional privileges, no lookup), else by the policies that depend on the resource.
 */
export function holdsOn(actor: Actor, privileges: readonly Privilege[], resource: ResourceSpec | undefined): boolean {
  if (privileges.some((p) => actor.privileges.has(p))) return true;
  const access = actor.access;
  if (!access || !resource) return false;
  return privileges.some((p) => isGranted(access.policies, access.context, p, resource));
}

/** Whether a resource could change the answer of holdsOn for these privileges (so its fields are worth loading). */
export function dependsOnResource(actor: Actor, privileges: readonly Privilege[]): boolean {
  if (privileges.some((p) => actor.privileges.has(p)) || !actor.access) return false;
  return mayGrantOnSomeResource(actor.access.policies, actor.access.context, privileges);
}

/**
 * Whether the actor may see the entity (the read side's view authorization): one of the READ
 * privileges on it, as DataHub's canViewEntity.
 */
export function canView(actor: Actor, resource: ResourceSpec): boolean {
  return holdsOn(actor, READ_PRIVILEGES, resource);
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
  // A source's recipe says what is read, from where, with which secrets.
  dataHubIngestionSource: 'MANAGE_INGESTION',
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

/**
 * Aspects DataHub lets a narrower privilege than EDIT_ENTITY edit (its resolvers' disjunctive
 * groups: EDIT_ENTITY or the specific one). Lineage aspects (the descriptors' edge rules) take
 * EDIT_LINEAGE; any editable*Properties aspect takes EDIT_ENTITY_DOCS.
 */
const ASPECT_EDIT_PRIVILEGES: Readonly<Record<string, readonly Privilege[]>> = {
  ownership: ['EDIT_ENTITY_OWNERS'],
  globalTags: ['EDIT_ENTITY_TAGS'],
  glossaryTerms: ['EDIT_ENTITY_GLOSSARY_TERMS'],
  institutionalMemory: ['EDIT_ENTITY_DOC_LINKS'],
  documentation: ['EDIT_ENTITY_DOCS'],
  status: ['EDIT_ENTITY_STATUS'],
  domains: ['EDIT_DOMAINS_PRIVILEGE'],
  dataProductProperties: ['MANAGE_DATA_PRODUCTS'],
  deprecation: ['EDIT_DEPRECATION_PRIVILEGE'],
  editableSchemaMetadata: ['EDIT_DATASET_COL_DESCRIPTION', 'EDIT_DATASET_COL_TAGS', 'EDIT_DATASET_COL_GLOSSARY_TERMS'],
  corpUserEditableInfo: ['EDIT_USER_PROFILE', 'EDIT_CONTACT_INFO'],
  embed: ['EDIT_ENTITY_EMBED'],
  structuredProperties: ['EDIT_ENTITY_PROPERTIES'],
};

function aspectEditPrivileges(aspectName: string): readonly Privilege[] {
  if (Object.hasOwn(ASPECT_EDIT_PRIVILEGES, aspectName)) return ASPECT_EDIT_PRIVILEGES[aspectName]!;
  if (isLineageAspect(aspectName)) return ['EDIT_LINEAGE'];
  if (/^editable[A-Z]\w*Properties$/.test(aspectName)) return ['EDIT_ENTITY_DOCS'];
  return [];
}

/** The privileges a write needs on the entity it writes, any one of which suffices. */
export function writePrivileges(target: WriteTarget): readonly Privilege[] {
  const op: Operation = target.changeType === 'DELETE_ENTITY' ? 'DELETE' : ingestOperation(target.changeType);
  if (op === 'DELETE' || target.aspectName === undefined) return REQUIRED_PRIVILEGES[op];
  return [...REQUIRED_PRIVILEGES[op], ...aspectEditPrivileges(target.aspectName)];
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
 * the privilege of the change type and aspect on the entity written (`resource`: its fields, when
 * the actor's unconditional privileges do not decide — write/authorize.ts loads them), then the
 * platform privilege of a system entity or aspect. A revoked token is a deleted
 * dataHubAccessToken entity and authentication trusts only what createAccessToken stored, so no
 * door may write one — only delete it (revocation).
 */
export function authorizeWrite(actor: Actor, target: WriteTarget, resource?: ResourceSpec): void {
  if (!holdsOn(actor, writePrivileges(target), resource)) throw forbidden(modifyEntityDenied(actor.urn, target.urn));
  const privilege = systemPrivilegeOf(target);
  if (privilege && !actor.privileges.has(privilege)) throw forbidden(systemWriteDenied(actor.urn, target, privilege));
  const deletes = target.changeType === 'DELETE' || target.changeType === 'DELETE_ENTITY';
  if (target.entityType === 'dataHubAccessToken' && !deletes) throw validationFailed(`${ACCESS_TOKEN_WRITE_REFUSED} (${target.urn})`);
}
