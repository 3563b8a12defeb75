// OpenLineage events (spec 2-0-2) as this door reads them (docs/wire-contract.md §OpenLineage). The
// three kinds are told apart by shape, as DataHub's controller does: `run` and `job` make a
// RunEvent, `dataset` a DatasetEvent, `job` alone a JobEvent; `schemaURL` is not trusted for it.
// Only what the spec requires, and the facets the mapping interprets, are checked; every other
// field and facet is kept as sent.
import { z } from 'zod';
import { badRequest } from '../errors.ts';
import { isJsonRecord, type JsonRecord } from '../json.ts';

export const RUN_EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

const text = z.string().min(1, 'must not be empty');
// RFC 3339 with a `T`, as the spec's date-time (the Python client checks the same); any offset.
const dateTime = z.string().refine((s) => s.includes('T') && Number.isFinite(Date.parse(s)), 'must be an RFC 3339 date-time');
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');
const facets = z.record(z.string(), z.unknown());

const inputField = z.looseObject({ namespace: text, name: text, field: text });

/** The facets the mapping reads; each is checked only when present. */
const interpreted = {
  schema: z.looseObject({ fields: z.array(z.lazy((): z.ZodType => schemaField)).optional() }),
  columnLineage: z.looseObject({
    fields: z.record(z.string(), z.looseObject({ inputFields: z.array(inputField) })),
    dataset: z.array(inputField).optional(),
  }),
  symlinks: z.looseObject({ identifiers: z.array(z.looseObject({ namespace: text, name: text, type: z.string() })) }),
  documentation: z.looseObject({ description: z.string() }),
  parent: z.looseObject({
    run: z.looseObject({ runId: uuid }),
    job: z.looseObject({ namespace: text, name: text }),
    root: z.looseObject({ run: z.looseObject({ runId: uuid }), job: z.looseObject({ namespace: text, name: text }) }).optional(),
  }),
  jobType: z.looseObject({ processingType: z.string().optional(), integration: z.string().optional(), jobType: z.string().optional() }),
  processing_engine: z.looseObject({ name: z.string().optional(), version: z.string().optional() }),
  sourceCodeLocation: z.looseObject({ url: z.string().optional() }),
  errorMessage: z.looseObject({ message: z.string() }),
  nominalTime: z.looseObject({ nominalStartTime: dateTime }),
} as const;

const schemaField: z.ZodType = z.looseObject({
  name: text,
  type: z.string().optional(),
  description: z.string().optional(),
  fields: z.array(z.lazy(() => schemaField)).optional(),
});

export type SchemaFacetField = { name: string; type?: string; description?: string; fields?: SchemaFacetField[] };

const dataset = z.looseObject({ namespace: text, name: text, facets: facets.optional() });
const inputDataset = dataset.extend({ inputFacets: facets.optional() });
const outputDataset = dataset.extend({ outputFacets: facets.optional() });
const job = z.looseObject({ namespace: text, name: text, facets: facets.optional() });
const base = { eventTime: dateTime, producer: text, schemaURL: text };

const runEventSchema = z.looseObject({
  ...base,
  eventType: z.enum(RUN_EVENT_TYPES).optional(),
  run: z.looseObject({ runId: uuid, facets: facets.optional() }),
  job,
  inputs: z.array(inputDataset).optional(),
  outputs: z.array(outputDataset).optional(),
});
const jobEventSchema = z.looseObject({ ...base, job, inputs: z.array(inputDataset).optional(), outputs: z.array(outputDataset).optional() });
const datasetEventSchema = z.looseObject({ ...base, dataset });

export type OlDataset = z.infer<typeof dataset> & { inputFacets?: Record<string, unknown>; outputFacets?: Record<string, unknown> };
export type OlJob = z.infer<typeof job>;

export type OpenLineageEvent =
  | { kind: 'run'; eventTime: number; eventType: RunEventType | undefined; producer: string; runId: string; runFacets: JsonRecord; job: OlJob; inputs: OlDataset[]; outputs: OlDataset[]; reportsDatasets: boolean; raw: JsonRecord }
  | { kind: 'job'; eventTime: number; producer: string; job: OlJob; inputs: OlDataset[]; outputs: OlDataset[]; reportsDatasets: boolean; raw: JsonRecord }
  | { kind: 'dataset'; eventTime: number; producer: string; dataset: OlDataset; raw: JsonRecord };

