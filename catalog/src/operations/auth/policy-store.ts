// The policies in force and who an actor is to them, as authentication attaches them to the Actor
// (docs/wire-contract.md §Auth, "Policies"). Both are cached per process and keyed by the store's
// write generation (store/write-generation.ts): every committed transaction — a policy, a group
// membership, a role assignment, from any replica — changes it, so a cached answer is reused only
// while nothing at all was written, and every replica drops it at the same commit. That costs one
// small read per request (today's roleMembership read cost as much), never a stale grant; a
// cache keyed on the change log instead would depend on topics being recorded and on polling.
// Resource fields (ownership, domains, tags) are not cached: they are read per write, in one query
// per batch, only when the actor's unconditional privileges do not decide (write/authorize.ts).
import { withDefaults } from '../../model/policies/defaults.ts';
import { unconditionalPrivileges } from '../../model/policies/engine.ts';
import type { Policy } from '../../model/policies/policy-info.ts';
import type { ActorAccess, Privilege } from '../../model/privileges.ts';
import { loadPolicyActor, loadStoredPolicies, type StoredActor } from '../../store/access-rows.ts';
import { currentGeneration } from '../../store/write-generation.ts';
import type { Store } from '../../store/store.ts';

/** Actors remembered per generation; beyond it the map starts over (a generation rarely sees so many). */
const MAX_CACHED_ACTORS = 10_000;

export interface PolicyStore {
  /** The actor's access, its privileges on every resource, and whether it may act at all (loadPolicyActor). */
  accessOf(actorUrn: string): Promise<{ access: ActorAccess; privileges: Set<Privilege>; active: boolean }>;
  /** The policies in force: the defaults, replaced or joined by the stored ones. */
  activePolicies(): Promise<readonly Policy[]>;
}

export function createPolicyStore(store: Store): PolicyStore {
  let generation: string | undefined;
  let policies: Promise<readonly Policy[]> | undefined;
  let actors = new Map<string, Promise<StoredActor>>();

  async function fresh(): Promise<void> {
    const now = await currentGeneration(store);
    if (now === generation && policies) return;
    generation = now;
    policies = loadStoredPolicies(store).then(withDefaults);
    actors = new Map();
    // A failed load is not remembered.
    policies.catch(() => {
      if (generation === now) generation = undefined;
    });
  }

  async function activePolicies(): Promise<readonly Policy[]> {
    await fresh();
    return policies!;
  }

  return {
    activePolicies,
    async accessOf(actorUrn) {
      const all = await activePolicies();
      let context = actors.get(actorUrn);
      if (!context) {
        if (actors.size >= MAX_CACHED_ACTORS) actors = new Map();
        context = loadPolicyActor(store, actorUrn);
        actors.set(actorUrn, context);
        context.catch(() => actors.delete(actorUrn));
      }
      const resolved = await context;
      return { access: { context: resolved, policies: all }, privileges: unconditionalPrivileges(all, resolved), active: resolved.active };
    },
  };
}
