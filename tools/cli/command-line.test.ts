// The developer tools' command line (command-line.ts), as a user meets it: each tool run as its own
// process answers --help with its usage and exit 0 before it does anything, and an unknown option
// is one line naming it, the usage, and exit 2 — never parseArgs' stack trace.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../neo4j/neo4j-server.ts';
import { helpText, ownFlagsAndRest } from './command-line.ts';

const TOOLS = [
  'tools/call-path.ts',
  'tools/lineage-profile.ts',
  'tools/interop.ts',
  'tools/producers.ts',
  'bench/run.ts',
  'bench/backup.ts',
  'bench/events-latency.ts',
  'bench/profile-write.ts',
  'bench/generate.ts',
  'bench/generate-warehouse.ts',
];

const run = (entry: string, args: string[]) =>
  spawnSync(process.execPath, [join(repoRoot, entry), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });

describe.each(TOOLS)('%s', (entry) => {
  test('--help prints the usage and exits 0', () => {
    const r = run(entry, ['--help']);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toMatch(/^usage: (node|npm run) \S+/);
  });
});

// The harnesses pass what they do not know to pytest, so only the strict tools refuse.
test.each(TOOLS.filter((t) => !/interop|producers/.test(t)))('%s refuses an unknown option in one line, exit 2', (entry) => {
  const r = run(entry, ['--no-such-option']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^Unknown option '--no-such-option'\nusage: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

test('helpText lists each option with its description and default', () => {
  expect(helpText('node x.ts', { size: { type: 'string', default: '10k', description: 'how big' }, keep: { type: 'boolean' } })).toBe(
    'usage: node x.ts\n\noptions:\n' +
      `  ${'--size <value>'.padEnd(28)} how big; default "10k"\n` +
      `  --keep\n` +
      `  ${'--help'.padEnd(28)} this text\n`,
  );
});

test('a harness keeps its own flags and hands everything else, in order, to the program it runs', () => {
  const options = { suite: { type: 'string', multiple: true }, keep: { type: 'boolean' } } as const;
  const argv = ['--suite', 'spark', '-k', 'restore', '--keep', '--suite=airflow', '-x', '--', '--suite', 'z'];
  const { values, rest } = ownFlagsAndRest('t', options, argv);
  expect(values).toEqual({ suite: ['spark', 'airflow'], keep: true });
  expect(rest).toEqual(['-k', 'restore', '-x', '--', '--suite', 'z']);
});
