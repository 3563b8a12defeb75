// What the services share over HTTP (docs/CONTRIBUTING.md §Layers), exported by name: what the
// services import, and nothing else.
// Read-your-writes bookmarks on the wire (front door and Rest.li).
export { BOOKMARK_HEADER, formatBookmarkHeader, mergeBookmarkHeaders, parseBookmarkHeader } from './bookmarks.ts';
// Domain errors rendered as REST status and body.
export { restStatusOf, UNKNOWN_ERROR_MESSAGE } from './error-codes.ts';
// GMS's optional /gms path prefix.
export { GMS_PREFIX, isOpenApiPath, withoutGmsPrefix } from './gms-prefix.ts';
// GMS routes as metric labels.
export { gmsRouteTemplate } from './gms-routes.ts';
// DataHub's GraphQL error envelope.
export { createFormatError, dataHubEnvelopePlugin } from './graphql-envelope.ts';
// Apollo over plain node:http and the ApolloServer options, for the subgraph and the gateway.
export { closeApolloHttp, GRAPHQL_PATH, graphqlHandler, sendPlain, sharedApolloOptions } from './graphql-http.ts';
// GraphQL depth/cost limits and the operation-resolution plugin.
export { graphqlLimitsFromConfig, graphqlValidationRules, operationResolutionPlugin } from './graphql-limits.ts';
// Lineage plans shown on request (X-Lineage-Plan) and logged at debug.
export { asksForLineagePlans, LINEAGE_PLAN_HEADER, lineagePlanPlugin, plansOfSubgraphResponse, type PlanCarrier } from './lineage-plans.ts';
// GraphQL operation metrics.
export { graphqlMetricsPlugin } from './graphql-metrics.ts';
// The HTTP servers' shared receive timeouts.
export { httpServerOptions, serviceCallAgent } from './http-options.ts';
// The process metrics registry.
export { processMetrics } from './metrics.ts';
// The OpenLineage door's paths, for the ingestion routes and the front door.
export { isOpenLineagePath, OPENLINEAGE_BATCH_PATHS, OPENLINEAGE_EVENT_PATHS } from './openlineage-paths.ts';
// Marquez's read API paths (served by the ingestion service, relayed by the front door).
export { isMarquezApiPath, isMarquezRead } from './marquez-paths.ts';
// Request bodies read one way by every door.
export { declaredBodyLength, gmsBodyTooLargeAnswer, readBodyText } from './request-body.ts';
// The process runtime: a service's config or a fail-fast exit, ops endpoints, graceful shutdown.
export { opsRouteTemplate, runService } from './service-runtime.ts';
