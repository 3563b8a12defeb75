// DataHub's OpenAPI v3 entity doors (the Python client's `openapi_ingestion` emitter and
// `get_entities`): POST/PATCH/DELETE /openapi/v3/entity/{entityType} and …/batchGet, over the same
// write path and authorization as the Rest.li ingest routes. Envelope mistakes are 400 naming the
// element and field; aspect validation stays the write path's (422). Errors on these paths are
// rendered as {"error": message} by errorMiddleware.
import type { Context } from 'koa';
import type Router from '@koa/router';
import { type AspectChange, type WriteOptions, authorizeWrites, hardDeleteEntity } from '@lineage/catalog/write';
import {
  keyAspectNameOf,
  badRequest,
  canonicalAspectName,
  validationFailed,
  isJsonRecord,
  type JsonRecord,
  type Urn,
  getAspectDenied,
} from '@lineage/catalog/model';
import { aspectVersionDocumentsOf, latestAspectDocuments } from '@lineage/catalog/read';
import type { IngestionConfig } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { actorOf } from './restli.ts';
import type { IngestionContext } from './context.ts';
import { booleanParam, jsonValueBody, listParam, requestUrn } from './request-params.ts';
import { parseSystemMetadata } from './proposals.ts';
import { bodyEntityType, entityPath, openApiEntityReadRoutes, pathEntityType, preconditionOf } from './openapi-entities.ts';

export interface OpenApiDeps extends Pick<IngestionContext, 'viewer' | 'authorizeView'> {
  store: Store;
  config: IngestionConfig;
  /** Authorizes every change (403 on the first denial), then writes them in one transaction. */
  ingest(ctx: Context, changes: AspectChange[]): Promise<unknown>;
  writeOptions(ctx: Context): WriteOptions;
}

/** The path's entity type must be the urn's (camelCase as sent, compared case-insensitively like DataHub's registry). */
function checkEntityType(urn: Urn, entityType: string, where: string): void {
  if (urn.entityType.toLowerCase() !== entityType.toLowerCase()) {
    throw badRequest(`${where}: urn ${urn.text} is of entity type '${urn.entityType}', not '${entityType}' as the path says`);
  }
}

async function entityListBody(ctx: Context, limitBytes: number): Promise<unknown[]> {
  const body = await jsonValueBody(ctx, limitBytes, 'a JSON array of entities');
  if (!Array.isArray(body)) throw badRequest('Request body must be a JSON array of {"urn": …, "<aspectName>": {…}} objects');
  return body;
}

interface ParsedElements {
  changes: AspectChange[];
  /** Echo of the request per urn, first-seen order; a repeated aspect keeps its last value. */
  echo: Map<string, JsonRecord>;
}

/** The elements of a v3 list body, each `{urn, <aspectName>: …}` with a urn of the path's entity type. */
function entityElements(body: unknown[], entityType: string) {
  return body.map((element, i) => {
    const where = `element [${i}]`;
    if (!isJsonRecord(element)) throw badRequest(`${where} must be a JSON object with a \`urn\` field`);
    const urn = requestUrn(element.urn, where);
    checkEntityType(urn, entityType, where);
    return { element, where, urn, aspectNames: Object.keys(element).filter((k) => k !== 'urn') };
  });
}

/**
 * The v3 ingest envelope: `[{urn, <aspectName>: {value, systemMetadata?, headers?}, …}, …]`, one
 * change per aspect, in element order. Of `headers`, `If-Version-Match` and `If-None-Match` make the
 * change conditional (412 when they do not hold); the others (the sync-index marker) mean nothing
 * here, every write being synchronous. Aspect names resolve in any case as DataHub's registry
 * looks them up (canonicalAspectName: `globaltags` is globalTags, in the write and in the echo), then
 * pass to the write path, which validates them exactly as for Rest.li proposals.
 */
