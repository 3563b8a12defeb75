// The front door (DataHub's frontend port): runs the federated supergraph on DataHub's GraphQL paths,
// signs users in (sessions.ts) and relays every other /api/gms/* and /gms/* request unchanged to the
// ingestion service. It does routing, authentication and error masking, nothing else: every
// resolver lives in a subgraph.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { authenticate, createTokenStore, authConfigOf } from '@lineage/catalog/operations';
import { type GatewayConfig, type Logger, currentRequestId, REQUEST_ID_HEADER } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import {
  BOOKMARK_HEADER,
  closeApolloHttp,
  mergeBookmarkHeaders,
  dataHubEnvelopePlugin,
  GMS_PREFIX,
  gmsRouteTemplate,
  GRAPHQL_PATH,
  graphqlHandler,
  graphqlLimitsFromConfig,
  declaredBodyLength,
  gmsBodyTooLargeAnswer,
  graphqlMetricsPlugin,
  sharedApolloOptions,
  httpServerOptions,
  isMarquezApiPath,
  isOpenApiPath,
  isOpenLineagePath,
  operationResolutionPlugin,
  opsRouteTemplate,
  sendPlain,
  serviceCallAgent,
  UNKNOWN_ERROR_MESSAGE,
  withoutGmsPrefix,
  asksForLineagePlans,
  LINEAGE_PLAN_HEADER,
  lineagePlanPlugin,
  plansOfSubgraphResponse,
  type PlanCarrier,
} from '@lineage/service-kit';
import { explorerStaticHandler } from '@lineage/explorer/serve';
import { subgraphFailure, subgraphFetcher } from './subgraph-fetch.ts';
import { LINEAGE_SUBGRAPH, supergraphOf } from './supergraph.ts';
import { adoptSessionCookie, sessionHandler, SESSION_PATHS } from './sessions.ts';

/** Where DataHub clients post GraphQL: the frontend's paths and GMS's own under both proxy prefixes. */
const GRAPHQL_PATHS: ReadonlySet<string> = new Set(['/api/graphql', '/api/v2/graphql', '/api/gms/api/graphql', '/gms/api/graphql']);
const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/api/health']);

/**
 * What the front door relays unchanged to the ingestion service: GMS under its prefixes, /openapi/*
 * (DataHub's frontend proxies it), and the OpenLineage and Marquez paths producers and clients post to.
 */
const relaysToGms = (path: string) => GMS_PREFIX.test(path) || isOpenApiPath(path) || isOpenLineagePath(path) || isMarquezApiPath(path);

/** The front door's routes as templates, for metric labels (what it relays to GMS as GMS's own). */
export function gatewayRouteTemplate(url: string): string {
  const path = url.split('?', 1)[0]!;
  if (GRAPHQL_PATHS.has(path) || HEALTH_PATHS.has(path) || SESSION_PATHS.has(path)) return path;
  if (relaysToGms(path)) return gmsRouteTemplate(url);
  if (path === '/' || path === '/index.html') return '/';
  if (path.startsWith('/assets/')) return '/assets/{file}';
  return opsRouteTemplate(path);
}

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Token store for authentication at the door. */
  store: Store;
  /** The lineage subgraph's GraphQL endpoint; default LINEAGE_URL, else http://127.0.0.1:<LINEAGE_PORT>/graphql. */
  lineageUrl?: string;
  /** Ingestion service base URL; default INGESTION_URL, else http://127.0.0.1:8080. */
  ingestionUrl?: string;
}

interface GatewayContext {
  /** The caller's Authorization header, forwarded so each subgraph authenticates the caller itself. */
  authorization?: string;
  /** Forwarded so the subgraph's logs and Neo4j transactions carry the front door's request id. */
  requestId?: string;
  /** The caller's X-Lineage-Bookmark (already validated), forwarded so the subgraph's reads wait for it. */
  bookmarks?: string;
  /** X-Lineage-Bookmark of each subgraph response of this operation, answered to the caller. */
  receivedBookmarks: string[];
  /** The caller sent X-Lineage-Plan: true (forwarded; the subgraph's plans are relayed). */
  explainLineage: PlanCarrier['explainLineage'];
  /** Lineage plans of the subgraph responses of this operation (lineagePlanPlugin). */
  lineagePlans: PlanCarrier['lineagePlans'];
}

