// `npm run test:producers`: the producers teams run, for real, against the whole stack on a
// throwaway Neo4j — Spark with the OpenLineage listener, Airflow 3 with its OpenLineage provider,
// and DataHub's Airflow plugin (docs/producers.md). One stack; the suites run side by side on it
// (each picks its own free ports and its own names, so they do not compete).
//
//   npm run test:producers                         # every suite
//   npm run test:producers -- --suite spark        # one suite (spark, airflow, datahub-airflow)
//   npm run test:producers -- -k column            # extra arguments go to pytest
//   npm run test:producers -- --prepare            # only the installs (venvs, jar, PostgreSQL packages)
//   npm run test:producers -- --keep               # after the suites, keep the stack up (to look at it)
//   npm run test:producers -- --keep --stack-only  # no suites: the stack, jar and PostgreSQL, their env printed
//
// Each suite has its own virtualenv, .venv/producers-<suite>, reused while its requirements file and
// the Python interpreter are unchanged (a stamp file records both), as tools/interop.ts does. The
// Spark listener jar is resolved from Maven Central into ~/.m2 by `mvn dependency:get` (cached there).
// Airflow's suites get a PostgreSQL of their own from tools/postgres.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownFlagsAndRest } from './cli/command-line.ts';
import { repoRoot } from './neo4j/neo4j-server.ts';
import type { RunningStack } from './stack.ts';
import { ensurePostgresInstalled, startPostgres, type RunningPostgres } from './postgres.ts';
// The harness every Python suite runner shares (tools/interop.ts is the other).
import * as kit from './python-suites.ts';

const producersDir = join(repoRoot, 'test', 'producers');
const SUITE_TIMEOUT_MS = 20 * 60_000;
/** pip resolving Airflow's and pyspark's trees on a slow mirror. */
const PIP_TIMEOUT_MS = 20 * 60_000;

function log(line: string): void {
  process.stdout.write(`[producers] ${line}\n`);
}

function parseCli(argv: string[]): { suites: string[]; prepare: boolean; keep: boolean; python?: string; pytest: string[] } {
  const { values, rest } = ownFlagsAndRest(
    'npm run test:producers -- [--suite S ...] [--prepare] [--keep] [--python PATH] [pytest arguments]',
    {
      suite: { type: 'string', multiple: true, description: 'a suite to run (repeatable); default all' },
      python: { type: 'string', description: 'the Python to build the venvs with (3.10+; or INTEROP_PYTHON)' },
      prepare: { type: 'boolean', description: 'install the venvs, jars and PostgreSQL only' },
      keep: { type: 'boolean', description: 'keep the work directory' },
    },
    argv,
  );
  return { suites: values.suite ?? [], prepare: values.prepare === true, keep: values.keep === true, python: values.python, pytest: rest };
}
const cli = parseCli(process.argv.slice(2));

interface Suite {
  id: string;
  label: string;
  dir: string;
  requirements: string;
  /** Needs a PostgreSQL (the Airflow suites run their SQL tasks on it). */
  postgres: boolean;
  /** Needs the Spark listener jar. */
  sparkJar: boolean;
}

function suites(): Suite[] {
  const mk = (id: string, label: string, extra: Partial<Suite> = {}): Suite => ({
    id,
    label,
    dir: join(producersDir, id),
    requirements: join(producersDir, id, 'requirements.txt'),
    postgres: false,
    sparkJar: false,
    ...extra,
  });
  return [
    mk('spark', 'Spark + OpenLineage listener', { sparkJar: true }),
    mk('airflow', 'Airflow 3 + OpenLineage provider', { postgres: true }),
    mk('datahub-airflow', 'Airflow 3 + DataHub plugin', { postgres: true }),
  ].filter((s) => existsSync(s.requirements));
}

/** Airflow 3 needs Python ≥ 3.10: --python / INTEROP_PYTHON, else python3. */
function findProducersPython(): kit.Python | { problem: string } {
  return kit.findPython([cli.python ?? process.env.INTEROP_PYTHON ?? 'python3'], [3, 10], ' (Airflow 3 needs 3.10+)');
}

/** The listener jar (group:artifact:version in test/producers/spark/listener.txt) in ~/.m2, fetched once. */
async function ensureSparkJar(): Promise<string> {
  const coords = readFileSync(join(producersDir, 'spark', 'listener.txt'), 'utf8').trim();
  const [group = '', artifact = '', version = ''] = coords.split(':');
  const jar = join(homedir(), '.m2', 'repository', ...group.split('.'), artifact, version, `${artifact}-${version}.jar`);
  if (existsSync(jar)) return jar;
  log(`resolving ${coords} from Maven Central …`);
  const r = await kit.runProcess('mvn', ['-q', '-B', 'dependency:get', `-Dartifact=${coords}`, '-Dtransitive=false'], {
    cwd: tmpdir(),
    timeoutMs: 10 * 60_000,
  });
  if (r.code !== 0 || !existsSync(jar))
    throw new Error(`mvn dependency:get ${coords} failed:\n${r.output.split('\n').slice(-20).join('\n')}`);
  return jar;
}

interface SuiteResult extends kit.SuiteOutcome {
  suite: Suite;
}

