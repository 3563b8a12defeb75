// Lineage subgraph process: the subgraph on LINEAGE_PORT at /graphql. It reads its own config
// (loadLineageConfig); the shared runtime (service-kit/src/service-runtime.ts) owns health, metrics,
// request ids, signals and the driver.
import { loadLineageConfig } from '@lineage/catalog/runtime';
import { GRAPHQL_PATH, opsRouteTemplate, runService } from '@lineage/service-kit';
import { createLineageSubgraph } from './app.ts';

await runService({
  name: 'lineage-service',
  loadConfig: loadLineageConfig,
  port: (config) => config.LINEAGE_PORT,
  async build({ config, store, logger }) {
    const subgraph = await createLineageSubgraph({ store, config, logger });
    return {
      server: subgraph.httpServer,
      close: () => subgraph.close(),
      routeTemplate: (url) => (url.split('?', 1)[0] === GRAPHQL_PATH ? GRAPHQL_PATH : opsRouteTemplate(url)),
      describe: (address) => `lineage subgraph listening on ${address}${GRAPHQL_PATH}`,
    };
  },
});
