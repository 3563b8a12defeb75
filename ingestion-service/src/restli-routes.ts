// DataHub GMS's Rest.li resources (docs/wire-contract.md §Rest.li): the /aspects, /entities and
// /operations actions, and the GET /aspects/<urn> and /entitiesV2/<urn> reads. Each parses,
// authorizes, calls one catalog function and renders.
import type { Context } from 'koa';
import type Router from '@koa/router';
import { authorizeWrites, hardDeleteEntity } from '@lineage/catalog/write';
import { getAspect, getLatestAspects, entityExistence, countLatest, syntheticKeyAspect } from '@lineage/catalog/read';
import {
  aspectFqcn,
  keyAspectNameOf,
  badRequest,
  notFound,
  validationFailed,
  parseUrnOrThrow,
  assertCan,
  getAspectDenied,
  getCountsDenied,
  restoreIndicesDenied,
  updateEntitiesDenied,
} from '@lineage/catalog/model';
import type { IngestionContext } from './context.ts';
import { handleRestoreIndices } from './restore-handler.ts';
import { actorOf, decodePathUrn, jsonBody } from './restli.ts';
import { proposalToChange, snapshotToChanges } from './proposals.ts';

/** Rest.li Void actions answer 200 with an empty body (Koa would make that a 204). */
function voidResponse(ctx: Context): void {
  ctx.body = '';
  ctx.status = 200;
}

/** Rest.li list syntax: List(a,b) (parentheses and commas may arrive percent-encoded). */
function parseRestliList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const m = /^List\((.*)\)$/.exec(raw.trim());
  if (!m) throw badRequest(`Invalid aspects parameter '${raw}': expected List(name,…)`);
  return m[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function requireString(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`Parameter '${name}' is required and must be a string`);
  return v;
}

/** POST /aspects, /entities and /operations?action=<name>. */
export function registerRestliActions(router: Router, deps: IngestionContext): void {
  const { store, config, ingest, writeOptions } = deps;
  /** POST /<resource>?action=<name>: the action named, else 400; the body is read once it is known. */
  type Action = (body: Record<string, unknown>, ctx: Context) => Promise<void>;
  const actions = (resource: string, handlers: Readonly<Record<string, Action>>) => async (ctx: Context) => {
    const name = ctx.query.action;
    const handler = typeof name === 'string' && Object.hasOwn(handlers, name) ? handlers[name]! : undefined;
    if (!handler) throw badRequest(`Unknown action '${String(name)}' on ${resource}`);
    await handler(await jsonBody(ctx, config.MAX_BODY_BYTES), ctx);
  };
  /** A batch parameter: an array (400 otherwise) of at most MAX_BATCH_PROPOSALS items (422 otherwise). */
  const batchOf = (body: Record<string, unknown>, name: string, noun: string): unknown[] => {
    const items = body[name];
    if (!Array.isArray(items)) throw badRequest(`Parameter '${name}' is required and must be an array`);
    if (items.length > config.MAX_BATCH_PROPOSALS) {
      throw validationFailed(`Too many ${noun} in one batch: ${items.length} > ${config.MAX_BATCH_PROPOSALS} (MAX_BATCH_PROPOSALS)`);
    }
    return items;
  };

  router.post(
    '/aspects',
    actions('/aspects', {
      async ingestProposal(body, ctx) {
        await ingest(ctx, [proposalToChange(body.proposal)]);
        ctx.body = { value: 'success' };
      },
      async ingestProposalBatch(body, ctx) {
        await ingest(
          ctx,
          batchOf(body, 'proposals', 'proposals').map((p, i) => proposalToChange(p, `proposals[${i}]`)),
        );
        ctx.body = { value: 'success' };
      },
      async getCount(body, ctx) {
        assertCan(actorOf(ctx), 'GET_COUNT', getCountsDenied());
        const urnLike = body.urnLike;
        if (urnLike !== undefined && urnLike !== null && typeof urnLike !== 'string')
          throw badRequest("Parameter 'urnLike' must be a string");
        ctx.body = { value: await countLatest(store, requireString(body, 'aspect'), urnLike ?? undefined) };
      },
      async restoreIndices(body, ctx) {
        ctx.body = await handleRestoreIndices(store, body, actorOf(ctx), updateEntitiesDenied());
      },
    }),
  );

  router.post(
    '/entities',
    actions('/entities', {
      async ingest(body, ctx) {
        if (body.entity === undefined) throw badRequest("Parameter 'entity' is required");
        await ingest(ctx, snapshotToChanges(body.entity, body.systemMetadata));
        voidResponse(ctx);
      },
      async batchIngest(body, ctx) {
        const entities = batchOf(body, 'entities', 'entities');
        const sms = body.systemMetadata;
        if (sms !== undefined && (!Array.isArray(sms) || sms.length !== entities.length)) {
          throw validationFailed('entities and systemMetadata must have the same length');
        }
        await ingest(
          ctx,
          entities.flatMap((e, i) => snapshotToChanges(e, Array.isArray(sms) ? sms[i] : undefined, `entities[${i}]`)),
        );
        voidResponse(ctx);
      },
      async exists(body, ctx) {
        const urn = parseUrnOrThrow(requireString(body, 'urn'));
        assertCan(actorOf(ctx), 'EXISTS', getAspectDenied(urn.text));
        const includeSoftDelete = body.includeSoftDelete === undefined || body.includeSoftDelete === null ? true : body.includeSoftDelete;
        if (typeof includeSoftDelete !== 'boolean') throw badRequest("Parameter 'includeSoftDelete' must be a boolean");
        const e = (await entityExistence(store, [urn])).get(urn.text)!;
        ctx.body = { value: e.exists && (includeSoftDelete || !e.removed) };
      },
      async delete(body, ctx) {
        const actor = actorOf(ctx);
        const urn = parseUrnOrThrow(requireString(body, 'urn'));
        await authorizeWrites(store, actor, [{ urn: urn.text, entityType: urn.entityType, changeType: 'DELETE_ENTITY' }]);
        const rows = await hardDeleteEntity(store, urn, writeOptions(ctx));
        ctx.body = { value: { urn: urn.text, rows, timeseriesRows: 0 } };
      },
    }),
  );

  router.post(
    '/operations',
    actions('/operations', {
      async restoreIndices(body, ctx) {
        ctx.body = await handleRestoreIndices(store, body, actorOf(ctx), restoreIndicesDenied());
      },
    }),
  );
}

