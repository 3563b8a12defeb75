// The jobs Marquez's API serves (docs/marquez-compatibility.md §Jobs): the dataJobs the OpenLineage door wrote,
// named by the OpenLineage namespace and name their dataJobInfo keeps; their runs are the
// dataProcessInstances the door keeps.
import { asRecord, type JsonRecord } from '../../model/json.ts';
import type { MarquezId } from '../../model/marquez/ids.ts';
import { encodeNamePart } from '../../model/openlineage/naming.ts';
import { UNIT_SEPARATOR } from '../../model/urn.ts';
import { int, type Store } from '../../store/store.ts';
import { getLatestAspectsOf } from '../aspect-reader.ts';
import { jobJson, runJson, type Aspects, type JobContext } from './render.ts';

/** A job the OpenLineage door wrote, as the store lists it. */
export interface OlJob {
  urn: string;
  id: MarquezId;
  info: JsonRecord;
  createdOn: number;
  updatedOn: number;
}

const suffix = (aspect: string) => `${UNIT_SEPARATOR}${aspect}${UNIT_SEPARATOR}0`;
/** Runs read for one job; a job with more is listed with its most recently written this many. */
const MAX_RUNS_READ = 10_000;
/** Marquez's latestRuns: the job's last few runs. */
const LATEST_RUNS = 10;

/** The OpenLineage door's jobs, or those named `name` (in any namespace). */
export async function olJobs(store: Store, name?: string): Promise<OlJob[]> {
  type Row = { urn: string; info: string; createdOn: number | null; updatedOn: number | null };
  const rows = await store.read((tx) =>
    tx.run<Row>('marquez/jobs', { name: name === undefined ? null : encodeNamePart(name), infoSuffix: suffix('dataJobInfo') }),
  );
  return rows.flatMap((r) => {
    const info = asRecord(JSON.parse(r.info)) ?? {};
    const custom = asRecord(info.customProperties);
    const namespace = custom?.['openlineage.namespace'];
    const jobName = custom?.['openlineage.name'];
    if (typeof namespace !== 'string' || typeof jobName !== 'string') return [];
    return [{ urn: r.urn, id: { namespace, name: jobName }, info, createdOn: r.createdOn ?? 0, updatedOn: r.updatedOn ?? 0 }];
  });
}

/** The job of Marquez's (namespace, name), if the OpenLineage door wrote one. */
export async function findOlJob(store: Store, id: MarquezId): Promise<OlJob | undefined> {
  return (await olJobs(store, id.name)).find((j) => j.id.namespace === id.namespace && j.id.name === id.name);
}

/** A job's run urns, latest start first. */
export async function runUrnsOf(store: Store, jobUrn: string): Promise<string[]> {
  type Row = { urn: string; properties: string | null };
  const rows = await store.read((tx) =>
    tx.run<Row>('details/job-runs', {
      urn: jobUrn,
      propertiesSuffix: suffix('dataProcessInstanceProperties'),
      runEventSuffix: suffix('dataProcessInstanceRunEvent'),
      limit: int(MAX_RUNS_READ),
    }),
  );
  const startOf = (r: Row) => {
    const t = asRecord(asRecord(r.properties ? JSON.parse(r.properties) : null)?.created)?.time;
    return typeof t === 'number' ? t : 0;
  };
  return rows
    .map((r) => ({ urn: r.urn, start: startOf(r) }))
    .sort((a, b) => b.start - a.start || a.urn.localeCompare(b.urn))
    .map((r) => r.urn);
}

/** Runs as Marquez renders them, in the order given. */
export async function runsJson(store: Store, urns: readonly string[]): Promise<JsonRecord[]> {
  const aspects = await getLatestAspectsOf(store, urns);
  return urns.map((u) => runJson(u, aspects.get(u) ?? new Map()));
}

/**
 * Jobs as Marquez renders them: their rows, last runs and parent job (the job of the latest run's
 * parent run, by its OpenLineage name).
 */
export async function jobsJson(store: Store, jobs: readonly OlJob[]): Promise<JsonRecord[]> {
  const rendered = await jobContexts(store, jobs);
  return rendered.map(({ context, aspects }) => jobJson(context, aspects));
}

/** Each job's context and latest rows, for the job and lineage renderings. */
export async function jobContexts(store: Store, jobs: readonly OlJob[]): Promise<Array<{ context: JobContext; aspects: Aspects }>> {
  const aspects = await getLatestAspectsOf(
    store,
    jobs.map((j) => j.urn),
  );
  const runUrns = await Promise.all(jobs.map((j) => runUrnsOf(store, j.urn).then((us) => us.slice(0, LATEST_RUNS))));
  const allRuns = runUrns.flat();
  const runAspects = await getLatestAspectsOf(store, allRuns);
  const parentRunOf = (runUrn: string | undefined) => {
    const p = runUrn ? runAspects.get(runUrn)?.get('dataProcessInstanceRelationships')?.value.parentInstance : undefined;
    return typeof p === 'string' ? p : undefined;
  };
  const parentRuns = [
    ...new Set(
      runUrns.flatMap((us) => {
        const p = parentRunOf(us[0]);
        return p ? [p] : [];
      }),
    ),
  ];
  const parentRunAspects = await getLatestAspectsOf(store, parentRuns);
  const templateOf = (run: string) => parentRunAspects.get(run)?.get('dataProcessInstanceRelationships')?.value.parentTemplate;
  const templates = [
    ...new Set(
      parentRuns.flatMap((r) => {
        const t = templateOf(r);
        return typeof t === 'string' ? [t] : [];
      }),
    ),
  ];
  const templateAspects = await getLatestAspectsOf(store, templates);
  const olNameOf = (jobUrn: unknown) => {
    const custom = typeof jobUrn === 'string' ? asRecord(templateAspects.get(jobUrn)?.get('dataJobInfo')?.value.customProperties) : null;
    return typeof custom?.['openlineage.name'] === 'string' ? custom['openlineage.name'] : null;
  };
  return jobs.map((j, i) => {
    const runs = runUrns[i]!.map((u) => runJson(u, runAspects.get(u) ?? new Map()));
    const parentRun = parentRunOf(runUrns[i]![0]);
    return {
      context: { id: j.id, info: j.info, runs, parentJobName: parentRun ? olNameOf(templateOf(parentRun)) : null },
      aspects: aspects.get(j.urn) ?? new Map(),
    };
  });
}
