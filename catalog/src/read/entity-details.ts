// Reads behind the explorer's start page and details sheet that no DataHub operation gives in one
// request: the most connected and most recently changed entities, a job's runs from its stored
// dataProcessInstances, and per-column lineage counts (explorer/README.md §Details and start page).
import { defaultSearchTypes, graphqlToEntityType } from '../model/entity-registry.ts';
import { badRequest } from '../model/errors.ts';
import { UNIT_SEPARATOR } from '../model/urn.ts';
import { int, type Store } from '../store/store.ts';
import type { JobRun } from '../model/job-run.ts';

/** More than a start page or a run table shows; a request asking for more is a client mistake. */
const MAX_DETAILS_COUNT = 100;
/** Latest aspect rows looked at for "recently changed", per entity asked for. */
const RECENT_SCAN_PER_ENTITY = 20;

function checkCount(count: number | null | undefined, fallback: number): number {
  const n = count ?? fallback;
  if (!Number.isInteger(n) || n < 0 || n > MAX_DETAILS_COUNT)
    throw badRequest(`count must be an integer from 0 to ${MAX_DETAILS_COUNT}, got ${n}`);
  return n;
}

/** The entity types the start page lists: those search lists (the ones taking part in lineage) but runs. */
function startPageTypes(): string[] {
  return defaultSearchTypes()
    .filter((t) => t !== 'DATA_PROCESS_INSTANCE')
    .map((t) => graphqlToEntityType(t)!);
}

export interface ConnectedEntity {
  urn: string;
  links: number;
}

export interface ChangedEntity {
  urn: string;
  changedOn: number;
}

export async function mostConnectedEntities(store: Store, count?: number | null): Promise<ConnectedEntity[]> {
  const limit = checkCount(count, 10);
  return store.read((tx) => tx.run<ConnectedEntity>('details/most-connected', { types: startPageTypes(), limit: int(limit) }));
}

export async function recentlyChangedEntities(store: Store, count?: number | null): Promise<ChangedEntity[]> {
  const limit = checkCount(count, 10);
  return store.read((tx) =>
    tx.run<ChangedEntity>('details/recently-changed', {
      types: startPageTypes(),
      scan: int(Math.max(1, limit) * RECENT_SCAN_PER_ENTITY),
      limit: int(limit),
    }),
  );
}

type JsonObject = Record<string, unknown>;

function parseJson(text: string | null): JsonObject | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}

const asNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One run from its latest dataProcessInstanceProperties and dataProcessInstanceRunEvent. */
export function jobRunOf(urn: string, propertiesJson: string | null, runEventJson: string | null): JobRun {
  const props = parseJson(propertiesJson);
  const event = parseJson(runEventJson);
  const start = asNumber((props?.created as JsonObject | undefined)?.time);
  const status = asString(event?.status);
  const at = asNumber(event?.timestampMillis);
  const custom = props?.customProperties as JsonObject | undefined;
  const stated = asNumber(event?.durationMillis);
  const duration = stated ?? (status === 'COMPLETE' && start !== null && at !== null && at >= start ? at - start : null);
  return {
    urn,
    name: asString(props?.name),
    status,
    result: asString((event?.result as JsonObject | undefined)?.type),
    startTimeMillis: start,
    durationMillis: duration,
    errorMessage: asString(custom?.errorMessage),
  };
}

/** How many runs are read before sorting by start: the table shows the latest few of these. */
const RUNS_READ = 500;

/**
 * A job's (or flow's) runs, latest start first. The catalog keeps a run's latest properties and run
 * event (docs/lineage-model.md §OpenLineage): the start is the properties' `created.time`.
 */
export async function jobRuns(store: Store, urn: string, count?: number | null): Promise<{ total: number; runs: JobRun[] }> {
  const limit = checkCount(count, 10);
  type Row = { urn: string; properties: string | null; runEvent: string | null };
  const rows = await store.read((tx) =>
    tx.run<Row>('details/job-runs', {
      urn,
      propertiesSuffix: `${UNIT_SEPARATOR}dataProcessInstanceProperties${UNIT_SEPARATOR}0`,
      runEventSuffix: `${UNIT_SEPARATOR}dataProcessInstanceRunEvent${UNIT_SEPARATOR}0`,
      limit: int(RUNS_READ),
    }),
  );
  const runs = rows
    .map((r) => jobRunOf(r.urn, r.properties, r.runEvent))
    .sort((a, b) => (b.startTimeMillis ?? 0) - (a.startTimeMillis ?? 0) || a.urn.localeCompare(b.urn));
  return { total: runs.length, runs: runs.slice(0, limit) };
}

export interface ColumnLinks {
  urn: string;
  fieldPath: string;
  upstream: number;
  downstream: number;
}

/** Per column of a dataset, chart or dashboard: column lineage one hop either way. */
export async function columnLineageCounts(store: Store, parentUrn: string): Promise<ColumnLinks[]> {
  const prefix = `urn:li:schemaField:(${parentUrn},`;
  type Row = { urn: string; upstream: number; downstream: number };
  const rows = await store.read((tx) => tx.run<Row>('details/column-links', { prefix }));
  return rows.map((r) => ({ ...r, fieldPath: r.urn.slice(prefix.length, -1) }));
}
