// Entities as the OpenAPI v3 doors answer them: latest aspects per urn, the entity scroll (a
// catalogue search ordered for paging) and the relationship scroll (docs/wire-contract.md §OpenAPI).
import { badRequest } from '../model/errors.ts';
import {
  clausesMatch,
  ENTITY_FILTER_FIELDS,
  parseClauses,
  valueMatches,
  valuesOf,
  type Clauses,
  type Criterion,
  type FilterField,
  type FilterSubject,
  type OrFilters,
} from '../model/filters.ts';
import type { Urn } from '../model/urn.ts';
import { int, type Store } from '../store/store.ts';
import { rowKey } from '../store/rows.ts';
import { getAspect } from './aspect-reader.ts';
import { searchEntities } from './entity-search.ts';
import type { Viewer } from './view-authorization.ts';
import { edgeSliceOf } from './edge-slices.ts';

interface AspectDocument {
  value: unknown;
  systemMetadata?: Record<string, unknown>;
  auditStamp?: { time: number; actor: string };
}

/** One entity's latest aspects by name. */
export type EntityDocument = Record<string, AspectDocument>;

/**
 * The latest aspects of some urns (`names` undefined = all of them). With system metadata, its
 * `version` is the aspect's version as conditional writes compare it (the number of versions
 * written), unless the stored metadata carries one. Urns without any asked aspect are absent.
 */
export async function latestAspectDocuments(
  store: Store,
  urns: readonly string[],
  names: ReadonlySet<string> | undefined,
  withSystemMetadata: boolean,
): Promise<Map<string, EntityDocument>> {
  const out = new Map<string, EntityDocument>();
  if (!urns.length) return out;
  type Row = {
    urn: string;
    name: string;
    value: string;
    systemMetadata: string | null;
    maxVersion: number | null;
    createdOn: number | null;
    createdBy: string | null;
  };
  const rows = await store.read((tx) => tx.run<Row>('aspects/fetch-entity-latest', { urns: [...urns] }));
  for (const r of rows) {
    if (names && !names.has(r.name)) continue;
    let doc = out.get(r.urn);
    if (!doc) out.set(r.urn, (doc = {}));
    const aspect: AspectDocument = { value: JSON.parse(r.value) };
    if (withSystemMetadata) {
      const stored = r.systemMetadata ? (JSON.parse(r.systemMetadata) as Record<string, unknown>) : {};
      aspect.systemMetadata = { ...stored, version: stored.version ?? String((r.maxVersion ?? 0) + 1) };
      aspect.auditStamp = { time: r.createdOn ?? 0, actor: r.createdBy ?? 'urn:li:corpuser:unknown' };
    }
    doc[r.name] = aspect;
  }
  return out;
}

/**
 * Version `version` (≥ 1, oldest first) of one aspect, as the latest is answered: with system
 * metadata, its `version` is the one that value had while it was the latest (version n was the
 * n-th written). Undefined when the aspect has no such version.
 */
export async function aspectVersionDocument(store: Store, urn: Urn, name: string, version: number): Promise<AspectDocument | undefined> {
  const row = await getAspect(store, urn, name, version);
  if (!row) return undefined;
  return {
    value: row.value,
    systemMetadata: { ...row.systemMetadata, version: row.systemMetadata.version ?? String(version) },
    auditStamp: { time: row.createdOn, actor: row.createdBy },
  };
}

/** One version a versioned read asks for: ≥ 1, numbered as aspectVersionDocument numbers them. */
interface AspectVersionRequest {
  urn: string;
  name: string;
  version: number;
}

/**
 * Chosen versions of several aspects in one read (DataHub's batchGet with a version per aspect):
 * urn → aspect name → document, rendered as the latest is. Version maxVersion + 1 is the latest
 * value itself — the number its system metadata reports, as DataHub numbers it —, so a reader
 * anchored on that number reads no duplicate. A version that does not exist is absent.
 */
export async function aspectVersionDocumentsOf(
  store: Store,
  requests: readonly AspectVersionRequest[],
  withSystemMetadata: boolean,
): Promise<Map<string, EntityDocument>> {
  const out = new Map<string, EntityDocument>();
  if (!requests.length) return out;
  const byKey = new Map(requests.map((r) => [rowKey(r.urn, r.name, r.version), r]));
  type Row = {
    key: string;
    version: number;
    value: string;
    systemMetadata: string | null;
    createdOn: number | null;
    createdBy: string | null;
  };
  const rows = await store.read((tx) =>
    tx.run<Row>('aspects/fetch-versions-by-key', {
      wanted: [...byKey].map(([key, r]) => ({ key, latestKey: rowKey(r.urn, r.name), version: int(r.version) })),
    }),
  );
  for (const row of rows) {
    const r = byKey.get(row.key)!;
    let doc = out.get(r.urn);
    if (!doc) out.set(r.urn, (doc = {}));
    const aspect: AspectDocument = { value: JSON.parse(row.value) };
    if (withSystemMetadata) {
      const stored = row.systemMetadata ? (JSON.parse(row.systemMetadata) as Record<string, unknown>) : {};
      aspect.systemMetadata = { ...stored, version: stored.version ?? String(r.version) };
      aspect.auditStamp = { time: row.createdOn ?? 0, actor: row.createdBy ?? 'urn:li:corpuser:unknown' };
    }
    doc[r.name] = aspect;
  }
  return out;
}

