// DataHub's OpenAPI v3 entity reads and per-aspect doors (its GenericEntitiesController): the entity
// scroll (POST /openapi/v3/entity/scroll, GET /openapi/v3/entity/{type}), one entity
// (GET|HEAD /openapi/v3/entity/{type}/{urn}), one aspect (GET|HEAD|POST|DELETE …/{urn}/{aspect}) and
// the relationship scroll (POST /openapi/v3/relationship/scroll, the SDK's scroll_relationships).
// Thin: parse, authorize, call the catalog's read or write, render (docs/wire-contract.md §OpenAPI).
import type { Context } from 'koa';
import type Router from '@koa/router';
import type { AspectChange } from '@lineage/catalog/write';
import {
  assertCan,
  badRequest,
  canonicalAspectName,
  getAspectDenied,
  isJsonRecord,
  keyAspectNameOf,
  notFound,
  parseUrn,
  registeredEntityTypes,
  type JsonRecord,
  type OrFilters,
  type RawFilter,
  type Urn,
} from '@lineage/catalog/model';
import {
  aspectVersionDocument,
  entityExistence,
  latestAspectDocuments,
  scrollEntities,
  scrollRelationships,
  type EntityDocument,
} from '@lineage/catalog/read';
import type { IngestionConfig } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { actorOf, decodePathUrn } from './restli.ts';
import { parseSystemMetadata } from './proposals.ts';
import { booleanParam, integerParam, jsonValueBody, listParam, queryParam, requestUrn, sliceOf } from './request-params.ts';
import type { IngestionContext } from './context.ts';

export interface OpenApiEntityDeps extends Pick<IngestionContext, 'viewer' | 'authorizeView'> {
  store: Store;
  config: IngestionConfig;
  ingest(ctx: Context, changes: AspectChange[]): Promise<unknown>;
}

const readEntitiesDenied = (actorUrn: string) => `${actorUrn} is unauthorized to READ entities.`;
const existsDenied = (actorUrn: string) => `${actorUrn} is unauthorized to EXISTS entities.`;
const relationshipsDenied = (actorUrn: string) => `${actorUrn} is unauthorized to get relationships.`;

/** Page sizes above this are clamped (the client pages on by the scrollId). */
const MAX_SCROLL_COUNT = 1000;

/** The path's entity type as the registry names it; a type the catalog does not know is a 404 naming it. */
export function pathEntityType(raw: string): string {
  const name = registeredEntityTypes().find((t) => t.toLowerCase() === raw.toLowerCase());
  if (!name) throw notFound(`Unknown entity type '${raw}': no such entity type in the registry`);
  return name;
}

/** A type named in a request body, as the registry names it; an unknown one is a 400 naming it. */
export function bodyEntityType(raw: string, where = 'the request body'): string {
  const name = registeredEntityTypes().find((n) => n.toLowerCase() === raw.toLowerCase());
  if (!name) throw badRequest(`Unknown entity type '${raw}' in ${where}`);
  return name;
}

/** Types named in a request body; an unknown one is a 400 naming it. */
function bodyEntityTypes(raw: unknown, where: string): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string')) throw badRequest(`${where} must be an array of entity type names`);
  return raw.map((t: string) => bodyEntityType(t, where));
}

/**
 * A v3 filter body as orFilters: `{"and": [{"criteria": […]}, …]}` (what the SDK sends: each element
 * one conjunction, the list a disjunction), DataHub's `{"or": [{"and": […]}]}`, or `{"criteria": […]}`.
 */
function filterBody(raw: unknown, where: string): OrFilters {
  if (raw === undefined || raw === null) return [];
  if (!isJsonRecord(raw)) throw badRequest(`${where} must be an object {"and": [{"criteria": [...]}]}`);
  const criteria = (list: unknown, at: string): RawFilter[] => {
    if (!Array.isArray(list)) throw badRequest(`${at} must be an array of criteria`);
    return list.map((c, i) => {
      if (!isJsonRecord(c) || typeof c.field !== 'string')
        throw badRequest(`${at}[${i}] must be a criterion {"field", "values", "condition"}`);
      return c as unknown as RawFilter;
    });
  };
  const known = ['and', 'or', 'criteria'];
  const unknown = Object.keys(raw).find((k) => !known.includes(k));
  if (unknown) throw badRequest(`Unknown key '${unknown}' in ${where}: use "and", "or" or "criteria"`);
  const out: Array<{ and: RawFilter[] }> = [];
  for (const key of ['and', 'or'] as const) {
    const groups = raw[key];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) throw badRequest(`${where}.${key} must be an array`);
    groups.forEach((g, i) => {
      if (!isJsonRecord(g)) throw badRequest(`${where}.${key}[${i}] must be an object`);
      out.push({ and: criteria(g.criteria ?? g.and ?? [], `${where}.${key}[${i}].criteria`) });
    });
  }
  if (raw.criteria !== undefined) out.push({ and: criteria(raw.criteria, `${where}.criteria`) });
  return out;
}

