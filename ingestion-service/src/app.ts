// The ingestion/operations service: DataHub GMS's Rest.li surface (docs/wire-contract.md §Rest.li) over the
// catalog's write path and reads. Routes parse, authorize, call one domain function and render.
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { writeAspects, hardDeleteEntity, existenceHintFor, existenceModeOf, EXISTENCE_MODE_HEADER, type AspectChange, type ExistencePolicy } from '@lineage/catalog/write';
import { getAspect, getLatestAspects, entityExistence, countLatest, syntheticKeyAspect } from '@lineage/catalog/read';
import { aspectFqcn, keyAspectNameOf, badRequest, notFound, validationFailed, parseUrnOrThrow, assertCan, authorizeWrite, getAspectDenied, getCountsDenied, restoreIndicesDenied, updateEntitiesDenied, type Actor } from '@lineage/catalog/model';
import { authConfigOf, createTokenStore } from '@lineage/catalog/operations';
import { REQUEST_ID_HEADER, requestIdFrom, runCausally, type Config, type Logger } from '@lineage/catalog/runtime';
import { BOOKMARK_HEADER, formatBookmarkHeader, parseBookmarkHeader } from '@lineage/service-kit';
import type { Store } from '@lineage/catalog/store';
import { handleRestoreIndices } from './restore-handler.ts';
import { authMiddleware, decodePathUrn, errorMiddleware, graphqlRelay, jsonBody, methodNotAllowed, prefixMiddleware, type RestState } from './restli.ts';
import { proposalToChange, snapshotToChanges } from './proposals.ts';
import { registerOpenApiEntityRoutes } from './openapi.ts';
import { registerOpenApiRelationshipRoutes } from './openapi-entities.ts';
import { registerRelationshipRoutes } from './relationships.ts';
import { registerOpenLineageRoutes } from './openlineage.ts';
import { registerBackupRoutes } from './backup-handler.ts';

export interface IngestionDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Version reported by /config; must stay below 1.0.1 or SDK clients switch to OpenAPI ingestion. */
  serverVersion?: string;
  /** Where POST /api/graphql is relayed (the front door's GraphQL endpoint); default {@link defaultGraphqlUrl}. */
  graphqlUrl?: string;
}

/**
 * The front door's GraphQL endpoint as seen from this service: GATEWAY_URL when set (compose sets the
 * gateway container's address), else loopback + GATEWAY_PORT, right for `npm start` and the interop
 * stack. A `graphqlUrl` passed in the deps overrides both.
 */
export function defaultGraphqlUrl(config: Config): string {
  return `${config.GATEWAY_URL ?? `http://127.0.0.1:${config.GATEWAY_PORT}`}/api/graphql`;
}

const actorOf = (ctx: Context): Actor => (ctx.state as RestState).actor;

/** Rest.li Void actions answer 200 with an empty body (Koa would make that a 204). */
function voidResponse(ctx: Context): void {
  ctx.body = '';
  ctx.status = 200;
}

/** Rest.li list syntax: List(a,b) (parentheses and commas may arrive percent-encoded). */
function parseRestliList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const m = /^List\((.*)\)$/.exec(raw.trim());
  if (!m) throw badRequest(`Invalid aspects parameter '${raw}': expected List(name,…)`);
  return m[1]!.split(',').map((s) => s.trim()).filter(Boolean);
}

function requireString(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`Parameter '${name}' is required and must be a string`);
  return v;
}

