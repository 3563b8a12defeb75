// The operator commands on a real Neo4j, run as processes the way `npm run` runs them, with the
// Neo4j named by the shared flags (docs/operators.md §The shared flags) while NEO4J_URI points at
// nothing: export a namespace, import it back, report and repair drift, mint a token. What each
// command does is tested in its own suite; this is its command line — flags over environment,
// progress lines on a pipe, --quiet, --data-dir, and the exit codes scripts read.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { repoRoot } from '../../tools/neo4j/neo4j-server.ts';
import { testStore, namespace } from '../support/context.ts';
import { cypher, T0, upsert } from './support.ts';

const ns = namespace('opcli');
const SCOPE = `%${ns.platform}%`;
const ACTOR = 'urn:li:corpuser:operator-cli-test';
const a = ns.dataset('a');
const b = ns.dataset('b');
const tmp = mkdtempSync(join(tmpdir(), 'lineage-operator-cli-'));
let store: Store;
/** The aspect rows the three writes leave (key aspects included), as the store counts them. */
let rows: number;

/** The connection as flags; the environment's NEO4J_URI is a port nothing listens on. */
const connection = [
  '--neo4j-uri',
  process.env.TEST_NEO4J_URI!,
  ...(process.env.TEST_NEO4J_USER ? ['--neo4j-user', process.env.TEST_NEO4J_USER] : []),
];

function run(entry: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, entry), ...args], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NEO4J_URI: 'bolt://127.0.0.1:1',
        NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  store = testStore();
  await writeAspects(
    store,
    [
      upsert(a, 'datasetProperties', { name: 'a' }),
      upsert(b, 'datasetProperties', { name: 'b' }),
      upsert(b, 'upstreamLineage', { upstreams: [{ dataset: a, type: 'TRANSFORMED', auditStamp: { time: T0, actor: ACTOR } }] }),
    ],
    { actor: ACTOR, existenceMode: 'relaxed', now: T0 },
  );
  [{ n: rows }] = (await cypher<{ n: number }>(
    store,
    'MATCH (e:Entity)-[:HAS_ASPECT]->(a:Aspect) WHERE e.urn IN $urns RETURN count(a) AS n',
    {
      urns: [a, b],
    },
  )) as [{ n: number }];
  expect(rows).toBeGreaterThanOrEqual(3);
});

afterAll(async () => {
  await store.close();
  rmSync(tmp, { recursive: true, force: true });
});

const SLOW = 180_000;

test(
  'export writes the namespace, with plain progress lines on a pipe (no bar, no escape codes)',
  async () => {
    const r = await run('tools/export.ts', ['--out', join(tmp, 'ns.json'), '--urn-like', SCOPE, ...connection]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`^${rows} rows of 2 entities exported to `)),
    });
    expect(r.stderr).toMatch(new RegExp(`^export ${rows}/${rows} rows \\| \\d+ rows/s \\| ETA `, 'm'));
    expect(r.stderr).not.toMatch(/\u001b|\[[█░]/);
    expect((JSON.parse(readFileSync(join(tmp, 'ns.json'), 'utf8')) as unknown[]).length).toBe(rows);
  },
  SLOW,
);

test(
  'import reads it back (idempotent), silently with --quiet',
  async () => {
    const r = await run('tools/import.ts', [
      join(tmp, 'ns.json'),
      '--quiet',
      '--checkpoint',
      join(tmp, 'import-cp.json'),
      '--actor',
      ACTOR,
      ...connection,
    ]);
    expect(r).toEqual({ code: 0, stdout: expect.stringMatching(new RegExp(`^${rows} records imported `)), stderr: '' });
    expect(existsSync(join(tmp, 'import-cp.json'))).toBe(false);
  },
  SLOW,
);

test(
  'restore-indices --dry-run exits 0 on a clean store, 1 on drift; a restore repairs it',
  async () => {
    const dryRun = ['--urn-like', SCOPE, '--dry-run', '--quiet', ...connection];
    const clean = await run('tools/restore-indices.ts', dryRun);
    expect({ code: clean.code, stderr: clean.stderr }).toEqual({ code: 0, stderr: '' });
    expect(clean.stdout).toContain('missing edges: 0\n');

    await cypher(store, 'MATCH (:Entity {urn: $b})-[r:DownstreamOf]->(:Entity {urn: $a}) DELETE r', { a, b });
    const drifted = await run('tools/restore-indices.ts', dryRun);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain('missing edges: 1\n');

    const restore = await run('tools/restore-indices.ts', ['--urn-like', SCOPE, '--quiet', '--data-dir', tmp, ...connection]);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/edges \+1 /);
    expect((await run('tools/restore-indices.ts', dryRun)).code).toBe(0);
  },
  SLOW,
);

test(
  'migrate --status reads the store the flag names',
  async () => {
    const r = await run('tools/migrate.ts', ['--status', ...connection]);
    expect(r.stdout).toMatch(new RegExp(`^store ${process.env.TEST_NEO4J_URI!.replace(/[.]/g, '\\.')}: schema version \\d+`));
    expect(r.code).toBe(0);
  },
  SLOW,
);

test(
  "token mints against the flag's Neo4j with the secrets of --data-dir",
  async () => {
    const r = await run('tools/token.ts', [
      '--actor',
      ACTOR,
      '--duration',
      'ONE_HOUR',
      '--name',
      ns.platform,
      '--data-dir',
      tmp,
      ...connection,
    ]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(existsSync(join(tmp, 'secrets.json'))).toBe(true);
  },
  SLOW,
);
