// Native groups and their members, as DataHub's CreateGroupResolver, AddGroupMembersResolver and
// RemoveGroupMembersResolver (with its GroupService) keep them: a native group is a corpGroup with
// corpGroupInfo and origin NATIVE; a user's native groups are its nativeGroupMembership aspect.
// Membership is access (a group's roles and policies reach its members), so every change needs
// MANAGE_USERS_AND_GROUPS, as a write of those aspects through any other door does (privileges.ts).
import { conflict, notFound, validationFailed } from '../../model/errors.ts';
import { assertCan, graphqlDenied, type Actor } from '../../model/privileges.ts';
import type { Urn } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import { exists, latestValue, newEntityUrn, requestUrn, requiredName, stamp, upsert, urnList, writeAs } from './principal-writes.ts';

export interface CreateGroupInput {
  id?: string | null;
  name: string;
  description?: string | null;
}

/** createGroup: the new group's urn. 409 when a group with that id exists. */
export async function createGroup(store: Store, actor: Actor, input: CreateGroupInput, now = Date.now()): Promise<string> {
  assertCan(actor, 'MANAGE_USERS_AND_GROUPS', graphqlDenied());
  const name = requiredName(input.name, 'name');
  const urn = newEntityUrn('corpGroup', input.id, 'id');
  if (await exists(store, urn)) throw conflict('This Group already exists!');
  const info = { displayName: name, description: input.description ?? '', admins: [], members: [], groups: [], created: stamp(actor, now) };
  // noneMatch: a concurrent createGroup of the same id fails instead of overwriting this one.
  await writeAs(
    store,
    actor,
    [upsert(urn, 'corpGroupInfo', info, { precondition: { noneMatch: true } }), upsert(urn, 'origin', { type: 'NATIVE' })],
    now,
  );
  return urn.text;
}

export interface GroupMembersInput {
  groupUrn: string;
  userUrns: readonly string[];
}

async function memberChange(store: Store, actor: Actor, input: GroupMembersInput, verb: 'add' | 'remove'): Promise<true> {
  const group = requestUrn(input.groupUrn, 'corpGroup', 'groupUrn');
  assertCan(actor, 'MANAGE_USERS_AND_GROUPS', graphqlDenied());
  const users = (input.userUrns ?? []).map((u, i) => requestUrn(u, 'corpuser', `userUrns[${i}]`));
  const what = verb === 'add' ? 'add members to' : 'remove members from';
  if (!(await exists(store, group))) throw notFound(`Failed to ${what} group ${group.text}. Group does not exist.`);
  const origin = await latestValue(store, group, 'origin');
  if (origin?.type === 'EXTERNAL') {
    throw validationFailed(
      `Group ${group.text} was ingested from an external provider and cannot have members manually ${verb === 'add' ? 'added to' : 'removed from'} it`,
    );
  }
  const changes = [];
  for (const user of dedupe(users)) {
    const groups = urnList(await latestValue(store, user, 'nativeGroupMembership'), 'nativeGroups');
    const next = verb === 'add' ? [...new Set([...groups, group.text])] : groups.filter((g) => g !== group.text);
    if (next.length !== groups.length) changes.push(upsert(user, 'nativeGroupMembership', { nativeGroups: next }));
  }
  await writeAs(store, actor, changes);
  return true;
}

function dedupe(urns: Urn[]): Urn[] {
  return [...new Map(urns.map((u) => [u.text, u])).values()];
}

/** addGroupMembers: each user's nativeGroupMembership gains the group (already a member: unchanged). */
export const addGroupMembers = (store: Store, actor: Actor, input: GroupMembersInput) => memberChange(store, actor, input, 'add');

/** removeGroupMembers: each user's nativeGroupMembership loses the group. */
export const removeGroupMembers = (store: Store, actor: Actor, input: GroupMembersInput) => memberChange(store, actor, input, 'remove');
