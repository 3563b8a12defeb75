// The routes about the server rather than the catalog: GET /config (what DataHub's clients probe
// before they ingest), the system properties, who the caller is, GET /health, and the GraphQL relay
// DataHub GMS's clients post to.
import type Router from '@koa/router';
import { assertCan, systemOperationsDenied } from '@lineage/catalog/model';
import type { IngestionConfig } from '@lineage/catalog/runtime';
import type { IngestionContext } from './context.ts';
import { actorOf, graphqlRelay, methodNotAllowed } from './restli.ts';

/**
 * DataHub's system properties by their Spring names, as GET /openapi/v1/system-info/properties/simple
 * answers them (strings, as Spring's environment holds them): the settings clients probe.
 */
function systemProperties(config: IngestionConfig): Record<string, string> {
  return {
    'authorization.view.enabled': String(config.VIEW_AUTHORIZATION_ENABLED),
    'authentication.enabled': String(config.METADATA_SERVICE_AUTH_ENABLED),
  };
}

/**
 * The front door's GraphQL endpoint as seen from this service: GATEWAY_URL when set (compose sets the
 * gateway container's address), else loopback + GATEWAY_PORT, right for `npm start` and the interop
 * stack. A `graphqlUrl` passed in the deps overrides both.
 */
function defaultGraphqlUrl(config: IngestionConfig): string {
  return `${config.GATEWAY_URL ?? `http://127.0.0.1:${config.GATEWAY_PORT}`}/api/graphql`;
}

/**
 * The DataHub version GET /config reports, the one place it is written: the lowest whose clients
 * call nothing this catalog does not serve. DataHub's MCP server (mcp-server-datahub 0.8.0) lists
 * get_aspect_history, get_me and the document tools from 1.4.0 on; they read the versioned v3
 * batchGet, GraphQL `me` and document search, all served (docs/ai-agents.md). From 1.0.1 on the SDK
 * in SDK mode ingests through the OpenAPI v3 doors, served too; its write-trace API is used only for
 * ASYNC_WAIT, which is not (docs/wire-contract.md §Differences from DataHub). From 1.7.0 on the
 * SDK's connectors PATCH the status aspect rather than write it, a path no suite checks here.
 */
const DATAHUB_VERSION = '1.4.0';

export function registerServerRoutes(router: Router, deps: IngestionContext): void {
  const { store, config } = deps;
  router.get('/config', (ctx) => {
    ctx.body = {
      noCode: 'true',
      retention: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      timeZone: 'UTC',
      supportsImpactAnalysis: true,
      versions: { 'acryldata/datahub': { version: deps.serverVersion ?? `v${DATAHUB_VERSION}`, commit: 'lineage-catalog' } },
      ...(config.PUBLIC_BASE_URL ? { baseUrl: config.PUBLIC_BASE_URL } : {}),
      telemetry: { enabledCli: false, enabledIngestion: false },
      managedIngestion: { enabled: false, defaultCliVersion: DATAHUB_VERSION },
      datahub: { serverType: 'quickstart' },
      datasetUrnNameCasing: false,
      models: {},
    };
  });

  // DataHub's SystemInfoController: administrators only (MANAGE_SYSTEM_OPERATIONS).
  router.get('/openapi/v1/system-info/properties/simple', (ctx) => {
    const actor = actorOf(ctx);
    assertCan(actor, 'MANAGE_SYSTEM_OPERATIONS', systemOperationsDenied(actor.urn));
    ctx.body = systemProperties(config);
  });

  // DataHub's identity operation: whom the request authenticates as (skipCache changes nothing
  // here: authentication reads the user's status on every request).
  router.get('/openapi/operations/identity/user/urn', (ctx) => {
    ctx.body = { urn: actorOf(ctx).urn };
  });

  router.get('/health', async (ctx) => {
    const ok = await store.ping();
    ctx.status = ok ? 200 : 503;
    if (!ok) ctx.set('Retry-After', '5');
    ctx.body = { status: ok ? 'ok' : 'unavailable' };
  });

  // The Python client's execute_graphql posts to <gms>/api/graphql, where DataHub GMS serves GraphQL.
  const relay = graphqlRelay(deps.graphqlUrl ?? defaultGraphqlUrl(config), config.MAX_BODY_BYTES, config.LINEAGE_DEADLINE_MS + 5_000);
  for (const path of ['/api/graphql', '/api/v2/graphql']) {
    router.post(path, relay);
    router.all(path, methodNotAllowed(['POST']));
  }
}