function path(segments: readonly PropertyKey[]): string {
  return segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${String(s)}`)).join('').replace(/^\./, '');
}

function check<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const at = path(issue.path);
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  throw badRequest(`Invalid OpenLineage event${where}: ${at ? `${at} ` : ''}${missing ? 'is required' : issue.message}`);
}

/** The interpreted facets of one facet map, checked; a malformed one is a 400 naming its path. */
function checkFacets(facetMap: Record<string, unknown> | undefined, at: string, where: string): void {
  for (const [key, schema] of Object.entries(interpreted)) {
    const value = facetMap?.[key];
    if (value === undefined || value === null) continue;
    const r = (schema as z.ZodType).safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      const sub = path(issue.path);
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      throw badRequest(`Invalid OpenLineage event${where}: ${at}.${key}${sub ? `.${sub}` : ''} ${missing ? 'is required' : issue.message}`);
    }
  }
}

function checkDatasets(list: OlDataset[], at: string, where: string): void {
  list.forEach((d, i) => {
    checkFacets(d.facets, `${at}[${i}].facets`, where);
    checkFacets(d.inputFacets, `${at}[${i}].inputFacets`, where);
    checkFacets(d.outputFacets, `${at}[${i}].outputFacets`, where);
  });
}

/** Whether an event says what the job reads and writes (an empty list says "nothing"; an absent one says nothing). */
const reportsDatasets = (e: { inputs?: unknown[] | undefined; outputs?: unknown[] | undefined }) => e.inputs !== undefined || e.outputs !== undefined;

/**
 * One event from a request body, classified and checked; 400 naming the field otherwise. `where`
 * names it in a batch (" [3]").
 */
export function parseOpenLineageEvent(value: unknown, where = ''): OpenLineageEvent {
  if (!isJsonRecord(value)) throw badRequest(`Invalid OpenLineage event${where}: expected a JSON object`);
  if (isJsonRecord(value.run) && isJsonRecord(value.job)) {
    const e = check(runEventSchema, value, where);
    checkFacets(e.run.facets, 'run.facets', where);
    checkFacets(e.job.facets, 'job.facets', where);
    checkDatasets(e.inputs ?? [], 'inputs', where);
    checkDatasets(e.outputs ?? [], 'outputs', where);
    return {
      kind: 'run', eventTime: Date.parse(e.eventTime), eventType: e.eventType, producer: e.producer, runId: e.run.runId.toLowerCase(),
      runFacets: e.run.facets ?? {}, job: e.job, inputs: e.inputs ?? [], outputs: e.outputs ?? [], reportsDatasets: reportsDatasets(e), raw: value,
    };
  }
  if (value.dataset !== undefined) {
    const e = check(datasetEventSchema, value, where);
    checkDatasets([e.dataset], 'dataset', where);
    return { kind: 'dataset', eventTime: Date.parse(e.eventTime), producer: e.producer, dataset: e.dataset, raw: value };
  }
  if (value.run !== undefined) throw badRequest(`Invalid OpenLineage event${where}: job is required with run`);
  const e = check(jobEventSchema, value, where);
  checkFacets(e.job.facets, 'job.facets', where);
  checkDatasets(e.inputs ?? [], 'inputs', where);
  checkDatasets(e.outputs ?? [], 'outputs', where);
  return {
    kind: 'job', eventTime: Date.parse(e.eventTime), producer: e.producer, job: e.job, inputs: e.inputs ?? [], outputs: e.outputs ?? [],
    reportsDatasets: reportsDatasets(e), raw: value,
  };
}

/** The facets the mapping interprets (their keys), so the rest can be kept verbatim. */
export const INTERPRETED_FACETS: ReadonlySet<string> = new Set(Object.keys(interpreted));

/** A facet as the mapping reads it (already checked by parseOpenLineageEvent). */
export function facetOf<K extends keyof typeof interpreted>(facetMap: Record<string, unknown> | undefined, key: K): z.infer<(typeof interpreted)[K]> | undefined {
  const value = facetMap?.[key];
  return value === undefined || value === null ? undefined : (value as z.infer<(typeof interpreted)[K]>);
}