/** Sort criteria: body `sortCriteria` [{field, order}], or the `sortCriteria`/`sort` + `sortOrder` parameters. */
function sortOf(ctx: Context, body: JsonRecord | undefined): { field: string; descending: boolean } | undefined {
  const orderOf = (o: unknown, at: string) => {
    if (o === undefined || o === null || o === 'ASCENDING') return false;
    if (o === 'DESCENDING') return true;
    throw badRequest(`${at} must be ASCENDING or DESCENDING, got '${String(o)}'`);
  };
  const criteria = body?.sortCriteria;
  if (criteria !== undefined) {
    if (!Array.isArray(criteria)) throw badRequest('sortCriteria must be an array of {"field", "order"}');
    if (criteria.length > 1) throw badRequest('Only one sort criterion is supported');
    const c = criteria[0];
    if (c === undefined) return undefined;
    if (!isJsonRecord(c) || typeof c.field !== 'string') throw badRequest('sortCriteria[0] must be {"field", "order"}');
    return { field: c.field, descending: orderOf(c.order, 'sortCriteria[0].order') };
  }
  const fields = listParam(ctx, 'sortCriteria');
  if (fields.length > 1) throw badRequest('Only one sort criterion is supported');
  const field = fields[0] ?? queryParam(ctx, 'sort');
  return field ? { field, descending: orderOf(queryParam(ctx, 'sortOrder'), "Query parameter 'sortOrder'") } : undefined;
}

/** The answer's entities in scroll order: `{urn, <aspect>: {value, systemMetadata?}}`. */
function renderEntities(urns: readonly string[], docs: Map<string, EntityDocument>, withSystemMetadata: boolean): JsonRecord[] {
  return urns.map((urn) => {
    const aspects: JsonRecord = {};
    for (const [name, a] of Object.entries(docs.get(urn) ?? {})) {
      aspects[name] = withSystemMetadata ? { value: a.value, systemMetadata: a.systemMetadata } : { value: a.value };
    }
    return { urn, ...aspects } as JsonRecord;
  });
}

/**
 * The name under which an entity holds the aspect a path names: the same name, else the one that
 * differs only in case (the generated spec's lower-cased `…/globaltags`); undefined when it holds none.
 */
function storedAspectName(doc: EntityDocument, asked: string): string | undefined {
  if (asked in doc) return asked;
  const lower = asked.toLowerCase();
  return Object.keys(doc).find((name) => name.toLowerCase() === lower);
}

/** Aspect names asked: undefined = all. */
function aspectSet(names: readonly string[] | undefined): Set<string> | undefined {
  return names && names.length ? new Set(names) : undefined;
}

/**
 * `{type}/{urn}` or `{type}/{urn}/{aspect}` from a raw path under /openapi/v3/entity/. With
 * `generic`, the type may be `generic` (DataHub's cross-type routes, which read the type off the
 * urn): any urn's type is then the path's.
 */
export function entityPath(rawRest: string, generic = false): { entityType: string; urn: Urn; aspect: string | undefined } {
  const slash = rawRest.indexOf('/');
  const rawType = decodePathUrn(rawRest.slice(0, slash));
  const entityType = generic && rawType === 'generic' ? undefined : pathEntityType(rawType);
  const rest = rawRest.slice(slash + 1);
  const last = rest.lastIndexOf('/');
  // A trailing segment that can only be an aspect name, after something that is a urn, names an aspect.
  if (last > 0 && /^[A-Za-z][A-Za-z0-9]*$/.test(rest.slice(last + 1))) {
    try {
      const urn = checked(parseUrn(decodePathUrn(rest.slice(0, last))), entityType);
      return { entityType: urn.entityType, urn, aspect: rest.slice(last + 1) };
    } catch {
      // not a urn before the slash: the whole rest is the urn
    }
  }
  const urn = checked(requestUrn(decodePathUrn(rest), 'the path'), entityType);
  return { entityType: urn.entityType, urn, aspect: undefined };
}

