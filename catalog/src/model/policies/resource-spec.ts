// What the engine learns from stored aspects: a resource's fields (DataHub's field resolvers —
// type and urn from the urn, domains, container, tags, owners with their ownership type, platform
// instance, a user's groups) and an actor's groups and roles. Pure: the store hands over the
// latest values by aspect name (store/access-rows.ts).
import { asRecord } from '../json.ts';
import { parseUrn } from '../urn.ts';
import type { ResourceOwner, ResourceSpec } from './engine.ts';

/** The aspects a resource's fields come from. */
export const RESOURCE_ASPECTS = [
  'domains',
  'container',
  'globalTags',
  'ownership',
  'dataPlatformInstance',
  'groupMembership',
  'nativeGroupMembership',
] as const;
/** The aspects of a user that make it a member of groups and roles. */
export const MEMBERSHIP_ASPECTS = ['groupMembership', 'nativeGroupMembership', 'roleMembership'] as const;
/** The aspects of a user that say whether it may act at all (DataHub's ActorContext.isActive). */
export const ACTIVITY_ASPECTS = ['corpUserKey', 'status', 'corpUserStatus'] as const;

type Values = Readonly<Record<string, unknown>>;

/**
 * Whether a user may act, as DataHub's token validation decides it: it exists (a hard-deleted user
 * has no key row), is not soft-deleted, and is not SUSPENDED. `bootstrapped` users exist without a
 * stored row (the root user, as DataHub bootstraps it).
 */
export function isActiveUser(values: Values, bootstrapped: boolean): boolean {
  if (!bootstrapped && values.corpUserKey === undefined) return false;
  return field(values, 'status', 'removed') !== true && field(values, 'corpUserStatus', 'status') !== 'SUSPENDED';
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const field = (values: Values, aspect: string, name: string): unknown => asRecord(values[aspect])?.[name];

/** DataHub names a legacy ownership type `OwnershipType.X` as the system ownership type urn of x. */
function ownershipTypeUrn(owner: Record<string, unknown>): string | undefined {
  if (typeof owner.typeUrn === 'string') return owner.typeUrn;
  return typeof owner.type === 'string' ? `urn:li:ownershipType:__system__${owner.type.toLowerCase()}` : undefined;
}

function ownersOf(values: Values): ResourceOwner[] {
  const owners = field(values, 'ownership', 'owners');
  if (!Array.isArray(owners)) return [];
  return owners.flatMap((o) => {
    const owner = asRecord(o);
    return owner && typeof owner.owner === 'string' ? [{ urn: owner.owner, typeUrn: ownershipTypeUrn(owner) }] : [];
  });
}

/** Groups of a user: its groupMembership and nativeGroupMembership. */
export function groupsOf(values: Values): string[] {
  return [
    ...new Set([
      ...strings(field(values, 'groupMembership', 'groups')),
      ...strings(field(values, 'nativeGroupMembership', 'nativeGroups')),
    ]),
  ];
}

/** Roles in a roleMembership value. */
export const rolesOf = (values: Values): string[] => strings(field(values, 'roleMembership', 'roles'));

export function resourceSpecOf(urn: string, values: Values): ResourceSpec {
  const container = field(values, 'container', 'container');
  const instance = field(values, 'dataPlatformInstance', 'instance');
  return {
    urn,
    type: parseUrn(urn).entityType,
    domains: strings(field(values, 'domains', 'domains')),
    containers: typeof container === 'string' ? [container] : [],
    tags: (Array.isArray(field(values, 'globalTags', 'tags')) ? (field(values, 'globalTags', 'tags') as unknown[]) : []).flatMap((t) => {
      const tag = asRecord(t)?.tag;
      return typeof tag === 'string' ? [tag] : [];
    }),
    owners: ownersOf(values),
    platformInstance: typeof instance === 'string' ? instance : undefined,
    groups: groupsOf(values),
  };
}