export function createIngestionApp(deps: IngestionDeps): Koa {
  const { store, config, logger } = deps;
  const app = new Koa();
  app.proxy = false;
  const router = new Router();
  const limit = config.MAX_BODY_BYTES;
  const existencePolicy: ExistencePolicy = { defaultMode: config.LINEAGE_EXISTENCE_MODE, relaxedRoles: config.LINEAGE_RELAXED_ROLES };
  // The client may choose its existence mode per request (docs/wire-contract.md §Existence mode).
  const writeOptions = (ctx: Context) => {
    const actor = actorOf(ctx);
    return {
      actor: actor.urn,
      existenceMode: existenceModeOf(ctx.get(EXISTENCE_MODE_HEADER) || undefined, actor, existencePolicy),
      existenceHint: existenceHintFor(actor, existencePolicy),
      metadata: { requestId: (ctx.state as RestState).requestId },
    };
  };

  const ingest = async (ctx: Context, changes: AspectChange[]) => {
    const actor = actorOf(ctx);
    // Authorization for every change first (403 on the first failure), then one transaction:
    // by change type and by what it writes (system entities and aspects, privileges.ts).
    for (const c of changes) authorizeWrite(actor, { urn: c.urn.text, entityType: c.urn.entityType, aspectName: c.aspectName, changeType: c.changeType });
    return writeAspects(store, changes, writeOptions(ctx));
  };

  router.get('/config', (ctx) => {
    ctx.body = {
      noCode: 'true',
      retention: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      timeZone: 'UTC',
      supportsImpactAnalysis: true,
      versions: { 'acryldata/datahub': { version: deps.serverVersion ?? 'v0.15.0', commit: 'lineage-catalog' } },
      ...(config.PUBLIC_BASE_URL ? { baseUrl: config.PUBLIC_BASE_URL } : {}),
      telemetry: { enabledCli: false, enabledIngestion: false },
      managedIngestion: { enabled: false, defaultCliVersion: '0.15.0' },
      datahub: { serverType: 'quickstart' },
      datasetUrnNameCasing: false,
      models: {},
    };
  });

  router.get('/health', async (ctx) => {
    const ok = await store.ping();
    ctx.status = ok ? 200 : 503;
    if (!ok) ctx.set('Retry-After', '5');
    ctx.body = { status: ok ? 'ok' : 'unavailable' };
  });

  /** POST /<resource>?action=<name>: the action named, else 400; the body is read once it is known. */
  type Action = (body: Record<string, unknown>, ctx: Context) => Promise<void>;
  const actions = (resource: string, handlers: Readonly<Record<string, Action>>) => async (ctx: Context) => {
    const name = ctx.query.action;
    const handler = typeof name === 'string' && Object.hasOwn(handlers, name) ? handlers[name]! : undefined;
    if (!handler) throw badRequest(`Unknown action '${String(name)}' on ${resource}`);
    await handler(await jsonBody(ctx, limit), ctx);
  };
  /** A batch parameter: an array (400 otherwise) of at most MAX_BATCH_PROPOSALS items (422 otherwise). */
  const batchOf = (body: Record<string, unknown>, name: string, noun: string): unknown[] => {
    const items = body[name];
    if (!Array.isArray(items)) throw badRequest(`Parameter '${name}' is required and must be an array`);
    if (items.length > config.MAX_BATCH_PROPOSALS) {
      throw validationFailed(`Too many ${noun} in one batch: ${items.length} > ${config.MAX_BATCH_PROPOSALS} (MAX_BATCH_PROPOSALS)`);
    }
    return items;
  };

  router.post('/aspects', actions('/aspects', {
    async ingestProposal(body, ctx) {
      await ingest(ctx, [proposalToChange(body.proposal)]);
      ctx.body = { value: 'success' };
    },
    async ingestProposalBatch(body, ctx) {
      await ingest(ctx, batchOf(body, 'proposals', 'proposals').map((p, i) => proposalToChange(p, `proposals[${i}]`)));
      ctx.body = { value: 'success' };
    },
    async getCount(body, ctx) {
      assertCan(actorOf(ctx), 'GET_COUNT', getCountsDenied());
      const urnLike = body.urnLike;
      if (urnLike !== undefined && urnLike !== null && typeof urnLike !== 'string') throw badRequest("Parameter 'urnLike' must be a string");
      ctx.body = { value: await countLatest(store, requireString(body, 'aspect'), urnLike ?? undefined) };
    },
    async restoreIndices(body, ctx) {
      ctx.body = await handleRestoreIndices(store, body, actorOf(ctx), updateEntitiesDenied());
    },
  }));

  router.post('/entities', actions('/entities', {
    async ingest(body, ctx) {
      if (body.entity === undefined) throw badRequest("Parameter 'entity' is required");
      await ingest(ctx, snapshotToChanges(body.entity, body.systemMetadata));
      voidResponse(ctx);
    },
    async batchIngest(body, ctx) {
      const entities = batchOf(body, 'entities', 'entities');
      const sms = body.systemMetadata;
      if (sms !== undefined && (!Array.isArray(sms) || sms.length !== entities.length)) {
        throw validationFailed('entities and systemMetadata must have the same length');
      }
      await ingest(ctx, entities.flatMap((e, i) => snapshotToChanges(e, Array.isArray(sms) ? sms[i] : undefined, `entities[${i}]`)));
      voidResponse(ctx);
    },
    async exists(body, ctx) {
      const urn = parseUrnOrThrow(requireString(body, 'urn'));
      assertCan(actorOf(ctx), 'EXISTS', getAspectDenied(urn.text));
      const includeSoftDelete = body.includeSoftDelete === undefined || body.includeSoftDelete === null ? true : body.includeSoftDelete;
      if (typeof includeSoftDelete !== 'boolean') throw badRequest("Parameter 'includeSoftDelete' must be a boolean");
      const e = (await entityExistence(store, [urn])).get(urn.text)!;
      ctx.body = { value: e.exists && (includeSoftDelete || !e.removed) };
    },
    async delete(body, ctx) {
      const actor = actorOf(ctx);
      const urn = parseUrnOrThrow(requireString(body, 'urn'));
      authorizeWrite(actor, { urn: urn.text, entityType: urn.entityType, changeType: 'DELETE_ENTITY' });
      const rows = await hardDeleteEntity(store, urn, writeOptions(ctx));
      ctx.body = { value: { urn: urn.text, rows, timeseriesRows: 0 } };
    },
  }));

  router.post('/operations', actions('/operations', {
    async restoreIndices(body, ctx) {
      ctx.body = await handleRestoreIndices(store, body, actorOf(ctx), restoreIndicesDenied());
    },
  }));

  // The Python client's execute_graphql posts to <gms>/api/graphql, where DataHub GMS serves GraphQL.
  const relay = graphqlRelay(deps.graphqlUrl ?? defaultGraphqlUrl(config), limit, config.LINEAGE_DEADLINE_MS + 5_000);
  for (const path of ['/api/graphql', '/api/v2/graphql']) {
    router.post(path, relay);
    router.all(path, methodNotAllowed(['POST']));
  }

  // DataHub's OpenAPI doors (the SDK's openapi_ingestion emitter, get_entities, get_related_entities,
  // scroll_lineage) and Rest.li GET /relationships: same write path, authorization and taxonomy.
  registerOpenApiEntityRoutes(router, { store, config, ingest, writeOptions });
  registerRelationshipRoutes(router, { store, config });
  registerOpenApiRelationshipRoutes(router, { store, config });
  registerOpenLineageRoutes(router, { store, config, logger, writeOptions });
  registerBackupRoutes(router, { store });

  // Path keys are matched on the raw path so a urn's own %2C/%28/%29 survive a single decode.
  router.get(/^\/aspects\/(.+)$/, async (ctx) => {
    const urn = parseUrnOrThrow(decodePathUrn(ctx.path.slice('/aspects/'.length)));
    assertCan(actorOf(ctx), 'READ', getAspectDenied(urn.text));
    const aspect = typeof ctx.query.aspect === 'string' ? ctx.query.aspect : undefined;
    if (!aspect) throw badRequest("Query parameter 'aspect' is required");
    const versionText = typeof ctx.query.version === 'string' ? ctx.query.version : '0';
    if (!/^\d+$/.test(versionText)) throw badRequest(`Query parameter 'version' must be a non-negative integer, got '${versionText}'`);
    const version = Number(versionText);
    const row = await getAspect(store, urn, aspect, version);
    if (!row) throw notFound(`No ${aspect} (version ${version}) for ${urn.text}`);
    ctx.body = { aspect: { [aspectFqcn(aspect) ?? aspect]: row.value }, version };
  });

  router.get(/^\/entitiesV2\/(.+)$/, async (ctx) => {
    const urn = parseUrnOrThrow(decodePathUrn(ctx.path.slice('/entitiesV2/'.length)));
    assertCan(actorOf(ctx), 'READ', getAspectDenied(urn.text));
    const names = parseRestliList(typeof ctx.query.aspects === 'string' ? ctx.query.aspects : undefined);
    const rows = await getLatestAspects(store, urn, names);
    const aspects: Record<string, unknown> = {};
    const keyName = keyAspectNameOf(urn.entityType);
    if (!rows.has(keyName)) {
      // DataHub always includes the key aspect, even for entities never ingested.
      const key = syntheticKeyAspect(urn);
      aspects[key.name] = { name: key.name, type: 'VERSIONED', version: 0, value: key.value, created: { time: 0, actor: 'urn:li:corpuser:__datahub_system' } };
    }
    for (const [name, r] of rows) {
      aspects[name] = { name, type: 'VERSIONED', version: 0, value: r.value, created: { time: r.createdOn, actor: r.createdBy }, systemMetadata: r.systemMetadata };
    }
    ctx.body = { entityName: urn.entityType, urn: urn.text, aspects };
  });

  app.use(async (ctx, next) => {
    // Behind service-runtime the header already holds the vetted id; a bare app (tests) vets it here.
    (ctx.state as Partial<RestState>).requestId = requestIdFrom(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.set('X-Request-Id', (ctx.state as RestState).requestId);
    await next();
  });
  app.use(errorMiddleware(logger));
  // Read-your-writes (docs/wire-contract.md §Read-your-writes): every read of the request, the
  // token check included, waits for the bookmarks presented; a request that committed a write
  // answers its bookmark — also when it then fails, since what committed stays committed.
  app.use(async (ctx, next) => {
    const presented = parseBookmarkHeader(ctx.req.headers[BOOKMARK_HEADER]);
    if ('problem' in presented) throw badRequest(presented.problem);
    await runCausally(presented.bookmarks, async (chain) => {
      try {
        await next();
      } finally {
        if (chain.wrote) ctx.set(BOOKMARK_HEADER, formatBookmarkHeader(chain.bookmarks));
      }
    });
  });
  app.use(prefixMiddleware());
  app.use(authMiddleware(authConfigOf(config), createTokenStore(store)));
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(async (ctx) => {
    // Unknown routes: a Rest.li 404 rather than Koa's plain text.
    if (ctx.status === 404 && ctx.body === undefined) throw notFound(`No resource at ${ctx.method} ${ctx.path}`);
  });
  return app;
}
