// Resource-aware authorization of writes (docs/wire-contract.md §Auth, "Policies"): the doors'
// one call before they write. The actor's unconditional privileges (Actor.privileges) decide
// most requests with no lookup, as before policies; only when they deny and some policy could
// still grant on the entity (a filter, or ownership) are the written entities' fields loaded —
// all of a batch in one query — and the policies evaluated per entity.
import { forbidden } from '../model/errors.ts';
import {
  authorizeWrite,
  dependsOnResource,
  holdsOn,
  privilegesFor,
  writePrivileges,
  type Actor,
  type Operation,
  type WriteTarget,
} from '../model/privileges.ts';
import type { ResourceSpec } from '../model/policies/engine.ts';
import { loadResourceSpecs } from '../store/access-rows.ts';
import type { Store } from '../store/store.ts';

/** Authorizes every target, in order (403 on the first denial), loading resource fields only when needed. */
export async function authorizeWrites(store: Store, actor: Actor, targets: readonly WriteTarget[]): Promise<void> {
  const undecided = targets.filter((t) => dependsOnResource(actor, writePrivileges(t)));
  const specs = undecided.length
    ? await loadResourceSpecs(
        store,
        undecided.map((t) => t.urn),
      )
    : new Map<string, ResourceSpec>();
  for (const t of targets) authorizeWrite(actor, t, specs.get(t.urn));
}

/**
 * Requires the operation's privilege on every urn, in order; `denied(urn)` is the message of the
 * first urn it is missing on.
 */
export async function authorizeOnEach(
  store: Store,
  actor: Actor,
  op: Operation,
  urns: readonly string[],
  denied: (urn: string) => string,
): Promise<void> {
  const privileges = privilegesFor(op);
  const specs =
    urns.length && dependsOnResource(actor, privileges) ? await loadResourceSpecs(store, urns) : new Map<string, ResourceSpec>();
  for (const urn of urns) if (!holdsOn(actor, privileges, specs.get(urn))) throw forbidden(denied(urn));
}

/** Whether the operation could be allowed on some entity: held everywhere, or by a policy that depends on the entity. */
export function mayHoldOnSome(actor: Actor, op: Operation): boolean {
  const privileges = privilegesFor(op);
  return holdsOn(actor, privileges, undefined) || dependsOnResource(actor, privileges);
}
