// GraphQL updateLineage (docs/wire-contract.md §GraphQL). Everything a client can get wrong is
// checked before anything is written, in DataHub's order and with DataHub's messages; then every
// affected aspect is read, modified and written in ONE transaction through the normal aspect-write
// path, so a failing request has changed nothing ([Improvement] over DataHub's per-downstream writes).
import { writeAspectsInTx, type AspectChange } from './aspect-writer.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import { existenceOf } from '../store/existence.ts';
import { validationFailed } from '../model/errors.ts';
import type { FieldShape } from '../model/entity-types.ts';
import { descriptorOf } from '../model/entity-registry.ts';
import type { JsonRecord } from '../model/json.ts';
import { editLineageDenied, type Actor } from '../model/privileges.ts';
import { authorizeOnEach } from './authorize.ts';
import { parseUrn, tryParseUrn, type Urn } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';

export interface LineageEdgeInput {
  downstreamUrn: string;
  upstreamUrn: string;
}

export interface UpdateLineageInput {
  edgesToAdd: LineageEdgeInput[];
  edgesToRemove: LineageEdgeInput[];
}

/**
 * A field updateLineage writes: an edge rule its owner's descriptor marks `updateLineage`
 * (entity-types.ts), with the legacy urn list of the same edges.
 */
interface LineageField {
  aspect: string;
  /** The Edge[] (or, upstreamLineage, Upstream[]) field new edges go to. */
  field: string;
  shape: FieldShape;
  legacy: { field: string; shape: FieldShape } | null;
}

/** The fields updateLineage may write in one aspect of an entity type's descriptor. */
function editableFields(entityType: string, aspect: string): LineageField[] {
  const owned = descriptorOf(entityType)?.aspects;
  const rules = owned && Object.hasOwn(owned, aspect) ? (owned[aspect]?.edges ?? []) : [];
  return rules.flatMap((r) => {
    if (!r.updateLineage) return [];
    const legacyField = r.updateLineage.legacy;
    const legacy = legacyField === undefined ? undefined : rules.find((l) => l.field === legacyField);
    return [{ aspect, field: r.field, shape: r.shape, legacy: legacy ? { field: legacy.field, shape: legacy.shape } : null }];
  });
}

/** The field of `owner` an edge to `other` is written in, when the owner's descriptor has one for that end. */
function fieldFor(owner: string, lineage: 'upstream' | 'downstream', other: string): LineageField | undefined {
  for (const [aspect, owned] of Object.entries(descriptorOf(owner)?.aspects ?? {})) {
    const rule = owned.edges?.find((r) => r.updateLineage && r.lineage === lineage && r.to.includes(other));
    if (rule) return editableFields(owner, aspect).find((f) => f.field === rule.field);
  }
  return undefined;
}

/** Where one edge is recorded: an aspect of `owner`, listing `other`. */
interface PairTarget {
  field: LineageField;
  owner: Urn;
  other: Urn;
}

export type PairResolution = { ok: true; target: PairTarget } | { ok: false; message: string };

/** DataHub's rejection when `type` gets an upstream it does not accept, naming `urn`; undefined = none of its own. */
const rejectionOf = (type: string, urn: string) => descriptorOf(type)?.modelled?.updateLineageRejection?.replace('{urn}', () => urn);

/**
 * updateLineage's pair table (§GraphQL), from the descriptors: the edge is written on the downstream
 * when one of its fields lists upstreams of that type, else on the upstream when one of its fields
 * lists downstreams of that type (a job's outputs). Rejections carry DataHub's texts (its step 4).
 */
export function resolvePair(upstream: Urn, downstream: Urn): PairResolution {
  const u = upstream.entityType;
  const d = downstream.entityType;
  const onDownstream = fieldFor(d, 'upstream', u);
  if (onDownstream) return { ok: true, target: { field: onDownstream, owner: downstream, other: upstream } };
  const onUpstream = fieldFor(u, 'downstream', d);
  if (onUpstream) return { ok: true, target: { field: onUpstream, owner: upstream, other: downstream } };
  const rejection = rejectionOf(d, upstream.text);
  if (rejection) return { ok: false, message: rejection };
  // DataHub validates an upstream's downstreams as the type its outputs list (a job's: datasets) and
  // names the downstream (sic).
  const outputsOf = Object.values(descriptorOf(u)?.aspects ?? {})
    .flatMap((a) => a.edges ?? [])
    .find((r) => r.updateLineage && r.lineage === 'downstream');
  const asOutput = outputsOf?.to.length === 1 ? rejectionOf(outputsOf.to[0]!, downstream.text) : undefined;
  if (asOutput) return { ok: false, message: asOutput };
  return { ok: false, message: `Unsupported lineage edge: ${upstream.text} (${u}) -> ${downstream.text} (${d})` };
}

export interface AuditStamp {
  time: number;
  actor: string;
}

export interface LineageEdit {
  op: 'add' | 'remove';
  /** The field (of the aspect being edited) the edge is written in: `upstreams`, `inputEdges`, … */
  field: string;
  /** Canonical urn of the other end. */
  other: string;
}

/** Canonical text of a stored urn, so `urn:li:y:(x)` matches `urn:li:y:x`. */
const canonical = (text: unknown): string | undefined => (typeof text === 'string' ? (tryParseUrn(text)?.text ?? text) : undefined);

/** The urn one element of a field names, by the field's shape (entity-types.ts FieldShape). */
function urnOfElement(shape: FieldShape, x: unknown): string | undefined {
  const record = x as JsonRecord | null;
  switch (shape) {
    case 'upstreams':
      return canonical(record?.dataset);
    case 'edges':
      return canonical(record?.destinationUrn);
    // chartInfo.inputs holds ChartDataSourceType unions: {"string": urn}.
    case 'unionList':
      return canonical(record?.string);
    default:
      return canonical(x);
  }
}

