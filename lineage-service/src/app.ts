// The lineage subgraph: an Apollo Federation 2 subgraph over the catalog domain. The factory builds
// everything but listens on nothing (main.ts does). The caller's identity is re-established here
// from the forwarded Authorization header, so the subgraph trusts no header the gateway might add.
import { createServer, type Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';

import { authenticate, authConfigOf, createTokenStore } from '@lineage/catalog/operations';
import { lineageLimitsFromConfig, viewSettingsFromConfig } from '@lineage/catalog/read';
import { changeLogTopicsOf, type LineageConfig, type Logger } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { createRequestContext, type RequestContext, type ResolverServices } from './context.ts';
import {
  asksForLineagePlans,
  lineagePlanPlugin,
  dataHubEnvelopePlugin,
  graphqlMetricsPlugin,
  closeApolloHttp,
  graphqlHandler,
  sendPlain,
  graphqlLimitsFromConfig,
  sharedApolloOptions,
  operationResolutionPlugin,
  httpServerOptions,
  GRAPHQL_PATH,
  UNKNOWN_ERROR_MESSAGE,
} from '@lineage/service-kit';
import { loadTypeDefs, subgraphTypeDefs } from './schema.ts';
import { entityResolvers } from './resolvers/entities.ts';
import { lineageResolvers } from './resolvers/lineage.ts';
import { tokenResolvers } from './resolvers/tokens.ts';
import { identityResolvers } from './resolvers/identity.ts';
import { ingestionResolvers } from './resolvers/ingestion.ts';
import { policyResolvers } from './resolvers/policies.ts';
import { scalarResolvers } from './scalars.ts';
import { searchResolvers } from './resolvers/search.ts';
import { detailsResolvers } from './resolvers/details.ts';

export interface LineageSubgraphDeps {
  store: Store;
  config: LineageConfig;
  logger: Logger;
}

export interface LineageSubgraph {
  /** Not listening yet: main.ts (or a test) calls listen. */
  httpServer: Server;
  apollo: ApolloServer<RequestContext>;
  /** Stops Apollo and the HTTP server; the store belongs to the caller. */
  close(): Promise<void>;
}

export function buildLineageSchema() {
  const typeDefs = loadTypeDefs();
  const module = (name: keyof typeof typeDefs, resolvers?: object) => ({
    typeDefs: typeDefs[name],
    ...(resolvers ? { resolvers: resolvers as GraphQLResolverMap<unknown> } : {}),
  });
  return buildSubgraphSchema([
    module('common', scalarResolvers),
    // Entity types follow their descriptors; which fields each has is what the SDL declares.
    module('entities', entityResolvers(subgraphTypeDefs(typeDefs))),
    module('generated'),
    module('metadata'),
    module('governance'),
    module('schema-metadata'),
    module('quality'),
    module('documents'),
    module('registered'),
    module('lineage', lineageResolvers),
    module('tokens', tokenResolvers),
    module('identity', identityResolvers),
    module('ingestion', ingestionResolvers),
    module('policies', policyResolvers),
    module('search', searchResolvers),
    module('details', detailsResolvers),
  ]);
}

export async function createLineageSubgraph(deps: LineageSubgraphDeps): Promise<LineageSubgraph> {
  const { store, config, logger } = deps;
  const apollo = new ApolloServer<RequestContext>({
    schema: buildLineageSchema(),
    ...sharedApolloOptions(config, logger),
    // No federated tracing: nothing reports usage, and ftv1 would ride along in every response.
    plugins: [
      dataHubEnvelopePlugin<RequestContext>(),
      ApolloServerPluginInlineTraceDisabled(),
      graphqlMetricsPlugin<RequestContext>('subgraph'),
      operationResolutionPlugin<RequestContext>(),
      lineagePlanPlugin<RequestContext>(logger),
    ],
  });
  await apollo.start();

  const authConfig = authConfigOf(config);
  const tokenStore = createTokenStore(store);
  const services: ResolverServices = {
    store,
    limits: lineageLimitsFromConfig(config),
    tokenSecrets: { signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, salt: config.DATAHUB_TOKEN_SERVICE_SALT },
    changeLogTopics: changeLogTopicsOf(config),
    view: viewSettingsFromConfig(config),
  };
  const graphql = graphqlHandler({
    server: apollo,
    maxBodyBytes: config.MAX_BODY_BYTES,
    logger,
    limits: graphqlLimitsFromConfig(config),
    context: async (req) =>
      createRequestContext(services, await authenticate(req.headers.authorization, authConfig, tokenStore), asksForLineagePlans(req)),
  });

  const httpServer = createServer(httpServerOptions(config), (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === GRAPHQL_PATH) {
      graphql(req, res).catch((e: unknown) => {
        logger.error({ err: e }, 'GraphQL request failed');
        sendPlain(res, 500, UNKNOWN_ERROR_MESSAGE);
      });
    } else if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
      store.ping().then(
        (up) => {
          res.writeHead(up ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: up ? 'ok' : 'unavailable' }));
        },
        () => sendPlain(res, 503, 'unavailable'),
      );
    } else {
      sendPlain(res, 404, `No route for ${req.method ?? ''} ${path}`);
    }
  });

  return {
    httpServer,
    apollo,
    close: () => closeApolloHttp(httpServer, apollo),
  };
}