function checked(urn: Urn, entityType: string | undefined): Urn {
  if (entityType !== undefined && urn.entityType.toLowerCase() !== entityType.toLowerCase()) {
    throw badRequest(`the path: urn ${urn.text} is of entity type '${urn.entityType}', not '${entityType}' as the path says`);
  }
  return urn;
}

/**
 * DataHub's conditional-write headers, from an aspect's `headers` object or the HTTP request.
 * If-Version-Match is compared as text with the aspect's version, as DataHub compares it: any value
 * that is not the current version (`-10000`, `abc`) fails the write with a 412.
 */
export function preconditionOf(headers: Record<string, unknown> | undefined, where: string): AspectChange['precondition'] {
  if (!headers) return undefined;
  const get = (name: string) => {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    const v = key === undefined ? undefined : headers[key];
    if (v !== undefined && typeof v !== 'string') throw badRequest(`${where}: header '${name}' must be a string`);
    return v;
  };
  const versionMatch = get('If-Version-Match');
  const noneMatch = get('If-None-Match');
  if (noneMatch !== undefined && noneMatch !== '*')
    throw badRequest(`${where}: If-None-Match supports only "*" (the aspect must not exist), got '${noneMatch}'`);
  if (versionMatch === undefined && noneMatch === undefined) return undefined;
  return { versionMatch, noneMatch: noneMatch === '*' };
}

/**
 * The routes in two parts, for the caller to order among its own: `scroll` before POST
 * /openapi/v3/entity/{entityType}, `rest` after …/batchGet (whose path would read as a urn).
 */
