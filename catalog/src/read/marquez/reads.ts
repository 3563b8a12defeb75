// Marquez 0.51's reads of namespaces, datasets, jobs and runs (docs/marquez-compatibility.md), from what the
// OpenLineage door and the DataHub doors stored: no second store. Each returns Marquez's JSON; an
// unknown namespace, dataset, job or run is notFound with Marquez's message.
import { badRequest, isCatalogError, notFound } from '../../model/errors.ts';
import type { JsonRecord } from '../../model/json.ts';
import {
  BUCKET_PLATFORMS,
  datasetIdOfUrn,
  datasetUrnOfId,
  namespaceOfScope,
  namespaceScope,
  type MarquezId,
} from '../../model/marquez/ids.ts';
import { runUrnOf } from '../../model/openlineage/naming.ts';
import { int, type Store } from '../../store/store.ts';
import { getLatestAspectsOf } from '../aspect-reader.ts';
import { findOlJob, jobsJson, olJobs, runsJson, runUrnsOf, type OlJob } from './jobs.ts';
import { datasetJson, keptFacets, namespaceJson } from './render.ts';

/** Marquez's paging: `limit` (default 100) and `offset` (default 0), both checked by the door. */
export interface Page {
  limit: number;
  offset: number;
}

/** Entities one namespace DELETE removes at most, in one transaction. */
const MAX_NAMESPACE_DELETE = 10_000;

const slice = <T>(xs: readonly T[], p: Page) => xs.slice(p.offset, p.offset + p.limit);

interface NamespaceRow {
  name: string;
  createdOn: number;
  updatedOn: number;
}

/** Every namespace: those of datasets (platform, or object store and bucket) and of the OpenLineage door's jobs. */
async function namespaces(store: Store): Promise<NamespaceRow[]> {
  type Row = { platform: string; bucket: string | null; createdOn: number | null; updatedOn: number | null };
  const [rows, jobs] = await Promise.all([
    store.read((tx) => tx.run<Row>('marquez/dataset-namespaces', { bucketPlatforms: [...BUCKET_PLATFORMS] })),
    olJobs(store),
  ]);
  const byName = new Map<string, NamespaceRow>();
  const add = (name: string | undefined, createdOn: number, updatedOn: number) => {
    if (name === undefined) return;
    const seen = byName.get(name);
    byName.set(
      name,
      seen
        ? { name, createdOn: Math.min(seen.createdOn, createdOn), updatedOn: Math.max(seen.updatedOn, updatedOn) }
        : { name, createdOn, updatedOn },
    );
  };
  for (const r of rows) add(namespaceOfScope(r.platform, r.bucket), r.createdOn ?? 0, r.updatedOn ?? 0);
  for (const j of jobs) add(j.id.namespace, j.createdOn, j.updatedOn);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const namespaceNotFound = (name: string) => notFound(`Namespace '${name}' not found.`);

async function namespaceOrThrow(store: Store, name: string): Promise<NamespaceRow> {
  const found = (await namespaces(store)).find((n) => n.name === name);
  if (!found) throw namespaceNotFound(name);
  return found;
}

/** GET /namespaces: Marquez answers `{namespaces}` without a total. */
export async function listNamespaces(store: Store, page: Page): Promise<JsonRecord> {
  return { namespaces: slice(await namespaces(store), page).map((n) => namespaceJson(n.name, n.createdOn, n.updatedOn)) };
}

export async function getNamespace(store: Store, name: string): Promise<JsonRecord> {
  const n = await namespaceOrThrow(store, name);
  return namespaceJson(n.name, n.createdOn, n.updatedOn);
}

/** One page of a namespace's dataset urns, in name order, and how many it has. */
async function datasetUrnsPage(store: Store, namespace: string, page: Page): Promise<{ total: number; urns: string[] }> {
  const { platformUrn, bucket } = namespaceScope(namespace);
  const bucketed = BUCKET_PLATFORMS.some((p) => platformUrn === `urn:li:dataPlatform:${p}`);
  type Row = { total: number; page: string[] };
  const [row] = await store.read((tx) =>
    tx.run<Row>('marquez/datasets-page', {
      platform: platformUrn,
      bucket,
      bucketed,
      skip: int(page.offset),
      limit: int(page.limit),
    }),
  );
  return { total: row?.total ?? 0, urns: row?.page ?? [] };
}

/** GET /namespaces/{ns}/datasets: `{totalCount, datasets}`, in name order. */
export async function listDatasets(store: Store, namespace: string, page: Page): Promise<JsonRecord> {
  const { total, urns } = await datasetUrnsPage(store, namespace, page);
  const aspects = await getLatestAspectsOf(store, urns);
  const datasets = urns.flatMap((u) => {
    const id = datasetIdOfUrn(u);
    return id ? [datasetJson(id, aspects.get(u) ?? new Map())] : [];
  });
  if (!total) await namespaceOrThrow(store, namespace);
  return { totalCount: total, datasets };
}

/** A namespace's JSON and the urns of everything in it (its datasets and OpenLineage jobs), for its soft delete. */
export async function namespaceContents(store: Store, namespace: string): Promise<{ json: JsonRecord; urns: string[] }> {
  const json = await getNamespace(store, namespace);
  const { total, urns } = await datasetUrnsPage(store, namespace, { offset: 0, limit: MAX_NAMESPACE_DELETE });
  const jobs = (await olJobs(store)).filter((j) => j.id.namespace === namespace).map((j) => j.urn);
  if (total + jobs.length > MAX_NAMESPACE_DELETE)
    throw badRequest(`Namespace '${namespace}' holds more than ${MAX_NAMESPACE_DELETE} datasets and jobs: delete them one by one`);
  return { json, urns: [...urns, ...jobs] };
}

/** The stored dataset of Marquez's id, with its latest rows; notFound when it names none. */
export async function datasetRows(store: Store, id: MarquezId) {
  const urn = datasetUrnOfId(id);
  const aspects = urn ? (await getLatestAspectsOf(store, [urn])).get(urn) : undefined;
  const removed = aspects?.get('status')?.value.removed === true;
  if (!urn || !aspects || removed || (!aspects.has('datasetKey') && aspects.size === 0)) throw notFound(`Dataset '${id.name}' not found.`);
  return { urn, aspects };
}

export async function getDataset(store: Store, id: MarquezId): Promise<JsonRecord> {
  const { aspects } = await orUnknownNamespace(store, id.namespace, datasetRows(store, id));
  return datasetJson(id, aspects);
}

/**
 * What a read of one thing in a namespace found; when it found nothing and the namespace is unknown
 * too, the namespace is what is not found (Marquez checks it first). Only a miss pays for the
 * namespaces scan.
 */
async function orUnknownNamespace<T>(store: Store, namespace: string, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (isCatalogError(e) && e.kind === 'notFound') await namespaceOrThrow(store, namespace);
    throw e;
  }
}

