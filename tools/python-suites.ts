// What the two runners of Python suites share (tools/interop.ts for the DataHub and OpenLineage
// clients, tools/producers.ts for Spark and Airflow): an interpreter with the venv module, one
// cached virtualenv per suite, child processes with a time limit, a token for the stack, and the
// counts of a pytest junit file; the stack they share and the summary they print.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './neo4j/neo4j-server.ts';
import { startStack, type RunningStack } from './stack.ts';

const venvRoot = join(repoRoot, '.venv');

export interface Python {
  exe: string;
  version: string;
}

/** The first of `candidates` that is at least `min` and has the venv module (Debian ships it as python3-venv). */
export function findPython(candidates: readonly string[], min: readonly [number, number], why = ''): Python | { problem: string } {
  const problems: string[] = [];
  for (const exe of candidates) {
    const r = spawnSync(exe, ['-c', 'import sys, venv, ensurepip; print("%d.%d.%d" % sys.version_info[:3]); print(sys.executable)'], {
      encoding: 'utf8',
    });
    if (r.error) {
      problems.push(`${exe}: not found`);
      continue;
    }
    if (r.status !== 0) {
      problems.push(`${exe}: cannot create virtual environments (${r.stderr.trim().split('\n').pop()}); install python3-venv`);
      continue;
    }
    const [version = '', executable = exe] = r.stdout.trim().split('\n');
    const [maj, minor] = version.split('.').map(Number) as [number, number];
    if (maj < min[0] || (maj === min[0] && minor < min[1])) {
      problems.push(`${exe}: Python ${version} is older than ${min.join('.')}${why}`);
      continue;
    }
    return { exe: executable, version };
  }
  return { problem: problems.join('; ') };
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where the whole output is written when the process ends. */
  logFile?: string;
  timeoutMs?: number;
  /** The runner's name in the time-out line (`[interop] timed out after …`). */
  tag?: string;
}

/** Runs a process to its end (or its time limit, then SIGKILL), collecting stdout and stderr together. */
export function runProcess(cmd: string, argv: string[], opts: RunOptions = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: opts.cwd ?? repoRoot, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          output += `\n[${opts.tag ?? 'run'}] timed out after ${opts.timeoutMs} ms\n`;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    child.on('error', (e) => {
      output += String(e);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (opts.logFile) writeFileSync(opts.logFile, output);
      resolve({ code: code ?? 1, output });
    });
  });
}

export interface VenvSpec {
  /** The virtualenv's folder name under .venv/ (`interop-1.7.0.17`, `producers-spark`). */
  name: string;
  label: string;
  requirements: string;
  pipTimeoutMs: number;
}

/**
 * Creates or reuses .venv/<name>; returns its python. It is reused while the requirements file and
 * the interpreter are unchanged (a stamp file records both); a failed install leaves nothing behind.
 */
