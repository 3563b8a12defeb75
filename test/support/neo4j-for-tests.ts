// Which Neo4j the tests use: NEO4J_URI if set; else a testcontainers Neo4j where a Docker engine
// answers; else a throwaway server from tools/neo4j on a free port. Never an in-memory stand-in.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startNeo4j } from '../../tools/neo4j/neo4j-server.ts';

export interface TestNeo4j {
  uri: string;
  user?: string;
  password?: string;
  stop(): Promise<void>;
  kind: 'external' | 'testcontainers' | 'local';
}

function dockerEngineAvailable(): boolean {
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 5000 });
  return r.status === 0 && r.stdout.trim().length > 0;
}

export async function provideTestNeo4j(): Promise<TestNeo4j> {
  if (process.env.NEO4J_URI) return { uri: process.env.NEO4J_URI, kind: 'external', stop: async () => {} };
  if (process.env.TEST_NEO4J !== 'local' && dockerEngineAvailable()) {
    // Only loaded where an engine exists; the module is an optional dependency.
    const { Neo4jContainer } = await import('@testcontainers/neo4j');
    const container = await new Neo4jContainer('neo4j:5.26-community').withPassword('test-password').start();
    return {
      uri: container.getBoltUri(),
      user: container.getUsername(),
      password: container.getPassword(),
      kind: 'testcontainers',
      stop: async () => {
        await container.stop();
      },
    };
  }
  const home = mkdtempSync(join(tmpdir(), 'lineage-test-neo4j-'));
  const server = await startNeo4j({ home, boltPort: await freePort(), heap: '1g', pageCache: '512m' });
  return {
    uri: server.uri,
    kind: 'local',
    async stop() {
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
