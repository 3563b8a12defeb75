// OpenLineage events (spec 2-0-2) as this door reads them (docs/wire-contract.md §OpenLineage). The
// three kinds are told apart by shape, as DataHub's controller does: `run` and `job` make a
// RunEvent, `dataset` a DatasetEvent, `job` alone a JobEvent; `schemaURL` is not trusted for it.
// What the spec requires of the event itself is checked (a 400 naming the field otherwise); a facet
// the mapping would interpret but that fails its schema is not interpreted, kept verbatim, and
// named in the event's warnings, as Marquez and DataHub accept such events. Every other field and
// facet is kept as sent.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from '../errors.ts';
import { canonicalJson, isJsonRecord, type JsonRecord } from '../json.ts';

const RUN_EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

const text = z.string().min(1, 'must not be empty');

// RFC 3339 date-time: full date, `T`, full time, fraction optional, offset `Z` or ±hh:mm.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/;

/**
 * An event time in epoch milliseconds, or why it is refused. Strict RFC 3339 with an offset; the one
 * leniency is Marquez's: a date-time without an offset (what Python's `datetime.isoformat()` gives
 * for a naive time; Marquez's own tests send it) is read as UTC and named in a warning. Anything
 * else (RFC 1123 dates, a date alone, impossible fields) is refused.
 */
export function parseEventTime(s: string): { ms: number; noOffset: boolean } | { error: string } {
  const m = RFC3339.exec(s);
  if (!m) return { error: 'must be an RFC 3339 date-time with an offset (2024-05-01T10:00:00Z)' };
  const [, y, mo, d, h, mi, sec] = m.map(Number) as number[];
  const noOffset = m[8] === undefined;
  const ms = Date.parse(noOffset ? `${s}Z` : s.toUpperCase());
  // Date.parse rolls 02-30 over to March; a date-time whose fields do not survive is not a date-time.
  const back = Number.isFinite(ms) ? new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, sec!)) : undefined;
  if (!back || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d! || h! > 23 || mi! > 59 || sec! > 60) {
    return { error: 'is not a valid date-time' };
  }
  return { ms, noOffset };
}

const dateTime = z.string().refine((s) => !('error' in parseEventTime(s)), 'must be an RFC 3339 date-time with an offset');
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
// `eventTime` is checked on its own (parseEventTime); `schemaURL` may be missing (Marquez's tests,
// DataHub accepts it), but not empty.
const base = { eventTime: z.string(), producer: text, schemaURL: text.optional() };

const runEventSchema = z.looseObject({
  ...base,
  eventType: z.enum(RUN_EVENT_TYPES).optional(),
  run: z.looseObject({ runId: uuid, facets: facets.optional() }),
  job,
  inputs: z.array(inputDataset).optional(),
  outputs: z.array(outputDataset).optional(),
});
const jobEventSchema = z.looseObject({
  ...base,
  job,
  inputs: z.array(inputDataset).optional(),
  outputs: z.array(outputDataset).optional(),
});
const datasetEventSchema = z.looseObject({ ...base, dataset });

/** Facets the mapping would interpret but that failed their schema: kept verbatim, not read. */
interface Unread {
  unread?: JsonRecord;
}
export type OlDataset = z.infer<typeof dataset> & {
  inputFacets?: Record<string, unknown>;
  outputFacets?: Record<string, unknown>;
} & Unread;
export type OlJob = z.infer<typeof job> & Unread;

interface Common {
  eventTime: number;
  /** Orders events of the same time and type: a digest of the event's canonical JSON. */
  digest: string;
  producer: string;
  /** What was accepted but not as sent (a facet not interpreted, a time without an offset, …). */
  warnings: string[];
  raw: JsonRecord;
}
export type OpenLineageEvent =
  | (Common & {
      kind: 'run';
      eventType: RunEventType | undefined;
      runId: string;
      runFacets: JsonRecord;
      runUnread: JsonRecord;
      job: OlJob;
      inputs: OlDataset[];
      outputs: OlDataset[];
      reportsDatasets: boolean;
    })
  | (Common & { kind: 'job'; job: OlJob; inputs: OlDataset[]; outputs: OlDataset[]; reportsDatasets: boolean })
  | (Common & { kind: 'dataset'; dataset: OlDataset });

function path(segments: readonly PropertyKey[]): string {
  return segments
    .map((s) => (typeof s === 'number' ? `[${s}]` : `.${String(s)}`))
    .join('')
    .replace(/^\./, '');
}

function check<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const at = path(issue.path);
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  throw badRequest(`Invalid OpenLineage event${where}: ${at ? `${at} ` : ''}${missing ? 'is required' : issue.message}`);
}

/**
 * One facet map with its interpreted facets checked: those that fail their schema are moved out (to
 * `unread`) and named in `warnings`; the map returned holds only what the mapping may read.
 */
