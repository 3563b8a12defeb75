// Process entry point of the ingestion service: it reads its own config (loadIngestionConfig); the
// shared runtime (service-kit/src/service-runtime.ts) owns health, metrics, request ids, signals and the driver.
import { createServer } from 'node:http';
import { startChangeLogRetention } from '@lineage/catalog/operations';
import { loadIngestionConfig } from '@lineage/catalog/runtime';
import { gmsRouteTemplate, httpServerOptions, runService } from '@lineage/service-kit';
import { createIngestionApp } from './app.ts';

await runService({
  name: 'ingestion-service',
  loadConfig: loadIngestionConfig,
  port: (config) => config.INGESTION_PORT,
  // The ingestion service writes first, so it applies the Neo4j constraints and indexes.
  applySchema: true,
  async build({ config, store, logger }) {
    const app = createIngestionApp({ store, config, logger });
    // Every replica prunes; passes are idempotent and take no lock writers take.
    if (config.EVENTS_API_ENABLED) {
      startChangeLogRetention(store, { retentionDays: config.EVENTS_RETENTION_DAYS, intervalMs: config.EVENTS_PRUNE_INTERVAL_MS, logger });
    }
    // Receive timeouts (HTTP_REQUEST_TIMEOUT_MS / HTTP_HEADERS_TIMEOUT_MS) as on the other services.
    return { server: createServer(httpServerOptions(config), app.callback()), routeTemplate: gmsRouteTemplate };
  },
});
