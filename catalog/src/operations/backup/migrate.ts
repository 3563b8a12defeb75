// `npm run migrate` (docs/operations.md §Schema versions): moves a store from any earlier schema
// version of this project to the current one, one step per version. A step may change constraints
// and indexes (the schema file is idempotent and drops what was replaced) and derived state; stored
// aspect rows are never changed by a migration. Each step is idempotent, so a migration cut short
// is simply run again; the version is stamped only after the last step.
import { SCHEMA_VERSION, effectiveVersion, schemaTooNew } from '../../store/schema-version.ts';
import { batchSingleEvents } from '../../store/change-log.ts';
import type { Store } from '../../store/store.ts';
import { restoreIndices } from '../restore/restore-indices.ts';
import type { RestoreProgress } from '../restore/restore-report.ts';

export interface MigrationStep {
  to: number;
  what: string;
  /** Runs the step; answers what the operator should know (rows that derive nothing, …). */
  run(store: Store, onProgress?: (p: RestoreProgress) => void | Promise<void>): Promise<string[]>;
}

/** Applies the current constraints and indexes, then rebuilds derived state from the rows. */
async function applySchemaAndRebuild(store: Store, onProgress?: (p: RestoreProgress) => void | Promise<void>): Promise<string[]> {
  await store.applySchema();
  // Clean mode: ghost nodes (endpoints without rows) get their facetKey from the urn too.
  const r = await restoreIndices(store, { batchSize: 1000, clean: true }, onProgress);
  // Rows the registry cannot read were ignored by earlier versions too: say so, never fail on them.
  return r.ignored
    ? [
        `${r.ignored} stored row(s) derive nothing, e.g. ${r.ignoredRows
          .slice(0, 3)
          .map((i) => `${i.urn} ${i.aspect}: ${i.reason}`)
          .join('; ')}`,
      ]
    : [];
}

/** Applies the current constraints and indexes; nothing derived changes. */
async function applySchemaOnly(store: Store): Promise<string[]> {
  await store.applySchema();
  return [];
}

/** One entry per version after 1: what moves a store from `to - 1` to `to`. */
const MIGRATIONS: readonly MigrationStep[] = [
  {
    to: 2,
    what: 'apply the constraints and indexes (entity_search_v1 dropped), then rebuild derived state from the rows: facetKey, tag/term/owner edges',
    run: applySchemaAndRebuild,
  },
  {
    to: 3,
    what: 'apply the constraints and indexes (entity_search_v2 dropped for entity_search_v3), then rebuild searchText and typeNames from the rows',
    // Idempotent and the same work as step 2: a store at 1 runs the rebuild twice, which is cheap
    // next to keeping one step per version honest.
    run: applySchemaAndRebuild,
  },
  {
    to: 4,
    what: 'apply the constraints and indexes of the change log (an earlier store has no events: the log starts empty at offset 0)',
    run: applySchemaOnly,
  },
  {
    to: 5,
    what: "apply the change log's indexes by entity and by aspect row (events written before keep their values inline)",
    run: applySchemaOnly,
  },
  {
    to: 6,
    what: 'store the change log in batches: every event stored as its own node becomes a batch of one (offsets unchanged)',
    async run(store) {
      await store.applySchema();
      const moved = await batchSingleEvents(store);
      return moved ? [`${moved} change event(s) moved into batches`] : [];
    },
  },
  {
    to: 7,
    what: 'apply the constraint and index with which an export holds rows deleted while it runs (nothing stored changes)',
    run: applySchemaOnly,
  },
  {
    to: 8,
    what: 'rebuild the search fields from the rows: qualifiedName joins them (structured search)',
    run: applySchemaAndRebuild,
  },
  {
    to: 9,
    what: "apply the owner indexes of users' group edges, then rebuild derived edges from the rows: IsMemberOfGroup, IsMemberOfNativeGroup",
    run: applySchemaAndRebuild,
  },
];

export interface MigrationResult {
  from: number;
  to: number;
  steps: Array<{ to: number; what: string; ms: number; notes: string[] }>;
}

export async function migrateStore(
  store: Store,
  options: { by: string; onStep?: (s: MigrationStep) => void; onProgress?: (p: RestoreProgress) => void | Promise<void> },
): Promise<MigrationResult> {
  const state = await store.schemaState();
  if (state.version !== null && state.version > SCHEMA_VERSION) throw schemaTooNew(state.version);
  const from = effectiveVersion(state);
  const steps: MigrationResult['steps'] = [];
  for (const step of MIGRATIONS) {
    if (step.to <= from) continue;
    options.onStep?.(step);
    const t0 = Date.now();
    const notes = await step.run(store, options.onProgress);
    steps.push({ to: step.to, what: step.what, ms: Date.now() - t0, notes });
  }
  // Always idempotent: also (re)creates anything of the current version that was dropped by hand.
  await store.applySchema();
  if (state.version !== SCHEMA_VERSION) await store.stampSchemaVersion(SCHEMA_VERSION, options.by);
  return { from, to: SCHEMA_VERSION, steps };
}
