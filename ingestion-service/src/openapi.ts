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
  validationFailed,
  isJsonRecord,
  type JsonRecord,
  type Urn,
  getAspectDenied,
} from '@lineage/catalog/model';
import { getLatestAspectsOf } from '@lineage/catalog/read';
import type { IngestionConfig } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { actorOf } from './restli.ts';
import type { IngestionContext } from './context.ts';
import { booleanParam, jsonValueBody, listParam, requestUrn } from './request-params.ts';
import { parseSystemMetadata } from './proposals.ts';
import { entityPath, openApiEntityReadRoutes, pathEntityType, preconditionOf } from './openapi-entities.ts';

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
 * here, every write being synchronous. Aspect names pass through to the write path, which validates
 * them exactly as for Rest.li proposals.
 */
function parseEntityElements(body: unknown[], entityType: string, changeType: 'UPSERT' | 'PATCH', maxChanges: number): ParsedElements {
  const changes: AspectChange[] = [];
  const echo = new Map<string, JsonRecord>();
  for (const { element, where, urn, aspectNames } of entityElements(body, entityType)) {
    if (aspectNames.length === 0) throw badRequest(`${where} (${urn.text}) names no aspect: add "<aspectName>": {"value": …}`);
    let echoed = echo.get(urn.text);
    if (!echoed) echo.set(urn.text, (echoed = {}));
    for (const aspectName of aspectNames) {
      const entry = element[aspectName];
      const at = `${where}.${aspectName}`;
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
  if (changes.length > maxChanges) {
    throw validationFailed(`Too many aspects in one batch: ${changes.length} > ${maxChanges} (MAX_BATCH_PROPOSALS)`);
  }
  return { changes, echo };
}

const echoList = (echo: Map<string, JsonRecord>) => [...echo].map(([urn, aspects]) => ({ urn, ...aspects }));

export function registerOpenApiEntityRoutes(router: Router, deps: OpenApiDeps): void {
  const { store, config } = deps;
  const limit = config.MAX_BODY_BYTES;
  const reads = openApiEntityReadRoutes(router, deps);
  reads.scroll();

  // DataHub defaults async to true on these two doors; the SDK always says which it wants. Writes
  // are synchronous either way (all-or-nothing, visible on return): only the status differs.
  router.post('/openapi/v3/entity/:entityType', async (ctx) => {
    const async = booleanParam(ctx, 'async', true);
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    const { changes, echo } = parseEntityElements(body, entityType, 'UPSERT', config.MAX_BATCH_PROPOSALS);
    await deps.ingest(ctx, changes);
    ctx.status = async ? 202 : 200;
    ctx.body = echoList(echo);
  });

  router.patch('/openapi/v3/entity/:entityType', async (ctx) => {
    const async = booleanParam(ctx, 'async', true);
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    const { changes, echo } = parseEntityElements(body, entityType, 'PATCH', config.MAX_BATCH_PROPOSALS);
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
    const withSystemMetadata = booleanParam(ctx, 'systemMetadata', false);
    const entityType = pathEntityType(ctx.params.entityType!);
    const body = await entityListBody(ctx, limit);
    // urn → wanted aspect names (undefined = all of them); a repeated urn unions its lists.
    const wanted = new Map<string, { urn: Urn; names: Set<string> | undefined }>();
    for (const { urn, aspectNames: names } of entityElements(body, entityType)) {
      const seen = wanted.get(urn.text);
      if (!seen) wanted.set(urn.text, { urn, names: names.length ? new Set(names) : undefined });
      else if (seen.names) {
        if (names.length === 0) seen.names = undefined;
        else for (const n of names) seen.names.add(n);
      }
    }
    if (wanted.size > config.MAX_BATCH_PROPOSALS) {
      throw validationFailed(`Too many urns in one batchGet: ${wanted.size} > ${config.MAX_BATCH_PROPOSALS} (MAX_BATCH_PROPOSALS)`);
    }
    await deps.authorizeView(ctx, [...wanted.keys()], getAspectDenied);
    if (wanted.size === 0) {
      ctx.body = [];
      return;
    }
    const stored = await getLatestAspectsOf(store, [...wanted.keys()]);
    const byUrn = new Map<string, JsonRecord>();
    for (const [urn, rows] of stored) {
      const names = wanted.get(urn)?.names;
      for (const r of rows.values()) {
        if (names && !names.has(r.name)) continue;
        let aspects = byUrn.get(urn);
        if (!aspects) byUrn.set(urn, (aspects = {}));
        aspects[r.name] = withSystemMetadata
          ? { value: r.value, systemMetadata: r.systemMetadata, auditStamp: { time: r.createdOn, actor: r.createdBy } }
          : { value: r.value };
      }
    }
    // Request order; urns with none of the asked aspects are left out, as DataHub does.
    ctx.body = [...wanted.keys()].filter((u) => byUrn.has(u)).map((urn) => ({ urn, ...byUrn.get(urn) }));
  });

  // The SDK puts the urn raw into the path; a percent-encoded one works too. Matched on the raw
  // path, like the Rest.li path keys, so a urn's own %2C/%28/%29 survive a single decode.
  // DELETE …/{urn}/{aspectName} deletes that aspect, as ?aspects=<aspectName> does.
  router.delete(/^\/openapi\/v3\/entity\/([^/]+\/.+)$/, async (ctx) => {
    const { urn, aspect } = entityPath(/^\/openapi\/v3\/entity\/([^/]+\/.+)$/.exec(ctx.path)![1]!);
    if (booleanParam(ctx, 'clear', false))
      throw badRequest("Query parameter 'clear' is not supported: delete the entity, or name its aspects in 'aspects'");
    const aspects = aspect === undefined ? listParam(ctx, 'aspects') : [aspect];
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
