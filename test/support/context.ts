// Per-test-file helpers: a store on the run's Neo4j and urn builders in the file's own namespace
// (the platform name), so test files can run in parallel against one database.
import { createStore, type Store } from '../../catalog/src/store/store.ts';

export function testStore(): Store {
  const uri = process.env.TEST_NEO4J_URI;
  if (!uri) throw new Error('TEST_NEO4J_URI is not set: run tests through jest (globalSetup starts Neo4j)');
  return createStore({ uri, user: process.env.TEST_NEO4J_USER, password: process.env.TEST_NEO4J_PASSWORD, database: 'neo4j' });
}

export function namespace(prefix: string) {
  const platform = `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return {
    platform,
    dataset: (name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`,
    field: (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`,
    flow: (id: string) => `urn:li:dataFlow:(${platform},${id},PROD)`,
    job: (flow: string, id: string) => `urn:li:dataJob:(${flow},${id})`,
    chart: (id: string) => `urn:li:chart:(${platform},${id})`,
    dashboard: (id: string) => `urn:li:dashboard:(${platform},${id})`,
    mlPrimaryKey: (name: string) => `urn:li:mlPrimaryKey:(${platform},${name})`,
    mlFeature: (name: string) => `urn:li:mlFeature:(${platform},${name})`,
    user: (name: string) => `urn:li:corpuser:${platform}_${name}`,
  };
}