async function runSuite(venvPython: string, suite: Suite, target: kit.SuiteTarget, extraEnv: Record<string, string>): Promise<SuiteResult> {
  log(`${suite.label}: running the suite …`);
  process.stdout.write(`[producers] ── ${suite.label} ──\n`);
  const env = {
    ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
    // What each producer sent and the door answered, kept after the run (git-ignored).
    PRODUCERS_ARTIFACTS: join(repoRoot, 'test-artifacts', 'producers'),
    ...extraEnv,
  };
  const run = await kit.runPytestSuite({
    venvPython,
    suite,
    ...target,
    env,
    pytestArgs: cli.pytest,
    tag: 'producers',
    timeoutMs: SUITE_TIMEOUT_MS,
    cwd: suite.dir,
  });
  return { suite, ...run };
}

async function main(): Promise<number> {
  const started = Date.now();
  const python = findProducersPython();
  if ('problem' in python) {
    process.stderr.write(`[producers] No usable Python: ${python.problem}\n`);
    return 3;
  }
  const all = suites();
  const chosen = kit.selectSuites(all, cli.suites, 'producers', 'known');
  if (!chosen) return 2;
  log(`Python ${python.version}; suites: ${chosen.map((s) => s.label).join(', ')}`);
  if (cli.prepare) {
    // .ci/run starts this while npm test runs: downloads and unpacking overlap with the CPU-bound tests.
    await Promise.all([
      kit.ensureVenvs(python, chosen, 'producers', PIP_TIMEOUT_MS, log),
      chosen.some((s) => s.sparkJar) ? ensureSparkJar() : Promise.resolve(''),
      chosen.some((s) => s.postgres) ? Promise.resolve(ensurePostgresInstalled(log)) : Promise.resolve(''),
    ]);
    log(`prepared in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return 0;
  }

  const workDir = mkdtempSync(join(tmpdir(), 'lineage-producers-'));
  const stoppers: (() => Promise<void>)[] = [];
  let stack: RunningStack | undefined;
  // Installs (network, unzip), the jar and the stack (JVM start-up) overlap.
  const harness = kit.startHarnessStack('producers launcher', log);
  const stopAll = async () => {
    for (const s of stoppers.splice(0).reverse()) await s().catch(() => undefined);
  };
  const onSignal = () => {
    void stopAll()
      .then(() => harness.control.stop?.() ?? Promise.resolve())
      .then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const stackPromise = harness.starting;
    const prepared = Promise.all([
      kit.ensureVenvs(python, chosen, 'producers', PIP_TIMEOUT_MS, log),
      chosen.some((s) => s.sparkJar) ? ensureSparkJar() : Promise.resolve(''),
      chosen.some((s) => s.postgres) ? startSuitePostgres() : Promise.resolve(undefined),
    ]);
    let venvs: Map<string, string>, sparkJar: string, pg: RunningPostgres | undefined;
    try {
      [venvs, sparkJar, pg] = await prepared;
    } catch (e) {
      await stackPromise.then(
        (st) => st.stop(),
        () => undefined,
      );
      throw e;
    }
    if (pg) stoppers.push(pg.stop);
    stack = await stackPromise;
    log(`stack up: ingestion ${stack.ingestionUrl}, front door ${stack.gatewayUrl} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    const token = await kit.mintToken(stack, 'producers');
    const extra: Record<string, string> = {
      ...(sparkJar ? { PRODUCERS_SPARK_JAR: sparkJar } : {}),
      ...(pg
        ? {
            PRODUCERS_PG_HOST: pg.host,
            PRODUCERS_PG_PORT: String(pg.port),
            PRODUCERS_PG_USER: pg.user,
            PRODUCERS_PG_PASSWORD: pg.password,
            PRODUCERS_PG_DATABASE: pg.database,
          }
        : {}),
    };
    if (cli.keep && cli.pytest.includes('--stack-only')) {
      // Iterating on a suite: the stack, the jar and PostgreSQL, and the environment to run pytest by hand.
      const env = { INTEROP_GMS_URL: stack.ingestionUrl, INTEROP_FRONT_DOOR_URL: stack.gatewayUrl, INTEROP_TOKEN: token, ...extra };
      process.stdout.write(
        Object.entries(env)
          .map(([k, v]) => `export ${k}=${v}`)
          .join('\n') + '\n',
      );
      log('--keep --stack-only: Ctrl-C stops it.');
      await new Promise(() => {});
    }
    const st = stack;
    const results = await Promise.all(chosen.map((s) => runSuite(venvs.get(s.id)!, s, { stack: st, token, workDir }, extra)));

    const passed = kit.reportOutcomes('producers', results, stack, harness.died(), started);
    if (cli.keep) {
      log(`--keep: explorer at ${stack.gatewayUrl}/, token ${token}; Ctrl-C stops it.`);
      await new Promise(() => {});
    }
    return passed ? 0 : 1;
  } finally {
    await stopAll();
    await stack?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The Airflow suites' PostgreSQL (tools/postgres.ts: Debian's server in a temp dir, a free port). */
async function startSuitePostgres(): Promise<RunningPostgres> {
  const pg = await startPostgres({ database: 'producers', log });
  log(`PostgreSQL on ${pg.host}:${pg.port}`);
  return pg;
}

try {
  process.exitCode = await main();
} catch (e) {
  process.stderr.write(`[producers] ${(e as Error).message}\n`);
  process.exitCode = 1;
}