function parseEntityElements(body: unknown[], entityType: string, changeType: 'UPSERT' | 'PATCH'): ParsedElements {
  const changes: AspectChange[] = [];
  const echo = new Map<string, JsonRecord>();
  for (const { element, where, urn, aspectNames } of entityElements(body, entityType)) {
    if (aspectNames.length === 0) throw badRequest(`${where} (${urn.text}) names no aspect: add "<aspectName>": {"value": …}`);
    let echoed = echo.get(urn.text);
    if (!echoed) echo.set(urn.text, (echoed = {}));
    for (const asked of aspectNames) {
      const entry = element[asked];
      const at = `${where}.${asked}`;
      const aspectName = canonicalAspectName(asked);
      if (!isJsonRecord(entry)) throw badRequest(`${at} must be an object {"value": …, "systemMetadata": …}`);
      if (!('value' in entry)) throw badRequest(`Missing \`value\` field in ${at}`);
      const systemMetadata = parseSystemMetadata(entry.systemMetadata, at);
      if (entry.headers !== undefined && entry.headers !== null && !isJsonRecord(entry.headers))
        throw badRequest(`${at}.headers must be an object`);
      const precondition = preconditionOf(entry.headers as Record<string, unknown> | undefined, at);
      const value = entry.value;
      if (changeType === 'PATCH') {
        if (!isJsonRecord(value) || !('patch' in value))
          throw badRequest(`Missing \`patch\` field in ${at}.value: expected {"patch": [...]}`);
        if (!Array.isArray(value.patch)) throw badRequest(`${at}.value.patch must be an array of JSON Patch operations`);
        changes.push({ urn, aspectName, changeType, patchText: JSON.stringify(value), systemMetadata, precondition });
      } else {
        changes.push({ urn, aspectName, changeType, value, systemMetadata, precondition });
      }
      echoed[aspectName] = { value };
    }
  }
  return { changes, echo };
}

function checkBatchSize(changes: readonly AspectChange[], maxChanges: number): void {
  if (changes.length > maxChanges) {
    throw validationFailed(`Too many aspects in one batch: ${changes.length} > ${maxChanges} (MAX_BATCH_PROPOSALS)`);
  }
}

/**
 * DataHub's cross-type body (POST|PATCH /openapi/v3/entity/generic): `{"<entityType>": [<the typed
 * route's elements>], …}`. Every element of every type is parsed before anything is written, and all
 * of them are written in one transaction (DataHub writes type by type).
 */
async function parseGenericBody(ctx: Context, limitBytes: number, changeType: 'UPSERT' | 'PATCH', maxChanges: number) {
  const body = await jsonValueBody(ctx, limitBytes, 'a JSON object {"<entityType>": [entities]}');
  if (!isJsonRecord(body)) throw badRequest('Request body must be a JSON object {"<entityType>": [{"urn": …, "<aspectName>": {…}}]}');
  const changes: AspectChange[] = [];
  const parts: Array<{ key: string; echo: Map<string, JsonRecord> }> = [];
  for (const [key, list] of Object.entries(body)) {
    if (!Array.isArray(list)) throw badRequest(`Value of property '${key}' must be an array of entities`);
    const entityType = bodyEntityType(key);
    const parsed = parseEntityElements(list, entityType, changeType);
    changes.push(...parsed.changes);
    parts.push({ key, echo: parsed.echo });
  }
  checkBatchSize(changes, maxChanges);
  return { changes, parts };
}

type Wanted = Map<string, { urn: Urn; names: Set<string> | undefined; versions: Map<string, number> }>;

/**
 * The version an aspect entry of a batchGet body asks for: its `headers` object's If-Version-Match
 * (DataHub's selector, one per aspect), 0 (the latest) without one.
 */
function askedVersion(entry: unknown, at: string): number {
  if (!isJsonRecord(entry) || !isJsonRecord(entry.headers)) return 0;
  const headers = entry.headers;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === 'if-version-match');
  const raw = key === undefined ? undefined : headers[key];
  if (raw === undefined || raw === null) return 0;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text.trim()))
    throw badRequest(`${at}.headers: If-Version-Match must be an aspect version (0 = the latest), got ${JSON.stringify(raw)}`);
  return Number(text.trim());
}