/** The aspect value an absent aspect starts from, or undefined when it must already exist. */
function emptyAspect(entityType: string, aspect: string): JsonRecord | undefined {
  const owned = descriptorOf(entityType)?.aspects;
  const start = owned && Object.hasOwn(owned, aspect) ? owned[aspect]?.updateLineageStart : undefined;
  return start && Object.fromEntries(start.map((a) => [a, []]));
}

function listedUrns(spec: LineageField, value: JsonRecord): string[] {
  const out: string[] = [];
  for (const [field, shape] of [
    [spec.field, spec.shape],
    ...(spec.legacy ? [[spec.legacy.field, spec.legacy.shape] as const] : []),
  ] as const) {
    const list = value[field];
    if (!Array.isArray(list)) continue;
    for (const x of list) {
      const urn = urnOfElement(shape, x);
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
 * Applies edits to one aspect value of `owner` (pure). Adds come before removes, whatever the order
 * given, so an edge both added and removed ends absent. Returns the new value, or undefined when
 * nothing changed (re-adding a listed edge, removing an unlisted one): no new version then.
 */
export function applyLineageEdits(
  aspect: string,
  current: JsonRecord | undefined,
  owner: string,
  edits: readonly LineageEdit[],
  stamp: AuditStamp,
): JsonRecord | undefined {
  const ownerType = parseUrn(owner).entityType;
  const fields = new Map(editableFields(ownerType, aspect).map((f) => [f.field, f]));
  const start = current ?? emptyAspect(ownerType, aspect);
  if (start === undefined) {
    // chartInfo/dashboardInfo: additions were validated to find one; removals have nothing to remove.
    if (edits.some((e) => e.op === 'add')) throw new Error(`${aspect} of ${owner} is missing`);
    return undefined;
  }
  const before = JSON.stringify(start);
  const value = JSON.parse(before) as JsonRecord;
  for (const e of edits) {
    const spec = fields.get(e.field);
    if (e.op !== 'add' || !spec) continue;
    if (listedUrns(spec, value).includes(e.other)) continue;
    const list = Array.isArray(value[spec.field]) ? (value[spec.field] as unknown[]) : [];
    list.push(
      spec.shape === 'upstreams'
        ? { dataset: e.other, type: 'TRANSFORMED', auditStamp: { ...stamp }, created: { ...stamp }, properties: { source: 'UI' } }
        : { sourceUrn: owner, destinationUrn: e.other, created: { ...stamp }, lastModified: { ...stamp }, properties: { source: 'UI' } },
    );
    value[spec.field] = list;
  }
  for (const e of edits) {
    const spec = fields.get(e.field);
    if (e.op !== 'remove' || !spec) continue;
    const keptEdges = withoutUrn(value[spec.field], (x) => urnOfElement(spec.shape, x) === e.other);
    if (keptEdges) value[spec.field] = keptEdges;
    if (spec.legacy !== null) {
      const legacy = spec.legacy;
      const keptLegacy = withoutUrn(value[legacy.field], (x) => urnOfElement(legacy.shape, x) === e.other);
      if (keptLegacy) value[legacy.field] = keptLegacy;
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
  const urn = tryParseUrn(text);
  if (!urn) throw validationFailed(`Invalid urn: ${text}`);
  return urn;
}

/** The checks of updateLineage's steps 1–5 (§GraphQL), in order; returns each edge with where it is written. */
async function validate(store: Store, input: UpdateLineageInput, actor: Actor): Promise<Array<ParsedEdge & { target: PairTarget }>> {
  const raw: Array<[ParsedEdge['op'], LineageEdgeInput]> = [
    ...(input.edgesToAdd ?? []).map((e): [ParsedEdge['op'], LineageEdgeInput] => ['add', e]),
    ...(input.edgesToRemove ?? []).map((e): [ParsedEdge['op'], LineageEdgeInput] => ['remove', e]),
  ];

  // 1. Every urn parses.
  const edges: ParsedEdge[] = raw.map(([op, e]) => ({
    op,
    upstream: parseEdgeUrn(e.upstreamUrn),
    downstream: parseEdgeUrn(e.downstreamUrn),
  }));

  // 2. EDIT_LINEAGE or EDIT_ENTITY on both ends of every edge, upstream first (DataHub's order); the
  // first end denied is the one named. Policies may grant it on some entities only (write/authorize.ts).
  await authorizeOnEach(
    store,
    actor,
    'EDIT_LINEAGE',
    edges.flatMap((e) => [e.upstream.text, e.downstream.text]),
    (urn) => editLineageDenied(parseUrn(urn).entityType),
  );

  const existence = edges.length
    ? await store.read((tx) =>
        existenceOf(tx, [...new Map(edges.flatMap((e) => [e.downstream, e.upstream]).map((u) => [u.text, u])).values()]),
      )
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
  const groups = new Map<string, { owner: Urn; aspect: string; edits: LineageEdit[] }>();
  for (const e of edges) {
    const aspect = e.target.field.aspect;
    const key = rowKey(e.target.owner.text, aspect);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { owner: e.target.owner, aspect, edits: [] }));
    g.edits.push({ op: e.op, field: e.target.field.field, other: e.target.other.text });
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
      if (emptyAspect(g.owner.entityType, g.aspect) !== undefined || stored.has(key) || !g.edits.some((e) => e.op === 'add')) continue;
      const kind = g.owner.entityType;
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
