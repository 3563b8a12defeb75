// Gateway process: the front door on GATEWAY_PORT. The shared runtime
// (service-kit/src/service-runtime.ts) owns configuration, health, metrics, request ids, signals and the driver.
import { runService } from '@lineage/service-kit';
import { createGateway, defaultIngestionUrl, defaultLineageUrl, gatewayRouteTemplate } from './app.ts';

await runService({
  name: 'gateway',
  port: (config) => config.GATEWAY_PORT,
  async build({ store, config, logger }) {
    const gateway = await createGateway({ config, logger, store });
    return {
      server: gateway.httpServer,
      close: () => gateway.close(),
      // Its /api/health answers readiness too (it used to answer 200 whatever the store did).
      readyPaths: ['/api/health'],
      routeTemplate: gatewayRouteTemplate,
      describe: (address) =>
        `gateway listening on ${address} (GraphQL at /api/graphql; subgraph ${defaultLineageUrl(config)}; ingestion ${defaultIngestionUrl(config)})`,
    };
  },
});
