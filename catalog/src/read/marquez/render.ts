// Marquez 0.51's JSON for what the catalog stores (docs/marquez-compatibility.md): a namespace, a dataset, a job
// and a run, built from their latest aspect rows. Keys, nulls and defaults as Marquez's models
// serialize them; what the catalog does not keep (versions, owners, lifecycle) is null or empty.
import { asRecord, type JsonRecord } from '../../model/json.ts';
import { datasetIdOfUrn, jobTypeOf, runStateOf, type MarquezId } from '../../model/marquez/ids.ts';
import type { AspectRow } from '../aspect-reader.ts';

export type Aspects = ReadonlyMap<string, AspectRow>;

const iso = (ms: number | null | undefined) => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = (v: unknown): JsonRecord[] =>
  Array.isArray(v)
    ? v.flatMap((x) => {
        const r = asRecord(x);
        return r ? [r] : [];
      })
    : [];
const valueOf = (aspects: Aspects, name: string): JsonRecord | null => aspects.get(name)?.value ?? null;

/** First and last write of an entity: the oldest and newest of its latest rows. */
function timesOf(aspects: Aspects): { createdAt: string | null; updatedAt: string | null } {
  const times = [...aspects.values()].map((a) => a.createdOn).filter((t) => t > 0);
  return { createdAt: iso(times.length ? Math.min(...times) : null), updatedAt: iso(times.length ? Math.max(...times) : null) };
}

/** Tag names of a globalTags value (`urn:li:tag:PII` → `PII`). */
function tagNames(globalTags: unknown): string[] {
  return list(asRecord(globalTags)?.tags).flatMap((t) => {
    const tag = str(t.tag);
    return tag ? [tag.replace(/^urn:li:tag:/, '')] : [];
  });
}

/** The facets the OpenLineage door kept verbatim for an entity. */
export const keptFacets = (aspects: Aspects): JsonRecord => asRecord(valueOf(aspects, 'openLineage')?.facets) ?? {};

export function namespaceJson(name: string, createdOn: number, updatedOn: number): JsonRecord {
  return { name, createdAt: iso(createdOn), updatedAt: iso(updatedOn), ownerName: 'anonymous', description: null, isHidden: false };
}

/** A dataset's fields: its schema's columns, with the tags and descriptions DataHub's editors added. */
function fieldsOf(aspects: Aspects): JsonRecord[] {
  const edits = new Map(list(valueOf(aspects, 'editableSchemaMetadata')?.editableSchemaFieldInfo).map((e) => [str(e.fieldPath), e]));
  return list(valueOf(aspects, 'schemaMetadata')?.fields).map((f) => {
    const edit = edits.get(str(f.fieldPath));
    return {
      name: str(f.fieldPath),
      type: str(f.nativeDataType),
      tags: [...new Set([...tagNames(f.globalTags), ...tagNames(edit?.globalTags)])],
      description: str(edit?.description) ?? str(f.description),
    };
  });
}

/** What a lineage node's `data` shows of a dataset (Marquez's DatasetData). */
export function datasetDataJson(id: MarquezId, aspects: Aspects): JsonRecord {
  const description =
    str(valueOf(aspects, 'editableDatasetProperties')?.description) ?? str(valueOf(aspects, 'datasetProperties')?.description);
  return {
    id,
    type: 'DB_TABLE',
    name: id.name,
    physicalName: id.name,
    ...timesOf(aspects),
    namespace: id.namespace,
    sourceName: id.namespace,
    fields: fieldsOf(aspects),
    tags: tagNames(valueOf(aspects, 'globalTags')),
    lastModifiedAt: null,
    description,
    lastLifecycleState: null,
  };
}

/** GET /namespaces/{ns}/datasets/{name} (Marquez's Dataset). */
export function datasetJson(id: MarquezId, aspects: Aspects): JsonRecord {
  return {
    ...datasetDataJson(id, aspects),
    currentVersion: null,
    columnLineage: null,
    facets: keptFacets(aspects),
    deleted: valueOf(aspects, 'status')?.removed === true,
  };
}

