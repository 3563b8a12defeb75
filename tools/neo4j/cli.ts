// `npm run neo4j -- install | start [--home DIR] [--port N]`: provision the jars, or run a server in
// the foreground until interrupted (for analysts who want the graph without the services).
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ensureJars, startNeo4j, repoRoot } from './neo4j-server.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { home: { type: 'string' }, port: { type: 'string' } },
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
} else {
  console.error(`unknown command '${command}': use install or start`);
  process.exit(2);
}
