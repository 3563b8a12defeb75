// What one OpenLineage event writes (docs/lineage-model.md §OpenLineage), as a pure function of the
// event and of the few stored aspects it merges with. The write layer reads those aspects under
// the entities' locks and writes the result through the one write path.
//
// Order: the state every entity is left in depends on the set of events received, never on the
// order they arrived in. Events are totally ordered by their key (time, an end before a start at
// the same time, then a digest of the event), and each piece of state is a function of that order:
// - what an event describes (a job's info, a run's state, a dataset's schema or documentation, a
//   facet) is that of the newest event that described it;
// - a job's inputs and outputs are those of its newest COMPLETE (or JobEvent) plus what the
//   START/RUNNING/OTHER events newer than it added, as applying the events in time order gives —
//   except what a run that FAILed or ABORTed added: a failed run changes no lineage;
// - column lineage is the same, per (job, output column);
// - first and last seen stamps are the minimum and maximum times reported.
// The openLineage aspect of each entity keeps what this needs (event keys, the newest authoritative
// report and the additions after it), so a late older event is merged where it belongs.
import { keyAspectOf } from '../entity-registry.ts';
import { asRecord, type JsonRecord } from '../json.ts';
import { parseUrn } from '../urn.ts';
import { facetOf, INTERPRETED_FACETS, parseEventTime, type OlDataset, type OpenLineageEvent, type RunEventType, type SchemaFacetField } from './events.ts';
import { dataFlowUrnOf, dataJobUrnOf, datasetUrnOfDataset, datasetUrnOfName, fieldUrnOf, flowJobOf, orchestratorOf, runUrnOf } from './naming.ts';

/** The aspect the door keeps on every entity it describes: event keys, facets, merge state. */
export const OPENLINEAGE_ASPECT = 'openLineage';

/** A stored aspect the plan reads, by (urn, aspect). */
export type StoredAspects = ReadonlyMap<string, JsonRecord>;
export const stateKey = (urn: string, aspect: string) => `${urn}\u0000${aspect}`;

export interface AspectWrite {
  urn: string;
  aspectName: string;
  value: JsonRecord;
}

export interface EventPlan {
  /** Every urn the event's writes may name: checked before anything is written. */
  urns: string[];
  /**
   * The entities whose stored aspects the writes merge with, to be locked before the reads. The
   * others (the flow, datasets only named) are only created when missing; the write path locks
   * whatever it writes.
   */
  locks: string[];
  /** The stored aspects `writes` merges with. */
  reads: Array<{ urn: string; aspect: string }>;
  /**
   * More entities to lock and aspects to read, named by what `reads` found: a run's FAIL withdraws
   * column lineage from the outputs its earlier events added to, which only the job's stored
   * state names. Read after `reads`, before `writes`.
   */
  followUp?(state: StoredAspects): { locks: string[]; reads: Array<{ urn: string; aspect: string }> };
  /** The aspects to write, given those stored values; in the order the write path must see them. */
  writes(state: StoredAspects, actor: string): AspectWrite[];
}

/**
 * What an event does to lineage: a COMPLETE or JobEvent sets it, START/RUNNING/OTHER add to it on
 * behalf of their run, a FAIL or ABORT withdraws what its run added (docs/lineage-model.md
 * §OpenLineage, Lineage).
 */
type LineageMode = 'add' | 'set' | 'withdraw' | 'none';

function lineageModeOf(e: OpenLineageEvent): LineageMode {
  if (e.kind === 'job') return 'set';
  if (e.kind !== 'run') return 'none';
  switch (e.eventType) {
    case 'COMPLETE': return 'set';
    case 'FAIL': case 'ABORT': return 'withdraw';
    default: return 'add';
  }
}

/** The run an event's additions are kept under ('' for a JobEvent, which only sets). */
const runOf = (e: OpenLineageEvent) => (e.kind === 'run' ? e.runId : '');

// ---------------------------------------------------------------------------------------------
// Event keys

/** Epoch milliseconds as text that sorts as the numbers do (Date's range is ±8.64e15). */
const timeText = (t: number) => String(t + 1e16).padStart(17, '0');
const timeOfKey = (key: string) => Number(key.slice(0, 17)) - 1e16;

/**
 * An event's place among all events: its time; at the same time an end (COMPLETE, FAIL, ABORT)
 * after a start; then its digest, so two different events never tie. Compared as text.
 */
export function eventKeyOf(e: OpenLineageEvent): string {
  const end = e.kind === 'run' && (e.eventType === 'COMPLETE' || e.eventType === 'FAIL' || e.eventType === 'ABORT');
  return `${timeText(e.eventTime)}.${end ? 1 : 0}.${e.digest}`;
}

const maxKey = (a: string | undefined, b: string) => (a === undefined || b > a ? b : a);

