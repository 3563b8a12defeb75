// `npm start`: the whole product on the embedded default. Starts Neo4j (unless NEO4J_URI names a
// server), then the ingestion service, the lineage subgraph and the gateway as child processes,
// and prints where everything listens and a token to call it with.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startNeo4j, repoRoot, type RunningNeo4j } from './neo4j/neo4j-server.ts';
import { embeddedEnv, neo4jHome, defaultBoltPort } from './embedded.ts';
import { loadConfig } from '../catalog/src/config.ts';
import { createStore } from '../catalog/src/neo4j/store.ts';
import { issueAccessToken } from '../catalog/src/access-tokens.ts';

const children: ChildProcess[] = [];
let neo4j: RunningNeo4j | undefined;
let stopping = false;

async function stopAll(code: number): Promise<never> {
  stopping = true;
  for (const c of children.reverse()) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await neo4j?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not become healthy in ${timeoutMs} ms`);
}

function startService(name: string, entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [join(repoRoot, entry)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited with code ${code}; stopping everything.`);
      void stopAll(1);
    }
  });
  children.push(child);
  return child;
}

try {
  let uri = process.env.NEO4J_URI;
  if (!uri) {
    console.log(`Starting Neo4j 5.26 (data in ${neo4jHome}) …`);
    neo4j = await startNeo4j({ home: neo4jHome, boltPort: defaultBoltPort });
    uri = neo4j.uri;
  }
  const env = embeddedEnv(uri);
  const config = loadConfig(env);
  const base = (port: number) => `http://127.0.0.1:${port}`;
  const ingestionUrl = config.INGESTION_URL ?? base(config.INGESTION_PORT);
  const lineageUrl = config.LINEAGE_URL ?? `${base(config.LINEAGE_PORT)}/graphql`;
  const serviceEnv = { ...env, INGESTION_URL: ingestionUrl, LINEAGE_URL: lineageUrl };

  const ingestion = startService('ingestion-service', 'ingestion-service/src/main.ts', serviceEnv);
  await waitForHealth(`${base(config.INGESTION_PORT)}/health`, ingestion);
  const lineage = startService('lineage-service', 'lineage-service/src/main.ts', serviceEnv);
  await waitForHealth(`${base(config.LINEAGE_PORT)}/health`, lineage);
  const gateway = startService('gateway', 'gateway/src/main.ts', serviceEnv);
  await waitForHealth(`${base(config.GATEWAY_PORT)}/health`, gateway);

  const store = createStore({ uri, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD, database: config.NEO4J_DATABASE });
  const token = await issueAccessToken(store, { signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, salt: config.DATAHUB_TOKEN_SERVICE_SALT }, {
    actorUrn: 'urn:li:corpuser:datahub', ownerUrn: 'urn:li:corpuser:datahub', name: 'npm start', duration: 'ONE_DAY',
  });
  await store.close();

  console.log(`
Lineage catalog is running.
  Front door (GraphQL + /api/gms proxy): ${base(config.GATEWAY_PORT)}/api/graphql
  Ingestion service (DataHub GMS REST):  ${base(config.INGESTION_PORT)}
  Lineage subgraph:                      ${lineageUrl}
  Neo4j (Bolt, for Cypher):              ${uri}

A token for urn:li:corpuser:datahub (Admin), valid one day:
  ${token.accessToken}
More tokens: npm run token -- --actor urn:li:corpuser:datahub
Ctrl-C stops everything.
`);
} catch (e) {
  console.error(`npm start failed: ${(e as Error).message}`);
  await stopAll(1);
}
