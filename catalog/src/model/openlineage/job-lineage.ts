// The job merge (README.md §Order): a job's inputs and outputs from its events — the newest
// authoritative report, what START/RUNNING/OTHER events newer than it added per run, what a failed
// run takes back — kept in the job's openLineage aspect (`lineage`) and shown as its dataJobInputOutput.
import { asRecord, type JsonRecord } from '../json.ts';
import { earlier, later, maxKey, seenOf, stampOf, timeText, type Seen } from './event-keys.ts';
import { num, records, sorted, sortedRecord, strings } from './stored-values.ts';

const DIRECTIONS = ['inputs', 'outputs'] as const;
export type Direction = (typeof DIRECTIONS)[number];
const EDGE_FIELD: Record<Direction, string> = { inputs: 'inputDatasetEdges', outputs: 'outputDatasetEdges' };

/**
 * A job's lineage state: the newest authoritative report (`set`: a COMPLETE or JobEvent), the
 * datasets START/RUNNING/OTHER events newer than it added — per dataset, per run, the newest key
 * that added it, so that a run's FAIL can take back what that run added — when each dataset was
 * first and last reported, and per run not yet ended the outputs whose column lineage it added to
 * (`columnRuns`: where its FAIL must withdraw them).
 */
type RunKeys = Record<string, string>;
export interface JobLineage {
  set?: { key: string; inputs: string[]; outputs: string[] };
  added: Record<Direction, Record<string, RunKeys>>;
  seen: Record<Direction, Record<string, { first: Seen; last: Seen }>>;
  columnRuns: Record<string, string[]>;
}

/** A stored `added` entry: per run its key; one written before runs were kept is a key alone (run ''). */
function runKeysOf(v: unknown): RunKeys {
  if (typeof v === 'string') return { '': v };
  return Object.fromEntries(Object.entries(asRecord(v) ?? {}).filter((x): x is [string, string] => typeof x[1] === 'string'));
}

export function jobLineageOf(stored: JsonRecord, io: JsonRecord | undefined): JobLineage {
  const l = asRecord(stored.lineage);
  if (l) {
    const set = asRecord(l.set);
    const added = asRecord(l.added) ?? {};
    const seen = asRecord(l.seen) ?? {};
    const seenIn = (d: Direction) =>
      Object.fromEntries(
        Object.entries(asRecord(seen[d]) ?? {}).flatMap(([u, v]) => {
          const first = seenOf(asRecord(v)?.first);
          const last = seenOf(asRecord(v)?.last);
          return first && last ? [[u, { first, last }]] : [];
        }),
      );
    const addedIn = (d: Direction) => Object.fromEntries(Object.entries(asRecord(added[d]) ?? {}).map(([u, v]) => [u, runKeysOf(v)]));
    return {
      ...(set && typeof set.key === 'string' ? { set: { key: set.key, inputs: strings(set.inputs), outputs: strings(set.outputs) } } : {}),
      added: { inputs: addedIn('inputs'), outputs: addedIn('outputs') },
      seen: { inputs: seenIn('inputs'), outputs: seenIn('outputs') },
      columnRuns: Object.fromEntries(Object.entries(asRecord(l.columnRuns) ?? {}).map(([r, v]) => [r, strings(v)])),
    };
  }
  // Written before this state was kept: the stored edges, as set by the last authoritative event.
  const lineageTime = num(stored.lineageEventTime);
  const result: JobLineage = { added: { inputs: {}, outputs: {} }, seen: { inputs: {}, outputs: {} }, columnRuns: {} };
  if (!io) return result;
  const lists = { inputs: [] as string[], outputs: [] as string[] };
  for (const d of DIRECTIONS) {
    for (const e of records(io[EDGE_FIELD[d]])) {
      const u = String(e.destinationUrn);
      lists[d].push(u);
      const first = seenOf(e.created);
      const last = seenOf(e.lastModified) ?? first;
      if (first && last) result.seen[d][u] = { first, last };
    }
  }
  return { ...result, set: { key: lineageTime !== undefined ? timeText(lineageTime) : '', ...lists } };
}

