// Reads of the typed relationship edges for the SDK's graph doors: OpenAPI
// GET /openapi/relationships/v1 (`get_related_entities`), Rest.li GET /relationships, and
// POST /openapi/v3/lineage/scroll (`scroll_lineage`). Typed edges only: the derived :LINEAGE edges
// are a traversal index (the scroll walks them to find lineage edges, and reports the typed edge),
// HAS_ASPECT never ends at an entity.
import type { Context } from 'koa';
import type Router from '@koa/router';
import { badRequest, parseUrnOrThrow, type Urn, assertCan } from '@lineage/catalog/model';
import * as read from '@lineage/catalog/read';
import type { IngestionConfig } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { actorOf } from './restli.ts';
import { booleanParam, integerParam, jsonValueBody, listParam, queryParam, requestUrn, sliceOf } from './request-params.ts';

/** Page sizes above this are clamped: the client pages on, by the count it got. */
const MAX_COUNT = 10_000;

function relationshipDirection(raw: string | undefined): read.RelationshipDirection {
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

const SCROLL_ID_VERSION = 1;

function encodeScrollId(after: read.LineageEdgeKey): string {
  return Buffer.from(JSON.stringify({ v: SCROLL_ID_VERSION, after }), 'utf8').toString('base64url');
}

function decodeScrollId(scrollId: string): read.LineageEdgeKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
  }
  const after = (parsed as { v?: unknown; after?: unknown } | null)?.after;
  if (
    (parsed as { v?: unknown } | null)?.v !== SCROLL_ID_VERSION ||
    !Array.isArray(after) ||
    after.length !== 3 ||
    !after.every((s) => typeof s === 'string')
  ) {
    throw badRequest('Invalid scrollId: pass back the scrollId of a previous answer unchanged');
  }
  return after as read.LineageEdgeKey;
}

/** One page of the v3 lineage scroll, its position as an opaque scrollId. */
async function lineageScrollPage(
  store: Store,
  q: read.LineageEdgeQuery,
): Promise<{ scrollId: string | null; results: read.LineageEdge[] }> {
  const { next, results } = await read.lineageEdgePage(store, q);
  return { scrollId: next ? encodeScrollId(next) : null, results };
}

// ---------------------------------------------------------------------------------------------
// Routes

/** DataHub's RelationshipsController denial. */
const relationshipsDenied = (actorUrn: string) => `${actorUrn} is unauthorized to get relationships.`;

export function registerRelationshipRoutes(router: Router, deps: { store: Store; config: IngestionConfig }): void {
  const { store, config } = deps;

  /** What both relationship doors ask: the urn, direction, types and page, the caller allowed to read. */
  const relationshipsQuery = async (
    ctx: Context,
    door: { urn(text: string): Urn; types: string[]; typesHint: string; defaultCount: number },
  ) => {
    const rawUrn = urnParam(ctx);
    if (!rawUrn) throw badRequest("Query parameter 'urn' is required");
    const urn = door.urn(rawUrn);
    const direction = relationshipDirection(queryParam(ctx, 'direction'));
    if (door.types.length === 0) throw badRequest(door.typesHint);
    const start = integerParam(ctx, 'start', 0);
    const count = integerParam(ctx, 'count', door.defaultCount, MAX_COUNT);
    const actor = actorOf(ctx);
    assertCan(actor, 'READ', relationshipsDenied(actor.urn));
    const { total, rows } = await read.relatedEntities(store, urn, { direction, types: door.types, includeRemoved: false, start, count });
    return { start, count: rows.length, total, entities: rows.map((r) => ({ relationshipType: r.type, urn: r.urn, via: r.via })) };
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
    ctx.body = {
      start: r.start,
      count: r.count,
      total: r.total,
      relationships: r.entities.map((e) => ({ entity: e.urn, type: e.relationshipType })),
    };
  });

  // OpenAPI v3 (SDK 1.7 scroll_lineage): POST /openapi/v3/lineage/scroll?relationshipTypes=&direction=UPSTREAM|DOWNSTREAM
  //   &count=&scrollId=&includeSoftDelete=&sliceId=&sliceMax=  body {"urns": [...]} or {}. Slices are
  //   disjoint and cover the edges, as the entity scroll's are; pitKeepAlive has no meaning here.
  router.post('/openapi/v3/lineage/scroll', async (ctx) => {
    const rawDirection = queryParam(ctx, 'direction');
    if (rawDirection !== undefined && rawDirection !== '' && rawDirection !== 'UPSTREAM' && rawDirection !== 'DOWNSTREAM') {
      throw badRequest(`Query parameter 'direction' must be UPSTREAM or DOWNSTREAM, got '${rawDirection}'`);
    }
    const direction = rawDirection ? (rawDirection as read.LineageScrollDirection) : undefined;
    const count = integerParam(ctx, 'count', 10, MAX_COUNT);
    if (count === 0) throw badRequest("Query parameter 'count' must be at least 1");
    const scrollId = queryParam(ctx, 'scrollId');
    const after = scrollId ? decodeScrollId(scrollId) : null;
    const includeSoftDelete = booleanParam(ctx, 'includeSoftDelete', false);
    const askedTypes = listParam(ctx, 'relationshipTypes');
    const types = read.relationshipTypesOf(askedTypes);
    // The SDK always sends a body ({} without urns); no body at all means the same.
    const body = await jsonValueBody(ctx, config.MAX_BODY_BYTES, 'a JSON object {"urns": [...]}', { emptyAs: {} });
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('Request body must be a JSON object {"urns": [...]}');
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
    ctx.body =
      askedTypes.length && !types.length
        ? { scrollId: null, results: [] }
        : await lineageScrollPage(store, { urns, types, direction, includeSoftDelete, count, after, slice: sliceOf(ctx) });
  });
}