const byName = (a: OlJob, b: OlJob) => (a.id.name < b.id.name ? -1 : a.id.name > b.id.name ? 1 : a.id.namespace < b.id.namespace ? -1 : 1);

/** GET /jobs and GET /namespaces/{ns}/jobs: `{totalCount, jobs}`, in name order. */
export async function listJobs(store: Store, namespace: string | undefined, page: Page): Promise<JsonRecord> {
  const jobs = (await olJobs(store)).filter((j) => namespace === undefined || j.id.namespace === namespace).sort(byName);
  if (namespace !== undefined && jobs.length === 0) await namespaceOrThrow(store, namespace);
  return { totalCount: jobs.length, jobs: await jobsJson(store, slice(jobs, page)) };
}

export async function jobOrThrow(store: Store, id: MarquezId): Promise<OlJob> {
  const job = await findOlJob(store, id);
  if (!job) throw notFound(`Job '${id.name}' not found.`);
  return job;
}

export async function getJob(store: Store, id: MarquezId): Promise<JsonRecord> {
  const [json] = await jobsJson(store, [await orUnknownNamespace(store, id.namespace, jobOrThrow(store, id))]);
  return json!;
}

/** GET /namespaces/{ns}/jobs/{job}/runs: `{totalCount, runs}`, latest start first. */
export async function listRuns(store: Store, id: MarquezId, page: Page): Promise<JsonRecord> {
  const urns = await runUrnsOf(store, (await orUnknownNamespace(store, id.namespace, jobOrThrow(store, id))).urn);
  return { totalCount: urns.length, runs: await runsJson(store, slice(urns, page)) };
}

/** A run's urn and latest rows; notFound when it names none. */
async function runRows(store: Store, runId: string) {
  const urn = runUrnOf(runId);
  const aspects = (await getLatestAspectsOf(store, [urn])).get(urn);
  if (!aspects || aspects.get('status')?.value.removed === true || !aspects.has('dataProcessInstanceProperties'))
    throw notFound(`Run '${runId}' not found.`);
  return { urn, aspects };
}

/** GET /jobs/runs/{id}. */
export async function getRun(store: Store, runId: string): Promise<JsonRecord> {
  const { urn } = await runRows(store, runId);
  const [json] = await runsJson(store, [urn]);
  return json!;
}

/**
 * GET /jobs/runs/{id}/facets?type=run|job: `{runId, facets}` — the run's kept facets, or its job's
 * (the job's latest: the catalog keeps a job's facets, not each run's).
 */
export async function getRunFacets(store: Store, runId: string, type: 'RUN' | 'JOB'): Promise<JsonRecord> {
  const { urn, aspects } = await runRows(store, runId);
  const id = urn.slice(urn.lastIndexOf(':') + 1);
  if (type === 'RUN') return { runId: id, facets: keptFacets(aspects) };
  const job = aspects.get('dataProcessInstanceRelationships')?.value.parentTemplate;
  const jobAspects = typeof job === 'string' ? (await getLatestAspectsOf(store, [job])).get(job) : undefined;
  return { runId: id, facets: jobAspects ? keptFacets(jobAspects) : {} };
}
