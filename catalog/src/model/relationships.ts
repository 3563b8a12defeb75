// Relationship derivation (docs/lineage-model.md §Derivation): turns one stored aspect value into
// the typed edges its owner's descriptor declares (model/entity-types.ts), and decides which of
// them are lineage from the (source type, relationship, destination type) triple. Pure: no database
// access. Aspect values arrive already validated, but are read defensively as plain JSON so that a
// restated old row (or an aspect of a registered type without a schema) can never throw here.
import { createHash } from 'node:crypto';
import { parseUrnOrThrow, tryParseUrn, type Urn } from './urn.ts';
import { type LineageEnd, type LineageTriple, tripleKey } from './build-entity-registry.ts';
import { descriptorOf, entityRegistry } from './entity-registry.ts';
import { schemaFieldUrnOf } from './key-search-fields.ts';
import { COMMON_ASPECTS } from './descriptors/common-aspects.ts';
import { FIELD_PARENT_TYPES } from './descriptors/datasets.ts';
import type { EdgeRule, OwnedAspect, RelationshipType } from './entity-types.ts';
import { validationFailed } from './errors.ts';
import { asRecord, type JsonRecord } from './json.ts';

export { RELATIONSHIP_TYPES, type RelationshipType } from './entity-types.ts';
export type { LineageEnd, LineageTriple } from './build-entity-registry.ts';

export interface DerivedEdge {
  /** sha1 hex of [source, type, destination, owner, aspect]: the identity of the stored edge. */
  key: string;
  type: RelationshipType;
  source: string;
  destination: string;
  /** Urn of the entity whose aspect declared the edge. */
  owner: string;
  aspect: string;
  createdOn: number | null;
  createdActor: string | null;
  updatedOn: number | null;
  updatedActor: string | null;
  properties: Record<string, string> | null;
  via: string | null;
  /** properties.source === 'UI': exempt from time windows (§Derivation). */
  manual: boolean;
  /** Present iff this typed edge is a lineage edge per the registry triple and not a self-edge. */
  lineage: { upstream: string; downstream: string } | null;
}

export interface DeriveEdgesInput {
  urn: string;
  entityType: string;
  aspectName: string;
  value: unknown;
  /** systemMetadata.lastObserved of the write, epoch ms. */
  writeTime: number;
  /** Urn of the writer. */
  actor: string;
}

// ---------------------------------------------------------------------------------------------
// The lineage registry: the triples the process registry derived from the descriptors' edge rules
// (DataHub's LineageRegistry, entity-registry.ts)

/**
 * The rules an aspect follows on an entity type: the type's own (its descriptor), else the common
 * ones any type may hold; undefined when the aspect derives nothing there.
 */
function rulesOf(entityType: string, aspectName: string): OwnedAspect | undefined {
  const own = descriptorOf(entityType)?.aspects;
  if (own && Object.hasOwn(own, aspectName)) return own[aspectName];
  return Object.hasOwn(COMMON_ASPECTS, aspectName) ? COMMON_ASPECTS[aspectName] : undefined;
}

/** Every lineage triple: the edge rules marked lineage, plus schemaField→schemaField column lineage. */
export function lineageTriples(): readonly LineageTriple[] {
  return entityRegistry().lineageTriples;
}

/** Whether the destination of such a typed edge is its upstream or downstream end; null = not lineage. */
export function lineageDirectionOf(sourceType: string, type: RelationshipType, destinationType: string): LineageEnd | null {
  return entityRegistry().lineageDirections.get(tripleKey(sourceType, type, destinationType)) ?? null;
}

/** Whether an entity type takes part in some lineage triple; lineage from any other type is empty. */
export function hasLineage(entityType: string): boolean {
  return entityRegistry().lineageEntityTypes.has(entityType);
}

/** Whether an aspect can derive a lineage edge on some entity type (the existence rule checks its urns). */
export function isLineageAspect(aspectName: string): boolean {
  return entityRegistry().lineageAspects.has(aspectName);
}

// ---------------------------------------------------------------------------------------------
// Reading plain JSON

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function asString(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

function asStringMap(v: unknown): Record<string, string> | null {
  const rec = asRecord(v);
  if (!rec) return null;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(rec)) if (typeof val === 'string') out[k] = val;
  return out;
}

/** Every value at a slash-separated path, `*` stepping into each element of an array. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  const [head, ...rest] = path;
  if (head === '*') return asArray(value).flatMap((v) => valuesAt(v, rest));
  const rec = asRecord(value);
  return rec && Object.hasOwn(rec, head!) ? valuesAt(rec[head!], rest) : [];
}

function canonicalOrNull(v: unknown): string | null {
  const s = asString(v);
  return s === null ? null : (tryParseUrn(s)?.text ?? null);
}

// ---------------------------------------------------------------------------------------------
// Provenance (§Derivation: stamps and provenance)

/** Pegasus' default AuditStamp actor: a placeholder, not an assertion about who did it. */
export const UNKNOWN_ACTOR = 'urn:li:corpuser:unknown';

