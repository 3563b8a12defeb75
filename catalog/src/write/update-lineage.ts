// GraphQL updateLineage (docs/wire-contract.md §GraphQL). Everything a client can get wrong is
// checked before anything is written, in DataHub's order and with DataHub's messages; then every
// affected aspect is read, modified and written in ONE transaction through the normal aspect-write
// path, so a failing request has changed nothing ([Improvement] over DataHub's per-downstream writes).
import { writeAspectsInTx, type AspectChange } from './aspect-writer.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import { existenceOf } from '../store/existence.ts';
import { forbidden, validationFailed } from '../model/errors.ts';
import type { JsonRecord } from '../model/json.ts';
import { can, editLineageDenied, type Actor } from '../model/privileges.ts';
import { InvalidUrnError, parseUrn, tryParseUrn, type Urn } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';

export interface LineageEdgeInput {
  downstreamUrn: string;
  upstreamUrn: string;
}

export interface UpdateLineageInput {
  edgesToAdd: LineageEdgeInput[];
  edgesToRemove: LineageEdgeInput[];
}

/** The lineage fields updateLineage writes, one per supported (upstream, downstream) pair. */
export const LINEAGE_FIELDS = {
  datasetUpstreams: { aspect: 'upstreamLineage', edges: 'upstreams', legacy: null },
  chartInputs: { aspect: 'chartInfo', edges: 'inputEdges', legacy: 'inputs' },
  dashboardCharts: { aspect: 'dashboardInfo', edges: 'chartEdges', legacy: 'charts' },
  dashboardDatasets: { aspect: 'dashboardInfo', edges: 'datasetEdges', legacy: 'datasets' },
  jobInputDatasets: { aspect: 'dataJobInputOutput', edges: 'inputDatasetEdges', legacy: 'inputDatasets' },
  jobInputJobs: { aspect: 'dataJobInputOutput', edges: 'inputDatajobEdges', legacy: 'inputDatajobs' },
  jobOutputDatasets: { aspect: 'dataJobInputOutput', edges: 'outputDatasetEdges', legacy: 'outputDatasets' },
} as const;

export type LineageField = keyof typeof LINEAGE_FIELDS;
export type LineageAspect = (typeof LINEAGE_FIELDS)[LineageField]['aspect'];

/** Where one edge is recorded: an aspect of `owner`, listing `other`. */
export interface PairTarget {
  field: LineageField;
  owner: Urn;
  other: Urn;
}

export type PairResolution = { ok: true; target: PairTarget } | { ok: false; message: string };

const nonDatasetMessage = (urn: string) =>
  `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${urn}`;

/** updateLineage's pair table (§GraphQL); rejections carry DataHub's texts (its step 4). */
export function resolvePair(upstream: Urn, downstream: Urn): PairResolution {
  const u = upstream.entityType;
  const onDownstream = (field: LineageField): PairResolution => ({ ok: true, target: { field, owner: downstream, other: upstream } });
  switch (downstream.entityType) {
    case 'dataset':
      if (u === 'dataset') return onDownstream('datasetUpstreams');
      // A job's outputs live on the job, not on the dataset.
      if (u === 'dataJob') return { ok: true, target: { field: 'jobOutputDatasets', owner: upstream, other: downstream } };
      return { ok: false, message: nonDatasetMessage(upstream.text) };
    case 'chart':
      if (u === 'dataset' || u === 'chart') return onDownstream('chartInputs');
      return { ok: false, message: `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${upstream.text}` };
    case 'dashboard':
      if (u === 'chart') return onDownstream('dashboardCharts');
      if (u === 'dataset') return onDownstream('dashboardDatasets');
      return { ok: false, message: `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${upstream.text}` };
    case 'dataJob':
      if (u === 'dataset') return onDownstream('jobInputDatasets');
      if (u === 'dataJob') return onDownstream('jobInputJobs');
      // "datJob" (sic) is DataHub's text.
      return { ok: false, message: `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${upstream.text}` };
    default:
      // DataHub validates a job's downstreams as datasets and names the downstream (sic).
      if (u === 'dataJob') return { ok: false, message: nonDatasetMessage(downstream.text) };
      return {
        ok: false,
        message: `Unsupported lineage edge: ${upstream.text} (${upstream.entityType}) -> ${downstream.text} (${downstream.entityType})`,
      };
  }
}

export interface AuditStamp {
  time: number;
  actor: string;
}

export interface LineageEdit {
  op: 'add' | 'remove';
  field: LineageField;
  /** Canonical urn of the other end. */
  other: string;
}

/** Canonical text of a stored urn, so `urn:li:y:(x)` matches `urn:li:y:x`. */
const canonical = (text: unknown): string | undefined => (typeof text === 'string' ? (tryParseUrn(text)?.text ?? text) : undefined);