/** An opaque cursor: the offset of the next page, which the client passes back unchanged. */
export function encodeOffset(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), 'utf8').toString('base64url');
}

export function decodeOffset(scrollId: string | null | undefined): number {
  if (scrollId === undefined || scrollId === null || scrollId === '') return 0;
  try {
    const parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { o?: unknown };
    if (Number.isInteger(parsed.o) && (parsed.o as number) >= 0) return parsed.o as number;
  } catch {
    // falls through to the 400
  }
  throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
}

const ENTITY_SORT_FIELDS = ['urn', 'name', '_score'] as const;

export interface EntityScrollInput {
  /** Entity type names (dataset, …), already checked. */
  entityTypes: readonly string[];
  query: string;
  orFilters: OrFilters;
  sort: { field: string; descending: boolean } | undefined;
  scrollId: string | undefined;
  count: number;
  includeRemoved: boolean;
  /** sliceId / sliceMax: one of `max` disjoint parts of the set, by urn (0 ≤ id < max, checked by the door). */
  slice?: { id: number; max: number } | undefined;
  /** Who asks: entities it may not view are in no page and no total (view authorization on). */
  viewer?: Viewer | undefined;
}

/**
 * One page of the entity scroll: the catalogue search over the types, filters and query, in urn
 * order unless a sort criterion says otherwise. The cursor is an offset into that order, so a
 * write between pages can shift a result by one (as a search after a write would).
 */
export async function scrollEntities(
  store: Store,
  input: EntityScrollInput,
): Promise<{ scrollId: string | null; totalCount: number; urns: string[] }> {
  const field = input.sort?.field ?? 'urn';
  if (!(ENTITY_SORT_FIELDS as readonly string[]).includes(field)) {
    throw badRequest(`Unknown sort field '${field}': sort by ${ENTITY_SORT_FIELDS.join(', ')}`);
  }
  const start = decodeOffset(input.scrollId);
  const query = input.query === '' ? '*' : input.query;
  const result = await searchEntities(store, {
    query,
    // DataHub's v3 scroll searches without full text: its query is always query_string syntax.
    structured: true,
    entityTypes: input.entityTypes,
    orFilters: input.orFilters,
    start,
    count: input.count,
    facets: false,
    sort: field === '_score' ? 'relevance' : (field as 'urn' | 'name'),
    descending: input.sort?.descending === true,
    includeRemoved: input.includeRemoved,
    slice: input.slice,
    viewer: input.viewer,
  });
  const next = start + result.hits.length;
  return {
    scrollId: result.hits.length > 0 && next < result.total ? encodeOffset(next) : null,
    totalCount: result.total,
    urns: result.hits.map((h) => h.urn),
  };
}

/** Filter fields the relationship scroll accepts on either end. */
const RELATIONSHIP_END_FILTER_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>(ENTITY_FILTER_FIELDS);

export interface RelationshipScrollInput {
  types: readonly string[];
  sourceTypes: readonly string[];
  destinationTypes: readonly string[];
  direction: 'INCOMING' | 'OUTGOING';
  sourceFilter: OrFilters;
  destinationFilter: OrFilters;
  /** Criteria on the edge itself: `relationshipType` only (DataHub's edge documents hold more). */
  edgeFilter?: OrFilters | undefined;
  /** sliceId / sliceMax: one of `max` disjoint parts of the edges, by edge (0 ≤ id < max, checked by the door). */
  slice?: { id: number; max: number } | undefined;
  count: number;
  scrollId: string | undefined;
  includeRemoved: boolean;
}

export interface RelationshipScrollResult {
  scrollId: string | null;
  results: Array<{
    relationshipType: string;
    source: { urn: string; entityType: string };
    destination: { urn: string; entityType: string };
  }>;
}

/** The edge filter's clauses (null = every edge); a field other than relationshipType is a 400 naming it. */
function edgeClauses(filter: OrFilters | undefined): Array<Array<Pick<Criterion, 'values' | 'negated' | 'condition'>>> | null {
  const clauses = (filter ?? []).map((c) =>
    (c.and ?? []).map((f) => {
      if (f.field !== 'relationshipType')
        throw badRequest(`Unknown filter field '${f.field}' in edgeFilter: edges are filtered on relationshipType`);
      return { values: valuesOf(f), negated: f.negated === true, condition: (f.condition ?? 'EQUAL').toUpperCase() };
    }),
  );
  return clauses.length === 0 || clauses.some((and) => and.length === 0) ? null : clauses;
}

/**
 * The relationship types the statement need read: those the request names, narrowed to what every
 * clause of the edge filter pins by EQUAL/IN (then no other type can pass); null when none can pass.
 */