/**
 * batchGet of one list per entity type, read together: per list, in request order, the urns found
 * with the asked aspects (names resolved as the per-aspect paths resolve them), a urn with none of
 * them left out, as DataHub does. An aspect whose entry carries If-Version-Match in its `headers`
 * is answered at that version (docs/wire-contract.md §OpenAPI), and left out when there is none.
 * At most `maxUrns` urns in all (422).
 */
async function batchGet(
  ctx: Context,
  deps: Pick<OpenApiDeps, 'store' | 'authorizeView'>,
  maxUrns: number,
  lists: ReadonlyArray<{ entityType: string; body: unknown[] }>,
): Promise<JsonRecord[][]> {
  const withSystemMetadata = booleanParam(ctx, 'systemMetadata', false);
  // urn → wanted aspect names (undefined = all of them) and the versions asked of some; a repeated
  // urn unions its lists.
  const wanted: Wanted[] = lists.map(({ entityType, body }) => {
    const byUrn: Wanted = new Map();
    for (const { element, where, urn, aspectNames } of entityElements(body, entityType)) {
      let seen = byUrn.get(urn.text);
      if (!seen) byUrn.set(urn.text, (seen = { urn, names: aspectNames.length ? new Set() : undefined, versions: new Map() }));
      else if (aspectNames.length === 0) seen.names = undefined;
      for (const asked of aspectNames) {
        const name = canonicalAspectName(asked);
        seen.names?.add(name);
        const version = askedVersion(element[asked], `${where}.${asked}`);
        if (version > 0) seen.versions.set(name, version);
        else seen.versions.delete(name);
      }
    }
    return byUrn;
  });
  const count = wanted.reduce((n, w) => n + w.size, 0);
  if (count > maxUrns) throw validationFailed(`Too many urns in one batchGet: ${count} > ${maxUrns} (MAX_BATCH_PROPOSALS)`);
  const urns = [...new Set(wanted.flatMap((w) => [...w.keys()]))];
  await deps.authorizeView(ctx, urns, getAspectDenied);
  // Only the urns some latest value is asked of: a page of older versions (how the MCP server's
  // history walks) is one read. While an aspect lives, a version number names one value, so the two
  // reads of a mixed request agree even with a write between them.
  const latestOf = [
    ...new Set(wanted.flatMap((w) => [...w].filter(([, { names, versions }]) => !names || names.size > versions.size).map(([urn]) => urn))),
  ];
  const latest = await latestAspectDocuments(deps.store, latestOf, undefined, withSystemMetadata);
  const versioned = await aspectVersionDocumentsOf(
    deps.store,
    wanted.flatMap((w) => [...w].flatMap(([urn, { versions }]) => [...versions].map(([name, version]) => ({ urn, name, version })))),
    withSystemMetadata,
  );
  return wanted.map((w) =>
    [...w].flatMap(([urn, { names, versions }]) => {
      const aspects: JsonRecord = {};
      for (const [name, doc] of Object.entries(latest.get(urn) ?? {})) {
        if (names && !names.has(name)) continue;
        if (!versions.has(name)) aspects[name] = doc as unknown as JsonRecord;
      }
      for (const [name, doc] of Object.entries(versioned.get(urn) ?? {})) {
        if (versions.has(name)) aspects[name] = doc as unknown as JsonRecord;
      }
      return Object.keys(aspects).length ? [{ urn, ...aspects }] : [];
    }),
  );
}

const echoList = (echo: Map<string, JsonRecord>) => [...echo].map(([urn, aspects]) => ({ urn, ...aspects }));