/** `added` with each dataset's run entries filtered; datasets left with none dropped. */
function filterAdded(added: Record<string, RunKeys>, keep: (run: string, key: string) => boolean): Record<string, RunKeys> {
  return Object.fromEntries(
    Object.entries(added).flatMap(([u, runs]) => {
      const left = Object.fromEntries(Object.entries(runs).filter(([r, k]) => keep(r, k)));
      return Object.keys(left).length ? [[u, left]] : [];
    }),
  );
}

/**
 * The job's lineage state after an event of `run` reporting `reported`: `set` replaces (what older
 * additions said is superseded), `add` adds on behalf of the run, `withdraw` (the run failed) takes
 * back everything the run added, `seen` (an event of a run that already failed) only stamps.
 */
export function nextJobLineage(
  l: JobLineage,
  reported: Record<Direction, string[]>,
  mode: 'add' | 'set' | 'withdraw' | 'seen',
  key: string,
  s: Seen,
  run: string,
  columnOutputs: readonly string[] = [],
): JobLineage {
  // A run that ends (completes or fails) has no column additions left to withdraw.
  const { [run]: columnsOfRun, ...otherRuns } = l.columnRuns;
  if (mode === 'withdraw') {
    return {
      ...l,
      added: { inputs: filterAdded(l.added.inputs, (r) => r !== run), outputs: filterAdded(l.added.outputs, (r) => r !== run) },
      columnRuns: otherRuns,
    };
  }
  const seen = { inputs: { ...l.seen.inputs }, outputs: { ...l.seen.outputs } };
  for (const d of DIRECTIONS) {
    for (const u of reported[d]) seen[d][u] = { first: earlier(seen[d][u]?.first, s), last: later(seen[d][u]?.last, s) };
  }
  const newer = l.set === undefined || key > l.set.key;
  if (mode === 'set') {
    if (!newer) return { ...l, seen, columnRuns: otherRuns };
    // What older additions said is superseded by this report.
    const keep = (_r: string, k: string) => k > key;
    return {
      set: { key, inputs: [...new Set(reported.inputs)], outputs: [...new Set(reported.outputs)] },
      added: { inputs: filterAdded(l.added.inputs, keep), outputs: filterAdded(l.added.outputs, keep) },
      seen,
      columnRuns: otherRuns,
    };
  }
  if (!newer || mode === 'seen') return { ...l, seen };
  const added = { inputs: { ...l.added.inputs }, outputs: { ...l.added.outputs } };
  for (const d of DIRECTIONS) for (const u of reported[d]) added[d][u] = { ...added[d][u], [run]: maxKey(added[d][u]?.[run], key) };
  const columnRuns = columnOutputs.length ? { ...l.columnRuns, [run]: sorted([...(columnsOfRun ?? []), ...columnOutputs]) } : l.columnRuns;
  return { ...l, added, seen, columnRuns };
}

export const jobLineageJson = (l: JobLineage): JsonRecord => ({
  ...(l.set ? { set: l.set } : {}),
  added: {
    inputs: sortedRecord(Object.fromEntries(Object.entries(l.added.inputs).map(([u, r]) => [u, sortedRecord(r)]))),
    outputs: sortedRecord(Object.fromEntries(Object.entries(l.added.outputs).map(([u, r]) => [u, sortedRecord(r)]))),
  },
  seen: { inputs: sortedRecord(l.seen.inputs), outputs: sortedRecord(l.seen.outputs) },
  ...(Object.keys(l.columnRuns).length
    ? { columnRuns: sortedRecord(Object.fromEntries(Object.entries(l.columnRuns).map(([r, us]) => [r, sorted(us)]))) }
    : {}),
});

/** The job's dataJobInputOutput as its lineage state says: the report's datasets, then those added after it. */
export function jobInputOutput(current: JsonRecord | undefined, l: JobLineage): JsonRecord {
  const edges = (d: Direction) =>
    [...new Set([...(l.set?.[d] ?? []), ...sorted(Object.keys(l.added[d]))])].map((u) => {
      const seen = l.seen[d][u];
      return { destinationUrn: u, ...(seen ? { created: stampOf(seen.first), lastModified: stampOf(seen.last) } : {}) };
    });
  return {
    ...(current ?? {}),
    inputDatasets: Array.isArray(current?.inputDatasets) ? current.inputDatasets : [],
    outputDatasets: Array.isArray(current?.outputDatasets) ? current.outputDatasets : [],
    inputDatasetEdges: edges('inputs'),
    outputDatasetEdges: edges('outputs'),
  };
}
