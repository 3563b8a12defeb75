// Reads of the typed relationship edges for the SDK's graph doors: OpenAPI
// GET /openapi/relationships/v1 (`get_related_entities`), Rest.li GET /relationships, and
// POST /openapi/v3/lineage/scroll (`scroll_lineage`). Typed edges only: the derived :LINEAGE edges
// are a traversal index (the scroll walks them to find lineage edges, and reports the typed edge),
// HAS_ASPECT never ends at an entity.
import type { Context } from 'koa';
import type Router from '@koa/router';
import { badRequest, lineageDirectionOf, type RelationshipType, parseUrnOrThrow, type Urn, assertCan } from '@lineage/catalog/model';
import type { Config } from '@lineage/catalog/runtime';
import { int, type Store, type Tx } from '@lineage/catalog/store';
import type { RestState } from './restli.ts';
import { booleanParam, integerParam, jsonValueBody, listParam, queryParam, requestUrn } from './openapi.ts';

export type RelationshipDirection = 'INCOMING' | 'OUTGOING';

/** Graph edges that are not DataHub relationships. */
const NOT_RELATIONSHIPS = new Set(['LINEAGE', 'HAS_ASPECT']);

/** Page sizes above this are clamped: the client pages on, by the count it got. */
const MAX_COUNT = 10_000;

export interface RelatedEntities {
  start: number;
  /** Entities on this page (what the SDK advances `start` by; 0 ends its loop). */
  count: number;
  /** Distinct (type, neighbour) pairs matching, before paging. */
  total: number;
  entities: Array<{ relationshipType: string; urn: string; via: string | null }>;
}

/**
 * The entities related to `urn` by typed edges of the given types: OUTGOING = `urn` is the source,
 * INCOMING = it is the destination. One entry per (type, neighbour) however many owners declare the
 * edge; soft-deleted neighbours are left out, as DataHub's graph service filters them by default.
 */
export async function relatedEntities(
  store: Store, urn: Urn, direction: RelationshipDirection, types: readonly string[], start: number, count: number,
): Promise<RelatedEntities> {
  const wanted = [...new Set(types)].filter((t) => !NOT_RELATIONSHIPS.has(t));
  const statement = direction === 'INCOMING' ? 'relationships/related-incoming' : 'relationships/related-outgoing';
  const [result] = await store.read((tx) => tx.run<{ total: number; rows: Array<{ type: string; urn: string; via: string | null }> }>(
    statement, { urn: urn.text, types: wanted, includeRemoved: false, start: int(start), count: int(count) }));
  const rows = result?.rows ?? [];
  return {
    start,
    count: rows.length,
    total: result?.total ?? 0,
    entities: rows.map((r) => ({ relationshipType: r.type, urn: r.urn, via: r.via ?? null })),
  };
}

function relationshipDirection(raw: string | undefined): RelationshipDirection {
  if (raw === undefined || raw === '') throw badRequest("Query parameter 'direction' is required: INCOMING or OUTGOING");
  if (raw !== 'INCOMING' && raw !== 'OUTGOING') throw badRequest(`Query parameter 'direction' must be INCOMING or OUTGOING, got '${raw}'`);
  return raw;
}

/** Rest.li 2.0 list syntax `List(a,b)`; Rest.li 1.0 repeats the parameter instead. */
function restliListParam(ctx: Context, name: string): string[] {
  const v = ctx.query[name];
  const values = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return values.flatMap((raw) => {
    const m = /^List\((.*)\)$/.exec(raw.trim());
    return (m ? m[1]!.split(',') : [raw]).map((s) => s.trim()).filter(Boolean);
  });
}