/** The uuid of a run urn (`urn:li:dataProcessInstance:<uuid>`). */
const runIdOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** A run (Marquez's Run) from its dataProcessInstance's latest rows. */
export function runJson(urn: string, aspects: Aspects): JsonRecord {
  const props = valueOf(aspects, 'dataProcessInstanceProperties');
  const event = valueOf(aspects, 'dataProcessInstanceRunEvent');
  const result = asRecord(event?.result);
  const state = runStateOf(str(event?.status), str(result?.type), str(result?.nativeResultType));
  const started = num(asRecord(props?.created)?.time);
  const at = num(event?.timestampMillis);
  const ended = event?.status === 'COMPLETE' ? at : null;
  const facets = keptFacets(aspects);
  const nominal = asRecord(facets.nominalTime);
  const isoText = (v: unknown) => {
    const t = str(v);
    return t !== null && !Number.isNaN(Date.parse(t)) ? new Date(t).toISOString() : null;
  };
  return {
    id: runIdOf(urn),
    createdAt: iso(started ?? at),
    updatedAt: iso(Math.max(started ?? 0, at ?? 0) || null),
    nominalStartTime: isoText(asRecord(props?.customProperties)?.nominalStartTime ?? nominal?.nominalStartTime),
    nominalEndTime: isoText(nominal?.nominalEndTime),
    state,
    startedAt: state === 'NEW' ? null : iso(started),
    endedAt: iso(ended),
    durationMs: ended !== null && started !== null && ended >= started ? ended - started : null,
    args: {},
    jobVersion: null,
    inputDatasetVersions: [],
    outputDatasetVersions: [],
    facets,
  };
}

/** A job's inputs and outputs: its dataJobInputOutput's dataset urns, each once, in order. */
export function jobDatasetUrns(aspects: Aspects): { inputs: string[]; outputs: string[] } {
  const io = valueOf(aspects, 'dataJobInputOutput');
  const urnsOf = (edges: string, legacy: string) => [
    ...new Set([
      ...list(io?.[edges]).flatMap((e) => (typeof e.destinationUrn === 'string' ? [e.destinationUrn] : [])),
      ...(Array.isArray(io?.[legacy]) ? (io[legacy] as unknown[]).filter((u): u is string => typeof u === 'string') : []),
    ]),
  ];
  return { inputs: urnsOf('inputDatasetEdges', 'inputDatasets'), outputs: urnsOf('outputDatasetEdges', 'outputDatasets') };
}

const datasetIds = (urns: readonly string[]) =>
  urns.flatMap((u) => {
    const id = datasetIdOfUrn(u);
    return id ? [id] : [];
  });

/** What the job renderers need beyond the job's own rows. */
export interface JobContext {
  id: MarquezId;
  info: JsonRecord;
  /** Its runs, latest first (at most the few Marquez shows). */
  runs: JsonRecord[];
  parentJobName: string | null;
}

/** What a lineage node's `data` shows of a job (Marquez's JobData). */
export function jobDataJson(c: JobContext, aspects: Aspects): JsonRecord {
  const { inputs, outputs } = jobDatasetUrns(aspects);
  return {
    id: c.id,
    type: jobTypeOf(str(c.info.type)),
    name: c.id.name,
    simpleName: c.id.name,
    parentJobName: c.parentJobName,
    parentJobUuid: null,
    ...timesOf(aspects),
    namespace: c.id.namespace,
    inputs: datasetIds(inputs),
    outputs: datasetIds(outputs),
    location: str(c.info.externalUrl),
    description: str(c.info.description),
    latestRun: c.runs[0] ?? null,
  };
}

/** GET /namespaces/{ns}/jobs/{job} (Marquez's Job). */
export function jobJson(c: JobContext, aspects: Aspects): JsonRecord {
  return {
    ...jobDataJson(c, aspects),
    latestRuns: c.runs,
    facets: keptFacets(aspects),
    currentVersion: null,
    labels: [],
    tags: tagNames(valueOf(aspects, 'globalTags')),
  };
}
