// The operator command line as an operator meets it: each command run as its own process, as
// `npm run <command>` runs it. Every command answers --help with its usage and exit 0, a usage
// error is one line and exit 2 (never a stack trace), and every flag a help shows is on
// docs/operators.md. No Neo4j is needed: all of this happens before a command connects.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../neo4j/neo4j-server.ts';

interface CommandUnderTest {
  /** How the docs and the usage line name it. */
  name: string;
  script: string;
  entry: string;
  args?: string[];
}

const COMMANDS: CommandUnderTest[] = [
  { name: 'start', script: 'start', entry: 'tools/start.ts' },
  { name: 'token', script: 'token', entry: 'tools/token.ts' },
  { name: 'migrate', script: 'migrate', entry: 'tools/migrate.ts' },
  { name: 'export', script: 'export', entry: 'tools/export.ts' },
  { name: 'import', script: 'import', entry: 'tools/import.ts' },
  { name: 'restore-indices', script: 'restore-indices', entry: 'tools/restore-indices.ts' },
  { name: 'neo4j', script: 'neo4j', entry: 'tools/neo4j/cli.ts' },
  ...['install', 'start', 'dump', 'load'].map((sub) => ({
    name: `neo4j ${sub}`,
    script: 'neo4j',
    entry: 'tools/neo4j/cli.ts',
    args: [sub],
  })),
];

function run(c: CommandUnderTest, args: string[]) {
  const r = spawnSync(process.execPath, [join(repoRoot, c.entry), ...(c.args ?? []), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
    // Nothing from the caller's shell decides what a command parses.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** One line on stderr, naming the command, no stack frames, nothing on stdout. */
function expectUsageError(r: ReturnType<typeof run>, c: CommandUnderTest, message: RegExp): void {
  expect(r).toMatchObject({ status: 2, stdout: '' });
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^${c.script}: `));
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
}

const docs = readFileSync(join(repoRoot, 'docs', 'operators.md'), 'utf8');

/** The part of docs/operators.md about a command (neo4j's subcommands share one section). */
function docsSection(c: CommandUnderTest): string {
  const heading = `## npm run ${c.script}\n`;
  const start = docs.indexOf(heading);
  if (start < 0) throw new Error(`docs/operators.md has no "${heading.trim()}" section`);
  const end = docs.indexOf('\n## ', start + heading.length);
  return docs.slice(start, end < 0 ? undefined : end);
}

describe.each(COMMANDS)('npm run $name', (c) => {
  test('--help prints the usage on stdout and exits 0', () => {
    const r = run(c, ['--help']);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^Usage: npm run ${c.script} -- ${c.args?.[0] ? `${c.args[0]} ` : ''}`));
    expect(r.stdout).toContain('-h, --help');
  });

  test('an unknown flag is one line and exit 2', () => {
    expectUsageError(run(c, ['--no-such-flag']), c, /unknown option '--no-such-flag'/);
  });

  test('every flag its help shows is on docs/operators.md', () => {
    const flags = new Set(run(c, ['--help']).stdout.match(/(?<=^\s+(?:-\w, )?)--[a-z0-9-]+/gm) ?? []);
    flags.delete('--help');
    const section = docsSection(c);
    // Named in code spans, alone (`--out <file>`) or after the short form (`-q, --quiet`).
    expect([...flags].filter((f) => !new RegExp(`(\`|\`-\\w, )${f}(?![\\w-])`).test(section))).toEqual([]);
  });
});

const byName = (name: string) => COMMANDS.find((c) => c.name === name)!;

test.each([
  ['export', [], /--out FILE is required/],
  ['export', ['--out', 'x.json', '--page-size', '-1'], /'--page-size <n>' argument '-1' is invalid\. must be a non-negative integer/],
  ['export', ['--oot', 'x.json'], /unknown option '--oot' \(Did you mean --out\?\)/],
  ['import', [], /missing required argument 'file'/],
  ['import', ['/no/such/file.json'], /cannot read \/no\/such\/file\.json/],
  ['import', ['a.json', 'b.json'], /too many arguments/],
  ['import', ['package.json', '--batch-size', '0'], /'--batch-size <n>' argument '0' is invalid/],
  ['import', ['package.json', '--offline', '--strict'], /--strict belongs to the online import/],
  [
    'restore-indices',
    ['--urn', 'urn:li:corpuser:x', '--urn-like', 'urn:%'],
    /'--urn <urn>' cannot be used with option '--urn-like <pattern>'/,
  ],
  ['restore-indices', ['--urn', 'not-a-urn'], /Invalid urn: not-a-urn/],
  [
    'restore-indices',
    ['--resume', '--checkpoint', '/no/such/checkpoint.json'],
    /--resume: no readable checkpoint at \/no\/such\/checkpoint\.json/,
  ],
  ['token', ['--duration', 'FOREVER'], /'--duration <duration>' argument 'FOREVER' is invalid\. Allowed choices are ONE_HOUR, /],
  ['neo4j', ['frobnicate'], /unknown command 'frobnicate': use install, start, dump or load/],
  ['neo4j dump', [], /dump needs --to DIR/],
  ['neo4j load', ['--home', '/tmp'], /load needs --from DIR/],
  ['neo4j start', ['--port', 'many'], /'--port <n>' argument 'many' is invalid/],
] as const)('usage error: %s %j', (name, args, message) => {
  const c = byName(name);
  expectUsageError(run(c, [...args]), c, message);
});