export async function ensureVenv(python: Python, spec: VenvSpec, log: (line: string) => void): Promise<string> {
  const dir = join(venvRoot, spec.name);
  const stampFile = join(dir, `.${spec.name.split('-')[0]}-stamp`);
  const stamp = createHash('sha256').update(readFileSync(spec.requirements)).update(`\0${python.exe}\0${python.version}`).digest('hex');
  const venvPython = join(dir, 'bin', 'python');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp && existsSync(venvPython)) {
    log(`${spec.label}: reusing ${dir}`);
    return venvPython;
  }
  const t0 = Date.now();
  log(`${spec.label}: creating ${dir} (pip install -r ${spec.requirements}) …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(venvRoot, { recursive: true });
  const made = await runProcess(python.exe, ['-m', 'venv', dir]);
  if (made.code !== 0) throw new Error(`python -m venv ${dir} failed:\n${made.output}`);
  const pip = await runProcess(
    venvPython,
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--progress-bar', 'off', '-q', '-r', spec.requirements],
    { timeoutMs: spec.pipTimeoutMs },
  );
  if (pip.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pip install for ${spec.label} failed:\n${pip.output.split('\n').slice(-30).join('\n')}`);
  }
  writeFileSync(stampFile, stamp + '\n');
  log(`${spec.label}: installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return venvPython;
}

/** `npm run token` against this stack: the same tool an operator uses, with the stack's env. */
export async function mintToken(stack: RunningStack, name: string): Promise<string> {
  const r = await runProcess(process.execPath, [join(repoRoot, 'tools', 'token.ts'), '--name', name, '--duration', 'ONE_DAY'], {
    env: stack.env,
  });
  const token = r.output.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new Error(`npm run token failed (exit ${r.code}):\n${r.output}`);
  return token;
}

export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Names of the failed and erroring tests. */
  failed: string[];
}

/** The counts of a pytest `--junitxml` file; all zero when pytest never wrote it. */
export function junitCounts(file: string): JunitCounts {
  if (!existsSync(file)) return { tests: 0, failures: 0, errors: 0, skipped: 0, failed: [] };
  const xml = readFileSync(file, 'utf8');
  const attr = (name: string) => Number(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const failed = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>\s*<(failure|error)/g)].map((m) => m[1]!.replace(/&quot;/g, '"'));
  return { tests: attr('tests'), failures: attr('failures'), errors: attr('errors'), skipped: attr('skipped'), failed };
}

/** What every suite of a run is pointed at: the stack, a token for it, the run's work directory. */
export interface SuiteTarget {
  stack: RunningStack;
  token: string;
  workDir: string;
}

/** One pytest suite's run against a stack: where it runs, what it is told, how long it may take. */
export interface PytestRun extends SuiteTarget {
  venvPython: string;
  suite: { id: string; label: string; dir: string };
  /** The suite's own variables, beside the stack's every suite gets. */
  env: NodeJS.ProcessEnv;
  pytestArgs: readonly string[];
  tag: string;
  timeoutMs: number;
  cwd?: string;
}

/**
 * Runs a suite with pytest in a private HOME (clients write dot-files there; never the operator's),
 * told the stack's addresses and a token as INTEROP_* variables, with no client telemetry to the
 * internet; prints its output indented and reads its counts from the junit file.
 */
export async function runPytestSuite(run: PytestRun): Promise<{ code: number; seconds: number } & JunitCounts> {
  const t0 = Date.now();
  const { suite, stack, workDir } = run;
  const home = join(workDir, `home-${suite.id}`);
  mkdirSync(home, { recursive: true });
  const junit = join(workDir, `junit-${suite.id}.xml`);
  const env: NodeJS.ProcessEnv = {
    PATH: `${join(run.venvPython, '..')}:${process.env.PATH ?? ''}`,
    HOME: home,
    LANG: 'C.UTF-8',
    DATAHUB_TELEMETRY_ENABLED: 'false',
    INTEROP_WORK_DIR: join(workDir, `work-${suite.id}`),
    INTEROP_GMS_URL: stack.ingestionUrl,
    INTEROP_FRONT_DOOR_URL: stack.running.includes('gateway') ? stack.gatewayUrl : '',
    INTEROP_TOKEN: run.token,
    INTEROP_NEO4J_URI: stack.neo4jUri,
    PYTHONDONTWRITEBYTECODE: '1',
    ...run.env,
  };
  const r = await runProcess(
    run.venvPython,
    ['-m', 'pytest', suite.dir, '-p', 'no:cacheprovider', '-q', '-rfEs', '--tb=short', `--junitxml=${junit}`, ...run.pytestArgs],
    { env, tag: run.tag, timeoutMs: run.timeoutMs, logFile: join(workDir, `pytest-${suite.id}.log`), ...(run.cwd ? { cwd: run.cwd } : {}) },
  );
  process.stdout.write(
    r.output
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n') + '\n',
  );
  return { code: r.code, seconds: (Date.now() - t0) / 1000, ...junitCounts(junit) };
}

/** One virtualenv per suite (`<prefix>-<id>`), built side by side; the map gives each suite's python. */
export async function ensureVenvs(
  python: Python,
  suites: readonly { id: string; label: string; requirements: string }[],
  prefix: string,
  pipTimeoutMs: number,
  log: (line: string) => void,
): Promise<Map<string, string>> {
  const pairs = await Promise.all(
    suites.map(
      async (s) =>
        [
          s.id,
          await ensureVenv(python, { name: `${prefix}-${s.id}`, label: s.label, requirements: s.requirements, pipTimeoutMs }, log),
        ] as const,
    ),
  );
  return new Map(pairs);
}

/** The harness's throwaway stack, starting; `died()` names a service that exited during the run. */
export interface HarnessStack {
  starting: Promise<RunningStack>;
  /** Set as soon as startStack has a stop function: what a signal handler calls. */
  control: { stop?: () => Promise<void> };
  died(): string | undefined;
}

export function startHarnessStack(tokenName: string, log: (line: string) => void): HarnessStack {
  const control: { stop?: () => Promise<void> } = {};
  let serviceDied: string | undefined;
  const starting = startStack({
    ephemeral: true,
    control,
    log,
    tokenName,
    onServiceExit: (name, code) => {
      serviceDied = `${name} exited with code ${code}`;
      log(`${serviceDied} during the run`);
    },
  });
  // Awaited only after the installs; a start-up failure must not count as unhandled meanwhile.
  starting.catch(() => undefined);
  return { starting, control, died: () => serviceDied };
}

/** A suite's outcome as the summary prints it. */
export interface SuiteOutcome extends JunitCounts {
  suite: { label: string };
  code: number;
  seconds: number;
}

/**
 * The end of a run: when a suite failed, the last errors each service logged; then one line per
 * suite, its failed tests, a service that died, the total. True when everything passed.
 */
export function reportOutcomes(
  tag: string,
  results: readonly SuiteOutcome[],
  stack: RunningStack,
  died: string | undefined,
  started: number,
): boolean {
  const out = (line: string) => process.stdout.write(`[${tag}] ${line}\n`);
  if (results.some((r) => r.code !== 0) && stack.logDir) {
    for (const f of readdirSync(stack.logDir).filter((n) => n.endsWith('.log'))) {
      const lines = readFileSync(join(stack.logDir, f), 'utf8').trim().split('\n');
      const bad = lines.filter((l) => /"level":(50|60)/.test(l)).slice(-5);
      if (bad.length) out(`${f}: last errors:\n${bad.map((l) => `  ${l.slice(0, 600)}`).join('\n')}`);
    }
  }
  process.stdout.write('\n');
  for (const r of results) {
    const passed = r.tests - r.failures - r.errors - r.skipped;
    out(
      `${r.suite.label}: ${r.code === 0 ? 'PASS' : 'FAIL'} — ${passed} passed, ${r.failures + r.errors} failed, ${r.skipped} skipped in ${r.seconds.toFixed(0)} s` +
        (r.code !== 0 && r.tests === 0 ? ` (pytest exit ${r.code}; see output above)` : ''),
    );
    for (const name of r.failed) out(`    failed: ${name}`);
  }
  if (died) out(died);
  out(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return results.every((r) => r.code === 0) && !died;
}

/**
 * The suites named on the command line (all when none is named), or undefined after telling stderr
 * which names are unknown: both harnesses then exit 2. `known` is the word before the list of ids.
 */
export function selectSuites<S extends { id: string }>(
  all: readonly S[],
  ids: readonly string[],
  tag: string,
  known: string,
): S[] | undefined {
  const unknown = ids.filter((v) => !all.some((s) => s.id === v));
  if (unknown.length) {
    process.stderr.write(`[${tag}] No suite ${unknown.join(', ')} (${known}: ${all.map((s) => s.id).join(', ')})\n`);
    return undefined;
  }
  return ids.length ? all.filter((s) => ids.includes(s.id)) : [...all];
}
