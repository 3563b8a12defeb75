// What every route module of the ingestion service is built from: the deps createIngestionApp
// receives, plus the two write helpers the writing doors share (the per-request write options and
// the authorize-then-write of a list of changes).
import type { Context } from 'koa';
import {
  writeAspects,
  authorizeWrites,
  existenceOptionsOf,
  EXISTENCE_MODE_HEADER,
  type AspectChange,
  type ExistencePolicy,
  type WriteOptions,
} from '@lineage/catalog/write';
import { assertViewable, mayRead, viewerOf, viewSettingsFromConfig, type Viewer } from '@lineage/catalog/read';
import { forbidden } from '@lineage/catalog/model';
import type { IngestionConfig, Logger } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { actorOf, type RestState } from './restli.ts';

export interface IngestionDeps {
  store: Store;
  config: IngestionConfig;
  logger: Logger;
  /** Version reported by /config; must stay below 1.0.1 or SDK clients switch to OpenAPI ingestion. */
  serverVersion?: string;
  /** Where POST /api/graphql is relayed (the front door's GraphQL endpoint); default {@link defaultGraphqlUrl}. */
  graphqlUrl?: string;
}

export interface IngestionContext extends IngestionDeps {
  /** The client may choose its existence mode per request (docs/wire-contract.md §Existence mode). */
  writeOptions(ctx: Context): WriteOptions;
  /** Authorizes every change (403 on the first denial), then writes them in one transaction. */
  ingest(ctx: Context, changes: AspectChange[]): ReturnType<typeof writeAspects>;
  /** What the caller may view (catalog/src/read/view-authorization.ts), once per request. */
  viewer(ctx: Context): Viewer;
  /**
   * An entity read: 403 with the door's message unless the caller may read, and — view
   * authorization on — may view every urn.
   */
  authorizeView(ctx: Context, urns: readonly string[], denied: (urn: string) => string): Promise<void>;
}

export function createIngestionContext(deps: IngestionDeps): IngestionContext {
  const { store, config } = deps;
  const existencePolicy: ExistencePolicy = { defaultMode: config.LINEAGE_EXISTENCE_MODE, relaxedRoles: config.LINEAGE_RELAXED_ROLES };
  const writeOptions = (ctx: Context) => {
    const actor = actorOf(ctx);
    return {
      actor: actor.urn,
      ...existenceOptionsOf(ctx.get(EXISTENCE_MODE_HEADER) || undefined, actor, existencePolicy),
      stampGranularityMs: config.LINEAGE_STAMP_GRANULARITY_MS,
      metadata: { requestId: (ctx.state as RestState).requestId },
    };
  };
  const ingest = async (ctx: Context, changes: AspectChange[]) => {
    const actor = actorOf(ctx);
    // Authorization for every change first (403 on the first failure), then one transaction:
    // by change type, aspect and entity (policies) and by what it writes (system entities and
    // aspects, privileges.ts).
    await authorizeWrites(
      store,
      actor,
      changes.map((c) => ({ urn: c.urn.text, entityType: c.urn.entityType, aspectName: c.aspectName, changeType: c.changeType })),
    );
    return writeAspects(store, changes, writeOptions(ctx));
  };
  const view = viewSettingsFromConfig(config);
  const viewer = (ctx: Context): Viewer => {
    const state = ctx.state as RestState & { viewer?: Viewer };
    state.viewer ??= viewerOf(store, actorOf(ctx), view);
    return state.viewer;
  };
  const authorizeView = async (ctx: Context, urns: readonly string[], denied: (urn: string) => string) => {
    if (!mayRead(actorOf(ctx))) throw forbidden(denied(urns[0] ?? ''));
    await assertViewable(viewer(ctx), urns, denied);
  };
  return { ...deps, writeOptions, ingest, viewer, authorizeView };
}