interface Stamps {
  createdOn: number | null;
  createdActor: string | null;
  updatedOn: number | null;
  updatedActor: string | null;
}

interface WriteContext {
  /** Fallback time: the write's lastObserved, null when the write carries none. */
  time: number | null;
  actor: string;
}

function stampTime(stamp: JsonRecord | null, ctx: WriteContext): number | null {
  const t = stamp?.['time'];
  return typeof t === 'number' && Number.isFinite(t) && t !== 0 ? t : ctx.time;
}

function stampActor(stamp: JsonRecord | null, ctx: WriteContext): string | null {
  const a = asString(stamp?.['actor']);
  return a === null || a === UNKNOWN_ACTOR ? ctx.actor : a;
}

/**
 * Each stamp falls back on its own: a missing or 0 time takes the write's lastObserved, a missing or
 * placeholder actor takes the writer. DataHub instead overwrites updatedActor with the writer
 * whenever the created actor is missing; for the SDK's default auditStamp both give the writer.
 */
function resolveStamps(created: unknown, updated: unknown, ctx: WriteContext): Stamps {
  const resolve = (raw: unknown) => ({ on: stampTime(asRecord(raw), ctx), actor: stampActor(asRecord(raw), ctx) });
  const [c, u] = [resolve(created), resolve(updated)];
  return { createdOn: c.on, createdActor: c.actor, updatedOn: u.on, updatedActor: u.actor };
}

const NO_STAMPS: Stamps = { createdOn: null, createdActor: null, updatedOn: null, updatedActor: null };

// ---------------------------------------------------------------------------------------------
// Derivation

interface Candidate {
  type: RelationshipType;
  source: Urn;
  destination: Urn;
  stamps: Stamps;
  properties: Record<string, string> | null;
  via: string | null;
  /** Higher wins when two entries produce the same key: Edge/Upstream records beat plain urns. */
  rank: number;
}

const RANK_PLAIN = 0;
const RANK_RECORD = 1;

function extractField(rule: EdgeRule, value: JsonRecord, owner: Urn, ctx: WriteContext): Candidate[] {
  const raw = rule.shape === 'path' ? undefined : value[rule.field];
  const out: Candidate[] = [];
  const push = (destText: unknown, stamps: Stamps, properties: Record<string, string> | null, via: string | null, rank: number) => {
    const s = asString(destText);
    const destination = s === null ? undefined : tryParseUrn(s);
    // Unparseable urns and urns of a kind the field does not list yield no edge.
    if (!destination || !rule.to.includes(destination.entityType)) return;
    out.push({ type: rule.type, source: owner, destination, stamps, properties, via, rank });
  };
  const plainStamps = (): Stamps => resolveStamps(undefined, undefined, ctx);

  switch (rule.shape) {
    case 'urn':
      push(raw, plainStamps(), null, null, RANK_PLAIN);
      break;
    case 'urnList':
      for (const u of asArray(raw)) push(u, plainStamps(), null, null, RANK_PLAIN);
      break;
    case 'unionList':
      // ChartDataSourceType is a typeref'd-string union: {"string": urn}; accept a bare string too.
      for (const m of asArray(raw)) push(typeof m === 'string' ? m : asRecord(m)?.['string'], plainStamps(), null, null, RANK_PLAIN);
      break;
    case 'upstreams':
      for (const up of asArray(raw)) {
        const r = asRecord(up);
        if (!r) continue;
        push(
          r['dataset'],
          resolveStamps(r['created'], r['auditStamp'], ctx),
          asStringMap(r['properties']),
          canonicalOrNull(r['query']),
          RANK_RECORD,
        );
      }
      break;
    case 'edges':
      // Edge.sourceUrn is not consulted: like DataHub's graph indexer, the source is the owner.
      for (const e of asArray(raw)) {
        const r = asRecord(e);
        if (!r) continue;
        push(r['destinationUrn'], resolveStamps(r['created'], r['lastModified'], ctx), asStringMap(r['properties']), null, RANK_RECORD);
      }
      break;
    case 'inputFields':
      for (const f of asArray(raw)) push(asRecord(f)?.['schemaFieldUrn'], plainStamps(), null, null, RANK_PLAIN);
      break;
    case 'path':
      for (const u of valuesAt(value, rule.field.split('/'))) push(u, plainStamps(), null, null, RANK_PLAIN);
      break;
  }
  return out;
}

/**
 * §Derivation (fine-grained): one `downstream -[DownstreamOf]-> upstream` per pair of each entry.
 * Entries lacking upstreams or downstreams are skipped (DataHub stops at the first one: [Improvement]).
 * Like DataHub, these edges carry no stamps, so they are never excluded by a time window.
 */