// ---------------------------------------------------------------------------------------------
// Stored state helpers

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const records = (v: unknown): JsonRecord[] => (Array.isArray(v) ? v.flatMap((x) => (asRecord(x) ? [asRecord(x)!] : [])) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

interface EntityState {
  /** The key of the newest event that described the entity. */
  key: string | undefined;
  eventTime: number | undefined;
  facets: JsonRecord;
  /** Per facet, the key of the newest event that gave it. */
  facetKeys: Record<string, string>;
  stored: JsonRecord;
}

function entityState(state: StoredAspects, urn: string): EntityState {
  const v = state.get(stateKey(urn, OPENLINEAGE_ASPECT)) ?? {};
  const eventTime = num(v.eventTime);
  const facetKeys: Record<string, string> = {};
  // Written before event keys: times only, older than any keyed event of the same time.
  for (const [k, t] of Object.entries(asRecord(v.facetTimes) ?? {})) if (num(t) !== undefined) facetKeys[k] = timeText(num(t)!);
  for (const [k, key] of Object.entries(asRecord(v.facetKeys) ?? {})) if (typeof key === 'string') facetKeys[k] = key;
  return {
    key: str(v.eventKey) ?? (eventTime !== undefined ? timeText(eventTime) : undefined),
    eventTime, facets: asRecord(v.facets) ?? {}, facetKeys, stored: v,
  };
}

/** A run written before event keys: its run event gives the time and whether it ended. */
function legacyRunKey(state: StoredAspects, runUrn: string): string | undefined {
  const v = state.get(stateKey(runUrn, 'dataProcessInstanceRunEvent'));
  const t = num(v?.timestampMillis);
  return t === undefined ? undefined : `${timeText(t)}.${v?.status === 'COMPLETE' ? 1 : 0}`;
}

/** Facets an event gives an entity that are kept verbatim: those not interpreted, and those that failed their schema. */
function keptFacets(facets: JsonRecord, unread: JsonRecord | undefined, also: readonly string[] = []): JsonRecord {
  const out: JsonRecord = {};
  for (const [k, v] of Object.entries(facets)) if (v !== undefined && v !== null && (!INTERPRETED_FACETS.has(k) || also.includes(k))) out[k] = v;
  return { ...out, ...(unread ?? {}) };
}

/**
 * The entity's openLineage aspect after this event: the newest key; each kept facet that of the
 * newest event giving it; `marks` are interpreted facets whose key alone is kept (their value lives
 * in the aspect they map to); `extra` the merge state of the caller.
 */
function nextEntityState(s: EntityState, key: string, t: number, kept: JsonRecord, marks: readonly string[], extra: JsonRecord = {}): JsonRecord {
  const facets: JsonRecord = { ...s.facets };
  const keys: Record<string, string> = { ...s.facetKeys };
  for (const [k, value] of Object.entries(kept)) {
    if (keys[k] !== undefined && keys[k] > key) continue;
    facets[k] = value;
    keys[k] = key;
  }
  for (const k of marks) keys[k] = maxKey(keys[k], key);
  const { facetTimes: _legacy, ...rest } = s.stored;
  return {
    ...rest,
    eventTime: Math.max(s.eventTime ?? t, t),
    eventKey: maxKey(s.key, key),
    facets: sortedRecord(facets),
    facetKeys: sortedRecord(keys),
    ...extra,
  };
}

/** The same keys in the same order whatever order they were added in (the write path compares text). */
function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether the event is the newest to give this facet (or the entity, for `undefined`). */
const isNewest = (stored: string | undefined, key: string) => stored === undefined || key >= stored;

// ---------------------------------------------------------------------------------------------
// Facets → aspects

// DataHub's SchemaFieldDataType families for native type names (lower-cased), as its converter maps them.
const TYPE_FAMILY: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(string|varchar|char|text|nvarchar|nchar|character varying|uuid)\b/, 'StringType'],
  [/^(boolean|bool)\b/, 'BooleanType'],
  [/^(bytes|binary|varbinary|blob|bytea)\b/, 'BytesType'],
  [/^enum\b/, 'EnumType'],
  [/^(byte|tinyint|smallint|short|long|bigint|int|integer|int64|int32|hugeint|double|float|real|decimal|numeric|number)\b/, 'NumberType'],
  [/^(date)\b/, 'DateType'],
  [/^(timestamp|datetime|time)\b/, 'TimeType'],
  [/^(struct|record|map|object|json)\b/, 'MapType'],
  [/^(array|list)\b/, 'ArrayType'],
];

function fieldType(native: string | undefined): JsonRecord {
  const lower = (native ?? '').toLowerCase();
  const family = TYPE_FAMILY.find(([re]) => re.test(lower))?.[1] ?? 'NullType';
  return { type: { [`com.linkedin.schema.${family}`]: {} } };
}

/** The schema facet's fields, nested ones flattened with dotted paths (as DataHub's converter does). */
function schemaFields(fields: readonly SchemaFacetField[], parent?: string): JsonRecord[] {
  return fields.flatMap((f) => {
    const fieldPath = parent === undefined ? f.name : `${parent}.${f.name}`;
    const own: JsonRecord = {
      fieldPath, nativeDataType: f.type ?? 'unknown', type: fieldType(f.type), nullable: true,
      ...(f.description !== undefined ? { description: f.description } : {}),
    };
    return [own, ...schemaFields(f.fields ?? [], fieldPath)];
  });
}

function schemaMetadataOf(datasetUrn: string, fields: readonly SchemaFacetField[]): JsonRecord {
  const platform = /^urn:li:dataset:\((urn:li:dataPlatform:[^,]+),/.exec(datasetUrn)?.[1] ?? 'urn:li:dataPlatform:unknown';
  return {
    schemaName: '', platform, version: 0, hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: JSON.stringify(fields) } },
    fields: schemaFields(fields),
  };
}


// ---------------------------------------------------------------------------------------------
// Datasets of an event

