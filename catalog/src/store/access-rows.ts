// What authorization reads from the graph (docs/wire-contract.md §Auth, "Policies"): the stored
// policies, an actor's groups and roles, and the fields of resources a policy filter tests. Each is
// one statement over the latest aspect rows; a batch of resources is one query.
import {
  ACTIVITY_ASPECTS,
  groupsOf,
  isActiveUser,
  MEMBERSHIP_ASPECTS,
  RESOURCE_ASPECTS,
  resourceSpecOf,
  rolesOf,
} from '../model/policies/resource-spec.ts';
import { ROOT_USER_URN, SYSTEM_ACTOR_URN } from '../model/privileges.ts';
import type { PolicyActor, ResourceSpec } from '../model/policies/engine.ts';
import { policyInfoSchema, toPolicy, type Policy } from '../model/policies/policy-info.ts';
import { isCatalogError } from '../model/errors.ts';
import { rowKey } from './rows.ts';
import type { Store } from './store.ts';

type Row = { urn: string; name: string; value: string };

async function latestValues(
  store: Store,
  urns: readonly string[],
  aspects: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const keys = urns.flatMap((u) => aspects.map((a) => rowKey(u, a)));
  const rows = keys.length
    ? await store.read((tx) => tx.run<Row>('auth/latest-values', { keys }), { metadata: { app: 'auth', op: 'latest-values' } })
    : [];
  const byUrn = new Map<string, Record<string, unknown>>(urns.map((u) => [u, {}]));
  for (const r of rows) byUrn.get(r.urn)![r.name] = JSON.parse(r.value) as unknown;
  return byUrn;
}

/** An actor as authentication finds it: whom policies see, and whether it may act at all. */
export interface StoredActor extends PolicyActor {
  active: boolean;
}

/** The actor's groups (groupMembership, nativeGroupMembership), roles (its own and its groups') and status. */
export async function loadPolicyActor(store: Store, actorUrn: string): Promise<StoredActor> {
  const own = (await latestValues(store, [actorUrn], [...MEMBERSHIP_ASPECTS, ...ACTIVITY_ASPECTS])).get(actorUrn)!;
  const groups = groupsOf(own);
  const roles = new Set(rolesOf(own));
  for (const values of (await latestValues(store, groups, ['roleMembership'])).values()) for (const r of rolesOf(values)) roles.add(r);
  const active = actorUrn === SYSTEM_ACTOR_URN || isActiveUser(own, actorUrn === ROOT_USER_URN);
  return { urn: actorUrn, groups, roles: [...roles], active };
}

/** The fields policy filters test, for each urn (an entity with no such aspects has only its type and urn). */
export async function loadResourceSpecs(store: Store, urns: readonly string[]): Promise<Map<string, ResourceSpec>> {
  const unique = [...new Set(urns)];
  const values = await latestValues(store, unique, RESOURCE_ASPECTS);
  return new Map(unique.map((u) => [u, resourceSpecOf(u, values.get(u)!)]));
}

/**
 * Every stored policy. A row that no longer reads as a policy (written before a privilege it names
 * was dropped) grants nothing rather than failing every request.
 */
export async function loadStoredPolicies(store: Store): Promise<Policy[]> {
  const rows = await loadLatestOfAspect(store, 'dataHubPolicyInfo');
  return rows.flatMap((r) => {
    const value = JSON.parse(r.value) as unknown;
    if (!policyInfoSchema.safeParse(value).success) return [];
    try {
      return [toPolicy(r.urn, value)];
    } catch (e) {
      if (isCatalogError(e)) return [];
      throw e;
    }
  });
}

/** The latest row of `aspectName` on every entity holding it (kinds of which there are few: policies, invite tokens). */
export async function loadLatestOfAspect(store: Store, aspectName: string): Promise<Array<{ urn: string; value: string }>> {
  return store.read((tx) => tx.run<Omit<Row, 'name'>>('auth/latest-of-aspect', { name: aspectName }), {
    metadata: { app: 'auth', op: `latest-${aspectName}` },
  });
}
