// `npm run neo4j -- install | start [--home DIR] [--port N]`: provision the jars, or run a server in
// the foreground until interrupted (for analysts who want the graph without the services).
// `npm run neo4j -- dump --to DIR [--home DIR] [--overwrite]` / `load --from DIR [--home DIR] [--overwrite]`:
// Neo4j's offline dump and load of a stopped embedded server (default home: npm start's .data/neo4j).
// Flags and exit codes: docs/operators.md (`--help`, `<command> --help`).
import { join } from 'node:path';
import type { Command } from 'commander';
import { ensureJars, startNeo4j, repoRoot } from './neo4j-server.ts';
import { dumpDatabase, loadDatabase } from './admin.ts';
import { createProgram, dataDirOption, EXIT, homeOption, integerAtLeast } from '../cli/program.ts';

/** A failed dump or load exits 2, as it always has (docs/operators.md). */
const ADMIN_FAILED = 2;

interface OfflineOptions {
  home?: string;
  dataDir: string;
  overwrite: boolean;
  to?: string;
  from?: string;
}

const program: Command = createProgram(
  'neo4j',
  'Provision and run Neo4j 5.26 without Docker, and dump or load the embedded store offline.',
);

program
  .command('install')
  .description('resolve the pinned Neo4j jars from Maven Central (cached in ~/.m2)')
  .action(() => console.log(`Neo4j ${ensureJars()} jars are in place.`));

program
  .command('start', { isDefault: true })
  .description('run a server in the foreground until interrupted (the default command)')
  .addOption(homeOption('its home').default(join(repoRoot, '.neo4j', 'default'), '.neo4j/default in the checkout'))
  .option('--port <n>', 'its Bolt port', integerAtLeast(1), 7687)
  // A word that is no command arrives here, the default: name the commands, as before.
  .allowExcessArguments(true)
  .action(async (o: { home: string; port: number }, start: Command) => {
    if (start.args.length) program.error(`unknown command '${start.args[0]}': use install, start, dump or load`);
    const server = await startNeo4j({ home: o.home, boltPort: o.port });
    console.log(`Neo4j is ready at ${server.uri} (data in ${o.home}); Ctrl-C stops it.`);
    const stop = () => void server.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

/** dump and load: the stopped embedded server's home, and whether to replace what is there. */
function offlineCommand(name: 'dump' | 'load', description: string, folder: Command): Command {
  return folder
    .description(description)
    .addOption(homeOption("the stopped server's Neo4j home (default: <data-dir>/neo4j)"))
    .addOption(dataDirOption())
    .option('--overwrite', name === 'dump' ? 'replace an existing neo4j.dump' : 'replace the database the home holds', false)
    .action((o: OfflineOptions) => {
      const home = o.home ?? join(o.dataDir, 'neo4j');
      const dir = name === 'dump' ? o.to : o.from;
      // Checked here rather than by commander, which would report it before an unknown option.
      if (!dir) program.error(`${name} needs ${name === 'dump' ? '--to DIR' : '--from DIR'} (the folder of neo4j.dump)`);
      const r = name === 'dump' ? dumpDatabase(home, dir, o.overwrite) : loadDatabase(home, dir, o.overwrite);
      process.stdout.write(r.output);
      if (r.status !== 0) {
        console.error(
          `neo4j ${name} failed (exit ${r.status}). The server of ${home} must be stopped first (stop npm start); ` +
            `${name === 'load' ? 'loading over an existing database needs --overwrite.' : 'an existing dump file needs --overwrite.'}`,
        );
        process.exit(ADMIN_FAILED);
      }
      console.log(
        name === 'dump'
          ? `Dumped the database of ${home} to ${join(dir, 'neo4j.dump')}.`
          : `Loaded ${join(dir, 'neo4j.dump')} into ${home}; start it (npm start) and run npm run migrate if it came from an older catalog.`,
      );
    });
}
offlineCommand(
  'dump',
  "Neo4j's offline dump of the stopped embedded server into DIR/neo4j.dump",
  program.command('dump').option('--to <dir>', 'the folder neo4j.dump is written to (required)'),
);
offlineCommand(
  'load',
  "Neo4j's offline load of DIR/neo4j.dump into the stopped embedded server",
  program.command('load').option('--from <dir>', 'the folder of neo4j.dump (required)'),
);

try {
  await program.parseAsync();
} catch (e) {
  // install and start fail with a message for the operator (no Java, no Maven, the port taken).
  const message = (e as Error).message;
  console.error(message.startsWith('neo4j: ') ? message : `neo4j: ${message}`);
  process.exit(EXIT.failure);
}
