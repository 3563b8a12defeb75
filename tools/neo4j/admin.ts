// Offline dump and load of an embedded Neo4j (docs/operations.md §Offline dump and load): Neo4j
// community's own `neo4j-admin database dump|load`, which the server jars we run already hold
// (org.neo4j.cli.AdminTool in neo4j-command-line). The server of that home must be stopped: Neo4j
// refuses to dump or load a database a running server has mounted, and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultLibDir, ensureJars, instanceDefaults, writeConfig } from './neo4j-server.ts';

export interface AdminRun {
  status: number;
  output: string;
}

/**
 * Runs `neo4j-admin <args>` against an instance home (its conf/ is written if the home is new).
 * `echo` shows its output as it runs (long commands print progress) instead of capturing it;
 * `heap` caps the tool's JVM heap (Java's default is a quarter of the machine).
 */
export function neo4jAdmin(
  home: string,
  args: string[],
  libDir = defaultLibDir,
  options: { echo?: boolean; heap?: string } = {},
): AdminRun {
  const h = resolve(home);
  ensureJars(libDir);
  if (!existsSync(join(h, 'conf', 'neo4j.conf'))) {
    // A new home (load on another machine): the embedded defaults, as startNeo4j writes them.
    writeConfig({ ...instanceDefaults, home: h, boltPort: 7687, libDir });
  }
  const r = spawnSync(
    'java',
    [...(options.heap ? [`-Xmx${options.heap}`] : []), '-cp', `${h}/conf/*:${libDir}/*`, 'org.neo4j.cli.AdminTool', ...args],
    {
      env: { ...process.env, NEO4J_HOME: h, NEO4J_CONF: join(h, 'conf') },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      ...(options.echo ? { stdio: ['ignore', process.stderr, process.stderr] as const } : {}),
    },
  );
  return { status: r.status ?? 1, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** `database dump neo4j` into DIR/neo4j.dump. */
export function dumpDatabase(home: string, toDir: string, overwrite: boolean): AdminRun {
  mkdirSync(resolve(toDir), { recursive: true });
  return neo4jAdmin(home, [
    'database',
    'dump',
    'neo4j',
    `--to-path=${resolve(toDir)}`,
    ...(overwrite ? ['--overwrite-destination=true'] : []),
  ]);
}

/** `database load neo4j` from DIR/neo4j.dump. */
export function loadDatabase(home: string, fromDir: string, overwrite: boolean): AdminRun {
  return neo4jAdmin(home, [
    'database',
    'load',
    'neo4j',
    `--from-path=${resolve(fromDir)}`,
    ...(overwrite ? ['--overwrite-destination=true'] : []),
  ]);
}
