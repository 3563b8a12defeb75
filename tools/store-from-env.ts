// The store the operator CLIs (export, import, migrate, restore-indices) work on: the Neo4j their
// `--neo4j-*` options name (tools/cli/program.ts; NEO4J_URI and its credentials from the
// environment, else the embedded server `npm start` runs).
import { createStore, type Store } from '../catalog/src/store/store.ts';
import { changeLogTopicsFromEnv } from '../catalog/src/runtime/config.ts';
import type { Neo4jConnection } from './cli/program.ts';

export function storeOf(connection: Neo4jConnection): Store {
  return createStore({
    uri: connection.neo4jUri,
    user: connection.neo4jUser,
    password: process.env.NEO4J_PASSWORD,
    database: connection.neo4jDatabase,
    // What an import or a restore changes is recorded like any write unless the services keep no log.
    changeLog: changeLogTopicsFromEnv(),
  });
}
