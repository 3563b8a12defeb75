// Process entry point of the ingestion service; the shared runtime (service-kit/src/service-runtime.ts)
// owns configuration, health, metrics, request ids, signals and the driver.
import { createServer } from 'node:http';
import { gmsRouteTemplate, httpServerOptions, runService } from '@lineage/service-kit';
import { createIngestionApp } from './app.ts';

await runService({
  name: 'ingestion-service',
  port: (config) => config.INGESTION_PORT,
  applySchema: true,
  async build({ store, config, logger }) {
    const app = createIngestionApp({ store, config, logger });
    // Receive timeouts (HTTP_REQUEST_TIMEOUT_MS / HTTP_HEADERS_TIMEOUT_MS) as on the other services.
    return { server: createServer(httpServerOptions(config), app.callback()), routeTemplate: gmsRouteTemplate };
  },
});
