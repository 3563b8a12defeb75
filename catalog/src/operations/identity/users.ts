// Users, groups and roles as DataHub's RemoveUserResolver, RemoveGroupResolver and
// BatchAssignRoleResolver (with its RoleService) change them: removing a user or group deletes its
// entity; a role is assigned by writing the actor's roleMembership, for users and groups alike.
import { notFound } from '../../model/errors.ts';
import { assertCan, assignRoleDenied, ROLE_URNS, type Actor } from '../../model/privileges.ts';
import type { Store } from '../../store/store.ts';
import { deleteAs, exists, requestUrn, upsert, writeAs } from './principal-writes.ts';

/** removeUser: the user and all its aspects are gone (removing a user that does not exist succeeds too). */
export async function removeUser(store: Store, actor: Actor, userUrn: string): Promise<true> {
  await deleteAs(store, actor, 'MANAGE_USERS_AND_GROUPS', userUrn, 'corpuser');
  return true;
}

/**
 * removeGroup: the group and all its aspects are gone. Its members' membership rows still name it,
 * and grant nothing: a deleted group has no role and matches no policy that names it.
 */
export async function removeGroup(store: Store, actor: Actor, groupUrn: string): Promise<true> {
  await deleteAs(store, actor, 'MANAGE_USERS_AND_GROUPS', groupUrn, 'corpGroup');
  return true;
}

export interface BatchAssignRoleInput {
  /** null or absent: the actors lose their role. */
  roleUrn?: string | null;
  actors: readonly string[];
}

const BUILT_IN_ROLES: ReadonlySet<string> = new Set(Object.values(ROLE_URNS));

/** batchAssignRole: each actor (user or group) holds exactly that role afterwards, in one transaction. */
export async function batchAssignRole(store: Store, actor: Actor, input: BatchAssignRoleInput): Promise<true> {
  // DataHub asks for MANAGE_POLICIES here: a role is a set of policies.
  assertCan(actor, 'MANAGE_POLICIES', assignRoleDenied());
  const role = input.roleUrn == null ? undefined : requestUrn(input.roleUrn, 'dataHubRole', 'roleUrn');
  const actors = (input.actors ?? []).map((a, i) => requestUrn(a, ['corpuser', 'corpGroup'], `actors[${i}]`));
  // The built-in roles are DataHub's bootstrapped dataHubRole entities; any other must be stored.
  if (role && !BUILT_IN_ROLES.has(role.text) && !(await exists(store, role))) throw notFound(`Role ${role.text} does not exist`);
  const value = { roles: role ? [role.text] : [] };
  await writeAs(
    store,
    actor,
    actors.map((a) => upsert(a, 'roleMembership', value)),
  );
  return true;
}