function extractFineGrained(value: JsonRecord, owner: Urn, viaRule: 'query' | 'owner'): Candidate[] {
  const out: Candidate[] = [];
  for (const entry of asArray(value['fineGrainedLineages'])) {
    const r = asRecord(entry);
    if (!r) continue;
    const downstreams = asArray(r['downstreams'])
      .map((u) => (typeof u === 'string' ? tryParseUrn(u) : undefined))
      .filter((u): u is Urn => u !== undefined && u.entityType === 'schemaField');
    const upstreams = asArray(r['upstreams'])
      .map((u) => (typeof u === 'string' ? tryParseUrn(u) : undefined))
      .filter((u): u is Urn => u !== undefined && (u.entityType === 'schemaField' || u.entityType === 'dataset'));
    if (downstreams.length === 0 || upstreams.length === 0) continue;
    const via = viaRule === 'owner' ? owner.text : canonicalOrNull(r['query']);
    for (const source of downstreams) {
      for (const destination of upstreams) {
        out.push({
          type: 'DownstreamOf',
          source,
          destination,
          stamps: NO_STAMPS,
          properties: null,
          via,
          rank: RANK_RECORD,
        });
      }
    }
  }
  return out;
}

/**
 * Column lineage into a chart or dashboard: each input field whose `schemaField.fieldPath` names the
 * owner's own column makes `schemaField(owner, fieldPath) -[DownstreamOf]-> schemaFieldUrn`, as
 * DataHub's graph indexer does. No stamps and no via, like fine-grained edges.
 */
function extractInputFieldEdges(value: JsonRecord, owner: Urn): Candidate[] {
  const out: Candidate[] = [];
  for (const f of asArray(value['fields'])) {
    const r = asRecord(f);
    const upstream = asString(r?.['schemaFieldUrn']);
    const fieldPath = asString(asRecord(r?.['schemaField'])?.['fieldPath']);
    const destination = upstream === null ? undefined : tryParseUrn(upstream);
    if (!destination || destination.entityType !== 'schemaField' || fieldPath === null) continue;
    const source = tryParseUrn(schemaFieldUrnOf(owner.text, fieldPath));
    if (!source) continue;
    out.push({ type: 'DownstreamOf', source, destination, stamps: NO_STAMPS, properties: null, via: null, rank: RANK_RECORD });
  }
  return out;
}

/** Identity of a stored typed edge (§Graph): parallel edges from different owners or aspects differ. */
export function edgeKey(source: string, type: string, destination: string, owner: string, aspect: string): string {
  // A JSON array keeps the fields unambiguous whatever characters the urns contain.
  return createHash('sha1')
    .update(JSON.stringify([source, type, destination, owner, aspect]))
    .digest('hex');
}

/** The candidates one value holds: its rules' fields (table level), then its column lineage. */
interface Extracted {
  owner: Urn;
  table: Candidate[];
  columns: Candidate[];
}

function extract(input: DeriveEdgesInput): Extracted | undefined {
  const rules = rulesOf(input.entityType, input.aspectName);
  if (!rules) return undefined;
  const owner = parseUrnOrThrow(input.urn);
  if (owner.entityType !== input.entityType) {
    throw validationFailed(`Urn ${input.urn} is not of entity type ${input.entityType}`);
  }
  const value = asRecord(input.value);
  if (!value) return undefined;
  const ctx: WriteContext = {
    time: Number.isFinite(input.writeTime) && input.writeTime > 0 ? input.writeTime : null,
    actor: input.actor,
  };
  return {
    owner,
    table: (rules.edges ?? []).flatMap((r) => extractField(r, value, owner, ctx)),
    columns: (rules.fineGrained ? extractFineGrained(value, owner, rules.fineGrained) : []).concat(
      rules.inputFieldEdges ? extractInputFieldEdges(value, owner) : [],
    ),
  };
}

/** One typed edge per key; first position kept, the higher-ranked (record-typed) content wins. */
function edgesOf(x: Extracted, aspectName: string): DerivedEdge[] {
  const byKey = new Map<string, { edge: DerivedEdge; rank: number }>();
  for (const c of x.table.concat(x.columns)) {
    const key = edgeKey(c.source.text, c.type, c.destination.text, x.owner.text, aspectName);
    const existing = byKey.get(key);
    if (existing && existing.rank >= c.rank) continue;
    byKey.set(key, { edge: toEdge(key, c, x.owner.text, aspectName), rank: c.rank });
  }
  return [...byKey.values()].map((d) => d.edge);
}