/** The aspect value an absent aspect starts from, or undefined when it must already exist. */
export function emptyAspect(aspect: LineageAspect): JsonRecord | undefined {
  if (aspect === 'upstreamLineage') return { upstreams: [] };
  if (aspect === 'dataJobInputOutput') return { inputDatasets: [], outputDatasets: [] };
  return undefined;
}

function listedUrns(field: LineageField, value: JsonRecord): string[] {
  const spec = LINEAGE_FIELDS[field];
  const out: string[] = [];
  const edges = value[spec.edges];
  if (Array.isArray(edges)) {
    for (const e of edges as JsonRecord[]) {
      const urn = canonical(field === 'datasetUpstreams' ? e?.dataset : e?.destinationUrn);
      if (urn) out.push(urn);
    }
  }
  const legacy = spec.legacy === null ? undefined : value[spec.legacy];
  if (Array.isArray(legacy)) {
    for (const x of legacy as unknown[]) {
      // chartInfo.inputs holds ChartDataSourceType unions: {"string": urn}.
      const urn = canonical(field === 'chartInputs' ? (x as JsonRecord | null)?.string : x);
      if (urn) out.push(urn);
    }
  }
  return out;
}

function withoutUrn(list: unknown, matches: (item: unknown) => boolean): unknown[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const kept = list.filter((x) => !matches(x));
  return kept.length === list.length ? undefined : kept;
}

/**
 * Applies edits to one aspect value (pure). Adds come before removes, whatever the order given, so
 * an edge both added and removed ends absent. Returns the new value, or undefined when nothing
 * changed (re-adding a listed edge, removing an unlisted one): no new version then.
 */
export function applyLineageEdits(
  aspect: LineageAspect,
  current: JsonRecord | undefined,
  owner: string,
  edits: readonly LineageEdit[],
  stamp: AuditStamp,
): JsonRecord | undefined {
  const start = current ?? emptyAspect(aspect);
  if (start === undefined) {
    // chartInfo/dashboardInfo: additions were validated to find one; removals have nothing to remove.
    if (edits.some((e) => e.op === 'add')) throw new Error(`${aspect} of ${owner} is missing`);
    return undefined;
  }
  const before = JSON.stringify(start);
  const value = JSON.parse(before) as JsonRecord;
  for (const e of edits) {
    if (e.op !== 'add' || LINEAGE_FIELDS[e.field].aspect !== aspect) continue;
    if (listedUrns(e.field, value).includes(e.other)) continue;
    const spec = LINEAGE_FIELDS[e.field];
    const list = Array.isArray(value[spec.edges]) ? (value[spec.edges] as unknown[]) : [];
    list.push(
      e.field === 'datasetUpstreams'
        ? { dataset: e.other, type: 'TRANSFORMED', auditStamp: { ...stamp }, created: { ...stamp }, properties: { source: 'UI' } }
        : { sourceUrn: owner, destinationUrn: e.other, created: { ...stamp }, lastModified: { ...stamp }, properties: { source: 'UI' } },
    );
    value[spec.edges] = list;
  }
  for (const e of edits) {
    if (e.op !== 'remove' || LINEAGE_FIELDS[e.field].aspect !== aspect) continue;
    const spec = LINEAGE_FIELDS[e.field];
    const edgeUrn = (x: unknown) => canonical(e.field === 'datasetUpstreams' ? (x as JsonRecord | null)?.dataset : (x as JsonRecord | null)?.destinationUrn);
    const keptEdges = withoutUrn(value[spec.edges], (x) => edgeUrn(x) === e.other);
    if (keptEdges) value[spec.edges] = keptEdges;
    if (spec.legacy !== null) {
      const legacyUrn = (x: unknown) => canonical(e.field === 'chartInputs' ? (x as JsonRecord | null)?.string : x);
      const keptLegacy = withoutUrn(value[spec.legacy], (x) => legacyUrn(x) === e.other);
      if (keptLegacy) value[spec.legacy] = keptLegacy;
    }
  }
  return JSON.stringify(value) === before ? undefined : value;
}

interface ParsedEdge {
  op: 'add' | 'remove';
  upstream: Urn;
  downstream: Urn;
}

function parseEdgeUrn(text: string): Urn {
  try {
    return parseUrn(text);
  } catch (e) {
    if (e instanceof InvalidUrnError) throw validationFailed(`Invalid urn: ${text}`);
    throw e;
  }
}

