// Lineage subgraph process: config, store, subgraph on LINEAGE_PORT at /graphql; closes cleanly on signals.
import { loadConfig, ConfigError } from '@lineage/catalog/config';
import { createLogger } from '@lineage/catalog/logger';
import { createStore } from '@lineage/catalog/neo4j/store';
import { createLineageSubgraph, GRAPHQL_PATH } from './app.ts';

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
  const logger = createLogger('lineage-service', config.LOG_LEVEL);
  const store = createStore({ uri: config.NEO4J_URI, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD, database: config.NEO4J_DATABASE });
  const subgraph = await createLineageSubgraph({ store, config, logger });
  await new Promise<void>((resolve) => subgraph.httpServer.listen(config.LINEAGE_PORT, config.HOST, resolve));
  logger.info(`lineage subgraph listening on http://${config.HOST}:${config.LINEAGE_PORT}${GRAPHQL_PATH}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await subgraph.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