function toEdge(key: string, c: Candidate, owner: string, aspect: string): DerivedEdge {
  const direction = lineageDirectionOf(c.source.entityType, c.type, c.destination.entityType);
  // Self-edges stay typed edges but never become lineage: traversal ignores them anyway (§Traversal), and
  // a LINEAGE self-loop would only cost the BFS a wasted expansion.
  const isSelf = c.source.text === c.destination.text;
  const lineage =
    direction === null || isSelf
      ? null
      : direction === 'upstream'
        ? { upstream: c.destination.text, downstream: c.source.text }
        : { upstream: c.source.text, downstream: c.destination.text };
  return {
    key,
    type: c.type,
    source: c.source.text,
    destination: c.destination.text,
    owner,
    aspect,
    ...c.stamps,
    properties: c.properties,
    via: c.via,
    manual: c.properties?.['source'] === 'UI',
    lineage,
  };
}

/** The typed edges that one aspect value of one entity declares (§Derivation). */
export function deriveEdges(input: DeriveEdgesInput): DerivedEdge[] {
  const extracted = extract(input);
  return extracted ? edgesOf(extracted, input.aspectName) : [];
}

/** What edge derivation reads of a stored row. */
export interface DerivableRow {
  value: string;
  systemMetadata: string;
  createdBy: string;
}

/** A row's value and systemMetadata as objects: what the write path holds before it stringifies them. */
export interface ParsedRow {
  value: unknown;
  systemMetadata: { lastObserved?: unknown };
  createdBy: string;
}

/**
 * Edges derived from one row. Provenance fallbacks use only what the row stores (its
 * systemMetadata.lastObserved and the actor who wrote it), so a restore derives the same edges.
 */
export function edgesOfRow(urn: Urn, aspect: string, row: DerivableRow): DerivedEdge[] {
  const systemMetadata = JSON.parse(row.systemMetadata) as { lastObserved?: unknown };
  return edgesOfParsedRow(urn, aspect, { systemMetadata, value: JSON.parse(row.value), createdBy: row.createdBy });
}

/**
 * {@link edgesOfRow} of a row not stringified yet. Derivation reads only strings, arrays, records and
 * finite numbers, which JSON text keeps as they are, so the edges are those of the row's text.
 */
export function edgesOfParsedRow(urn: Urn, aspect: string, row: ParsedRow): DerivedEdge[] {
  return deriveEdges(inputOf(urn, aspect, row));
}

/** What the write path derives from a row it leaves: its edges, and the entities its lineage names. */
export interface RowDerivation {
  edges: DerivedEdge[];
  /**
   * For the existence rule: every entity-level urn that the row, of a lineage aspect, names as a
   * lineage neighbour, the owner left out (fine-grained downstreams of an upstreamLineage are
   * normally the owner's own fields), de-duplicated, in derivation order (table fields, then each
   * column edge's upstream before its downstream). A schemaField stands for its parent; fine-grained
   * entries and input fields name the parents of both their ends, whatever their relationship.
   */
  references: string[];
}

/** {@link edgesOfParsedRow} and the row's lineage references, from one reading of its value. */
export function deriveRow(urn: Urn, aspect: string, row: ParsedRow): RowDerivation {
  const extracted = extract(inputOf(urn, aspect, row));
  if (!extracted) return { edges: [], references: [] };
  return { edges: edgesOf(extracted, aspect), references: referencesOf(extracted, aspect) };
}

function inputOf(urn: Urn, aspect: string, row: ParsedRow): DeriveEdgesInput {
  const lastObserved = row.systemMetadata.lastObserved;
  return {
    urn: urn.text,
    entityType: urn.entityType,
    aspectName: aspect,
    value: row.value,
    writeTime: typeof lastObserved === 'number' ? lastObserved : 0,
    actor: row.createdBy,
  };
}

function parentOfField(u: string): string | null {
  const parsed = tryParseUrn(u);
  if (!parsed) return null;
  if ((FIELD_PARENT_TYPES as readonly string[]).includes(parsed.entityType)) return parsed.text;
  if (parsed.entityType !== 'schemaField') return null;
  const parent = parsed.parts[0];
  return parent === undefined ? null : (tryParseUrn(parent)?.text ?? null);
}

function referencesOf(x: Extracted, aspectName: string): string[] {
  if (!isLineageAspect(aspectName)) return [];
  const seen = new Set<string>();
  for (const c of x.table) {
    if (lineageDirectionOf(x.owner.entityType, c.type, c.destination.entityType) === null) continue;
    const end = c.destination.entityType === 'schemaField' ? parentOfField(c.destination.text) : c.destination.text;
    if (end !== null) seen.add(end);
  }
  for (const c of x.columns) {
    for (const end of [c.destination.text, c.source.text]) {
      const parent = parentOfField(end);
      if (parent !== null) seen.add(parent);
    }
  }
  seen.delete(x.owner.text);
  return [...seen];
}