export function openApiEntityReadRoutes(router: Router, deps: OpenApiEntityDeps): { scroll(): void; rest(): void } {
  const { store, config } = deps;
  let registerScroll: () => void;
  let registerRest: () => void;
  const limit = config.MAX_BODY_BYTES;

  async function scroll(
    ctx: Context,
    entityTypes: readonly string[],
    aspects: readonly string[] | undefined,
    orFilters: OrFilters,
    body: JsonRecord | undefined,
  ) {
    const actor = actorOf(ctx);
    await deps.authorizeView(ctx, [], () => readEntitiesDenied(actor.urn));
    const withSystemMetadata = booleanParam(ctx, 'systemMetadata', false);
    const page = await scrollEntities(store, {
      viewer: deps.viewer(ctx),
      entityTypes,
      query: queryParam(ctx, 'query') ?? '*',
      orFilters,
      sort: sortOf(ctx, body),
      scrollId: queryParam(ctx, 'scrollId'),
      count: integerParam(ctx, 'count', 10, MAX_SCROLL_COUNT),
      includeRemoved: booleanParam(ctx, 'includeSoftDelete', false),
      slice: sliceOf(ctx),
    });
    const docs =
      aspects === undefined
        ? new Map<string, EntityDocument>()
        : await latestAspectDocuments(store, page.urns, aspectSet(aspects), withSystemMetadata);
    ctx.body = { scrollId: page.scrollId, totalCount: page.totalCount, entities: renderEntities(page.urns, docs, withSystemMetadata) };
  }

  // Registered before POST /openapi/v3/entity/{entityType}, which would read "scroll" as an entity type.
  registerScroll = () =>
    router.post('/openapi/v3/entity/scroll', async (ctx) => {
      const body = await jsonValueBody(ctx, limit, 'a JSON object {"entities", "aspects", "filter", "sortCriteria"}', { emptyAs: {} });
      if (!isJsonRecord(body))
        throw badRequest('Request body must be a JSON object {"entities": [...], "aspects": [...], "filter": {...}}');
      const known = ['entities', 'aspects', 'filter', 'sortCriteria'];
      const unknown = Object.keys(body).find((k) => !known.includes(k));
      if (unknown) throw badRequest(`Unknown field '${unknown}' in the scroll body: expected ${known.join(', ')}`);
      const types = bodyEntityTypes(body.entities, 'entities') ?? [];
      let aspects: string[] | undefined;
      if (body.aspects !== undefined && body.aspects !== null) {
        if (!Array.isArray(body.aspects) || body.aspects.some((a) => typeof a !== 'string'))
          throw badRequest('aspects must be an array of aspect names');
        aspects = body.aspects as string[];
      }
      await scroll(ctx, types.length ? types : registeredEntityTypes(), aspects, filterBody(body.filter, 'filter'), body);
    });
  registerRest = () => {
    router.get('/openapi/v3/entity/:entityType', async (ctx) => {
      const entityType = pathEntityType(ctx.params.entityType!);
      // DataHub answers every aspect here unless some are named.
      await scroll(ctx, [entityType], [...listParam(ctx, 'aspects'), ...listParam(ctx, 'aspectNames')], [], undefined);
    });

    const ENTITY_PATH = /^\/openapi\/v3\/entity\/([^/]+\/.+)$/;
    const pathOf = (ctx: Context, generic = true) => entityPath(ENTITY_PATH.exec(ctx.path)![1]!, generic);

    // Before the GET route, which koa-router also answers HEAD with. HEAD answers 204 when the entity (or its aspect) exists, 404 when not; soft-deleted entities
    // exist unless includeSoftDelete=false says otherwise.
    router.head(ENTITY_PATH, async (ctx) => {
      const { urn, aspect } = pathOf(ctx);
      const actor = actorOf(ctx);
      assertCan(actor, 'EXISTS', existsDenied(actor.urn));
      const includeRemoved = booleanParam(ctx, 'includeSoftDelete', true);
      const e = (await entityExistence(store, [urn])).get(urn.text);
      let found = e?.exists === true && (includeRemoved || !e.removed);
      if (found && aspect !== undefined) {
        const doc = (await latestAspectDocuments(store, [urn.text], undefined, false)).get(urn.text);
        found = doc !== undefined && storedAspectName(doc, aspect) !== undefined;
      }
      // Status only: Koa turns a null body into 204, whatever the status was.
      ctx.status = found ? 204 : 404;
    });

    router.get(ENTITY_PATH, async (ctx) => {
      const { urn, aspect } = pathOf(ctx);
      await deps.authorizeView(ctx, [urn.text], getAspectDenied);
      const withSystemMetadata = booleanParam(ctx, 'systemMetadata', false);
      if (aspect !== undefined) {
        const version = integerParam(ctx, 'version', 0);
        const latest = (await latestAspectDocuments(store, [urn.text], undefined, withSystemMetadata)).get(urn.text) ?? {};
        const name = storedAspectName(latest, aspect) ?? canonicalAspectName(aspect);
        const doc = version === 0 ? latest[name] : await aspectVersionDocument(store, urn, name, version);
        if (!doc) {
          ctx.set('Not-Found-Reason', 'ENTITY');
          throw notFound(version === 0 ? `No aspect ${name} for ${urn.text}` : `No version ${version} of aspect ${name} for ${urn.text}`);
        }
        ctx.body = withSystemMetadata ? { value: doc.value, systemMetadata: doc.systemMetadata } : { value: doc.value };
        return;
      }
      const names = aspectSet([...listParam(ctx, 'aspects'), ...listParam(ctx, 'aspectNames')]);
      const docs = await latestAspectDocuments(store, [urn.text], undefined, withSystemMetadata);
      const doc = docs.get(urn.text);
      if (!doc || !(keyAspectNameOf(urn.entityType) in doc)) {
        ctx.set('Not-Found-Reason', 'ENTITY');
        throw notFound(`Entity ${urn.text} does not exist`);
      }
      const wanted = new Map([[urn.text, names ? Object.fromEntries(Object.entries(doc).filter(([n]) => names.has(n))) : doc]]);
      ctx.body = renderEntities([urn.text], wanted, withSystemMetadata)[0];
    });

    router.post(ENTITY_PATH, async (ctx) => {
      const { urn, aspect: asked } = pathOf(ctx, false);
      if (asked === undefined)
        throw badRequest('POST to one entity needs an aspect in the path: /openapi/v3/entity/{entityType}/{urn}/{aspectName}');
      const aspect = canonicalAspectName(asked);
      const async = booleanParam(ctx, 'async', false);
      const withSystemMetadata = booleanParam(ctx, 'systemMetadata', false);
      const body = await jsonValueBody(ctx, limit, 'a JSON object {"value": {...}, "systemMetadata"?: {...}, "headers"?: {...}}');
      if (!isJsonRecord(body)) throw badRequest('Request body must be a JSON object {"value": {...}}');
      if (!('value' in body)) throw badRequest(`Missing \`value\` field in the ${aspect} body`);
      if (body.headers !== undefined && !isJsonRecord(body.headers)) throw badRequest('headers must be an object');
      const headers = {
        ...(body.headers as Record<string, unknown> | undefined),
        ...(ctx.get('If-Version-Match') ? { 'If-Version-Match': ctx.get('If-Version-Match') } : {}),
        ...(ctx.get('If-None-Match') ? { 'If-None-Match': ctx.get('If-None-Match') } : {}),
      };
      const change: AspectChange = {
        urn,
        aspectName: aspect,
        changeType: 'UPSERT',
        value: body.value,
        systemMetadata: parseSystemMetadata(body.systemMetadata, aspect),
        precondition: preconditionOf(headers, aspect),
      };
      await deps.ingest(ctx, [change]);
      const doc = (await latestAspectDocuments(store, [urn.text], new Set([aspect]), withSystemMetadata)).get(urn.text) ?? {};
      ctx.status = async ? 202 : 200;
      ctx.body = renderEntities([urn.text], new Map([[urn.text, doc]]), withSystemMetadata)[0];
    });
  };
  return { scroll: registerScroll, rest: registerRest };
}

