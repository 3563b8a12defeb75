import type { TestNeo4j } from './neo4j-for-tests.ts';

export default async function globalTeardown(): Promise<void> {
  const neo4j = (globalThis as { __TEST_NEO4J__?: TestNeo4j }).__TEST_NEO4J__;
  await neo4j?.stop();
}
