// The policy engine: does a set of policies grant an actor a privilege, on a resource or on none?
// The semantics are DataHub's PolicyEngine's (docs/wire-contract.md §Auth, "Policies"):
// - a policy grants its privileges when it is ACTIVE, its resources match and its actors match;
// - resources: a PLATFORM policy matches any request; a METADATA policy without resources matches
//   any request too; one with resources needs a resource, and matches when every criterion holds
//   (no criteria, as `allResources: true` reads, = every resource);
// - a criterion holds when the resource's values of its field meet it: EQUALS — one of the values
//   is among them; STARTS_WITH — one of them starts with one of the values; NOT_EQUALS — none of
//   the values is among them;
// - actors: the actor is named (or allUsers), one of its groups is named (or allGroups and it has a
//   group), one of its roles (its own or its groups') is named, or the policy grants resource
//   owners and the actor or one of its groups owns the resource (with an ownership type among
//   resourceOwnersTypes when the policy names any).
import type { Criterion, Policy } from './policy-info.ts';
import type { Privilege } from './privilege-names.ts';

/** Who asks: resolved once per request (operations/auth). */
export interface PolicyActor {
  urn: string;
  /** Its groups: groupMembership and nativeGroupMembership. */
  groups: readonly string[];
  /** Its roles: its own roleMembership and its groups'. */
  roles: readonly string[];
}

export interface ResourceOwner {
  urn: string;
  /** The ownership type urn (legacy types read as urn:li:ownershipType:__system__<type>). */
  typeUrn: string | undefined;
}

/** What a policy filter can test about an entity (DataHub's resolved resource spec). */
export interface ResourceSpec {
  urn: string;
  type: string;
  domains: readonly string[];
  containers: readonly string[];
  tags: readonly string[];
  owners: readonly ResourceOwner[];
  platformInstance: string | undefined;
  /** For a user or group resource: the groups it belongs to. */
  groups: readonly string[];
}

function fieldValues(criterion: Criterion, r: ResourceSpec): readonly string[] {
  switch (criterion.field) {
    case 'TYPE':
      return [r.type];
    case 'URN':
      return [r.urn];
    case 'OWNER':
      return r.owners.map((o) => o.urn);
    case 'DOMAIN':
      return r.domains;
    case 'CONTAINER':
      return r.containers;
    case 'TAG':
      return r.tags;
    case 'DATA_PLATFORM_INSTANCE':
      return r.platformInstance === undefined ? [] : [r.platformInstance];
    case 'GROUP_MEMBERSHIP':
      return r.groups;
  }
}

function criterionHolds(criterion: Criterion, resource: ResourceSpec): boolean {
  const values = fieldValues(criterion, resource);
  switch (criterion.condition) {
    case 'EQUALS':
      return criterion.values.some((v) => values.includes(v));
    case 'STARTS_WITH':
      return criterion.values.some((v) => values.some((have) => have.startsWith(v)));
    case 'NOT_EQUALS':
      return criterion.values.every((v) => !values.includes(v));
  }
}

function resourceMatches(policy: Policy, resource: ResourceSpec | undefined): boolean {
  if (policy.type === 'PLATFORM' || policy.criteria === undefined) return true;
  if (!resource) return false;
  return policy.criteria.every((c) => criterionHolds(c, resource));
}

/** The actor matches without looking at the resource (users, groups, roles). */
function actorMatchesDirectly(policy: Policy, actor: PolicyActor): boolean {
  const a = policy.actors;
  if (a.allUsers || a.users.includes(actor.urn)) return true;
  if (actor.groups.length && (a.allGroups || a.groups.some((g) => actor.groups.includes(g)))) return true;
  return a.roles.some((r) => actor.roles.includes(r));
}

function ownsResource(policy: Policy, actor: PolicyActor, resource: ResourceSpec | undefined): boolean {
  if (!policy.actors.resourceOwners || !resource) return false;
  const types = policy.actors.resourceOwnersTypes;
  return resource.owners.some(
    (o) =>
      (o.urn === actor.urn || actor.groups.includes(o.urn)) &&
      (types.length === 0 || (o.typeUrn !== undefined && types.includes(o.typeUrn))),
  );
}

function policyApplies(policy: Policy, actor: PolicyActor, resource: ResourceSpec | undefined): boolean {
  if (policy.state !== 'ACTIVE' || !resourceMatches(policy, resource)) return false;
  return actorMatchesDirectly(policy, actor) || ownsResource(policy, actor, resource);
}

/** Whether one of the policies grants the actor the privilege (on the resource, when given). */
export function isGranted(policies: readonly Policy[], actor: PolicyActor, privilege: Privilege, resource?: ResourceSpec): boolean {
  return policies.some((p) => p.privileges.includes(privilege) && policyApplies(p, actor, resource));
}

/** Every privilege the policies grant the actor (on the resource, when given): getGrantedPrivileges. */
export function grantedPrivileges(policies: readonly Policy[], actor: PolicyActor, resource?: ResourceSpec): Set<Privilege> {
  const granted = new Set<Privilege>();
  for (const p of policies) if (policyApplies(p, actor, resource)) for (const priv of p.privileges) granted.add(priv);
  return granted;
}

/** A policy that grants whatever the resource is: no criteria to test and no ownership to look up. */
function appliesEverywhere(policy: Policy, actor: PolicyActor): boolean {
  const anyResource = policy.type === 'PLATFORM' || policy.criteria === undefined || policy.criteria.length === 0;
  return policy.state === 'ACTIVE' && anyResource && actorMatchesDirectly(policy, actor);
}

/**
 * The privileges held on every resource (platform ones included): what `Actor.privileges` holds,
 * so a check these already answer never loads the resource.
 */
export function unconditionalPrivileges(policies: readonly Policy[], actor: PolicyActor): Set<Privilege> {
  const granted = new Set<Privilege>();
  for (const p of policies) if (appliesEverywhere(p, actor)) for (const priv of p.privileges) granted.add(priv);
  return granted;
}

/**
 * Whether some resource could still grant one of the privileges: an active policy naming one of
 * them whose grant depends on the resource (criteria, or ownership) and whose actors may include
 * this one. When false, a check the unconditional privileges denied stays denied without loading
 * anything.
 */
export function mayGrantOnSomeResource(policies: readonly Policy[], actor: PolicyActor, privileges: readonly Privilege[]): boolean {
  return policies.some(
    (p) =>
      p.state === 'ACTIVE' &&
      p.type === 'METADATA' &&
      p.privileges.some((priv) => privileges.includes(priv)) &&
      ((p.criteria !== undefined && p.criteria.length > 0 && actorMatchesDirectly(p, actor)) || p.actors.resourceOwners),
  );
}
