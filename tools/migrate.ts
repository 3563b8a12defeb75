// Operator CLI: move the store at NEO4J_URI to this catalog's schema version (docs/operations.md
// §Schema versions). Idempotent: on a current store it only re-applies the constraints and indexes.
//
//   npm run migrate [-- --status]
//
// Exit 0 done (or, with --status, the store is current), 1 (--status) a migration is due,
// 2 failure (a store newer than this catalog, Neo4j unreachable).
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { neo4jUriFromEnv, storeFromEnv } from './store-from-env.ts';
import { effectiveVersion, SCHEMA_VERSION } from '../catalog/src/store/schema-version.ts';
import { migrateStore } from '../catalog/src/operations/backup/migrate.ts';

const { values } = parseArgs({ options: { status: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false } }, strict: true });
const uri = neo4jUriFromEnv();
const store = storeFromEnv();
let code = 0;
try {
  const state = await store.schemaState();
  const at = effectiveVersion(state);
  if (values.status) {
    process.stdout.write(`store ${uri}: schema version ${at}${state.version === null ? (state.entities ? ' (never stamped: written before versions)' : ' (empty)') : ''}; this catalog: ${SCHEMA_VERSION}\n`);
    code = at < SCHEMA_VERSION ? 1 : at > SCHEMA_VERSION ? 2 : 0;
  } else {
    const bar = new cliProgress.SingleBar({ format: 'migrate: derived state [{bar}] {value} rows', hideCursor: true }, cliProgress.Presets.shades_classic);
    let started = false;
    const result = await migrateStore(store, {
      by: 'npm run migrate',
      onStep: (s) => process.stderr.write(`migrating to schema version ${s.to}: ${s.what}\n`),
      onProgress: (p) => {
        if (values.quiet || p.phase !== 'rows') return;
        if (!started) bar.start(0, 0);
        started = true;
        bar.setTotal(p.done);
        bar.update(p.done);
      },
    });
    if (started) bar.stop();
    for (const s of result.steps) for (const n of s.notes) process.stderr.write(`migrate to ${s.to}: ${n}\n`);
    process.stdout.write(result.steps.length
      ? `store migrated from schema version ${result.from} to ${result.to} (${result.steps.map((s) => `${s.to}: ${(s.ms / 1000).toFixed(1)} s`).join(', ')})\n`
      : `store is at schema version ${result.to}: nothing to migrate\n`);
  }
} catch (e) {
  process.stderr.write(`migrate failed: ${(e as Error).message}\n`);
  code = 2;
}
await store.close();
process.exit(code);
