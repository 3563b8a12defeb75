// The store the operator CLIs (export, import, migrate, restore-indices) work on: NEO4J_URI and its
// credentials from the environment, else the embedded server `npm start` runs.
import { createStore, type Store } from '../catalog/src/store/store.ts';
import { changeLogTopicsFromEnv } from '../catalog/src/runtime/config.ts';

export const neo4jUriFromEnv = (): string => process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7687';

export function storeFromEnv(): Store {
  return createStore({
    uri: neo4jUriFromEnv(),
    user: process.env.NEO4J_USER,
    password: process.env.NEO4J_PASSWORD,
    database: process.env.NEO4J_DATABASE ?? 'neo4j',
    // What an import or a restore changes is recorded like any write unless the services keep no log.
    changeLog: changeLogTopicsFromEnv(),
  });
}
