// What a restoreIndices run reports (docs/wire-contract.md §Restore): counts, drift examples and
// where it stands; and what one transaction found, merged into the report only once it committed.
import type { ChangedEdge, EdgeRef } from './diff.ts';
import type { RestoreArgs, RestoreCursor, RestorePhase } from './restore-args.ts';

interface Examples<T> {
  count: number;
  examples: T[];
}

interface FieldDrift {
  urn: string;
  fields: Record<string, { expected: unknown; actual: unknown }>;
}

interface DriftReport {
  missingEdges: Examples<EdgeRef>;
  extraEdges: Examples<EdgeRef>;
  changedEdges: Examples<ChangedEdge>;
  searchFields: Examples<FieldDrift>;
  orphanNodes: Examples<string>;
}

export interface RestoreResult {
  dryRun: boolean;
  clean: boolean;
  rowsScanned: number;
  /** Rows whose derived state was checked and repaired (DataHub's rowsMigrated). */
  rowsMigrated: number;
  ignored: number;
  ignoredRows: Array<{ urn: string; aspect: string; reason: string }>;
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  searchFieldsRewritten: number;
  nodesRemoved: number;
  lastUrn: string | null;
  lastAspect: string | null;
  timeSqlQueryMs: number;
  timeMs: number;
  /** What differed from the stored rows (found, and unless dryRun, repaired). */
  drift: DriftReport;
}

export interface RestoreProgress {
  phase: RestorePhase;
  /** Rows (phase rows), owners (edges) or nodes (nodes) done so far in this phase. */
  done: number;
  cursor: RestoreCursor;
  result: RestoreResult;
}

const MAX_EXAMPLES = 20;
const MAX_IGNORED_ROWS = 100;

const emptyExamples = <T>(): Examples<T> => ({ count: 0, examples: [] });

/** push(...items) passes every item as an argument: past ~100k (a batch of hubs' edges) the stack overflows. */
export function appendAll<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

export function newResult(args: RestoreArgs): RestoreResult {
  return {
    dryRun: args.dryRun === true,
    clean: args.clean === true,
    rowsScanned: 0,
    rowsMigrated: 0,
    ignored: 0,
    ignoredRows: [],
    edgesAdded: 0,
    edgesRemoved: 0,
    edgesChanged: 0,
    searchFieldsRewritten: 0,
    nodesRemoved: 0,
    lastUrn: null,
    lastAspect: null,
    timeSqlQueryMs: 0,
    timeMs: 0,
    drift: {
      missingEdges: emptyExamples(),
      extraEdges: emptyExamples(),
      changedEdges: emptyExamples(),
      searchFields: emptyExamples(),
      orphanNodes: emptyExamples(),
    },
  };
}

function note<T>(into: Examples<T>, items: readonly T[]): void {
  into.count += items.length;
  for (const i of items) if (into.examples.length < MAX_EXAMPLES) into.examples.push(i);
}

export function hasDrift(r: RestoreResult): boolean {
  const d = r.drift;
  return d.missingEdges.count + d.extraEdges.count + d.changedEdges.count + d.searchFields.count + d.orphanNodes.count > 0;
}

/** What one transaction found and did; merged into the result only after it committed. */
export interface BatchOutcome {
  scanned: number;
  migrated: number;
  ignoredRows: Array<{ urn: string; aspect: string; reason: string }>;
  missing: EdgeRef[];
  extra: EdgeRef[];
  changed: ChangedEdge[];
  fields: FieldDrift[];
  orphans: string[];
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  fieldsRewritten: number;
  nodesRemoved: number;
  sqlMs: number;
}

export const emptyOutcome = (): BatchOutcome => ({
  scanned: 0,
  migrated: 0,
  ignoredRows: [],
  missing: [],
  extra: [],
  changed: [],
  fields: [],
  orphans: [],
  edgesAdded: 0,
  edgesRemoved: 0,
  edgesChanged: 0,
  fieldsRewritten: 0,
  nodesRemoved: 0,
  sqlMs: 0,
});

export function absorb(result: RestoreResult, o: BatchOutcome): void {
  result.rowsScanned += o.scanned;
  result.rowsMigrated += o.migrated;
  result.ignored += o.ignoredRows.length;
  for (const r of o.ignoredRows) if (result.ignoredRows.length < MAX_IGNORED_ROWS) result.ignoredRows.push(r);
  note(result.drift.missingEdges, o.missing);
  note(result.drift.extraEdges, o.extra);
  note(result.drift.changedEdges, o.changed);
  note(result.drift.searchFields, o.fields);
  note(result.drift.orphanNodes, o.orphans);
  result.edgesAdded += o.edgesAdded;
  result.edgesRemoved += o.edgesRemoved;
  result.edgesChanged += o.edgesChanged;
  result.searchFieldsRewritten += o.fieldsRewritten;
  result.nodesRemoved += o.nodesRemoved;
  result.timeSqlQueryMs += o.sqlMs;
}

/** Adds the time `work` takes to the outcome's query time. */
export async function timed<T>(o: BatchOutcome, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    o.sqlMs += performance.now() - t0;
  }
}