/** GET /aspects/<urn>?aspect=&version= and /entitiesV2/<urn>?aspects=List(…). */
export function registerRestliReads(router: Router, deps: IngestionContext): void {
  const { store } = deps;
  // Path keys are matched on the raw path so a urn's own %2C/%28/%29 survive a single decode.
  router.get(/^\/aspects\/(.+)$/, async (ctx) => {
    const urn = parseUrnOrThrow(decodePathUrn(ctx.path.slice('/aspects/'.length)));
    await deps.authorizeView(ctx, [urn.text], getAspectDenied);
    const aspect = typeof ctx.query.aspect === 'string' ? ctx.query.aspect : undefined;
    if (!aspect) throw badRequest("Query parameter 'aspect' is required");
    const versionText = typeof ctx.query.version === 'string' ? ctx.query.version : '0';
    if (!/^\d+$/.test(versionText)) throw badRequest(`Query parameter 'version' must be a non-negative integer, got '${versionText}'`);
    const version = Number(versionText);
    const row = await getAspect(store, urn, aspect, version);
    if (!row) throw notFound(`No ${aspect} (version ${version}) for ${urn.text}`);
    ctx.body = { aspect: { [aspectFqcn(aspect) ?? aspect]: row.value }, version };
  });

  router.get(/^\/entitiesV2\/(.+)$/, async (ctx) => {
    const urn = parseUrnOrThrow(decodePathUrn(ctx.path.slice('/entitiesV2/'.length)));
    await deps.authorizeView(ctx, [urn.text], getAspectDenied);
    const names = parseRestliList(typeof ctx.query.aspects === 'string' ? ctx.query.aspects : undefined);
    const rows = await getLatestAspects(store, urn, names);
    const aspects: Record<string, unknown> = {};
    const keyName = keyAspectNameOf(urn.entityType);
    if (!rows.has(keyName)) {
      // DataHub always includes the key aspect, even for entities never ingested.
      const key = syntheticKeyAspect(urn);
      aspects[key.name] = {
        name: key.name,
        type: 'VERSIONED',
        version: 0,
        value: key.value,
        created: { time: 0, actor: 'urn:li:corpuser:__datahub_system' },
      };
    }
    for (const [name, r] of rows) {
      aspects[name] = {
        name,
        type: 'VERSIONED',
        version: 0,
        value: r.value,
        created: { time: r.createdOn, actor: r.createdBy },
        systemMetadata: r.systemMetadata,
      };
    }
    ctx.body = { entityName: urn.entityType, urn: urn.text, aspects };
  });
}