interface DatasetFacts {
  urn: string;
  /** The facets the event gives it (dataset, input and output facets) that are kept verbatim. */
  kept: JsonRecord;
  schema?: readonly SchemaFacetField[];
  description?: string;
  /**
   * Output column → its upstream columns (schemaField urns) → how each makes it (the input
   * field's `transformations` as `TYPE:SUBTYPE`), from the columnLineage facet.
   */
  columns?: Map<string, Map<string, string[]>>;
  /** The datasets those upstream columns belong to (this dataset left out). */
  columnInputs?: string[];
}

/**
 * The urn of a dataset a column-lineage input field names: the urn of the event's dataset of that
 * (namespace, name) — its TABLE symlink when it has one, as the event's inputs and outputs are
 * named — else the name as sent (docs/lineage-model.md §OpenLineage, Lineage).
 */
type NameResolver = (namespace: string, name: string) => string;

/** The event's datasets by their physical urn → the urn they are written under (symlinks followed). */
function resolverOf(datasets: readonly OlDataset[]): NameResolver {
  const byName = new Map<string, string>();
  for (const d of datasets) byName.set(datasetUrnOfName(d.namespace, d.name), datasetUrnOfDataset(d));
  return (namespace, name) => {
    const physical = datasetUrnOfName(namespace, name);
    return byName.get(physical) ?? physical;
  };
}

function datasetFacts(d: OlDataset, resolve: NameResolver): DatasetFacts {
  const urn = datasetUrnOfDataset(d);
  const kept = keptFacets({ ...(d.facets ?? {}), ...(d.inputFacets ?? {}), ...(d.outputFacets ?? {}) }, d.unread);
  const schema = facetOf(d.facets, 'schema')?.fields as SchemaFacetField[] | undefined;
  const description = facetOf(d.facets, 'documentation')?.description;
  const lineage = facetOf(d.facets, 'columnLineage');
  if (!lineage) return { urn, kept, ...(schema ? { schema } : {}), ...(description !== undefined ? { description } : {}) };
  const columns = new Map<string, Map<string, string[]>>();
  const columnInputs = new Set<string>();
  for (const [column, f] of Object.entries(lineage.fields)) {
    const ups = new Map<string, string[]>();
    for (const i of f.inputFields) {
      const upstream = resolve(i.namespace, i.name);
      if (upstream !== urn) columnInputs.add(upstream);
      const fieldUrn = fieldUrnOf(upstream, i.field);
      ups.set(fieldUrn, sortedOps([...(ups.get(fieldUrn) ?? []), ...transformationsOf(i.transformations)]));
    }
    columns.set(column, ups);
  }
  return { urn, kept, ...(schema ? { schema } : {}), ...(description !== undefined ? { description } : {}), columns, columnInputs: [...columnInputs] };
}

/**
 * An input field's `transformations` as DataHub's OpenLineage converter writes them into a
 * fine-grained entry's transformOperation: `TYPE:SUBTYPE` (`DIRECT:AGGREGATION`), `TYPE` alone
 * when there is no subtype.
 */
function transformationsOf(v: unknown): string[] {
  return records(v).flatMap((t) => {
    const type = str(t.type);
    if (!type) return [];
    const subtype = str(t.subtype);
    return [subtype ? `${type}:${subtype}` : type];
  });
}

