// Gateway process: the front door on GATEWAY_PORT. It reads its own config (loadGatewayConfig); the
// shared runtime (service-kit/src/service-runtime.ts) owns health, metrics, request ids, signals and the driver.
import { loadGatewayConfig } from '@lineage/catalog/runtime';
import { loadServiceConfig, runService } from '@lineage/service-kit';
import { createGateway, defaultIngestionUrl, defaultLineageUrl, gatewayRouteTemplate } from './app.ts';

const name = 'gateway';
const config = loadServiceConfig(name, loadGatewayConfig);

await runService({
  name,
  config,
  port: config.GATEWAY_PORT,
  async build({ store, logger }) {
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
