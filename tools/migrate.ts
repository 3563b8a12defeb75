// Operator CLI: move the store at NEO4J_URI to this catalog's schema version (docs/operations.md
// §Schema versions). Idempotent: on a current store it only re-applies the constraints and indexes.
//
//   npm run migrate [-- --status] (flags: docs/operators.md, `--help`)
//
// Exit 0 done (or, with --status, the store is current), 1 (--status) a migration is due,
// 2 failure (a store newer than this catalog, Neo4j unreachable) or usage error.
import { Option } from 'commander';
import { addOptions, createProgram, EXIT, neo4jOptions, quietOption, type Neo4jConnection } from './cli/program.ts';
import { progressBar } from './cli/progress.ts';
import { storeOf } from './store-from-env.ts';
import { effectiveVersion, SCHEMA_VERSION, SCHEMA_VERSIONS } from '../catalog/src/store/schema-version.ts';
import { migrateStore } from '../catalog/src/operations/backup/migrate.ts';

/** `--status` found the store behind this catalog; a failure exits 2, as it always has. */
const MIGRATION_DUE = 1;
const MIGRATE_FAILED = 2;

interface MigrateOptions extends Neo4jConnection {
  status: boolean;
  quiet: boolean;
}

const values = addOptions(
  createProgram(
    'migrate',
    "Move the store to this catalog's schema version (idempotent; on a current store it re-applies constraints and indexes).",
  ),
  [
    new Option('--status', "only print the store's schema version; exit 1 when a migration is due").default(false),
    quietOption(),
    ...neo4jOptions(),
  ],
)
  .parse()
  .opts<MigrateOptions>();
const uri = values.neo4jUri;
const store = storeOf(values);
let code: number = EXIT.ok;
try {
  const state = await store.schemaState();
  const at = effectiveVersion(state);
  if (values.status) {
    process.stdout.write(
      `store ${uri}: schema version ${at}${state.version === null ? (state.entities ? ' (never stamped: written before versions)' : ' (empty)') : ''}; this catalog: ${SCHEMA_VERSION}\n`,
    );
    for (const due of SCHEMA_VERSIONS.filter((v) => v.version > at)) process.stdout.write(`  due: version ${due.version}: ${due.what}\n`);
    code = at < SCHEMA_VERSION ? MIGRATION_DUE : at > SCHEMA_VERSION ? MIGRATE_FAILED : EXIT.ok;
  } else {
    const bar = progressBar('migrate: derived state [{bar}] {value} rows', values);
    let started = false;
    const result = await migrateStore(store, {
      by: 'npm run migrate',
      onStep: (s) => process.stderr.write(`migrating to schema version ${s.to}: ${s.what}\n`),
      onProgress: (p) => {
        if (p.phase !== 'rows') return;
        if (!started) bar.start(0, 0);
        started = true;
        bar.setTotal(p.done);
        bar.update(p.done);
      },
    });
    if (started) bar.stop();
    for (const s of result.steps) for (const n of s.notes) process.stderr.write(`migrate to ${s.to}: ${n}\n`);
    process.stdout.write(
      result.steps.length
        ? `store migrated from schema version ${result.from} to ${result.to} (${result.steps.map((s) => `${s.to}: ${(s.ms / 1000).toFixed(1)} s`).join(', ')})\n`
        : `store is at schema version ${result.to}: nothing to migrate\n`,
    );
  }
} catch (e) {
  process.stderr.write(`migrate failed: ${(e as Error).message}\n`);
  code = MIGRATE_FAILED;
}
await store.close();
process.exit(code);
