// Lineage subgraph process: the subgraph on LINEAGE_PORT at /graphql. The shared runtime
// (service-kit/src/service-runtime.ts) owns configuration, health, metrics, request ids, signals and the driver.
import { GRAPHQL_PATH, opsRouteTemplate, runService } from '@lineage/service-kit';
import { createLineageSubgraph } from './app.ts';

await runService({
  name: 'lineage-service',
  port: (config) => config.LINEAGE_PORT,
  async build({ store, config, logger }) {
    const subgraph = await createLineageSubgraph({ store, config, logger });
    return {
      server: subgraph.httpServer,
      close: () => subgraph.close(),
      routeTemplate: (url) => (url.split('?', 1)[0] === GRAPHQL_PATH ? GRAPHQL_PATH : opsRouteTemplate(url)),
      describe: (address) => `lineage subgraph listening on ${address}${GRAPHQL_PATH}`,
    };
  },
});
