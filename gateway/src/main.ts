// Gateway process: the front door on GATEWAY_PORT; closes cleanly on signals.
import { loadConfig, ConfigError } from '@lineage/catalog/config';
import { createLogger } from '@lineage/catalog/logger';
import { createStore } from '@lineage/catalog/neo4j/store';
import { createGateway, defaultIngestionUrl, defaultLineageUrl } from './app.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const store = createStore({ uri: config.NEO4J_URI, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD, database: config.NEO4J_DATABASE });
  const gateway = await createGateway({ config, logger, store });
  await new Promise<void>((resolve) => gateway.httpServer.listen(config.GATEWAY_PORT, config.HOST, resolve));
  logger.info(`gateway listening on http://${config.HOST}:${config.GATEWAY_PORT} (GraphQL at /api/graphql; subgraph ${defaultLineageUrl(config)}; ingestion ${defaultIngestionUrl(config)})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await gateway.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