function typesToRead(asked: readonly string[], edge: ReturnType<typeof edgeClauses>): string[] | null {
  if (edge === null) return [...asked];
  const pinned = edge.map(
    (and) => and.find((c) => !c.negated && (c.condition === 'EQUAL' || c.condition === 'IN') && c.values.length)?.values,
  );
  if (pinned.some((v) => v === undefined)) return [...asked];
  const union = [...new Set(pinned.flatMap((v) => v!))];
  const types = asked.length ? union.filter((t) => asked.includes(t)) : union;
  return types.length ? types : null;
}

/** Urns every clause pins the `urn` field to (EQUAL/IN, not negated): where the walk can start. */
function anchorsOf(clauses: Clauses): string[] | null {
  if (clauses === null) return null;
  const perClause = clauses.map(
    (and) => and.find((c) => c.field === 'urn' && !c.negated && (c.condition === 'EQUAL' || c.condition === 'IN'))?.values,
  );
  if (perClause.some((v) => v === undefined)) return null;
  return [...new Set(perClause.flatMap((v) => v!))];
}

type EndFields = {
  entityType: string;
  platform: string | null;
  origin: string | null;
  name: string | null;
  description: string | null;
  removed: boolean | null;
  parentUrn: string | null;
};

const subjectOf = (urn: string, f: EndFields): FilterSubject => ({
  urn,
  entityType: f.entityType,
  platform: f.platform ?? null,
  origin: f.origin ?? null,
  removed: f.removed === true,
  parent: f.parentUrn ?? null,
  name: f.name ?? null,
  description: f.description ?? null,
});

function encodeKey(key: [string, string, string]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function decodeKey(scrollId: string | undefined): [string, string, string] | null {
  if (scrollId === undefined || scrollId === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((p) => typeof p === 'string'))
      return parsed as [string, string, string];
  } catch {
    // falls through to the 400
  }
  throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
}

/**
 * One page of typed relationship edges. OUTGOING (the default) reads the source filters against
 * each edge's own source; INCOMING against its destination (the entity the edge comes into). Pages
 * are keyset pages in (source, type, destination) order; filters other than urn and type are
 * evaluated on the rows the statement returns, reading on in batches until the page is full.
 */
export async function scrollRelationships(store: Store, input: RelationshipScrollInput): Promise<RelationshipScrollResult> {
  const src = parseClauses(input.sourceFilter, RELATIONSHIP_END_FILTER_FIELDS);
  const dst = parseClauses(input.destinationFilter, RELATIONSHIP_END_FILTER_FIELDS);
  const incoming = input.direction === 'INCOMING';
  // The edge's own start and end as the statement sees them.
  const start = incoming ? { clauses: dst.clauses, types: input.destinationTypes } : { clauses: src.clauses, types: input.sourceTypes };
  const end = incoming ? { clauses: src.clauses, types: input.sourceTypes } : { clauses: dst.clauses, types: input.destinationTypes };
  const removedAsked = src.onRemoved || dst.onRemoved;
  const edge = edgeClauses(input.edgeFilter);
  const types = typesToRead(input.types, edge);
  if (types === null) return { scrollId: null, results: [] };
  const batch = Math.min(10_000, input.count * 4 + 100);
  const results: RelationshipScrollResult['results'] = [];
  let after = decodeKey(input.scrollId);
  let more = false;
  type Row = { source: string; type: string; destination: string; sourceFields: EndFields; destinationFields: EndFields };
  for (;;) {
    const rows = await store.read((tx) =>
      tx.run<Row>('relationships/scroll', {
        sourceUrns: anchorsOf(start.clauses),
        destinationUrns: anchorsOf(end.clauses),
        types,
        sourceTypes: [...start.types],
        destinationTypes: [...end.types],
        includeRemoved: input.includeRemoved || removedAsked,
        fromSource: after?.[0] ?? '',
        after,
        limit: int(batch),
      }),
    );
    for (const r of rows) {
      after = [r.source, r.type, r.destination];
      if (!clausesMatch(subjectOf(r.source, r.sourceFields), start.clauses)) continue;
      if (!clausesMatch(subjectOf(r.destination, r.destinationFields), end.clauses)) continue;
      if (edge !== null && !edge.some((and) => and.every((c) => valueMatches(r.type, c)))) continue;
      if (input.slice && edgeSliceOf(r.source, r.type, r.destination, input.slice.max) !== input.slice.id) continue;
      if (results.length === input.count) {
        more = true;
        break;
      }
      results.push({
        relationshipType: r.type,
        source: { urn: r.source, entityType: r.sourceFields.entityType },
        destination: { urn: r.destination, entityType: r.destinationFields.entityType },
      });
    }
    if (more || rows.length < batch) break;
  }
  const last = results.at(-1);
  return {
    scrollId: more && last ? encodeKey([last.source.urn, last.relationshipType, last.destination.urn]) : null,
    results,
  };
}
