// `npm run neo4j -- install | start [--home DIR] [--port N]`: provision the jars, or run a server in
// the foreground until interrupted (for analysts who want the graph without the services).
// `npm run neo4j -- dump --to DIR [--home DIR] [--overwrite]` / `load --from DIR [--home DIR] [--overwrite]`:
// Neo4j's offline dump and load of a stopped embedded server (default home: npm start's .data/neo4j).
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ensureJars, startNeo4j, repoRoot } from './neo4j-server.ts';
import { dumpDatabase, loadDatabase } from './admin.ts';
import { neo4jHome } from '../embedded.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { home: { type: 'string' }, port: { type: 'string' }, to: { type: 'string' }, from: { type: 'string' }, overwrite: { type: 'boolean', default: false } },
});
const command = positionals[0] ?? 'start';
if (command === 'install') {
  console.log(`Neo4j ${ensureJars()} jars are in place.`);
} else if (command === 'start') {
  const home = values.home ?? join(repoRoot, '.neo4j', 'default');
  const server = await startNeo4j({ home, boltPort: Number(values.port ?? 7687) });
  console.log(`Neo4j is ready at ${server.uri} (data in ${home}); Ctrl-C stops it.`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else if (command === 'dump' || command === 'load') {
  const home = values.home ?? neo4jHome;
  const dir = command === 'dump' ? values.to : values.from;
  if (!dir) {
    console.error(`${command} needs ${command === 'dump' ? '--to DIR' : '--from DIR'} (the folder of neo4j.dump)`);
    process.exit(2);
  }
  const r = command === 'dump' ? dumpDatabase(home, dir, values.overwrite) : loadDatabase(home, dir, values.overwrite);
  process.stdout.write(r.output);
  if (r.status !== 0) {
    console.error(`neo4j ${command} failed (exit ${r.status}). The server of ${home} must be stopped first (stop npm start); ` +
      `${command === 'load' ? 'loading over an existing database needs --overwrite.' : 'an existing dump file needs --overwrite.'}`);
    process.exit(2);
  }
  console.log(command === 'dump' ? `Dumped the database of ${home} to ${join(dir, 'neo4j.dump')}.` : `Loaded ${join(dir, 'neo4j.dump')} into ${home}; start it (npm start) and run npm run migrate if it came from an older catalog.`);
} else {
  console.error(`unknown command '${command}': use install, start, dump or load`);
  process.exit(2);
}
