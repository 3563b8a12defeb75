// `npm run test:interop`: real Python clients against the whole stack on a throwaway Neo4j — the
// DataHub client (acryl-datahub, pinned versions from test/interop/requirements-<version>.txt) and
// the OpenLineage producers (openlineage-python and dbt-ol, test/openlineage/requirements.txt), and
// DataHub's MCP server for AI agents (mcp-server-datahub, test/mcp/requirements.txt), and Marquez's
// Python client against the Marquez API (marquez-python, test/marquez-python/requirements.txt).
//
//   npm run test:interop                          # every suite, sequentially, one stack
//   npm run test:interop -- --version 1.7.0.17    # one suite (an acryl-datahub version, or openlineage)
//   npm run test:interop -- -k restore            # extra arguments go to pytest
//   npm run test:interop -- --stack-only          # start the ephemeral stack, print its env, wait
//
// Virtual environments live in .venv/interop-<suite> and are reused while the requirements file
// and the Python interpreter are unchanged (a stamp file records both). They are created while
// Neo4j starts, so a warm run costs the stack start-up plus the suite.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownFlagsAndRest } from './cli/command-line.ts';
import { repoRoot } from './neo4j/neo4j-server.ts';
import type { RunningStack } from './stack.ts';
import { startPostgres, type RunningPostgres } from './postgres.ts';
import {
  ensureVenvs,
  findPython,
  mintToken,
  reportOutcomes,
  runPytestSuite,
  startHarnessStack,
  type Python,
  type SuiteOutcome,
  type SuiteTarget,
  selectSuites,
} from './python-suites.ts';

const interopDir = join(repoRoot, 'test', 'interop');
const openLineageDir = join(repoRoot, 'test', 'openlineage');
const mcpDir = join(repoRoot, 'test', 'mcp');
const marquezDir = join(repoRoot, 'test', 'marquez-python');
const MIN_PYTHON: [number, number] = [3, 9];
const SUITE_TIMEOUT_MS = 6 * 60_000;
/**
 * The acryl-datahub suites whose requirements pin the connector plugins (dbt, postgres, sql-queries):
 * test_connectors.py runs real connectors there, against a throwaway PostgreSQL (tools/postgres.ts)
 * and on dbt artifacts built with the openlineage suite's dbt-duckdb. Connectors take a while.
 */
const CONNECTOR_SUITES = new Set(['1.7.0.17']);
const CONNECTOR_SUITE_TIMEOUT_MS = 20 * 60_000;

/** Our flags; every other argument goes to pytest (`npm run test:interop -- -k restore -x`). */
function parseCli(argv: string[]): { versions: string[]; stackOnly: boolean; python?: string; pytest: string[] } {
  const { values, rest } = ownFlagsAndRest(
    'npm run test:interop -- [--version V ...] [--stack-only] [--python PATH] [pytest arguments]',
    {
      version: {
        type: 'string',
        multiple: true,
        description: 'a suite to run (repeatable): a client version, openlineage, mcp or marquez; default all',
      },
      'stack-only': { type: 'boolean', description: 'start the catalog stack and wait, for running a suite by hand' },
      python: { type: 'string', description: "the Python to build the suites' venvs with (or INTEROP_PYTHON)" },
    },
    argv,
  );
  return { versions: values.version ?? [], stackOnly: values['stack-only'] === true, python: values.python, pytest: rest };
}
const cli = parseCli(process.argv.slice(2));

function log(line: string): void {
  process.stdout.write(`[interop] ${line}\n`);
}

/** One pytest suite with its own virtual environment. */
interface Suite {
  /** What --version selects, and the venv's name. */
  id: string;
  label: string;
  dir: string;
  requirements: string;
}

/** The acryl-datahub versions pinned (one requirements file each), newest first, then OpenLineage's producers and DataHub's MCP server. */
function pinnedSuites(): Suite[] {
  const datahub = readdirSync(interopDir)
    .map((f) => /^requirements-(.+)\.txt$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined)
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    .map((v) => ({ id: v, label: `acryl-datahub ${v}`, dir: interopDir, requirements: join(interopDir, `requirements-${v}.txt`) }));
  return [
    ...datahub,
    {
      id: 'openlineage',
      label: 'openlineage-python + dbt-ol',
      dir: openLineageDir,
      requirements: join(openLineageDir, 'requirements.txt'),
    },
    { id: 'mcp', label: 'mcp-server-datahub (AI agents)', dir: mcpDir, requirements: join(mcpDir, 'requirements.txt') },
    { id: 'marquez', label: 'marquez-python (Marquez API)', dir: marquezDir, requirements: join(marquezDir, 'requirements.txt') },
  ];
}

/** A python3 ≥ 3.9 with the venv module: --python / INTEROP_PYTHON, else python3 or python. */
function findInteropPython(): Python | { problem: string } {
  const chosen = cli.python ?? process.env.INTEROP_PYTHON;
  return findPython(chosen ? [chosen] : ['python3', 'python'], MIN_PYTHON);
}

interface SuiteResult extends SuiteOutcome {
  suite: Suite;
  note?: string;
}

/** What the connector tests get besides the stack: a PostgreSQL and a dbt able to build the project. */
interface ConnectorParts {
  postgres: RunningPostgres;
  dbt: string;
}

