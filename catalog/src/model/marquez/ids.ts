// Marquez's names for what the catalog stores (docs/marquez-compatibility.md §Namespaces): a dataset urn ↔
// Marquez's (namespace, name), a run's state, a job's type, and the lineage node ids
// (`dataset:<ns>:<name>`, `job:<ns>:<name>`). Pure: the read layer applies them to stored aspects.
import { badRequest } from '../errors.ts';
import { datasetUrnOfName } from '../openlineage/naming.ts';
import { tryParseUrn } from '../urn.ts';

/** Marquez's id of a dataset or a job. */
export interface MarquezId {
  namespace: string;
  name: string;
}

/**
 * Object stores whose bucket the OpenLineage door joins to the dataset's name (naming.ts): the
 * bucket goes back into the namespace as `<platform>://<bucket>`. `file` with no authority is the
 * bare `file` namespace.
 */
const PATH_PLATFORMS: ReadonlySet<string> = new Set(['s3', 'gcs', 'abs', 'dbfs', 'file']);

/** The platforms whose namespace carries the first `/`-separated part of the name. */
export const BUCKET_PLATFORMS: readonly string[] = [...PATH_PLATFORMS];

const decodeNamePart = (s: string) => s.replaceAll('%28', '(').replaceAll('%29', ')').replaceAll('%2C', ',');

/**
 * A dataset urn as Marquez names it: namespace = its platform (`postgres`, `bigquery`), for object
 * stores `<platform>://<bucket>`; name = the urn's name. Only PROD datasets have one: the
 * OpenLineage door writes PROD only, and Marquez's id must name exactly one urn (datasetUrnOfId).
 */
export function datasetIdOfUrn(urn: string): MarquezId | undefined {
  const u = tryParseUrn(urn);
  if (!u || u.entityType !== 'dataset' || u.parts.length !== 3 || u.parts[2] !== 'PROD') return undefined;
  const platform = decodeNamePart(tryParseUrn(u.parts[0]!)?.parts[0] ?? '');
  const name = decodeNamePart(u.parts[1]!);
  if (platform === '') return undefined;
  if (PATH_PLATFORMS.has(platform) && !name.startsWith('/')) {
    const slash = name.indexOf('/');
    if (slash > 0) return { namespace: `${platform}://${name.slice(0, slash)}`, name: name.slice(slash + 1) };
  }
  return { namespace: platform, name };
}

/** The dataset urn of Marquez's (namespace, name): the OpenLineage door's own naming, so both agree. */
export function datasetUrnOfId(id: MarquezId): string | undefined {
  const urn = datasetUrnOfName(id.namespace, id.name);
  const back = datasetIdOfUrn(urn);
  // A namespace Marquez names differently from how it reads back (a host and port: postgres://h:5432)
  // names no dataset here; datasets are listed under the platform alone.
  return back && back.namespace === id.namespace && back.name === id.name ? urn : undefined;
}

/** The platform urn and, for object stores, the bucket a dataset namespace stands for. */
export function namespaceScope(namespace: string): { platformUrn: string; bucket: string | null } {
  const m = /^([a-z0-9_.-]+):\/\/([^/]+)$/.exec(namespace);
  if (m && PATH_PLATFORMS.has(m[1]!)) return { platformUrn: `urn:li:dataPlatform:${m[1]}`, bucket: m[2]! };
  return { platformUrn: `urn:li:dataPlatform:${namespace}`, bucket: null };
}

/** The dataset namespace of a (platform urn, bucket) group the store counted. */
export function namespaceOfScope(platformUrn: string, bucket: string | null): string | undefined {
  const platform = tryParseUrn(platformUrn)?.parts[0];
  if (platform === undefined) return undefined;
  return bucket !== null && PATH_PLATFORMS.has(platform) ? `${platform}://${bucket}` : platform;
}

const RUN_STATES = ['NEW', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * Marquez's run state from the stored run event (docs/lineage-model.md §OpenLineage): STARTED is
 * RUNNING; COMPLETE is COMPLETED, FAILED or ABORTED by the OpenLineage event type kept as the
 * native result type; a run with no run event is NEW.
 */
export function runStateOf(status: string | null, result: string | null, nativeResultType: string | null): RunState {
  if (status === 'STARTED') return 'RUNNING';
  if (status !== 'COMPLETE') return 'NEW';
  if (result === 'SUCCESS') return 'COMPLETED';
  return nativeResultType === 'ABORT' ? 'ABORTED' : 'FAILED';
}

/** Marquez's job type: STREAM for a streaming job, SERVICE as the jobType facet names it, else BATCH. */
export function jobTypeOf(storedType: string | null): 'BATCH' | 'STREAM' | 'SERVICE' {
  const t = (storedType ?? '').toUpperCase();
  if (t === 'STREAMING' || t === 'STREAM') return 'STREAM';
  return t === 'SERVICE' ? 'SERVICE' : 'BATCH';
}

export type LineageNodeId = { type: 'DATASET' | 'JOB'; id: MarquezId };

/**
 * A lineage nodeId: `dataset:<namespace>:<name>` or `job:<namespace>:<name>`. The namespace ends at
 * the first colon that does not start `://` or a port (Marquez's NodeId rule), so
 * `dataset:s3://bucket:path/x` and `dataset:postgres://h:5432:db.t` both parse.
 */
export function parseLineageNodeId(value: string | undefined): LineageNodeId {
  if (value === undefined || value === '') throw badRequest('nodeId is required: dataset:<namespace>:<name> or job:<namespace>:<name>');
  const m = /^(dataset|job):(.*)$/.exec(value);
  if (!m) throw badRequest(`nodeId must start with 'dataset:' or 'job:', got '${value}'`);
  const rest = m[2]!;
  const colon = /:(?!\/\/|\d)/.exec(rest);
  if (!colon || colon.index === 0 || colon.index === rest.length - 1) {
    throw badRequest(`nodeId must be ${m[1]}:<namespace>:<name>, got '${value}'`);
  }
  return {
    type: m[1] === 'dataset' ? 'DATASET' : 'JOB',
    id: { namespace: rest.slice(0, colon.index), name: rest.slice(colon.index + 1) },
  };
}

export const nodeIdOf = (type: 'DATASET' | 'JOB', id: MarquezId) => `${type === 'DATASET' ? 'dataset' : 'job'}:${id.namespace}:${id.name}`;
