// OpenLineage names → DataHub urns (docs/wire-contract.md §OpenLineage), following DataHub's
// OpenLineage converter so both catalogues give an event the same entities:
// - dataset: platform = the namespace's URI scheme (a few renamed as DataHub names them), or the bare
//   namespace when it has none (`bigquery`, `file`); name = the OpenLineage name as sent, host and port
//   dropped; for object stores the bucket (authority) joins the key (`bucket/path`). Origin PROD.
//   A `symlinks` identifier of type TABLE replaces the urn (Glue → glue, anything else → hive).
// - dataFlow: (orchestrator, first dot-separated part of the flow's job name, job namespace), the flow's
//   job being the root (else parent) job of the run's parent facet, else the job itself;
// - dataJob: (its flow, the whole job name); run: dataProcessInstance:<runId>.
import { schemaFieldUrnOf } from '../key-search-fields.ts';
import { facetOf, type OlDataset, type OlJob, type OpenLineageEvent } from './events.ts';

/** DataHub's names for schemes that differ (OpenLineage naming spec → DataHub platform). */
const PLATFORM_OF_SCHEME: Readonly<Record<string, string>> = {
  awsathena: 'athena',
  sqlserver: 'mssql',
  gs: 'gcs',
  abfs: 'abs',
  abfss: 'abs',
  wasb: 'abs',
  wasbs: 'abs',
  s3a: 's3',
  s3n: 's3',
};
/** Object stores and file systems: the authority (bucket, container) is part of the dataset's name. */
const PATH_SCHEMES: ReadonlySet<string> = new Set(['s3', 's3a', 's3n', 'gs', 'gcs', 'abfs', 'abfss', 'wasb', 'wasbs', 'dbfs', 'file']);

/** The urn grammar's characters in a name are percent-encoded, as DataHub's builders do. */
export const encodeNamePart = (s: string) => s.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C');

function datasetUrnOf(platform: string, name: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${encodeNamePart(platform)},${encodeNamePart(name)},PROD)`;
}

/** The dataset urn of an OpenLineage (namespace, name), without symlinks. */
export function datasetUrnOfName(namespace: string, name: string): string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(namespace)?.[1]?.toLowerCase();
  if (scheme === undefined) return datasetUrnOf(namespace.toLowerCase(), name);
  const platform = PLATFORM_OF_SCHEME[scheme] ?? scheme;
  if (!PATH_SCHEMES.has(scheme)) return datasetUrnOf(platform, name);
  // bucket + key: s3://bucket + path/x → bucket/path/x; file:// + /tmp/x → /tmp/x.
  const authority = namespace.slice(scheme.length + 3).replace(/\/+$/, '');
  const key = name.replace(/^\/+/, '');
  const joined = authority === '' ? `/${key}` : `${authority}/${key}`;
  return datasetUrnOf(platform, joined.replace(/\/+$/, ''));
}

/** The dataset urn of a dataset as an event names it: its last TABLE symlink, else its own name. */
export function datasetUrnOfDataset(d: Pick<OlDataset, 'namespace' | 'name' | 'facets'>): string {
  const table = facetOf(d.facets, 'symlinks')
    ?.identifiers.filter((i) => i.type.toUpperCase() === 'TABLE')
    .at(-1);
  if (!table) return datasetUrnOfName(d.namespace, d.name);
  const glue = /^(arn:aws:glue:|aws:glue:)/.test(table.namespace);
  // Glue names its tables `table/<db>/<table>`.
  const name = glue ? table.name.replace(/^table\//, '').replaceAll('/', '.') : table.name;
  return datasetUrnOf(glue ? 'glue' : 'hive', name);
}

/** A column of a dataset as a schemaField urn. */
export function fieldUrnOf(datasetUrn: string, field: string): string {
  return schemaFieldUrnOf(datasetUrn, field);
}

/** Who ran the job: its jobType integration, the processing engine, the producer's integration. */
export function orchestratorOf(
  jobFacets: Record<string, unknown> | undefined,
  runFacets: Record<string, unknown> | undefined,
  producer: string,
): string {
  const fromProducer =
    /\/integration\/([a-z]+)\/?$/i.exec(producer)?.[1] ?? (/github\.com\/apache\/airflow/i.test(producer) ? 'airflow' : undefined);
  const candidates = [facetOf(jobFacets, 'jobType')?.integration, facetOf(runFacets, 'processing_engine')?.name, fromProducer];
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
  return found
    ? found
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9_.-]/g, '_')
    : 'unknown';
}

/** The job that gives a run its flow: the root job of its parent facet, else the parent job, else itself. */
export function flowJobOf(
  job: Pick<OlJob, 'namespace' | 'name'>,
  runFacets: Record<string, unknown> | undefined,
): { namespace: string; name: string } {
  const parent = facetOf(runFacets, 'parent');
  return parent?.root?.job ?? parent?.job ?? job;
}

export function dataFlowUrnOf(orchestrator: string, flowJob: { namespace: string; name: string }): string {
  const flowId = flowJob.name.split('.')[0] || flowJob.name;
  return `urn:li:dataFlow:(${encodeNamePart(orchestrator)},${encodeNamePart(flowId)},${encodeNamePart(flowJob.namespace)})`;
}

export function dataJobUrnOf(flowUrn: string, jobName: string): string {
  return `urn:li:dataJob:(${flowUrn},${encodeNamePart(jobName)})`;
}

export function runUrnOf(runId: string): string {
  return `urn:li:dataProcessInstance:${runId.toLowerCase()}`;
}

/** The entities a job or run event names: its flow and job, and for a run event the run and its parent run. */
export interface JobEventNames {
  orchestrator: string;
  flowUrn: string;
  jobUrn: string;
  runUrn: string | undefined;
  parentUrn: string | undefined;
}

export function jobEventNamesOf(e: Extract<OpenLineageEvent, { kind: 'run' | 'job' }>): JobEventNames {
  const runFacets = e.kind === 'run' ? e.runFacets : {};
  const orchestrator = orchestratorOf(e.job.facets, runFacets, e.producer);
  const flowUrn = dataFlowUrnOf(orchestrator, flowJobOf(e.job, runFacets));
  const parentRun = facetOf(runFacets, 'parent')?.run.runId;
  return {
    orchestrator,
    flowUrn,
    jobUrn: dataJobUrnOf(flowUrn, e.job.name),
    runUrn: e.kind === 'run' ? runUrnOf(e.runId) : undefined,
    parentUrn: parentRun ? runUrnOf(parentRun) : undefined,
  };
}
