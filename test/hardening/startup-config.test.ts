// Each service process, started with a bad environment, stops before serving with status 2 and one
// log line listing every problem among the variables it reads, and none of another process's.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Bad for every process (the token keys are missing too), or only for some. */
const badEnv = { NEO4J_URI: 'http://not-bolt', LOG_LEVEL: 'loud', MAX_BATCH_PROPOSALS: 'many', GRAPHQL_MAX_DEPTH: '0' };
const everyServiceNames = ['NEO4J_URI', 'LOG_LEVEL', 'DATAHUB_TOKEN_SERVICE_SIGNING_KEY', 'DATAHUB_TOKEN_SERVICE_SALT'];

function runUntilExit(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, entry)], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    // A process that got past its config would wait for Neo4j: give up long before jest does.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not exit:\n${output}`));
    }, 45_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test.each([
  ['ingestion-service/src/main.ts', ['MAX_BATCH_PROPOSALS'], ['GRAPHQL_MAX_DEPTH']],
  ['lineage-service/src/main.ts', ['GRAPHQL_MAX_DEPTH'], ['MAX_BATCH_PROPOSALS']],
  ['gateway/src/main.ts', ['GRAPHQL_MAX_DEPTH'], ['MAX_BATCH_PROPOSALS']],
])('%s exits 2 naming every bad variable it reads', async (entry, itsOwn, notRead) => {
  const { code, output } = await runUntilExit(entry, badEnv);
  expect(code).toBe(2);
  const fatal = output
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .find((l) => l.level === 60);
  expect(fatal?.msg).toMatch(/^Invalid configuration:/);
  for (const name of [...everyServiceNames, ...itsOwn]) expect(fatal?.msg).toContain(`  ${name}: `);
  for (const name of notRead) expect(fatal?.msg).not.toContain(name);
});