/**
 * The subgraphs' writes answer their bookmarks in a header of their HTTP response, which Apollo's
 * gateway does not pass on: the data source copies them into the context, and this plugin answers
 * them (docs/wire-contract.md §Read-your-writes).
 */
function bookmarkRelayPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          const bookmarks = mergeBookmarkHeaders(contextValue.receivedBookmarks);
          if (bookmarks) response.http.headers.set(BOOKMARK_HEADER, bookmarks);
        },
      };
    },
  };
}

export interface Gateway {
  /** Not listening yet: main.ts (or a test) calls listen. */
  httpServer: Server;
  apollo: ApolloServer<GatewayContext>;
  close(): Promise<void>;
}

export function defaultLineageUrl(config: GatewayConfig): string {
  return config.LINEAGE_URL ?? `http://127.0.0.1:${config.LINEAGE_PORT}${GRAPHQL_PATH}`;
}

export function defaultIngestionUrl(config: GatewayConfig): string {
  return config.INGESTION_URL ?? 'http://127.0.0.1:8080';
}

export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config, logger, store } = deps;
  const lineageUrl = deps.lineageUrl ?? defaultLineageUrl(config);
  const ingestionUrl = deps.ingestionUrl ?? defaultIngestionUrl(config);

  // One pool for every call to the other services (the subgraphs, the ingestion relay).
  const agent = serviceCallAgent();
  const fetcher = subgraphFetcher(agent);
  // Throws (the gateway does not start) naming every subgraph it cannot read or compose.
  const supergraphSdl = await supergraphOf(config, lineageUrl, fetcher).catch((e: unknown) => {
    agent.destroy();
    throw e;
  });
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => {
      // The catalog's own headers (bookmarks, lineage plans) go to and come from the lineage
      // subgraph only; every subgraph gets the caller's Authorization and the request id.
      const lineage = name === LINEAGE_SUBGRAPH;
      return new RemoteGraphQLDataSource<GatewayContext>({
        url,
        fetcher,
        didEncounterError(error, _request, response) {
          throw subgraphFailure(error, response, lineage ? 'The lineage service' : `The subgraph "${name}"`);
        },
        willSendRequest({ request, context }) {
          if (context.authorization) request.http?.headers.set('authorization', context.authorization);
          if (context.requestId) request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
          if (!lineage) return;
          if (context.bookmarks) request.http?.headers.set(BOOKMARK_HEADER, context.bookmarks);
          if (context.explainLineage) request.http?.headers.set(LINEAGE_PLAN_HEADER, 'true');
        },
        didReceiveResponse({ response, context }) {
          if (!lineage) return response;
          const bookmarks = response.http?.headers.get(BOOKMARK_HEADER);
          // Every operation's context holds the list (built below); `?.` only keeps a request Apollo
          // might make on its own behalf from failing on a missing one.
          if (bookmarks) context.receivedBookmarks?.push(bookmarks);
          context.lineagePlans?.push(...plansOfSubgraphResponse(response.extensions));
          return response;
        },
      });
    },
    logger,
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    ...sharedApolloOptions(config, logger),
    plugins: [
      dataHubEnvelopePlugin<GatewayContext>(),
      graphqlMetricsPlugin<GatewayContext>('gateway'),
      operationResolutionPlugin<GatewayContext>(),
      bookmarkRelayPlugin(),
      lineagePlanPlugin<GatewayContext>(),
    ],
  });
  await apollo.start();

  const authConfig = authConfigOf(config);
  const tokenStore = createTokenStore(store);
  const graphql = graphqlHandler<GatewayContext>({
    server: apollo,
    maxBodyBytes: config.MAX_BODY_BYTES,
    logger,
    limits: graphqlLimitsFromConfig(config),
    async context(req) {
      // Checked here, before execution, so a bad token is a plain 401 and never a GraphQL error.
      await authenticate(req.headers.authorization, authConfig, tokenStore);
      const requestId = currentRequestId();
      // graphqlHandler has vetted the header (400 otherwise) and this process's reads wait for it.
      const presented = req.headers[BOOKMARK_HEADER];
      const bookmarks = Array.isArray(presented) ? presented.join(',') : presented;
      return {
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        ...(requestId ? { requestId } : {}),
        ...(bookmarks?.trim() ? { bookmarks } : {}),
        receivedBookmarks: [],
        explainLineage: asksForLineagePlans(req),
        lineagePlans: [],
      };
    },
  });

  // Bodies over MAX_BODY_BYTES (docs/wire-contract.md §Limits): the service refuses them with 413,
  // but it answers before reading the whole upload and closes it, and that early answer races the
  // upload: the proxy may see the broken pipe first and answer a 5xx of its own. So the front door
  // answers the 413 itself — before relaying when the declared length is over the limit, and when
  // the relay fails after more than the limit was read from the client (a body of no declared
  // length). A gzip body is capped by its inflated size, which only the service knows: its 413
  // still comes from the service.
  const limit = config.MAX_BODY_BYTES;
  // How long a refused upload is read on so that its 413 arrives (see answerTooLarge).
  const UPLOAD_DRAIN_MS = 10_000;
  const bodyBytesRead = new WeakMap<IncomingMessage, number>();
  const declaredOverLimit = (req: IncomingMessage) => (declaredBodyLength(req.headers) ?? 0) > limit;
  const answerTooLarge = (req: IncomingMessage, res: ServerResponse) => {
    const answer = gmsBodyTooLargeAnswer((req.url ?? '/').split('?')[0]!, limit);
    const text = JSON.stringify(answer.body);
    // The whole answer goes out at once, but the connection ends only once the client has finished
    // its upload (read and discarded, for at most UPLOAD_DRAIN_MS): closing a socket with unread
    // upload bytes makes the kernel reset it, and a client still sending then sees ECONNRESET
    // instead of the 413 it was sent.
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' });
    res.write(text);
    const end = () => {
      if (!res.writableEnded) res.end();
    };
    if (req.complete) {
      end();
      return;
    }
    req.unpipe();
    req.once('end', end);
    req.once('error', end);
    req.once('close', end);
    setTimeout(end, UPLOAD_DRAIN_MS).unref();
    req.resume();
  };
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: ingestionUrl,
    agent,
    changeOrigin: false,
    pathRewrite: (path) => withoutGmsPrefix(path).path,
    on: {
      // The relay pipes the request on right after this event: counting here sees every chunk.
      proxyReq(_proxyReq, req) {
        bodyBytesRead.set(req, 0);
        req.on('data', (chunk: Buffer) => bodyBytesRead.set(req, (bodyBytesRead.get(req) ?? 0) + chunk.length));
      },
      // Replaces the default error answer (plain text, 500/504): every failure is answered here.
      error(err, req, res) {
        if (!('writeHead' in res)) {
          res.destroy();
          return;
        }
        if (res.headersSent) {
          res.end();
          return;
        }
        if (declaredOverLimit(req) || (bodyBytesRead.get(req) ?? 0) > limit) {
          answerTooLarge(req, res);
          return;
        }
        logger.warn({ err, url: req.url }, 'ingestion service unreachable');
        const code = (err as { code?: string }).code ?? '';
        const unreachable = ['ECONNRESET', 'ENOTFOUND', 'ECONNREFUSED', 'ETIMEDOUT'].includes(code);
        res.writeHead(unreachable ? 504 : 502, { 'content-type': 'application/json', 'retry-after': '5' });
        res.end(JSON.stringify({ error: 'The ingestion service is unreachable; retry later.' }));
      },
    },
  });

  const sessions = sessionHandler({
    store,
    secrets: { signingKey: authConfig.signingKey, salt: authConfig.salt, rootPassword: config.DATAHUB_ROOT_PASSWORD },
    maxBodyBytes: config.MAX_BODY_BYTES,
  });
  const explorer = explorerStaticHandler();
  const httpServer = createServer(httpServerOptions(config), (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    const fail = (e: unknown) => {
      logger.error({ err: e, url }, 'front door request failed');
      sendPlain(res, 500, UNKNOWN_ERROR_MESSAGE);
    };
    adoptSessionCookie(req);
    if (SESSION_PATHS.has(path)) {
      sessions(req, res, path).catch(fail);
    } else if (GRAPHQL_PATHS.has(path)) {
      graphql(req, res).catch(fail);
    } else if (GMS_PREFIX.test(url) || relaysToGms(path)) {
      if (declaredOverLimit(req)) answerTooLarge(req, res);
      else proxy(req, res).catch(fail);
    } else if (HEALTH_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    } else {
      // The lineage explorer page (/, /index.html, /assets/*); anything else is a 404.
      explorer(req, res, () => sendPlain(res, 404, `No route for ${req.method ?? ''} ${path}`));
    }
  });

  return {
    httpServer,
    apollo,
    close: async () => {
      await closeApolloHttp(httpServer, apollo);
      agent.destroy();
    },
  };
}
