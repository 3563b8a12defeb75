// Gateway process: the front door on GATEWAY_PORT. It reads its own config (loadGatewayConfig); the
// shared runtime (service-kit/src/service-runtime.ts) owns health, metrics, request ids, signals and the driver.
import { loadGatewayConfig } from '@lineage/catalog/runtime';
import { runService } from '@lineage/service-kit';
import { createGateway, defaultIngestionUrl, defaultLineageUrl, gatewayRouteTemplate } from './app.ts';
import { SupergraphError } from './supergraph.ts';

await runService({
  name: 'gateway',
  loadConfig: loadGatewayConfig,
  port: (config) => config.GATEWAY_PORT,
  async build({ config, store, logger }) {
    const gateway = await createGateway({ config, logger, store }).catch((e: unknown) => {
      // A subgraph that cannot be read or composed is the configuration's problem, as a bad variable is.
      if (!(e instanceof SupergraphError)) throw e;
      logger.fatal(e.message);
      process.exit(2);
    });
    const extras = (config.GATEWAY_EXTRA_SUBGRAPHS ?? []).map((s) => `; ${s.name} ${s.url}`).join('');
    return {
      server: gateway.httpServer,
      close: () => gateway.close(),
      // Its /api/health answers readiness too (it used to answer 200 whatever the store did).
      readyPaths: ['/api/health'],
      routeTemplate: gatewayRouteTemplate,
      describe: (address) =>
        `gateway listening on ${address} (GraphQL at /api/graphql; subgraph ${defaultLineageUrl(config)}${extras}; ingestion ${defaultIngestionUrl(config)})`,
    };
  },
});