function sortFacets(
  facetMap: Record<string, unknown> | undefined,
  at: string,
  warnings: string[],
): { facets?: Record<string, unknown>; unread: JsonRecord } {
  const unread: JsonRecord = {};
  if (facetMap === undefined) return { unread };
  const facets: Record<string, unknown> = { ...facetMap };
  for (const [key, schema] of Object.entries(interpreted)) {
    const value = facetMap[key];
    if (value === undefined || value === null) continue;
    const r = (schema as z.ZodType).safeParse(value);
    if (r.success) continue;
    const issue = r.error.issues[0]!;
    const sub = path(issue.path);
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    warnings.push(`${at}.${key}${sub ? `.${sub}` : ''} ${missing ? 'is required' : issue.message}: facet kept as sent, not interpreted`);
    delete facets[key];
    unread[key] = value;
  }
  return { facets, unread };
}

const withUnread = <T extends { facets?: Record<string, unknown> | undefined }>(x: T, at: string, warnings: string[]): T & Unread => {
  const { facets, unread } = sortFacets(x.facets, `${at}.facets`, warnings);
  return { ...x, ...(facets ? { facets } : {}), ...(Object.keys(unread).length > 0 ? { unread } : {}) };
};

function checkDatasets<T extends OlDataset>(list: T[], at: string, warnings: string[]): OlDataset[] {
  return list.map((d, i) => {
    const where = `${at}[${i}]`;
    const own = withUnread(d, where, warnings);
    const input = sortFacets(d.inputFacets, `${where}.inputFacets`, warnings);
    const output = sortFacets(d.outputFacets, `${where}.outputFacets`, warnings);
    const unread = { ...own.unread, ...input.unread, ...output.unread };
    return {
      ...own,
      ...(input.facets ? { inputFacets: input.facets } : {}),
      ...(output.facets ? { outputFacets: output.facets } : {}),
      ...(Object.keys(unread).length > 0 ? { unread } : {}),
    };
  });
}

/** Whether an event says what the job reads and writes (an empty list says "nothing"; an absent one says nothing). */
const reportsDatasets = (e: { inputs?: unknown[] | undefined; outputs?: unknown[] | undefined }) =>
  e.inputs !== undefined || e.outputs !== undefined;

/** What every kind shares: the time (checked), the digest, the warnings so far. */
function common(value: JsonRecord, e: { eventTime: string; producer: string; schemaURL?: string | undefined }, where: string): Common {
  const time = parseEventTime(e.eventTime);
  if ('error' in time) throw badRequest(`Invalid OpenLineage event${where}: eventTime ${time.error}`);
  const warnings: string[] = [];
  if (time.noOffset) warnings.push('eventTime has no offset: read as UTC');
  if (e.schemaURL === undefined) warnings.push('schemaURL is missing: read as OpenLineage 2-0-2');
  return {
    eventTime: time.ms,
    digest: createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16),
    producer: e.producer,
    warnings,
    raw: value,
  };
}

/**
 * One event from a request body, classified and checked; 400 naming the field otherwise. `where`
 * names it in a batch (" [3]").
 */
export function parseOpenLineageEvent(value: unknown, where = ''): OpenLineageEvent {
  if (!isJsonRecord(value)) throw badRequest(`Invalid OpenLineage event${where}: expected a JSON object`);
  if (isJsonRecord(value.run) && isJsonRecord(value.job)) {
    const e = check(runEventSchema, value, where);
    const c = common(value, e, where);
    const run = sortFacets(e.run.facets, 'run.facets', c.warnings);
    return {
      ...c,
      kind: 'run',
      eventType: e.eventType,
      runId: e.run.runId.toLowerCase(),
      runFacets: run.facets ?? {},
      runUnread: run.unread,
      job: withUnread(e.job, 'job', c.warnings),
      inputs: checkDatasets(e.inputs ?? [], 'inputs', c.warnings),
      outputs: checkDatasets(e.outputs ?? [], 'outputs', c.warnings),
      reportsDatasets: reportsDatasets(e),
    };
  }
  if (value.dataset !== undefined) {
    const e = check(datasetEventSchema, value, where);
    const c = common(value, e, where);
    return { ...c, kind: 'dataset', dataset: checkDatasets([e.dataset], 'dataset', c.warnings)[0]! };
  }
  if (value.run !== undefined) throw badRequest(`Invalid OpenLineage event${where}: job is required with run`);
  const e = check(jobEventSchema, value, where);
  const c = common(value, e, where);
  return {
    ...c,
    kind: 'job',
    job: withUnread(e.job, 'job', c.warnings),
    inputs: checkDatasets(e.inputs ?? [], 'inputs', c.warnings),
    outputs: checkDatasets(e.outputs ?? [], 'outputs', c.warnings),
    reportsDatasets: reportsDatasets(e),
  };
}

/** The facets the mapping interprets (their keys), so the rest can be kept verbatim. */
export const INTERPRETED_FACETS: ReadonlySet<string> = new Set(Object.keys(interpreted));

/** A facet as the mapping reads it (already checked by parseOpenLineageEvent). */
export function facetOf<K extends keyof typeof interpreted>(
  facetMap: Record<string, unknown> | undefined,
  key: K,
): z.infer<(typeof interpreted)[K]> | undefined {
  const value = facetMap?.[key];
  return value === undefined || value === null ? undefined : (value as z.infer<(typeof interpreted)[K]>);
}