/** The urn query parameter; DataHub decodes it once more, for clients that encoded it twice. */
function urnParam(ctx: Context): string | undefined {
  const raw = queryParam(ctx, 'urn');
  if (raw === undefined || !/^urn%3a/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// ---------------------------------------------------------------------------------------------
// Lineage scroll

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

export interface LineageEdge {
  relationshipType: string;
  source: { urn: string; entityType: string };
  destination: { urn: string; entityType: string };
  upstream: string;
  downstream: string;
}

export interface LineageScrollRequest {
  /** Anchors; empty = every lineage edge. */
  urns: string[];
  types: string[];
  direction: LineageDirection | undefined;
  includeSoftDelete: boolean;
  count: number;
  /** Exclusive cursor: (upstream, downstream, type) of the last edge already returned. */
  after: [string, string, string] | null;
}

interface ScrollRow {
  upstream: string;
  downstream: string;
  type: string;
  upstreamType: string;
  downstreamType: string;
  upstreamIsSource: boolean | null;
}

const SCROLL_ID_VERSION = 1;

export function encodeScrollId(after: [string, string, string]): string {
  return Buffer.from(JSON.stringify({ v: SCROLL_ID_VERSION, after }), 'utf8').toString('base64url');
}

export function decodeScrollId(scrollId: string): [string, string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
  }
  const after = (parsed as { v?: unknown; after?: unknown } | null)?.after;
  if ((parsed as { v?: unknown } | null)?.v !== SCROLL_ID_VERSION || !Array.isArray(after) || after.length !== 3
    || !after.every((s) => typeof s === 'string')) {
    throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
  }
  return after as [string, string, string];
}

function toLineageEdge(r: ScrollRow): LineageEdge {
  const up = { urn: r.upstream, entityType: r.upstreamType };
  const down = { urn: r.downstream, entityType: r.downstreamType };
  // The typed edge read back says which end declared it; without one (drift), the registry does.
  const upstreamIsSource = r.upstreamIsSource
    ?? lineageDirectionOf(r.downstreamType, r.type as RelationshipType, r.upstreamType) !== 'upstream';
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
 * one, which tells whether another page exists (no scrollId pointing at an empty page).
 */
export async function scrollLineage(store: Store, req: LineageScrollRequest): Promise<{ scrollId: string | null; results: LineageEdge[] }> {
  const wanted = req.count + 1;
  const edges = await store.read(async (tx: Tx) => {
    const out: ScrollRow[] = [];
    let after = req.after;
    for (;;) {
      const params = {
        types: req.types, includeSoftDelete: req.includeSoftDelete, after, limit: int(wanted),
      };
      const rows = req.urns.length
        ? await tx.run<ScrollRow>('relationships/lineage-scroll-anchored', { ...params, urns: req.urns, direction: req.direction ?? null })
        : await tx.run<ScrollRow>('relationships/lineage-scroll-all', { ...params, fromUpstream: after?.[0] ?? '' });
      for (const r of rows) {
        const last = out[out.length - 1];
        if (last && last.upstream === r.upstream && last.downstream === r.downstream && last.type === r.type) {
          if (last.upstreamIsSource === null) last.upstreamIsSource = r.upstreamIsSource;
          continue;
        }
        out.push(r);
      }
      if (rows.length < wanted || out.length >= wanted) return out;
      const tail = rows[rows.length - 1]!;
      after = [tail.upstream, tail.downstream, tail.type];
    }
  });
  const page = edges.slice(0, req.count);
  const last = page[page.length - 1];
  return {
    scrollId: edges.length > req.count && last ? encodeScrollId([last.upstream, last.downstream, last.type]) : null,
    results: page.map(toLineageEdge),
  };
}

// ---------------------------------------------------------------------------------------------
// Routes

const actorOf = (ctx: Context) => (ctx.state as RestState).actor;

/** DataHub's RelationshipsController denial. */
const relationshipsDenied = (actorUrn: string) => `${actorUrn} is unauthorized to get relationships.`;

export function registerRelationshipRoutes(router: Router, deps: { store: Store; config: Config }): void {
  const { store, config } = deps;

  /** What both relationship doors ask: the urn, direction, types and page, the caller allowed to read. */
  const relationshipsQuery = (ctx: Context, door: { urn(text: string): Urn; types: string[]; typesHint: string; defaultCount: number }) => {
    const rawUrn = urnParam(ctx);
    if (!rawUrn) throw badRequest("Query parameter 'urn' is required");
    const urn = door.urn(rawUrn);
    const direction = relationshipDirection(queryParam(ctx, 'direction'));
    if (door.types.length === 0) throw badRequest(door.typesHint);
    const start = integerParam(ctx, 'start', 0);
    const count = integerParam(ctx, 'count', door.defaultCount, MAX_COUNT);
    const actor = actorOf(ctx);
    assertCan(actor, 'READ', relationshipsDenied(actor.urn));
    return relatedEntities(store, urn, direction, door.types, start, count);
  };

  // OpenAPI: GET /openapi/relationships/v1/?urn=&direction=&relationshipTypes=A&relationshipTypes=B&start=&count=
  // (the trailing slash is dropped by prefixMiddleware).
  router.get('/openapi/relationships/v1', async (ctx) => {
    ctx.body = await relationshipsQuery(ctx, {
      urn: (text) => requestUrn(text, "query parameter 'urn'"),
      types: listParam(ctx, 'relationshipTypes'),
      typesHint: "Query parameter 'relationshipTypes' is required (repeat it for several types)",
      defaultCount: 200,
    });
  });

  // Rest.li: GET /relationships?urn=&types=List(A,B)&direction=&start=&count= (errors render as Rest.li).
  router.get('/relationships', async (ctx) => {
    const r = await relationshipsQuery(ctx, {
      urn: parseUrnOrThrow,
      types: restliListParam(ctx, 'types'),
      typesHint: "Query parameter 'types' is required: types=List(A,B)",
      defaultCount: 100,
    });
    ctx.body = { start: r.start, count: r.count, total: r.total, relationships: r.entities.map((e) => ({ entity: e.urn, type: e.relationshipType })) };
  });

  // OpenAPI v3 (SDK 1.7 scroll_lineage): POST /openapi/v3/lineage/scroll?relationshipTypes=&direction=UPSTREAM|DOWNSTREAM
  //   &count=&scrollId=&includeSoftDelete=  body {"urns": [...]} or {}. sliceId/sliceMax/pitKeepAlive are
  //   Elasticsearch scroll tuning with no meaning here.
  router.post('/openapi/v3/lineage/scroll', async (ctx) => {
    const rawDirection = queryParam(ctx, 'direction');
    if (rawDirection !== undefined && rawDirection !== '' && rawDirection !== 'UPSTREAM' && rawDirection !== 'DOWNSTREAM') {
      throw badRequest(`Query parameter 'direction' must be UPSTREAM or DOWNSTREAM, got '${rawDirection}'`);
    }
    const direction = rawDirection ? (rawDirection as LineageDirection) : undefined;
    const count = integerParam(ctx, 'count', 10, MAX_COUNT);
    if (count === 0) throw badRequest("Query parameter 'count' must be at least 1");
    const scrollId = queryParam(ctx, 'scrollId');
    const after = scrollId ? decodeScrollId(scrollId) : null;
    const includeSoftDelete = booleanParam(ctx, 'includeSoftDelete', false);
    const askedTypes = listParam(ctx, 'relationshipTypes');
    const types = [...new Set(askedTypes)].filter((t) => !NOT_RELATIONSHIPS.has(t));
    // The SDK always sends a body ({} without urns); no body at all means the same.
    const body = await jsonValueBody(ctx, config.MAX_BODY_BYTES, 'a JSON object {"urns": [...]}', { emptyAs: {} });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object {"urns": [...]}');
    const rawUrns = (body as { urns?: unknown }).urns;
    if (rawUrns !== undefined && rawUrns !== null && !Array.isArray(rawUrns)) throw badRequest('urns must be an array of urns');
    const urns = [...new Set((rawUrns ?? []).map((u, i) => requestUrn(u, `urns[${i}]`).text))];
    if (urns.length > config.MAX_BATCH_PROPOSALS) {
      // 400 as documented, as DataHub's OpenAPI answers a request it refuses to run.
      throw badRequest(`Too many urns: ${urns.length} > ${config.MAX_BATCH_PROPOSALS} (MAX_BATCH_PROPOSALS)`);
    }
    const actor = actorOf(ctx);
    assertCan(actor, 'READ', relationshipsDenied(actor.urn));
    // Only non-relationship names asked for: nothing matches (an empty list would mean every type).
    ctx.body = askedTypes.length && !types.length
      ? { scrollId: null, results: [] }
      : await scrollLineage(store, { urns, types, direction, includeSoftDelete, count, after });
  });
}
