// Reads of the typed relationship edges, one function per question for every door that asks it:
// GraphQL `Entity.relationships`, OpenAPI GET /openapi/relationships/v1 and Rest.li GET /relationships
// (relatedEntities), and OpenAPI POST /openapi/v3/lineage/scroll (lineageEdgePage). Typed edges only:
// the derived :LINEAGE edges are a traversal index and HAS_ASPECT never ends at an entity.
import { lineageDirectionOf } from '../model/relationships.ts';
import type { RelationshipType } from '../model/entity-types.ts';
import type { Urn } from '../model/urn.ts';
import { int, type Store, type Tx } from '../store/store.ts';
import { edgeSliceOf } from './edge-slices.ts';

export type RelationshipDirection = 'INCOMING' | 'OUTGOING';

/** Graph edges that are not DataHub relationships: asking for them matches nothing. */
const NOT_RELATIONSHIPS: ReadonlySet<string> = new Set(['LINEAGE', 'HAS_ASPECT']);

/** The relationship names of a request, without the graph's own edges and repeats. */
export function relationshipTypesOf(asked: readonly string[]): string[] {
  return [...new Set(asked)].filter((t) => !NOT_RELATIONSHIPS.has(t));
}

interface RelatedEntity {
  type: string;
  urn: string;
  /** The earliest creation among the parallel edges of several owners. */
  createdOn: number | null;
  createdActor: string | null;
  /** The smallest non-null via of those edges. */
  via: string | null;
}

export interface RelatedPage {
  /** Distinct (type, neighbour) pairs matching, before paging. */
  total: number;
  rows: RelatedEntity[];
}

/**
 * The entities related to `urn` by typed edges of the given types: OUTGOING = `urn` is the source,
 * INCOMING = it is the destination. One row per (type, neighbour) however many owners declare the
 * edge, ordered by type and neighbour urn; soft-deleted neighbours only when `includeRemoved`.
 */
export async function relatedEntities(
  store: Store,
  urn: Urn,
  q: {
    direction: RelationshipDirection;
    types: readonly string[];
    includeRemoved: boolean;
    start: number;
    count: number;
  },
): Promise<RelatedPage> {
  const statement = q.direction === 'INCOMING' ? 'relationships/related-incoming' : 'relationships/related-outgoing';
  const [result] = await store.read((tx) =>
    tx.run<RelatedPage>(statement, {
      urn: urn.text,
      types: relationshipTypesOf(q.types),
      includeRemoved: q.includeRemoved,
      start: int(q.start),
      count: int(q.count),
    }),
  );
  return {
    total: result?.total ?? 0,
    rows: (result?.rows ?? []).map((r) => ({
      ...r,
      createdOn: r.createdOn ?? null,
      createdActor: r.createdActor ?? null,
      via: r.via ?? null,
    })),
  };
}

export type LineageScrollDirection = 'UPSTREAM' | 'DOWNSTREAM';

/** Where a page of lineage edges ends: (upstream, downstream, type) of its last edge. */
export type LineageEdgeKey = [string, string, string];

export interface LineageEdge {
  relationshipType: string;
  source: { urn: string; entityType: string };
  destination: { urn: string; entityType: string };
  upstream: string;
  downstream: string;
}

export interface LineageEdgeQuery {
  /** Anchors; empty = every lineage edge. */
  urns: readonly string[];
  /** Relationship names (relationshipTypesOf); empty = every lineage type. */
  types: readonly string[];
  direction: LineageScrollDirection | undefined;
  includeSoftDelete: boolean;
  count: number;
  /** Exclusive: the key of the last edge already returned. */
  after: LineageEdgeKey | null;
  /** sliceId / sliceMax: one of `max` disjoint parts of the edges (0 ≤ id < max, checked by the door). */
  slice?: { id: number; max: number } | undefined;
}

interface EdgeRow {
  upstream: string;
  downstream: string;
  type: string;
  upstreamType: string;
  downstreamType: string;
  upstreamIsSource: boolean | null;
}

function toLineageEdge(r: EdgeRow): LineageEdge {
  const up = { urn: r.upstream, entityType: r.upstreamType };
  const down = { urn: r.downstream, entityType: r.downstreamType };
  // The typed edge read back says which end declared it; without one (drift), the registry does.
  const upstreamIsSource =
    r.upstreamIsSource ?? lineageDirectionOf(r.downstreamType, r.type as RelationshipType, r.upstreamType) !== 'upstream';
  return {
    relationshipType: r.type,
    source: upstreamIsSource ? up : down,
    destination: upstreamIsSource ? down : up,
    upstream: r.upstream,
    downstream: r.downstream,
  };
}

/**
 * One page of lineage edges, keyset-paged on (upstream, downstream, type). Parallel typed edges
 * (several owners declaring the same lineage) collapse to one. Rows come back raw from the store,
 * so a page is topped up within the same transaction until it holds `count` distinct edges plus
 * one, which tells whether another page exists (`next` is never a key before an empty page).
 */
export async function lineageEdgePage(store: Store, q: LineageEdgeQuery): Promise<{ next: LineageEdgeKey | null; results: LineageEdge[] }> {
  const wanted = q.count + 1;
  // A slice keeps about one row in `max`: read that many more per round trip (bounded).
  const perRead = Math.max(wanted, Math.min(wanted * (q.slice?.max ?? 1), 10_000));
  const edges = await store.read(async (tx: Tx) => {
    const out: EdgeRow[] = [];
    let after = q.after;
    for (;;) {
      const params = { types: q.types, includeSoftDelete: q.includeSoftDelete, after, limit: int(perRead) };
      const rows = q.urns.length
        ? await tx.run<EdgeRow>('relationships/lineage-scroll-anchored', { ...params, urns: q.urns, direction: q.direction ?? null })
        : await tx.run<EdgeRow>('relationships/lineage-scroll-all', { ...params, fromUpstream: after?.[0] ?? '' });
      for (const r of rows) {
        if (q.slice && edgeSliceOf(r.upstream, r.type, r.downstream, q.slice.max) !== q.slice.id) continue;
        const last = out[out.length - 1];
        if (last && last.upstream === r.upstream && last.downstream === r.downstream && last.type === r.type) {
          if (last.upstreamIsSource === null) last.upstreamIsSource = r.upstreamIsSource;
          continue;
        }
        out.push(r);
      }
      if (rows.length < perRead || out.length >= wanted) return out;
      const tail = rows[rows.length - 1]!;
      after = [tail.upstream, tail.downstream, tail.type];
    }
  });
  const page = edges.slice(0, q.count);
  const last = page[page.length - 1];
  return {
    next: edges.length > q.count && last ? [last.upstream, last.downstream, last.type] : null,
    results: page.map(toLineageEdge),
  };
}