/** Distinct, sorted ignoring case (as DataHub's converter sorts them). */
function sortedOps(ops: Iterable<string>): string[] {
  return [...new Set(ops)].sort((a, b) => {
    const x = a.toLowerCase(), y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Merges datasets named twice in one event (as input and output, or twice as input): facets union. */
function mergeDatasets(list: readonly DatasetFacts[]): DatasetFacts[] {
  const byUrn = new Map<string, DatasetFacts>();
  for (const d of list) {
    const seen = byUrn.get(d.urn);
    byUrn.set(d.urn, seen ? { ...seen, ...d, kept: { ...seen.kept, ...d.kept } } : d);
  }
  return [...byUrn.values()];
}

// ---------------------------------------------------------------------------------------------
// Lineage merges

/**
 * Who reported something, and in which event (its key). First and last are the smallest and
 * largest keys: the same whatever the order; the same event resent by someone else changes
 * nothing. Stored as `{time, actor, key}`, shown as DataHub's stamps `{time, actor}`.
 */
type Seen = { key: string; actor: string };
const earlier = (a: Seen | undefined, b: Seen): Seen => (!a || b.key < a.key ? b : a);
const later = (a: Seen | undefined, b: Seen): Seen => (!a || b.key > a.key ? b : a);
const seenOf = (v: unknown): Seen | undefined => {
  const r = asRecord(v);
  if (typeof r?.key === 'string') return { key: r.key, actor: str(r.actor) ?? '' };
  // Edge stamps written before keys: their time.
  return r && num(r.time) !== undefined ? { key: timeText(num(r.time)!), actor: str(r.actor) ?? '' } : undefined;
};
const stampOf = (s: Seen) => ({ time: timeOfKey(s.key), actor: s.actor });

const DIRECTIONS = ['inputs', 'outputs'] as const;
type Direction = (typeof DIRECTIONS)[number];
const EDGE_FIELD: Record<Direction, string> = { inputs: 'inputDatasetEdges', outputs: 'outputDatasetEdges' };

/**
 * A job's lineage state: the newest authoritative report (`set`: a COMPLETE or JobEvent), the
 * datasets START/RUNNING/OTHER events newer than it added — per dataset, per run, the newest key
 * that added it, so that a run's FAIL can take back what that run added — when each dataset was
 * first and last reported, and per run not yet ended the outputs whose column lineage it added to
 * (`columnRuns`: where its FAIL must withdraw them).
 */
type RunKeys = Record<string, string>;
interface JobLineage {
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

function jobLineageOf(stored: JsonRecord, io: JsonRecord | undefined): JobLineage {
  const l = asRecord(stored.lineage);
  if (l) {
    const set = asRecord(l.set);
    const added = asRecord(l.added) ?? {};
    const seen = asRecord(l.seen) ?? {};
    const seenIn = (d: Direction) => Object.fromEntries(Object.entries(asRecord(seen[d]) ?? {}).flatMap(([u, v]) => {
      const first = seenOf(asRecord(v)?.first);
      const last = seenOf(asRecord(v)?.last);
      return first && last ? [[u, { first, last }]] : [];
    }));
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
  return Object.fromEntries(Object.entries(added).flatMap(([u, runs]) => {
    const left = Object.fromEntries(Object.entries(runs).filter(([r, k]) => keep(r, k)));
    return Object.keys(left).length ? [[u, left]] : [];
  }));
}

/**
 * The job's lineage state after an event of `run` reporting `reported`: `set` replaces (what older
 * additions said is superseded), `add` adds on behalf of the run, `withdraw` (the run failed) takes
 * back everything the run added, `seen` (an event of a run that already failed) only stamps.
 */
function nextJobLineage(l: JobLineage, reported: Record<Direction, string[]>, mode: 'add' | 'set' | 'withdraw' | 'seen', key: string, s: Seen, run: string, columnOutputs: readonly string[] = []): JobLineage {
  // A run that ends (completes or fails) has no column additions left to withdraw.
  const { [run]: columnsOfRun, ...otherRuns } = l.columnRuns;
  if (mode === 'withdraw') {
    return { ...l, added: { inputs: filterAdded(l.added.inputs, (r) => r !== run), outputs: filterAdded(l.added.outputs, (r) => r !== run) }, columnRuns: otherRuns };
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
    return { set: { key, inputs: [...new Set(reported.inputs)], outputs: [...new Set(reported.outputs)] }, added: { inputs: filterAdded(l.added.inputs, keep), outputs: filterAdded(l.added.outputs, keep) }, seen, columnRuns: otherRuns };
  }
  if (!newer || mode === 'seen') return { ...l, seen };
  const added = { inputs: { ...l.added.inputs }, outputs: { ...l.added.outputs } };
  for (const d of DIRECTIONS) for (const u of reported[d]) added[d][u] = { ...added[d][u], [run]: maxKey(added[d][u]?.[run], key) };
  const columnRuns = columnOutputs.length ? { ...l.columnRuns, [run]: sorted([...(columnsOfRun ?? []), ...columnOutputs]) } : l.columnRuns;
  return { ...l, added, seen, columnRuns };
}

const jobLineageJson = (l: JobLineage): JsonRecord => ({
  ...(l.set ? { set: l.set } : {}),
  added: { inputs: sortedRecord(Object.fromEntries(Object.entries(l.added.inputs).map(([u, r]) => [u, sortedRecord(r)]))), outputs: sortedRecord(Object.fromEntries(Object.entries(l.added.outputs).map(([u, r]) => [u, sortedRecord(r)]))) },
  seen: { inputs: sortedRecord(l.seen.inputs), outputs: sortedRecord(l.seen.outputs) },
  ...(Object.keys(l.columnRuns).length ? { columnRuns: sortedRecord(Object.fromEntries(Object.entries(l.columnRuns).map(([r, us]) => [r, sorted(us)]))) } : {}),
});

/** The job's dataJobInputOutput as its lineage state says: the report's datasets, then those added after it. */
function jobInputOutput(current: JsonRecord | undefined, l: JobLineage): JsonRecord {
  const edges = (d: Direction) => [...new Set([...(l.set?.[d] ?? []), ...sorted(Object.keys(l.added[d]))])].map((u) => {
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

const JOB_PROPERTY = 'openlineage.job';

/**
 * Column lineage of one output, per job and column: the newest authoritative report of the column
 * (`set`: its upstream columns and, per upstream column, how it makes the column) and the upstream
 * columns START/RUNNING/OTHER events newer than it added, per run. Kept in the output's
 * openLineage aspect (`columnLineage`).
 */
type Reported = Seen & { ops?: string[] };
interface ColumnState {
  set?: Seen & { upstreams: string[]; ops?: Record<string, string[]> };
  /** Upstream column → run → the newest report of that run adding it. */
  added: Record<string, Record<string, Reported>>;
}
type ColumnLineage = Record<string, Record<string, ColumnState>>;

function reportedOf(v: unknown): Reported | undefined {
  const r = asRecord(v);
  if (typeof r?.key !== 'string') return undefined;
  const ops = strings(r.ops);
  return { key: r.key, actor: str(r.actor) ?? '', ...(ops.length ? { ops } : {}) };
}

function columnLineageOf(stored: JsonRecord): ColumnLineage {
  const out: ColumnLineage = {};
  for (const [job, columns] of Object.entries(asRecord(stored.columnLineage) ?? {})) {
    out[job] = {};
    for (const [column, c] of Object.entries(asRecord(columns) ?? {})) {
      const set = asRecord(asRecord(c)?.set);
      const added: Record<string, Record<string, Reported>> = {};
      for (const [f, v] of Object.entries(asRecord(asRecord(c)?.added) ?? {})) {
        // Written before runs were kept: one report (run '').
        const legacy = reportedOf(v);
        const runs = legacy ? { '': legacy } : Object.fromEntries(Object.entries(asRecord(v) ?? {}).flatMap(([run, r]) => {
          const rep = reportedOf(r);
          return rep ? [[run, rep]] : [];
        }));
        if (Object.keys(runs).length) added[f] = runs;
      }
      const setOps = Object.fromEntries(Object.entries(asRecord(set?.ops) ?? {}).flatMap(([f, o]) => (strings(o).length ? [[f, strings(o)] as const] : [])));
      out[job][column] = {
        ...(set && typeof set.key === 'string' ? { set: { key: set.key, actor: str(set.actor) ?? '', upstreams: strings(set.upstreams), ...(Object.keys(setOps).length ? { ops: setOps } : {}) } } : {}),
        added,
      };
    }
  }
  return out;
}

function nextColumnLineage(cl: ColumnLineage, jobUrn: string, columns: Map<string, Map<string, string[]>>, mode: 'add' | 'set', r: Seen, run: string): ColumnLineage {
  const job: Record<string, ColumnState> = { ...(cl[jobUrn] ?? {}) };
  for (const [column, ups] of columns) {
    const c = job[column] ?? { added: {} };
    if (c.set !== undefined && r.key <= c.set.key) continue;
    if (mode === 'set') {
      const ops = Object.fromEntries(sorted(ups.keys()).flatMap((f) => (ups.get(f)!.length ? [[f, ups.get(f)!]] : [])));
      const added = Object.fromEntries(Object.entries(c.added).flatMap(([f, runs]) => {
        const left = Object.fromEntries(Object.entries(runs).filter(([, a]) => a.key > r.key));
        return Object.keys(left).length ? [[f, left]] : [];
      }));
      job[column] = { set: { ...r, upstreams: sorted(ups.keys()), ...(Object.keys(ops).length ? { ops } : {}) }, added };
    } else {
      const added = { ...c.added };
      for (const [f, ops] of ups) {
        const had = added[f]?.[run];
        if (had === undefined || r.key > had.key) added[f] = { ...added[f], [run]: { ...r, ...(ops.length ? { ops } : {}) } };
      }
      job[column] = { ...c, added };
    }
  }
  return { ...cl, [jobUrn]: job };
}

/** The column state without what `run` added to the job's columns (the run failed). */
function withdrawColumnLineage(cl: ColumnLineage, jobUrn: string, run: string): ColumnLineage {
  const job = cl[jobUrn];
  if (!job) return cl;
  const next: Record<string, ColumnState> = {};
  for (const [column, c] of Object.entries(job)) {
    const added = Object.fromEntries(Object.entries(c.added).flatMap(([f, runs]) => {
      const { [run]: _gone, ...left } = runs;
      return Object.keys(left).length ? [[f, left]] : [];
    }));
    // A column only this run reported is gone, as if the run had never reported it.
    if (c.set || Object.keys(added).length) next[column] = { ...c, added };
  }
  const { [jobUrn]: _job, ...others } = cl;
  return Object.keys(next).length ? { ...cl, [jobUrn]: next } : others;
}

const columnLineageJson = (cl: ColumnLineage): JsonRecord => sortedRecord(Object.fromEntries(Object.entries(cl).map(([job, columns]) => [job, sortedRecord(
  Object.fromEntries(Object.entries(columns).map(([column, c]) => [column, {
    ...(c.set ? { set: c.set } : {}),
    added: sortedRecord(Object.fromEntries(Object.entries(c.added).map(([f, runs]) => [f, sortedRecord(runs)]))),
  }])),
)])));

/**
 * What the column state derives: one FIELD_SET → FIELD entry per (job, column), its
 * transformOperation the transformations of its upstream columns, and per upstream dataset its stamps.
 */
function derivedColumnLineage(outputUrn: string, cl: ColumnLineage) {
  const fine = new Map<string, JsonRecord>();
  const datasets = new Map<string, { job: string; first: Seen; last: Seen }>();
  for (const job of sorted(Object.keys(cl))) {
    for (const column of sorted(Object.keys(cl[job]!))) {
      const c = cl[job]![column]!;
      const reports: Array<[string, Reported]> = [
        ...(c.set ? c.set.upstreams.map((f) => [f, { key: c.set!.key, actor: c.set!.actor, ...(c.set!.ops?.[f] ? { ops: c.set!.ops[f] } : {}) }] as [string, Reported]) : []),
        ...Object.entries(c.added).flatMap(([f, runs]) => Object.values(runs).map((r) => [f, r] as [string, Reported])),
      ];
      const ups = sorted(reports.map(([f]) => f));
      if (ups.length === 0) continue;
      const ops = sortedOps(reports.flatMap(([, r]) => r.ops ?? []));
      const entry = {
        upstreamType: 'FIELD_SET', upstreams: ups, downstreamType: 'FIELD', downstreams: [fieldUrnOf(outputUrn, column)], confidenceScore: 1,
        ...(ops.length ? { transformOperation: ops.join(',') } : {}),
      };
      fine.set(JSON.stringify(entry), entry);
      for (const [f, rep] of reports) {
        const dataset = parseUrn(f).parts[0]!;
        if (dataset === outputUrn) continue;
        const had = datasets.get(dataset);
        datasets.set(dataset, { job: had?.job ?? job, first: earlier(had?.first, rep), last: later(had?.last, rep) });
      }
    }
  }
  return { fine, datasets };
}

/**
 * An output's upstreamLineage after its column state moved from `before` to `after`: the entries
 * and upstreams `before` derived are replaced by those `after` derives; other writers' are kept.
 */
function outputUpstreamLineage(current: JsonRecord | undefined, outputUrn: string, before: ColumnLineage, after: ColumnLineage, legacy?: ReadonlySet<string>): JsonRecord {
  const old = derivedColumnLineage(outputUrn, before);
  const next = derivedColumnLineage(outputUrn, after);
  const ourJobs = new Set([...Object.keys(before), ...Object.keys(after)]);
  const isOurs = (u: JsonRecord) => ourJobs.has(String(asRecord(u.properties)?.[JOB_PROPERTY]));
  const otherUpstreams = records(current?.upstreams).filter((u) => !isOurs(u));
  // Written before column state was kept: the entries of exactly the columns an authoritative
  // report gives are replaced by it, as they were then.
  const replaced = (f: JsonRecord) => {
    const downs = Array.isArray(f.downstreams) ? f.downstreams : [];
    return legacy !== undefined && downs.length > 0 && downs.every((x) => legacy.has(String(x)));
  };
  const otherFine = records(current?.fineGrainedLineages).filter((f) => !old.fine.has(JSON.stringify(f)) && !replaced(f));
  const present = new Set(otherUpstreams.map((u) => String(u.dataset)));
  const known = new Set(otherFine.map((f) => JSON.stringify(f)));
  const upstreams = sorted(next.datasets.keys()).filter((d) => !present.has(d)).map((dataset) => {
    const { job, first, last } = next.datasets.get(dataset)!;
    return { dataset, type: 'TRANSFORMED', auditStamp: stampOf(last), created: stampOf(first), properties: { [JOB_PROPERTY]: job } };
  });
  return {
    ...(current ?? {}),
    upstreams: [...otherUpstreams, ...upstreams],
    fineGrainedLineages: [...otherFine, ...[...next.fine.entries()].filter(([k]) => !known.has(k)).map(([, f]) => f)],
  };
}

// ---------------------------------------------------------------------------------------------
// The plan

const RUN_STATUS: Readonly<Record<RunEventType, { status: string; result?: string }>> = {
  START: { status: 'STARTED' }, RUNNING: { status: 'STARTED' }, OTHER: { status: 'STARTED' },
  COMPLETE: { status: 'COMPLETE', result: 'SUCCESS' }, FAIL: { status: 'COMPLETE', result: 'FAILURE' }, ABORT: { status: 'COMPLETE', result: 'FAILURE' },
};

/** Run facets the mapping reads from the run's kept facets (newest of each), not from one event. */
const RUN_PROPERTY_FACETS = ['nominalTime', 'errorMessage'] as const;

export function planOpenLineageEvent(e: OpenLineageEvent): EventPlan {
  if (e.kind === 'dataset') return planDatasetEvent(e);
  const runFacets = e.kind === 'run' ? e.runFacets : {};
  const orchestrator = orchestratorOf(e.job.facets, runFacets, e.producer);
  const flowUrn = dataFlowUrnOf(orchestrator, flowJobOf(e.job, runFacets));
  const jobUrn = dataJobUrnOf(flowUrn, e.job.name);
  const runUrn = e.kind === 'run' ? runUrnOf(e.runId) : undefined;
  const parentRun = facetOf(runFacets, 'parent')?.run.runId;
  const parentUrn = parentRun ? runUrnOf(parentRun) : undefined;
  const resolve = resolverOf([...e.inputs, ...e.outputs]);
  const inputs = mergeDatasets(e.inputs.map((d) => datasetFacts(d, resolve)));
  const outputs = mergeDatasets(e.outputs.map((d) => datasetFacts(d, resolve)));
  const withColumns = outputs.filter((d) => d.columns !== undefined);
  const columnOnly = [...new Set(withColumns.flatMap((d) => d.columnInputs ?? []))].filter((u) => !inputs.some((d) => d.urn === u) && !outputs.some((d) => d.urn === u));
  const datasets = mergeDatasets([...inputs, ...outputs]);
  const mode = lineageModeOf(e);
  const run = runOf(e);
  const t = e.eventTime;
  const key = eventKeyOf(e);
  const storedJobLineage = (state: StoredAspects) => jobLineageOf(entityState(state, jobUrn).stored, state.get(stateKey(jobUrn, 'dataJobInputOutput')));

  const described = (d: DatasetFacts) => d.schema !== undefined || d.description !== undefined || Object.keys(d.kept).length > 0 || d.columns !== undefined;
  const locks = [jobUrn, ...(runUrn ? [runUrn] : []), ...datasets.filter(described).map((d) => d.urn)];
  const reads = [
    ...[...datasets.map((d) => d.urn), ...columnOnly].map((urn) => ({ urn, aspect: 'datasetKey' })),
    ...[jobUrn, ...(runUrn ? [runUrn] : []), ...datasets.map((d) => d.urn)].map((urn) => ({ urn, aspect: OPENLINEAGE_ASPECT })),
    { urn: flowUrn, aspect: 'dataFlowInfo' },
    { urn: jobUrn, aspect: 'dataJobInputOutput' },
    ...(runUrn ? [{ urn: runUrn, aspect: 'dataProcessInstanceProperties' }, { urn: runUrn, aspect: 'dataProcessInstanceRunEvent' }] : []),
    ...datasets.filter((d) => d.description !== undefined).map((d) => ({ urn: d.urn, aspect: 'datasetProperties' })),
    ...withColumns.map((d) => ({ urn: d.urn, aspect: 'upstreamLineage' })),
  ];
  const urns = [
    flowUrn, jobUrn, ...(runUrn ? [runUrn] : []), ...(parentUrn ? [parentUrn] : []), ...datasets.map((d) => d.urn), ...columnOnly,
    ...withColumns.flatMap((d) => [...d.columns!].flatMap(([column, ups]) => [fieldUrnOf(d.urn, column), ...ups.keys()])),
  ];

  return {
    urns,
    locks,
    reads,
    ...(mode === 'withdraw' ? {
      followUp(state: StoredAspects) {
        const outputsOfRun = storedJobLineage(state).columnRuns[run] ?? [];
        return { locks: outputsOfRun, reads: outputsOfRun.flatMap((urn) => [{ urn, aspect: OPENLINEAGE_ASPECT }, { urn, aspect: 'upstreamLineage' }]) };
      },
    } : {}),
    writes(state, actor) {
      const out: AspectWrite[] = [];
      const write = (urn: string, aspectName: string, value: JsonRecord) => out.push({ urn, aspectName, value });
      const eventType = e.kind === 'run' ? e.eventType ?? 'OTHER' : undefined;
      const now = { time: t, actor };
      const seen: Seen = { key, actor };

      // Entities first (the write path's existence rule: lineage names only entities that exist).
      // A flow is named once; no event describes it further.
      if (!state.get(stateKey(flowUrn, 'dataFlowInfo'))) write(flowUrn, 'dataFlowInfo', { name: /^urn:li:dataFlow:\([^,]*,([^,]*),/.exec(flowUrn)?.[1] ?? e.job.name });

      const jobState = entityState(state, jobUrn);
      if (isNewest(jobState.key, key)) {
        const jobType = facetOf(e.job.facets, 'jobType');
        const description = facetOf(e.job.facets, 'documentation')?.description;
        const url = facetOf(e.job.facets, 'sourceCodeLocation')?.url;
        write(jobUrn, 'dataJobInfo', {
          name: e.job.name,
          type: jobType?.jobType ?? jobType?.processingType ?? 'COMMAND',
          ...(description !== undefined ? { description } : {}),
          ...(url ? { externalUrl: url } : {}),
          customProperties: { 'openlineage.namespace': e.job.namespace, 'openlineage.name': e.job.name, orchestrator },
        });
      }

      // A run that failed changes no lineage: its FAIL took back what it had added, and an event
      // of it that arrives after the FAIL adds nothing (it is only stamped as seen).
      const runFailed = runUrn ? str(entityState(state, runUrn).stored.failed) : undefined;
      const effective = mode === 'add' && runFailed !== undefined ? 'seen' : mode;
      const jobLineageBefore = storedJobLineage(state);

      const columnStates = new Map<string, { before: ColumnLineage; after: ColumnLineage }>();
      if (effective === 'add' || effective === 'set') {
        for (const d of withColumns) {
          const before = columnLineageOf(entityState(state, d.urn).stored);
          columnStates.set(d.urn, { before, after: nextColumnLineage(before, jobUrn, d.columns!, effective, { key, actor }, run) });
        }
      } else if (effective === 'withdraw') {
        // The outputs this run added column lineage to (followUp read them).
        for (const urn of jobLineageBefore.columnRuns[run] ?? []) {
          const stored = state.get(stateKey(urn, OPENLINEAGE_ASPECT));
          if (!stored) continue;
          const before = columnLineageOf(stored);
          const after = withdrawColumnLineage(before, jobUrn, run);
          if (JSON.stringify(columnLineageJson(after)) !== JSON.stringify(columnLineageJson(before))) columnStates.set(urn, { before, after });
        }
      }

      for (const d of datasets) writeDataset(state, d, key, t, write, columnStates.get(d.urn)?.after);
      for (const urn of columnOnly) ensureDataset(state, urn, write);
      for (const [urn, c] of columnStates) {
        if (datasets.some((d) => d.urn === urn)) continue;
        write(urn, OPENLINEAGE_ASPECT, { ...(state.get(stateKey(urn, OPENLINEAGE_ASPECT)) ?? {}), columnLineage: columnLineageJson(c.after) });
      }

      // Lineage. An event without inputs and outputs says nothing of them; an empty list says "none".
      let lineage: JsonRecord | undefined = asRecord(jobState.stored.lineage) ?? undefined;
      if (effective === 'withdraw') {
        const next = nextJobLineage(jobLineageBefore, { inputs: [], outputs: [] }, 'withdraw', key, seen, run);
        if (JSON.stringify(jobLineageJson(next)) !== JSON.stringify(jobLineageJson(jobLineageBefore))) {
          write(jobUrn, 'dataJobInputOutput', jobInputOutput(state.get(stateKey(jobUrn, 'dataJobInputOutput')), next));
          lineage = jobLineageJson(next);
        }
      } else if (effective !== 'none' && e.reportsDatasets) {
        const next = nextJobLineage(jobLineageBefore, { inputs: inputs.map((d) => d.urn), outputs: outputs.map((d) => d.urn) }, effective, key, seen, run,
          effective === 'add' ? withColumns.map((d) => d.urn) : []);
        write(jobUrn, 'dataJobInputOutput', jobInputOutput(state.get(stateKey(jobUrn, 'dataJobInputOutput')), next));
        lineage = jobLineageJson(next);
      }
      for (const [urn, c] of columnStates) {
        const d = withColumns.find((x) => x.urn === urn);
        const legacy = effective === 'set' && d && entityState(state, urn).stored.columnLineage === undefined
          ? new Set([...d.columns!.keys()].map((column) => fieldUrnOf(urn, column))) : undefined;
        write(urn, 'upstreamLineage', outputUpstreamLineage(state.get(stateKey(urn, 'upstreamLineage')), urn, c.before, c.after, legacy));
      }
      const { lineageEventTime: _legacy, ...jobStored } = jobState.stored;
      write(jobUrn, OPENLINEAGE_ASPECT, nextEntityState({ ...jobState, stored: jobStored }, key, t, keptFacets(e.job.facets ?? {}, e.job.unread), [],
        lineage ? { lineage } : {}));

      if (runUrn && eventType && e.kind === 'run') {
        const runState = entityState(state, runUrn);
        const runKey = str(runState.stored.eventKey) ?? legacyRunKey(state, runUrn);
        // The key of the run's (first) FAIL or ABORT: the run failed, whatever order its events come in.
        const failed = mode === 'withdraw' && (runFailed === undefined || key < runFailed) ? key : runFailed;
        const runAspect = nextEntityState(runState, key, t, keptFacets(runFacets, e.runUnread, RUN_PROPERTY_FACETS), [], failed !== undefined ? { failed } : {});
        const merged = asRecord(runAspect.facets) ?? {};
        const props = state.get(stateKey(runUrn, 'dataProcessInstanceProperties'));
        const createdBefore = num(asRecord(props?.created)?.time);
        // The newest nominalTime kept may be one that failed its schema (kept verbatim, not read).
        const nominalText = str(asRecord(merged.nominalTime)?.nominalStartTime);
        const nominal = nominalText !== undefined && !('error' in parseEventTime(nominalText)) ? nominalText : undefined;
        const errorMessage = str(asRecord(merged.errorMessage)?.message);
        const { nominalStartTime: _n, errorMessage: _m, ...otherProperties } = asRecord(props?.customProperties) ?? {};
        write(runUrn, 'dataProcessInstanceProperties', {
          name: e.runId,
          type: nominal !== undefined ? 'BATCH_SCHEDULED' : 'BATCH_AD_HOC',
          created: createdBefore !== undefined && createdBefore <= t ? asRecord(props?.created) ?? { time: createdBefore, actor } : now,
          customProperties: {
            ...otherProperties,
            ...(nominal !== undefined ? { nominalStartTime: nominal } : {}),
            ...(errorMessage !== undefined ? { errorMessage } : {}),
          },
        });
        if (isNewest(runKey, key)) {
          write(runUrn, 'dataProcessInstanceRelationships', { parentTemplate: jobUrn, upstreamInstances: [], ...(parentUrn ? { parentInstance: parentUrn } : {}) });
          const { status, result } = RUN_STATUS[eventType];
          write(runUrn, 'dataProcessInstanceRunEvent', { timestampMillis: t, status, ...(result ? { result: { type: result, nativeResultType: eventType } } : {}) });
        }
        write(runUrn, OPENLINEAGE_ASPECT, runAspect);
      }
      return out;
    },
  };
}

/**
 * A dataset of an event: its schema and documentation when this event is the newest to give them,
 * its kept facets and column state in its openLineage aspect; else only made to exist.
 */
function writeDataset(state: StoredAspects, d: DatasetFacts, key: string, t: number, write: (urn: string, aspect: string, value: JsonRecord) => void, columns?: ColumnLineage): void {
  const s = entityState(state, d.urn);
  if (d.schema && isNewest(s.facetKeys.schema, key)) write(d.urn, 'schemaMetadata', schemaMetadataOf(d.urn, d.schema));
  else ensureDataset(state, d.urn, write);
  if (d.description !== undefined && isNewest(s.facetKeys.documentation, key)) {
    write(d.urn, 'datasetProperties', { ...(state.get(stateKey(d.urn, 'datasetProperties')) ?? {}), description: d.description });
  }
  // Only what the event says of it needs a key to be kept against older events.
  if (d.schema || d.description !== undefined || Object.keys(d.kept).length > 0 || d.columns || columns) {
    const marks = [...(d.schema ? ['schema'] : []), ...(d.description !== undefined ? ['documentation'] : [])];
    write(d.urn, OPENLINEAGE_ASPECT, nextEntityState(s, key, t, d.kept, marks, columns ? { columnLineage: columnLineageJson(columns) } : {}));
  }
}

/** A dataset an event names exists: its key aspect, written alone, creates it when it is missing. */
function ensureDataset(state: StoredAspects, urn: string, write: (urn: string, aspect: string, value: JsonRecord) => void): void {
  if (!state.has(stateKey(urn, 'datasetKey'))) write(urn, 'datasetKey', keyAspectOf(parseUrn(urn)).value);
}

function planDatasetEvent(e: Extract<OpenLineageEvent, { kind: 'dataset' }>): EventPlan {
  const d = datasetFacts(e.dataset, resolverOf([e.dataset]));
  const key = eventKeyOf(e);
  return {
    urns: [d.urn],
    locks: [d.urn],
    reads: [{ urn: d.urn, aspect: OPENLINEAGE_ASPECT }, { urn: d.urn, aspect: 'datasetKey' }, ...(d.description !== undefined ? [{ urn: d.urn, aspect: 'datasetProperties' }] : [])],
    writes(state) {
      const out: AspectWrite[] = [];
      writeDataset(state, d, key, e.eventTime, (urn, aspectName, value) => out.push({ urn, aspectName, value }));
      return out;
    },
  };
}
