// Process entry point: the only place that listens, handles signals and closes the driver.
import { loadConfig, ConfigError } from '@lineage/catalog/config';
import { createLogger } from '@lineage/catalog/logger';
import { createStore } from '@lineage/catalog/neo4j/store';
import { createIngestionApp } from './app.ts';

const logger = createLogger('ingestion-service');
let config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    logger.fatal(e.message);
    process.exit(2);
  }
  throw e;
}
const store = createStore({ uri: config.NEO4J_URI, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD, database: config.NEO4J_DATABASE });
await store.applySchema();
const app = createIngestionApp({ store, config, logger });
const server = app.listen(config.INGESTION_PORT, config.HOST, () => {
  logger.info({ port: config.INGESTION_PORT, host: config.HOST }, 'ingestion service listening');
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'draining requests');
  server.close(async () => {
    await store.close();
    logger.info('stopped');
    process.exit(0);
  });
  setTimeout(() => process.exit(1), 15_000).unref();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