export function registerOpenApiRelationshipRoutes(router: Router, deps: { store: Store; config: IngestionConfig }): void {
  const { store, config } = deps;
  // POST /openapi/v3/relationship/scroll?relationshipTypes=&sourceTypes=&destinationTypes=&direction=
  //   &count=&scrollId=&includeSoftDelete=&sliceId=&sliceMax=  body {sourceFilter?, destinationFilter?, edgeFilter?}.
  router.post('/openapi/v3/relationship/scroll', async (ctx) => {
    const actor = actorOf(ctx);
    assertCan(actor, 'READ', relationshipsDenied(actor.urn));
    const body = await jsonValueBody(ctx, config.MAX_BODY_BYTES, 'a JSON object {"sourceFilter", "destinationFilter"}', { emptyAs: {} });
    if (!isJsonRecord(body)) throw badRequest('Request body must be a JSON object {"sourceFilter": {...}, "destinationFilter": {...}}');
    const known = ['sourceFilter', 'destinationFilter', 'edgeFilter'];
    const unknown = Object.keys(body).find((k) => !known.includes(k));
    if (unknown) throw badRequest(`Unknown field '${unknown}' in the relationship scroll body: expected ${known.join(', ')}`);
    const direction = queryParam(ctx, 'direction') ?? 'OUTGOING';
    if (direction !== 'INCOMING' && direction !== 'OUTGOING')
      throw badRequest(`Query parameter 'direction' must be INCOMING or OUTGOING, got '${direction}'`);
    const typesOf = (name: string) =>
      listParam(ctx, name).map((t) => {
        const known = registeredEntityTypes().find((n) => n.toLowerCase() === t.toLowerCase());
        if (!known) throw badRequest(`Unknown entity type '${t}' in '${name}'`);
        return known;
      });
    ctx.body = await scrollRelationships(store, {
      types: listParam(ctx, 'relationshipTypes'),
      sourceTypes: typesOf('sourceTypes'),
      destinationTypes: typesOf('destinationTypes'),
      direction,
      sourceFilter: filterBody(body.sourceFilter, 'sourceFilter'),
      destinationFilter: filterBody(body.destinationFilter, 'destinationFilter'),
      edgeFilter: filterBody(body.edgeFilter, 'edgeFilter'),
      slice: sliceOf(ctx),
      count: Math.max(1, integerParam(ctx, 'count', 10, MAX_SCROLL_COUNT)),
      scrollId: queryParam(ctx, 'scrollId'),
      includeRemoved: booleanParam(ctx, 'includeSoftDelete', false),
    });
  });
}