function connectorEnv(parts: ConnectorParts | undefined): NodeJS.ProcessEnv {
  if (!parts) return {};
  const pg = parts.postgres;
  return {
    INTEROP_PG_HOST: pg.host,
    INTEROP_PG_PORT: String(pg.port),
    INTEROP_PG_USER: pg.user,
    INTEROP_PG_PASSWORD: pg.password,
    INTEROP_PG_DATABASE: pg.database,
    INTEROP_DBT: parts.dbt,
  };
}

async function runSuite(venvPython: string, suite: Suite, target: SuiteTarget, parts: ConnectorParts | undefined): Promise<SuiteResult> {
  const { stack } = target;
  log(`${suite.label}: running the suite …`);
  const env = {
    INTEROP_CLIENT_VERSION: suite.id,
    INTEROP_MISSING_SERVICES: stack.missing.join(','),
    INTEROP_LOG_DIR: stack.logDir ?? '',
    ...(CONNECTOR_SUITES.has(suite.id) ? connectorEnv(parts) : {}),
  };
  const timeoutMs = CONNECTOR_SUITES.has(suite.id) ? CONNECTOR_SUITE_TIMEOUT_MS : SUITE_TIMEOUT_MS;
  const run = await runPytestSuite({ venvPython, suite, ...target, env, pytestArgs: cli.pytest, tag: 'interop', timeoutMs });
  return { suite, ...run };
}

async function main(): Promise<number> {
  const started = Date.now();
  const python = findInteropPython();
  if ('problem' in python) {
    process.stderr.write(
      `[interop] No usable Python ${MIN_PYTHON.join('.')}+ found, so the interop suites (acryl-datahub, OpenLineage) cannot run.\n` +
        `[interop] Install python3 with the venv module (Debian/Ubuntu: apt-get install python3 python3-venv), or set INTEROP_PYTHON.\n` +
        `[interop] Details: ${python.problem || 'no candidates'}\n`,
    );
    return 3;
  }
  const all = pinnedSuites();
  const suites = selectSuites(all, cli.versions, 'interop', 'pinned');
  if (!suites) return 2;
  log(`Python ${python.version} (${python.exe}); suites: ${suites.map((s) => s.label).join(', ')}`);

  // Venvs (network + unzip) and the stack (mostly JVM start-up) do not compete much: overlap them.
  // The connector tests need dbt, which the openlineage suite's venv has: make it too when selected.
  const needsConnectors = suites.some((s) => CONNECTOR_SUITES.has(s.id));
  const openlineage = all.find((s) => s.id === 'openlineage')!;
  const venvSuites = needsConnectors && !suites.includes(openlineage) ? [...suites, openlineage] : suites;
  const venvsPromise = ensureVenvs(python, venvSuites, 'interop', 10 * 60_000, log);
  const postgresPromise = needsConnectors ? startPostgres({ database: 'interop', log }) : Promise.resolve(undefined);
  postgresPromise.catch(() => undefined);
  let postgres: RunningPostgres | undefined;
  let stack: RunningStack | undefined;
  const harness = startHarnessStack('interop launcher', log);
  const stackPromise = harness.starting;
  const onSignal = () => {
    void Promise.all([
      harness.control.stop?.(),
      postgresPromise.then(
        (pg) => pg?.stop(),
        () => undefined,
      ),
    ]).then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const workDir = mkdtempSync(join(tmpdir(), 'lineage-interop-'));
  try {
    let venvs: Map<string, string>;
    try {
      venvs = await venvsPromise;
      postgres = await postgresPromise;
    } catch (e) {
      await stackPromise.then(
        (st) => st.stop(),
        () => undefined,
      );
      await postgresPromise.then(
        (pg) => pg?.stop(),
        () => undefined,
      );
      throw e;
    }
    const parts: ConnectorParts | undefined = postgres ? { postgres, dbt: join(venvs.get('openlineage')!, '..', 'dbt') } : undefined;
    stack = await stackPromise;
    log(
      `stack up: ingestion ${stack.ingestionUrl}, front door ${stack.running.includes('gateway') ? stack.gatewayUrl : '(not running)'}, Neo4j ${stack.neo4jUri}` +
        (stack.missing.length ? `; NOT BUILT: ${stack.missing.join(', ')}` : '') +
        ` (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    const token = await mintToken(stack, 'interop');

    if (cli.stackOnly) {
      process.stdout.write(
        [
          `export INTEROP_GMS_URL=${stack.ingestionUrl}`,
          `export INTEROP_FRONT_DOOR_URL=${stack.running.includes('gateway') ? stack.gatewayUrl : ''}`,
          `export INTEROP_TOKEN=${token}`,
          `export INTEROP_NEO4J_URI=${stack.neo4jUri}`,
          `export INTEROP_LOG_DIR=${stack.logDir ?? ''}`,
          ...Object.entries(connectorEnv(parts)).map(([k, v]) => `export ${k}=${v}`),
          ...suites.map((s) => `# ${s.label}: ${venvs.get(s.id)} -m pytest ${s.dir}`),
          '',
        ].join('\n'),
      );
      log('stack-only: Ctrl-C stops it.');
      await new Promise(() => {});
    }

    const results: SuiteResult[] = [];
    for (const s of suites) {
      results.push(await runSuite(venvs.get(s.id)!, s, { stack, token, workDir }, parts));
    }

    return reportOutcomes('interop', results, stack, harness.died(), started) ? 0 : 1;
  } finally {
    await stack?.stop();
    await postgres?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (e) {
  process.stderr.write(`[interop] ${(e as Error).message}\n`);
  process.exitCode = 1;
}
