// Starts one Neo4j for the whole jest run (not one per test) and applies the schema. Test files
// share it and keep apart by using their own urn namespace.
import { provideTestNeo4j } from './neo4j-for-tests.ts';
import { createStore } from '../../catalog/src/store/store.ts';

export default async function globalSetup(): Promise<void> {
  const t0 = Date.now();
  const neo4j = await provideTestNeo4j();
  (globalThis as { __TEST_NEO4J__?: unknown }).__TEST_NEO4J__ = neo4j;
  process.env.TEST_NEO4J_URI = neo4j.uri;
  if (neo4j.user) process.env.TEST_NEO4J_USER = neo4j.user;
  if (neo4j.password) process.env.TEST_NEO4J_PASSWORD = neo4j.password;
  const store = createStore({ uri: neo4j.uri, user: neo4j.user, password: neo4j.password, database: 'neo4j' });
  await store.applySchema();
  await store.close();
  process.stderr.write(`\n[test] Neo4j (${neo4j.kind}) at ${neo4j.uri}, ready in ${Date.now() - t0} ms\n`);
}
