// Lineage subgraph process: the subgraph on LINEAGE_PORT at /graphql. The shared runtime
// (service-kit/src/service-runtime.ts) owns configuration, health, metrics, request ids, signals and the driver.
import { runService } from '@lineage/service-kit';
import { createLineageSubgraph, GRAPHQL_PATH } from './app.ts';

await runService({
  name: 'lineage-service',
  port: (config) => config.LINEAGE_PORT,
  async build({ store, config, logger }) {
    const subgraph = await createLineageSubgraph({ store, config, logger });
    return {
      server: subgraph.httpServer,
      close: () => subgraph.close(),
      describe: (address) => `lineage subgraph listening on ${address}${GRAPHQL_PATH}`,
    };
  },
});
