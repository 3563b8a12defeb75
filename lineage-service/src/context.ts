// Per-request state of the subgraph: the authenticated caller and request-scoped loaders that
// batch the reads many entity fields share (latest aspects, existence), so a page of results costs
// one query per kind of data, not one per entity.
import DataLoader from 'dataloader';
import {
  entityExistence,
  getLatestAspectsOf,
  assertViewable,
  mayRead,
  viewerOf,
  type LineageLimits,
  type Viewer,
  type ViewSettings,
} from '@lineage/catalog/read';
import { type TokenSecrets } from '@lineage/catalog/operations';
import { parseUrn, forbidden, graphqlDenied, type Actor } from '@lineage/catalog/model';
import type { Existence, Store } from '@lineage/catalog/store';
import type { PlanCarrier } from '@lineage/service-kit';
import type { EventTopicName } from '@lineage/catalog/runtime';

interface LatestAspect {
  name: string;
  value: Record<string, unknown>;
}

/** What resolvers need besides the caller: fixed per process. */
export interface ResolverServices {
  store: Store;
  limits: LineageLimits;
  tokenSecrets: TokenSecrets;
  /** The change log's topics this catalog records (EVENTS_API_ENABLED, EVENTS_TOPICS). */
  changeLogTopics: EventTopicName[];
  /** VIEW_AUTHORIZATION_ENABLED and the opaque-urn key. */
  view: ViewSettings;
}

export interface RequestContext extends ResolverServices, PlanCarrier {
  actor: Actor;
  /** What the caller may view (catalog/src/read/view-authorization.ts). */
  viewer: Viewer;
  /** Latest aspects of an entity by name; empty map when nothing is stored. */
  aspects: DataLoader<string, Map<string, LatestAspect>>;
  existence: DataLoader<string, Existence>;
}

export function createRequestContext(services: ResolverServices, actor: Actor, explainLineage = false): RequestContext {
  const { store } = services;
  return {
    ...services,
    actor,
    viewer: viewerOf(store, actor, services.view),
    explainLineage,
    lineagePlans: [],
    aspects: new DataLoader(async (urns) => {
      const stored = await getLatestAspectsOf(store, urns);
      return urns.map(
        (u) => new Map<string, LatestAspect>([...(stored.get(u)?.values() ?? [])].map((r) => [r.name, { name: r.name, value: r.value }])),
      );
    }),
    existence: new DataLoader(async (urns) => {
      const found = await entityExistence(
        store,
        urns.map((u) => parseUrn(u)),
      );
      return urns.map((u) => found.get(u) ?? { exists: false, removed: false });
    }),
  };
}

/**
 * GraphQL reads need DataHub's READ operation (VIEW_ENTITY_PAGE, EDIT_ENTITY or DELETE_ENTITY),
 * on every entity or, by a policy's filter, on some: which ones the caller then sees is the
 * viewer's to say when view authorization is on.
 */
export function requireRead(ctx: RequestContext): void {
  if (!mayRead(ctx.actor)) throw forbidden(graphqlDenied());
}

/**
 * Reads not yet judged per entity (the explorer's start page and details, listings): with view
 * authorization on, only for a caller who views everything, so they never name a hidden entity.
 */
export function requireUnrestrictedRead(ctx: RequestContext): void {
  requireRead(ctx);
  if (ctx.viewer.restricts) throw forbidden(graphqlDenied());
}

/** An entity read by urn: 403 unless the caller may view it (view authorization on). */
export async function requireView(ctx: RequestContext, urn: string): Promise<void> {
  requireRead(ctx);
  await assertViewable(ctx.viewer, [urn], () => graphqlDenied());
}