/** The checks of updateLineage's steps 1–5 (§GraphQL), in order; returns each edge with where it is written. */
async function validate(store: Store, input: UpdateLineageInput, actor: Actor): Promise<Array<ParsedEdge & { target: PairTarget }>> {
  const raw: Array<[ParsedEdge['op'], LineageEdgeInput]> = [
    ...(input.edgesToAdd ?? []).map((e): [ParsedEdge['op'], LineageEdgeInput] => ['add', e]),
    ...(input.edgesToRemove ?? []).map((e): [ParsedEdge['op'], LineageEdgeInput] => ['remove', e]),
  ];

  // 1. Every urn parses.
  const edges: ParsedEdge[] = raw.map(([op, e]) => ({ op, upstream: parseEdgeUrn(e.upstreamUrn), downstream: parseEdgeUrn(e.downstreamUrn) }));

  // 2. EDIT_LINEAGE or EDIT_ENTITY on both ends, upstream first (DataHub's order).
  for (const e of edges) {
    for (const u of [e.upstream, e.downstream]) {
      if (!can(actor, 'EDIT_LINEAGE')) throw forbidden(editLineageDenied(u.entityType));
    }
  }

  const existence = edges.length
    ? await store.read((tx) => existenceOf(tx, [...new Map(edges.flatMap((e) => [e.downstream, e.upstream]).map((u) => [u.text, u])).values()]))
    : new Map<string, { exists: boolean }>();
  const exists = (u: Urn) => existence.get(u.text)?.exists === true;

  // 3. Every downstream exists (soft-deleted counts: existenceOf reports it as existing).
  for (const e of edges) {
    if (!exists(e.downstream)) throw validationFailed(`Cannot upsert lineage as downstream urn ${e.downstream.text} doesn't exist`);
  }

  // 4. Every pair is supported, additions and removals alike.
  const resolved = edges.map((e) => {
    const r = resolvePair(e.upstream, e.downstream);
    if (!r.ok) throw validationFailed(r.message);
    return { ...e, target: r.target };
  });

  // 5. Every upstream exists. DataHub checks additions written on the downstream's aspect first
  // (its per-downstream pass), then every upstream of both lists (its per-upstream pass).
  for (const e of resolved) {
    if (e.op === 'add' && e.target.owner === e.downstream && !exists(e.upstream)) {
      throw validationFailed(`Error: urn does not exist: ${e.upstream.text}`);
    }
  }
  for (const e of resolved) {
    if (!exists(e.upstream)) throw validationFailed(`Cannot upsert lineage as downstream urn ${e.upstream.text} doesn't exist`);
  }
  return resolved;
}

/**
 * Applies the edits of one updateLineage request. Resolves true; throws a CatalogError (400/403)
 * and writes nothing when any check fails.
 */
export async function updateLineage(store: Store, input: UpdateLineageInput, actor: Actor, options?: { now?: number }): Promise<true> {
  const edges = await validate(store, input, actor);
  if (!edges.length) return true;

  // Group the edits by the aspect that records them, keeping input order inside each group.
  const groups = new Map<string, { owner: Urn; aspect: LineageAspect; edits: LineageEdit[] }>();
  for (const e of edges) {
    const aspect = LINEAGE_FIELDS[e.target.field].aspect;
    const key = rowKey(e.target.owner.text, aspect);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { owner: e.target.owner, aspect, edits: [] }));
    g.edits.push({ op: e.op, field: e.target.field, other: e.target.other.text });
  }

  await store.write(async (tx: Tx) => {
    // The clock is read per attempt: a retried transaction re-reads the rows and restamps.
    const now = options?.now ?? Date.now();
    const stamp: AuditStamp = { time: now, actor: actor.urn };
    // Lock the owners (sorted: one global order) before reading, so a concurrent request on the same
    // entity waits and then sees this one's result: read-modify-write loses nothing.
    await tx.run('aspects/lock-entities', { rows: lockRows([...groups.values()].map((g) => g.owner)) });
    const rows = await tx.run<{ key: string; value: string }>('aspects/fetch-latest', { keys: [...groups.keys()] });
    const stored = new Map(rows.map((r) => [r.key, JSON.parse(r.value) as JsonRecord]));

    // 6. Additions onto a chart/dashboard need its info aspect. Checked under the lock, before any write.
    for (const [key, g] of groups) {
      if (emptyAspect(g.aspect) !== undefined || stored.has(key) || !g.edits.some((e) => e.op === 'add')) continue;
      const kind = g.aspect === 'chartInfo' ? 'chart' : 'dashboard';
      throw validationFailed(`Failed to update ${kind} lineage for urn ${g.owner.text} as ${kind} info doesn't exist`);
    }

    const changes: AspectChange[] = [];
    for (const [key, g] of groups) {
      const next = applyLineageEdits(g.aspect, stored.get(key), g.owner.text, g.edits, stamp);
      if (next !== undefined) changes.push({ urn: g.owner, aspectName: g.aspect, changeType: 'UPSERT', value: next });
    }
    if (changes.length) await writeAspectsInTx(tx, changes, { actor: actor.urn, existenceMode: 'relaxed', now });
  });
  return true;
}