export function registerOpenApiEntityRoutes(router: Router, deps: OpenApiDeps): void {
  const { store, config } = deps;
  const limit = config.MAX_BODY_BYTES;
  const reads = openApiEntityReadRoutes(router, deps);
  reads.scroll();

  // The cross-type doors, before POST|PATCH /openapi/v3/entity/{entityType} would read "generic" as
  // a type. The answer is keyed as the request was, each type's entities as its typed route echoes
  // them; async (the default) answers 202, with the same body.
  for (const [method, changeType] of [
    ['post', 'UPSERT'],
    ['patch', 'PATCH'],
  ] as const) {
    router[method]('/openapi/v3/entity/generic', async (ctx) => {
      const async = booleanParam(ctx, 'async', true);
      const { changes, parts } = await parseGenericBody(ctx, limit, changeType, config.MAX_BATCH_PROPOSALS);
      await deps.ingest(ctx, changes);
      ctx.status = async ? 202 : 200;
      ctx.body = Object.fromEntries(parts.map(({ key, echo }) => [key, echoList(echo)]));
    });
  }
  router.post('/openapi/v3/entity/generic/batchGet', async (ctx) => {
    const body = await jsonValueBody(ctx, limit, 'a JSON object {"<entityType>": [{"urn": …}]}');
    if (!isJsonRecord(body)) throw badRequest('Request body must be a JSON object {"<entityType>": [{"urn": …, "<aspectName>": {}}]}');
    const lists = Object.entries(body).map(([key, list]) => {
      if (!Array.isArray(list)) throw badRequest(`Value of property '${key}' must be an array of entities`);
      return { key, entityType: bodyEntityType(key), body: list };
    });
    const found = await batchGet(ctx, deps, config.MAX_BATCH_PROPOSALS, lists);
    ctx.body = Object.fromEntries(lists.map(({ key }, i) => [key, found[i]]));
  });

  // DataHub defaults async to true on these two doors; the SDK always says which it wants. Writes
  // are synchronous either way (all-or-nothing, visible on return): only the status differs.
  router.post('/openapi/v3/entity/:entityType', async (ctx) => {
    const async = booleanParam(ctx, 'async', true);
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    const { changes, echo } = parseEntityElements(body, entityType, 'UPSERT');
    checkBatchSize(changes, config.MAX_BATCH_PROPOSALS);
    await deps.ingest(ctx, changes);
    ctx.status = async ? 202 : 200;
    ctx.body = echoList(echo);
  });

  router.patch('/openapi/v3/entity/:entityType', async (ctx) => {
    const async = booleanParam(ctx, 'async', true);
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    const { changes, echo } = parseEntityElements(body, entityType, 'PATCH');
    checkBatchSize(changes, config.MAX_BATCH_PROPOSALS);
    await deps.ingest(ctx, changes);
    if (async) {
      ctx.body = '';
      ctx.status = 202;
      return;
    }
    ctx.status = 200;
    ctx.body = echoList(echo);
  });

  router.post('/openapi/v3/entity/:entityType/batchGet', async (ctx) => {
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    ctx.body = (await batchGet(ctx, deps, config.MAX_BATCH_PROPOSALS, [{ entityType, body }]))[0];
  });

  // The SDK puts the urn raw into the path; a percent-encoded one works too. Matched on the raw
  // path, like the Rest.li path keys, so a urn's own %2C/%28/%29 survive a single decode.
  // DELETE …/{urn}/{aspectName} deletes that aspect, as ?aspects=<aspectName> does.
  router.delete(/^\/openapi\/v3\/entity\/([^/]+\/.+)$/, async (ctx) => {
    const { urn, aspect } = entityPath(/^\/openapi\/v3\/entity\/([^/]+\/.+)$/.exec(ctx.path)![1]!, true);
    if (booleanParam(ctx, 'clear', false))
      throw badRequest("Query parameter 'clear' is not supported: delete the entity, or name its aspects in 'aspects'");
    const aspects = (aspect === undefined ? listParam(ctx, 'aspects') : [aspect]).map(canonicalAspectName);
    const keyAspect = keyAspectNameOf(urn.entityType);
    const actor = actorOf(ctx);
    if (aspects.length === 0 || aspects.includes(keyAspect)) {
      await authorizeWrites(store, actor, [{ urn: urn.text, entityType: urn.entityType, changeType: 'DELETE_ENTITY' }]);
      await hardDeleteEntity(store, urn, deps.writeOptions(ctx));
    } else {
      await deps.ingest(
        ctx,
        aspects.map((aspectName) => ({ urn, aspectName, changeType: 'DELETE' })),
      );
    }
    ctx.body = '';
    ctx.status = 200;
  });

  reads.rest();
}
