// Policy management (docs/wire-contract.md §Auth, "Policies"): what GraphQL createPolicy,
// updatePolicy, deletePolicy, listPolicies and getGrantedPrivileges do. Writes need MANAGE_POLICIES
// (403 otherwise) and go through the write path — validated there (422 malformed, 400 unknown
// privilege or filter field), all-or-nothing, and in the change log like any write.
import { randomUUID } from 'node:crypto';
import { badRequest, forbidden } from '../../model/errors.ts';
import type { OrFilters } from '../../model/filters.ts';
import { DEFAULT_POLICIES, withDefaults } from '../../model/policies/defaults.ts';
import { grantedPrivileges, unconditionalPrivileges } from '../../model/policies/engine.ts';
import type { Policy } from '../../model/policies/policy-info.ts';
import { graphqlDenied, privilegesOf, SYSTEM_ACTOR_URN, type Actor, type Privilege } from '../../model/privileges.ts';
import { parseUrn } from '../../model/urn.ts';
import { loadPolicyActor, loadResourceSpecs, loadStoredPolicies } from '../../store/access-rows.ts';
import type { Store } from '../../store/store.ts';
import { listWindow } from '../identity/principal-writes.ts';
import { hardDeleteEntity, writeAspects } from '../../write/aspect-writer.ts';

const POLICY_URN_PREFIX = 'urn:li:dataHubPolicy:';

function requireManagePolicies(actor: Actor): void {
  if (!actor.privileges.has('MANAGE_POLICIES')) throw forbidden(graphqlDenied());
}

function policyUrn(urn: string): string {
  if (!urn.startsWith(POLICY_URN_PREFIX)) throw badRequest(`Not a policy urn: ${urn}`);
  return parseUrn(urn).text;
}

async function writePolicy(store: Store, actor: Actor, urn: string, info: Record<string, unknown>): Promise<void> {
  await writeAspects(store, [{ urn: parseUrn(urn), aspectName: 'dataHubPolicyInfo', changeType: 'UPSERT', value: info }], {
    actor: actor.urn,
    existenceMode: 'relaxed',
  });
}

/** createPolicy: a new dataHubPolicy with a random id; returns its urn. */
export async function createPolicy(store: Store, actor: Actor, info: Record<string, unknown>, now = Date.now()): Promise<string> {
  requireManagePolicies(actor);
  const urn = `${POLICY_URN_PREFIX}${randomUUID()}`;
  await writePolicy(store, actor, urn, { editable: true, ...info, lastUpdatedTimestamp: now });
  return urn;
}

/** updatePolicy: replaces the policy's info (a default policy's urn stores an override of it). */
export async function updatePolicy(
  store: Store,
  actor: Actor,
  urn: string,
  info: Record<string, unknown>,
  now = Date.now(),
): Promise<string> {
  requireManagePolicies(actor);
  await writePolicy(store, actor, policyUrn(urn), { editable: true, ...info, lastUpdatedTimestamp: now });
  return urn;
}

/**
 * deletePolicy: removes the stored policy. A default policy is not stored, so deleting one stores
 * it INACTIVE instead: it then grants nothing, and listPolicies shows it so.
 */
export async function deletePolicy(store: Store, actor: Actor, urn: string): Promise<string> {
  requireManagePolicies(actor);
  const target = policyUrn(urn);
  const fallback = DEFAULT_POLICIES.find((p) => p.urn === target);
  if (fallback) await writePolicy(store, actor, target, { ...fallback.info, state: 'INACTIVE' });
  else await hardDeleteEntity(store, parseUrn(target), { actor: actor.urn, existenceMode: 'relaxed' });
  return urn;
}

/** What listPolicies' orFilters may test, as the policy's values of it. */
const LIST_FIELDS: Readonly<Record<string, (p: Policy) => readonly string[]>> = {
  state: (p) => [p.state],
  type: (p) => [p.type],
  editable: (p) => [String(p.editable)],
  privileges: (p) => p.privileges,
  users: (p) => p.actors.users,
  groups: (p) => p.actors.groups,
  roles: (p) => p.actors.roles,
};

function matchesFilters(p: Policy, orFilters: OrFilters): boolean {
  if (orFilters.length === 0) return true;
  return orFilters.some(({ and }) =>
    (and ?? []).every((f) => {
      const valuesOf = Object.hasOwn(LIST_FIELDS, f.field) ? LIST_FIELDS[f.field] : undefined;
      if (!valuesOf) throw badRequest(`Unknown listPolicies filter field '${f.field}' (known: ${Object.keys(LIST_FIELDS).join(', ')})`);
      const wanted = f.values ?? (f.value ? [f.value] : []);
      const held = valuesOf(p).some((v) => wanted.includes(v));
      return f.negated ? !held : held;
    }),
  );
}

export interface ListPoliciesInput {
  start?: number | null;
  count?: number | null;
  query?: string | null;
  orFilters?: OrFilters | null;
}

/** listPolicies: the policies in force (defaults included), by name, filtered and paged. */
export async function listPolicies(
  store: Store,
  actor: Actor,
  input: ListPoliciesInput,
): Promise<{ start: number; count: number; total: number; policies: Policy[] }> {
  requireManagePolicies(actor);
  const { start, count } = listWindow(input);
  const query = input.query?.trim().toLowerCase() ?? '';
  const all = withDefaults(await loadStoredPolicies(store))
    .filter(
      (p) =>
        query === '' || query === '*' || p.displayName.toLowerCase().includes(query) || (p.description ?? '').toLowerCase().includes(query),
    )
    .filter((p) => matchesFilters(p, input.orFilters ?? []))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.urn.localeCompare(b.urn));
  const page = all.slice(start, start + count);
  return { start, count: page.length, total: all.length, policies: page };
}

/**
 * getGrantedPrivileges: what the policies in force grant the actor, on the resource when one is
 * named — the engine enforcement runs. One may ask about oneself; about another actor, with
 * MANAGE_POLICIES (DataHub's rule).
 */
export async function grantedPrivilegesOf(store: Store, caller: Actor, actorUrn: string, resourceUrn?: string): Promise<Privilege[]> {
  if (actorUrn !== caller.urn && !caller.privileges.has('MANAGE_POLICIES')) throw forbidden(graphqlDenied());
  const resource =
    resourceUrn === undefined ? undefined : (await loadResourceSpecs(store, [parseUrn(resourceUrn).text])).get(parseUrn(resourceUrn).text);
  if (actorUrn === SYSTEM_ACTOR_URN) return [...privilegesOf([], SYSTEM_ACTOR_URN)].sort();
  const policies = withDefaults(await loadStoredPolicies(store));
  const actor = await loadPolicyActor(store, actorUrn);
  // What Actor.privileges holds counts too (a policy with an empty filter grants on every resource),
  // so the answer is what enforcement decides.
  return [...new Set([...unconditionalPrivileges(policies, actor), ...grantedPrivileges(policies, actor, resource)])].sort();
}
