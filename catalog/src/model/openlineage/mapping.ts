// What one OpenLineage event writes (docs/lineage-model.md §OpenLineage), as a pure function of the
// event and of the few stored aspects it merges with. The write layer reads those aspects under
// the entities' locks and writes the result through the one write path.
//
// Order and repetition: every entity the door describes keeps an `openLineage` aspect with the
// time of the newest event that described it; older events no longer change what it says, so the
// same event twice writes nothing and a COMPLETE that overtook its START is not undone by it.
// Lineage (the job's inputs and outputs, column lineage on its outputs) follows the event type:
// START, RUNNING, OTHER add what they report; COMPLETE and a JobEvent set it; FAIL and ABORT record
// the run only. A run-level event older than the last one that set the job's lineage adds nothing.
import { keyAspectOf } from '../entity-registry.ts';
import { asRecord, type JsonRecord } from '../json.ts';
import { parseUrn } from '../urn.ts';
import { facetOf, INTERPRETED_FACETS, type OlDataset, type OpenLineageEvent, type RunEventType, type SchemaFacetField } from './events.ts';
import { dataFlowUrnOf, dataJobUrnOf, datasetUrnOfDataset, datasetUrnOfName, fieldUrnOf, flowJobOf, orchestratorOf, runUrnOf } from './naming.ts';

/** The aspect the door keeps on every entity it describes: event times and facets it does not interpret. */
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
  /**
   * The entities whose stored aspects the writes merge with, to be locked before the reads. The
   * others (the flow, datasets only named) are only created when missing; the write path locks
   * whatever it writes.
   */
  locks: string[];
  /** The stored aspects `writes` merges with. */
  reads: Array<{ urn: string; aspect: string }>;
  /** The aspects to write, given those stored values; in the order the write path must see them. */
  writes(state: StoredAspects, actor: string): AspectWrite[];
}

type LineageMode = 'add' | 'set' | 'none';

function lineageModeOf(e: OpenLineageEvent): LineageMode {
  if (e.kind === 'job') return 'set';
  if (e.kind !== 'run') return 'none';
  switch (e.eventType) {
    case 'COMPLETE': return 'set';
    case 'FAIL': case 'ABORT': return 'none';
    default: return 'add';
  }
}

/** A run state's rank: at one and the same time, an end wins over a start. */
const RANK: Readonly<Record<string, number>> = { COMPLETE: 1, FAIL: 1, ABORT: 1 };

// ---------------------------------------------------------------------------------------------
// Stored state helpers

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const records = (v: unknown): JsonRecord[] => (Array.isArray(v) ? v.flatMap((x) => (asRecord(x) ? [asRecord(x)!] : [])) : []);

interface EntityState {
  eventTime: number | undefined;
  eventType: string | undefined;
  facets: JsonRecord;
  facetTimes: JsonRecord;
  lineageEventTime: number | undefined;
}

function entityState(state: StoredAspects, urn: string): EntityState {
  const v = state.get(stateKey(urn, OPENLINEAGE_ASPECT));
  return {
    eventTime: num(v?.eventTime),
    eventType: undefined,
    facets: asRecord(v?.facets) ?? {},
    facetTimes: asRecord(v?.facetTimes) ?? {},
    lineageEventTime: num(v?.lineageEventTime),
  };
}

/** A run's state is its run event: the time and type of the newest event recorded for it. */
function runStateOf(state: StoredAspects, runUrn: string): EntityState {
  const v = state.get(stateKey(runUrn, 'dataProcessInstanceRunEvent'));
  const type = asRecord(v?.result)?.nativeResultType ?? (v?.status === 'STARTED' ? 'START' : undefined);
  return { eventTime: num(v?.timestampMillis), eventType: typeof type === 'string' ? type : undefined, facets: {}, facetTimes: {}, lineageEventTime: undefined };
}

/** Whether a facet map holds facets the mapping does not interpret (kept verbatim). */
const keepsFacets = (facets: JsonRecord) => Object.keys(facets).some((k) => !INTERPRETED_FACETS.has(k));

