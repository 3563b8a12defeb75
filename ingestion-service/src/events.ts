// GET /openapi/v1/events/poll (docs/change-events.md §Polling): DataHub's Events API, which the
// `datahub-cloud` event source of DataHub Actions polls. Parses and authorizes here; the poll is
// the read layer's. 404 when the change log is off (EVENTS_API_ENABLED=false), as on a GMS without it.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { assertCan, getPlatformEventsDenied, notFound } from '@lineage/catalog/model';
import { parsePollRequest, pollChanges } from '@lineage/catalog/read';
import { changeLogTopicsOf, type IngestionConfig } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import type { RestState } from './restli.ts';

const EVENTS_POLL_PATH = '/openapi/v1/events/poll';

/** Each query parameter once, as text (a repeated one is refused by the parser as not a number or topic). */
function queryOf(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(ctx.query)) out[k] = Array.isArray(v) ? v.join(',') : v;
  return out;
}

export function registerEventRoutes(router: Router, deps: { store: Store; config: IngestionConfig }): void {
  router.get(EVENTS_POLL_PATH, async (ctx: Context) => {
    if (!deps.config.EVENTS_API_ENABLED)
      throw notFound('The Events API is off on this catalog (EVENTS_API_ENABLED=false): no change log is kept.');
    const actor = (ctx.state as RestState).actor;
    assertCan(actor, 'GET_PLATFORM_EVENTS', getPlatformEventsDenied(actor.urn));
    const request = parsePollRequest(queryOf(ctx), changeLogTopicsOf(deps.config));
    // A client that hangs up stops the wait.
    const abort = new AbortController();
    ctx.req.once('close', () => abort.abort());
    ctx.body = await pollChanges(deps.store, request, abort.signal);
  });
}
