// `npm start`: the whole product on the embedded default. Starts Neo4j (unless NEO4J_URI names a
// server), then the ingestion service, the lineage subgraph and the gateway as child processes,
// and prints where everything listens and a token to call it with. The launching itself lives in
// tools/stack.ts, shared with the ephemeral stack of `npm run test:interop`.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { signInLink, startStack } from './stack.ts';
import { loadSampleData } from './sample-data.ts';
import { repoRoot } from './neo4j/neo4j-server.ts';
import { Option } from 'commander';
import { createProgram } from './cli/program.ts';

const options = createProgram(
  'start',
  'The whole catalog on the embedded default: Neo4j (unless NEO4J_URI names a server), the ingestion service, the lineage subgraph and the gateway, configured by the environment (docs/configuration.md).',
)
  .addOption(new Option('--sample', 'load a small sample lineage graph through the ingestion doors once the stack is up').default(false))
  .parse()
  .opts<{ sample: boolean }>();

const control: { stop?: () => Promise<void> } = {};

async function stopAll(code: number): Promise<never> {
  await control.stop?.();
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** The explorer page is built once (Vite, a few seconds) so a fresh clone serves it at `/`. */
function ensureExplorerBuilt(): void {
  if (existsSync(join(repoRoot, 'explorer', 'dist', 'index.html'))) return;
  console.log('Building the lineage explorer page (first start only) …');
  const r = spawnSync('npm', ['run', '--silent', 'build:explorer'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) console.error('The explorer page did not build; the APIs still work. Retry with: npm run build:explorer');
}

try {
  ensureExplorerBuilt();
  // A person at a terminal reads one line per log record; a pipe or a file gets the JSON lines.
  const stack = await startStack({ control, serviceOutput: process.stdout.isTTY ? 'pretty' : 'inherit' });
  // --sample: a small lineage graph through the ingestion service's doors, so the first view shows lineage.
  const sample = options.sample ? await loadSampleData({ ingestionUrl: stack.ingestionUrl, token: stack.token }) : undefined;
  const sampleLines = sample
    ? `
Sample lineage loaded (${sample.proposals} aspects, ${sample.runEvents} OpenLineage events). Look at ${sample.featuredName}:
  ${signInLink(stack.gatewayUrl, stack.token, sample.featuredUrn)}
`
    : '';
  console.log(`
Lineage catalog is running.
  Lineage explorer (web page):           ${stack.gatewayUrl}/
  Front door (GraphQL + /api/gms proxy): ${stack.gatewayUrl}/api/graphql
  Ingestion service (DataHub GMS REST):  ${stack.ingestionUrl}
  Lineage subgraph:                      ${stack.lineageUrl}
  Neo4j (Bolt, for Cypher):              ${stack.neo4jUri}

Open the explorer, signed in (the token stays in your browser tab):
  ${signInLink(stack.gatewayUrl, stack.token)}
A token for urn:li:corpuser:datahub (Admin), valid one day:
  ${stack.token}
${sampleLines}More tokens: npm run token -- --actor urn:li:corpuser:datahub
Ctrl-C stops everything.
`);
} catch (e) {
  console.error(`npm start failed: ${(e as Error).message}`);
  await stopAll(1);
}