/** Whether an event at `t` (of `type`) is not older than what last described the entity. */
function isCurrent(s: EntityState, t: number, type?: string): boolean {
  if (s.eventTime === undefined || t > s.eventTime) return true;
  return t === s.eventTime && (RANK[type ?? ''] ?? 0) >= (RANK[s.eventType ?? ''] ?? 0);
}

/** The entity's openLineage aspect after this event: newest time, facets merged key by key by time. */
function nextEntityState(s: EntityState, t: number, facets: JsonRecord, extra: JsonRecord = {}): JsonRecord {
  const kept: JsonRecord = { ...s.facets };
  const times: JsonRecord = { ...s.facetTimes };
  for (const [key, value] of Object.entries(facets)) {
    if (INTERPRETED_FACETS.has(key) || value === undefined) continue;
    const at = num(times[key]);
    if (at !== undefined && at > t) continue;
    kept[key] = value;
    times[key] = t;
  }
  return {
    eventTime: isCurrent(s, t) ? t : s.eventTime,
    ...(s.lineageEventTime !== undefined ? { lineageEventTime: s.lineageEventTime } : {}),
    facets: kept,
    facetTimes: times,
    ...extra,
  };
}

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

const stamp = (time: number, actor: string) => ({ time, actor });

// ---------------------------------------------------------------------------------------------
// Datasets of an event

interface DatasetFacts {
  urn: string;
  /** Every facet the event gives it (dataset, input and output facets). */
  facets: JsonRecord;
  schema?: readonly SchemaFacetField[];
  description?: string;
  /** Output column → its upstream columns (schemaField urns), from the columnLineage facet. */
  columns?: Map<string, string[]>;
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
  const facets: JsonRecord = { ...(d.facets ?? {}), ...(d.inputFacets ?? {}), ...(d.outputFacets ?? {}) };
  const schema = facetOf(d.facets, 'schema')?.fields as SchemaFacetField[] | undefined;
  const description = facetOf(d.facets, 'documentation')?.description;
  const lineage = facetOf(d.facets, 'columnLineage');
  if (!lineage) return { urn, facets, ...(schema ? { schema } : {}), ...(description !== undefined ? { description } : {}) };
  const columns = new Map<string, string[]>();
  const columnInputs = new Set<string>();
  for (const [column, f] of Object.entries(lineage.fields)) {
    const ups = new Set<string>();
    for (const i of f.inputFields) {
      const upstream = resolve(i.namespace, i.name);
      if (upstream !== urn) columnInputs.add(upstream);
      ups.add(fieldUrnOf(upstream, i.field));
    }
    columns.set(column, [...ups]);
  }
  return { urn, facets, ...(schema ? { schema } : {}), ...(description !== undefined ? { description } : {}), columns, columnInputs: [...columnInputs] };
}

/** Merges datasets named twice in one event (as input and output, or twice as input): facets union. */
function mergeDatasets(list: readonly DatasetFacts[]): DatasetFacts[] {
  const byUrn = new Map<string, DatasetFacts>();
  for (const d of list) {
    const seen = byUrn.get(d.urn);
    byUrn.set(d.urn, seen ? { ...seen, ...d, facets: { ...seen.facets, ...d.facets } } : d);
  }
  return [...byUrn.values()];
}

// ---------------------------------------------------------------------------------------------
// Lineage merges

/**
 * The edge to a reported urn: as stored when it was last seen at this time or later (so a resent
 * event, whoever sends it, changes nothing), else seen now, first seen when it was first seen.
 */
function reportedEdge(urn: string, old: JsonRecord | undefined, t: number, actor: string): JsonRecord {
  const seen = num(asRecord(old?.lastModified)?.time);
  if (old && seen !== undefined && seen >= t) return old;
  return { destinationUrn: urn, created: asRecord(old?.created) ?? stamp(t, actor), lastModified: stamp(t, actor) };
}

