// View authorization on reads (docs/wire-contract.md §Auth, "View authorization"): the read twin of
// write/authorize.ts, the one function every read door calls. With VIEW_AUTHORIZATION_ENABLED off
// (DataHub's default) nothing is judged per entity. On, an entity is viewable when the actor holds
// one of the READ privileges on it (VIEW_ENTITY_PAGE, EDIT_ENTITY, DELETE_ENTITY), as DataHub's
// AuthUtil.canViewEntity decides. A batch is judged at once: the actor's unconditional privileges
// decide most requests with no lookup (DataHub's default policies grant VIEW_ENTITY_PAGE to all
// users, so turning view authorization on changes nothing until an operator restricts it); only
// when some policy could grant on a resource are the batch's resource fields loaded, in one query.
// An entity the actor may not view is answered in lineage as DataHub's Restricted entity, under an
// opaque urn: an HMAC of the real urn keyed by a secret of the deployment, so every replica and
// every page names it alike and nothing of the real urn can be read back from it.
import { createHmac } from 'node:crypto';
import { forbidden } from '../model/errors.ts';
import { canView, dependsOnResource, holdsOn, privilegesFor, type Actor } from '../model/privileges.ts';
import { loadResourceSpecs } from '../store/access-rows.ts';
import type { Store } from '../store/store.ts';

/** The process's view-authorization settings. */
export interface ViewSettings {
  enabled: boolean;
  /** Keys the opaque urns of restricted entities (derived from a deployment secret). */
  restrictedUrnKey: string;
}

/**
 * The settings from the process config. The opaque-urn key is derived from the token signing key
 * (every service of a deployment shares it; DataHub keys its restricted urns with its secret
 * service's key), under a label of its own so the two uses never meet.
 */
export function viewSettingsFromConfig(config: {
  VIEW_AUTHORIZATION_ENABLED: boolean;
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: string;
}): ViewSettings {
  return {
    enabled: config.VIEW_AUTHORIZATION_ENABLED,
    restrictedUrnKey: createHmac('sha256', config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY).update('restricted-urn').digest('hex'),
  };
}

/** DataHub's entity type of a restricted entity's urn (RestrictedService.RESTRICTED_ENTITY_TYPE). */
export const RESTRICTED_ENTITY_TYPE = 'restricted';

/** What one request may see: built once per request, asked per batch of urns. */
export interface Viewer {
  /** Whether anything is judged per entity (view authorization on, and the actor does not view everything). */
  readonly restricts: boolean;
  /** The urns of the batch the actor may view (all of them when nothing is judged). */
  visible(urns: readonly string[]): Promise<Set<string>>;
  /** The opaque urn a restricted entity is answered under. */
  restrictedUrn(urn: string): string;
}

/** Whether the actor may read at all: READ held everywhere, or granted on some entities by a policy. */
export function mayRead(actor: Actor): boolean {
  const privileges = privilegesFor('READ');
  return holdsOn(actor, privileges, undefined) || dependsOnResource(actor, privileges);
}

/** The viewer of one request. */
export function viewerOf(store: Store, actor: Actor, settings: ViewSettings): Viewer {
  const privileges = privilegesFor('READ');
  const everything = !settings.enabled || holdsOn(actor, privileges, undefined);
  const resourceMayGrant = !everything && dependsOnResource(actor, privileges);
  // Requests ask about the same urns repeatedly (a page's hits, then their paths).
  const decided = new Map<string, boolean>();
  return {
    restricts: !everything,
    async visible(urns) {
      if (everything) return new Set(urns);
      const unknown = [...new Set(urns)].filter((u) => !decided.has(u));
      if (unknown.length) {
        if (!resourceMayGrant) for (const u of unknown) decided.set(u, false);
        else for (const [urn, spec] of await loadResourceSpecs(store, unknown)) decided.set(urn, canView(actor, spec));
      }
      return new Set(urns.filter((u) => decided.get(u) === true));
    },
    restrictedUrn: (urn) =>
      `urn:li:${RESTRICTED_ENTITY_TYPE}:${createHmac('sha256', settings.restrictedUrnKey).update(urn).digest('base64url')}`,
  };
}

/** Throws 403 with the door's message unless the actor may view every urn. */
export async function assertViewable(viewer: Viewer, urns: readonly string[], denied: (urn: string) => string): Promise<void> {
  if (!viewer.restricts || urns.length === 0) return;
  const visible = await viewer.visible(urns);
  const hidden = urns.find((u) => !visible.has(u));
  if (hidden !== undefined) throw forbidden(denied(hidden));
}

/** Each urn as the actor may see it: itself, or its restricted stand-in. */
export async function maskUrns(viewer: Viewer, urns: readonly string[]): Promise<(urn: string) => string> {
  if (!viewer.restricts) return (u) => u;
  const visible = await viewer.visible(urns);
  return (u) => (visible.has(u) ? u : viewer.restrictedUrn(u));
}