/** The job's dataJobInputOutput after this event: set to what it reports, or what it reports added. */
function jobInputOutput(current: JsonRecord | undefined, inputs: string[], outputs: string[], mode: 'add' | 'set', t: number, actor: string): JsonRecord {
  const oldIn = records(current?.inputDatasetEdges);
  const oldOut = records(current?.outputDatasetEdges);
  const union = (old: JsonRecord[], reported: string[]) => [...new Set([...old.map((e) => String(e.destinationUrn)), ...reported])];
  const ins = mode === 'set' ? inputs : union(oldIn, inputs);
  const outs = mode === 'set' ? outputs : union(oldOut, outputs);
  const edges = (old: JsonRecord[], list: string[], reported: string[]) => {
    const fresh = new Set(reported);
    const before = new Map(old.map((e) => [String(e.destinationUrn), e]));
    return list.map((u) => (fresh.has(u) ? reportedEdge(u, before.get(u), t, actor) : before.get(u)!));
  };
  return {
    ...(current ?? {}),
    inputDatasets: Array.isArray(current?.inputDatasets) ? current.inputDatasets : [],
    outputDatasets: Array.isArray(current?.outputDatasets) ? current.outputDatasets : [],
    inputDatasetEdges: edges(oldIn, ins, inputs),
    outputDatasetEdges: edges(oldOut, outs, outputs),
  };
}

const JOB_PROPERTY = 'openlineage.job';

/**
 * An output's upstreamLineage after this event's column lineage. The event speaks for this job's
 * upstream entries (marked with the job in `properties`) and for the output columns it reports;
 * entries of other writers, and columns it does not report, are kept. `set` drops this job's entries
 * it no longer reports; `add` only adds.
 */
function outputUpstreamLineage(current: JsonRecord | undefined, d: DatasetFacts, jobUrn: string, mode: 'add' | 'set', t: number, actor: string): JsonRecord {
  const upstreams = records(current?.upstreams);
  const fine = records(current?.fineGrainedLineages);
  const reported = d.columnInputs ?? [];
  const isOurs = (u: JsonRecord) => asRecord(u.properties)?.[JOB_PROPERTY] === jobUrn;
  const keptUpstreams = mode === 'set' ? upstreams.filter((u) => !isOurs(u) || reported.includes(String(u.dataset))) : upstreams;
  const present = new Set(keptUpstreams.map((u) => String(u.dataset)));
  const added = reported.filter((u) => !present.has(u)).map((dataset) => ({
    dataset, type: 'TRANSFORMED', auditStamp: stamp(t, actor), created: stamp(t, actor), properties: { [JOB_PROPERTY]: jobUrn },
  }));
  const columns = [...(d.columns ?? new Map()).entries()];
  const reportedFields = new Set(columns.map(([column]) => fieldUrnOf(d.urn, column)));
  const entries = columns.filter(([, ups]) => ups.length > 0).map(([column, ups]) => ({
    upstreamType: 'FIELD_SET', upstreams: ups, downstreamType: 'FIELD', downstreams: [fieldUrnOf(d.urn, column)], confidenceScore: 1,
  }));
  const speaksFor = (entry: JsonRecord) => {
    const downs = Array.isArray(entry.downstreams) ? entry.downstreams : [];
    return downs.length > 0 && downs.every((x) => reportedFields.has(String(x)));
  };
  const keptFine = mode === 'set' ? fine.filter((f) => !speaksFor(f)) : fine;
  const known = new Set(keptFine.map((f) => JSON.stringify(f)));
  return {
    ...(current ?? {}),
    upstreams: [...keptUpstreams, ...added],
    fineGrainedLineages: [...keptFine, ...entries.filter((f) => !known.has(JSON.stringify(f)))],
  };
}

// ---------------------------------------------------------------------------------------------
// The plan

const RUN_STATUS: Readonly<Record<RunEventType, { status: string; result?: string }>> = {
  START: { status: 'STARTED' }, RUNNING: { status: 'STARTED' }, OTHER: { status: 'STARTED' },
  COMPLETE: { status: 'COMPLETE', result: 'SUCCESS' }, FAIL: { status: 'COMPLETE', result: 'FAILURE' }, ABORT: { status: 'COMPLETE', result: 'FAILURE' },
};

export function planOpenLineageEvent(e: OpenLineageEvent): EventPlan {
  if (e.kind === 'dataset') return planDatasetEvent(e);
  const runFacets = e.kind === 'run' ? e.runFacets : {};
  const orchestrator = orchestratorOf(e.job.facets, runFacets, e.producer);
  const flowUrn = dataFlowUrnOf(orchestrator, flowJobOf(e.job, runFacets));
  const jobUrn = dataJobUrnOf(flowUrn, e.job.name);
  const runUrn = e.kind === 'run' ? runUrnOf(e.runId) : undefined;
  const parentRun = facetOf(runFacets, 'parent')?.run.runId;
  const resolve = resolverOf([...e.inputs, ...e.outputs]);
  const inputs = mergeDatasets(e.inputs.map((d) => datasetFacts(d, resolve)));
  const outputs = mergeDatasets(e.outputs.map((d) => datasetFacts(d, resolve)));
  const withColumns = outputs.filter((d) => d.columns !== undefined);
  const columnOnly = [...new Set(withColumns.flatMap((d) => d.columnInputs ?? []))].filter((u) => !inputs.some((d) => d.urn === u) && !outputs.some((d) => d.urn === u));
  const datasets = mergeDatasets([...inputs, ...outputs]);
  const mode = lineageModeOf(e);
  const t = e.eventTime;

  const described = (d: DatasetFacts) => d.schema !== undefined || d.description !== undefined || keepsFacets(d.facets) || d.columns !== undefined;
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

  return {
    locks,
    reads,
    writes(state, actor) {
      const out: AspectWrite[] = [];
      const write = (urn: string, aspectName: string, value: JsonRecord) => out.push({ urn, aspectName, value });
      const eventType = e.kind === 'run' ? e.eventType ?? 'OTHER' : undefined;

      // Entities first (the write path's existence rule: lineage names only entities that exist).
      // A flow is named once; no event describes it further.
      if (!state.get(stateKey(flowUrn, 'dataFlowInfo'))) write(flowUrn, 'dataFlowInfo', { name: /^urn:li:dataFlow:\([^,]*,([^,]*),/.exec(flowUrn)?.[1] ?? e.job.name });

      const jobState = entityState(state, jobUrn);
      if (isCurrent(jobState, t)) {
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

      for (const d of datasets) {
        const s = entityState(state, d.urn);
        const current = isCurrent(s, t);
        if (current && d.schema) write(d.urn, 'schemaMetadata', schemaMetadataOf(d.urn, d.schema));
        else ensureDataset(state, d.urn, write);
        if (current && d.description !== undefined) {
          write(d.urn, 'datasetProperties', { ...(state.get(stateKey(d.urn, 'datasetProperties')) ?? {}), description: d.description });
        }
        // Only what the event says of it needs a time to be kept against older events.
        if (d.schema || d.description !== undefined || keepsFacets(d.facets)) write(d.urn, OPENLINEAGE_ASPECT, nextEntityState(s, t, d.facets));
      }
      for (const urn of columnOnly) ensureDataset(state, urn, write);

      // Lineage, gated by the job's last authoritative event.
      const lineageCurrent = mode !== 'none' && (jobState.lineageEventTime === undefined || t >= jobState.lineageEventTime);
      // An event without inputs and outputs says nothing of them; an empty list says "none".
      if (lineageCurrent && e.reportsDatasets) {
        const io = jobInputOutput(state.get(stateKey(jobUrn, 'dataJobInputOutput')), inputs.map((d) => d.urn), outputs.map((d) => d.urn), mode, t, actor);
        write(jobUrn, 'dataJobInputOutput', io);
      }
      if (lineageCurrent) {
        for (const d of withColumns) {
          write(d.urn, 'upstreamLineage', outputUpstreamLineage(state.get(stateKey(d.urn, 'upstreamLineage')), d, jobUrn, mode, t, actor));
        }
      }
      const jobFacets = e.job.facets ?? {};
      write(jobUrn, OPENLINEAGE_ASPECT, nextEntityState(jobState, t, jobFacets,
        lineageCurrent && mode === 'set' && e.reportsDatasets ? { lineageEventTime: t } : {}));

      if (runUrn && eventType) {
        const runState = runStateOf(state, runUrn);
        const props = state.get(stateKey(runUrn, 'dataProcessInstanceProperties'));
        const createdBefore = num(asRecord(props?.created)?.time);
        const nominal = facetOf(runFacets, 'nominalTime')?.nominalStartTime;
        const errorMessage = facetOf(runFacets, 'errorMessage')?.message;
        const created = Math.min(t, createdBefore ?? t);
        write(runUrn, 'dataProcessInstanceProperties', {
          name: e.kind === 'run' ? e.runId : runUrn,
          type: nominal !== undefined ? 'BATCH_SCHEDULED' : 'BATCH_AD_HOC',
          created: stamp(created, actor),
          customProperties: {
            ...(asRecord(props?.customProperties) ?? {}),
            ...(nominal !== undefined ? { nominalStartTime: nominal } : {}),
            ...(errorMessage !== undefined ? { errorMessage } : {}),
          },
        });
        if (isCurrent(runState, t, eventType)) {
          write(runUrn, 'dataProcessInstanceRelationships', {
            parentTemplate: jobUrn, upstreamInstances: [], ...(parentRun ? { parentInstance: runUrnOf(parentRun) } : {}),
          });
          const { status, result } = RUN_STATUS[eventType];
          write(runUrn, 'dataProcessInstanceRunEvent', {
            timestampMillis: t, status, ...(result ? { result: { type: result, nativeResultType: eventType } } : {}),
          });
        }
        if (keepsFacets(runFacets)) write(runUrn, OPENLINEAGE_ASPECT, nextEntityState(entityState(state, runUrn), t, runFacets));
      }
      return out;
    },
  };
}

/** A dataset an event names exists: its key aspect, written alone, creates it when it is missing. */
function ensureDataset(state: StoredAspects, urn: string, write: (urn: string, aspect: string, value: JsonRecord) => void): void {
  if (!state.has(stateKey(urn, 'datasetKey'))) write(urn, 'datasetKey', keyAspectOf(parseUrn(urn)).value);
}

function planDatasetEvent(e: Extract<OpenLineageEvent, { kind: 'dataset' }>): EventPlan {
  const d = datasetFacts(e.dataset, resolverOf([e.dataset]));
  return {
    locks: [d.urn],
    reads: [{ urn: d.urn, aspect: OPENLINEAGE_ASPECT }, { urn: d.urn, aspect: 'datasetKey' }, ...(d.description !== undefined ? [{ urn: d.urn, aspect: 'datasetProperties' }] : [])],
    writes(state) {
      const s = entityState(state, d.urn);
      const out: AspectWrite[] = [];
      const current = isCurrent(s, e.eventTime);
      if (current && d.schema) out.push({ urn: d.urn, aspectName: 'schemaMetadata', value: schemaMetadataOf(d.urn, d.schema) });
      else ensureDataset(state, d.urn, (urn, aspectName, value) => out.push({ urn, aspectName, value }));
      if (current && d.description !== undefined) {
        out.push({ urn: d.urn, aspectName: 'datasetProperties', value: { ...(state.get(stateKey(d.urn, 'datasetProperties')) ?? {}), description: d.description } });
      }
      if (d.schema || d.description !== undefined || keepsFacets(d.facets)) {
        out.push({ urn: d.urn, aspectName: OPENLINEAGE_ASPECT, value: nextEntityState(s, e.eventTime, d.facets) });
      }
      return out;
    },
  };
}
