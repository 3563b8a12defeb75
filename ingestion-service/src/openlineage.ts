// The OpenLineage door (docs/wire-contract.md §OpenLineage): one event, or a batch of them, parsed
// and checked here, written by the catalog's OpenLineage write. Marquez's paths, which the
// openlineage-python client posts to by default, and DataHub's. Errors render as {"error": …}.
import type { Context } from 'koa';
import type Router from '@koa/router';
import {
  forbidden,
  badRequest,
  isCatalogError,
  openLineageDenied,
  parseOpenLineageEvent,
  validationFailed,
  type CatalogError,
  type OpenLineageEvent,
} from '@lineage/catalog/model';
import type { IngestionConfig, Logger } from '@lineage/catalog/runtime';
import type { Store } from '@lineage/catalog/store';
import { authorizeOnEach, ingestOpenLineage, mayHoldOnSome, type WriteOptions } from '@lineage/catalog/write';
import { OPENLINEAGE_BATCH_PATHS, OPENLINEAGE_EVENT_PATHS } from '@lineage/service-kit';
import { jsonValueBody } from './request-params.ts';
import type { RestState } from './restli.ts';

export interface OpenLineageDeps {
  store: Store;
  config: IngestionConfig;
  logger: Logger;
  writeOptions(ctx: Context): WriteOptions;
}

interface FailedEvent {
  index: number;
  reason: string;
  /** Never: a rejected event is rejected again when resent as it is. */
  retriable: false;
}

/** What an accepted event did not take as sent (a facet not interpreted, no schemaURL, …). */
interface Warning {
  index: number;
  message: string;
}

/**
 * The answer (the shape DataHub's batch route answers with): counts, each failure named, and the
 * warnings of the events written (only when there are some).
 */
function summary(received: number, failed: FailedEvent[], warnings: Warning[] = []) {
  const status = failed.length === 0 ? 'success' : failed.length < received ? 'partial_success' : 'failure';
  return {
    status,
    summary: { received, successful: received - failed.length, failed: failed.length, retriable: 0, non_retriable: failed.length },
    failed_events: failed,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

export function registerOpenLineageRoutes(router: Router, deps: OpenLineageDeps): void {
  const { store, config, logger } = deps;
  const limit = config.MAX_BODY_BYTES;
  // Accepted, but not as sent: said in the answer and logged (a producer's owner reads the logs).
  const warningsOf = (ctx: Context, accepted: Array<{ index: number; event: OpenLineageEvent }>): Warning[] => {
    const warnings = accepted.flatMap(({ index, event }) => event.warnings.map((message) => ({ index, message })));
    if (warnings.length > 0) logger.info({ path: ctx.path, warnings: warnings.slice(0, 20) }, 'OpenLineage events accepted with warnings');
    return warnings;
  };
  // EDIT_LINEAGE (or EDIT_ENTITY) on every entity the events write: refused before reading the body
  // when no entity could allow it, else checked per entity once the events are planned.
  const authorize = (ctx: Context) => {
    const actor = (ctx.state as RestState).actor;
    if (!mayHoldOnSome(actor, 'EDIT_LINEAGE')) throw forbidden(openLineageDenied(actor.urn));
  };
  const onEachEntity = (ctx: Context) => {
    const actor = (ctx.state as RestState).actor;
    return (urns: readonly string[]) => authorizeOnEach(store, actor, 'EDIT_LINEAGE', urns, () => openLineageDenied(actor.urn));
  };

  for (const path of OPENLINEAGE_EVENT_PATHS) {
    router.post(path, async (ctx) => {
      authorize(ctx);
      const event = parseOpenLineageEvent(await jsonValueBody(ctx, limit, 'an OpenLineage event'));
      const [outcome] = await ingestOpenLineage(store, [event], deps.writeOptions(ctx), onEachEntity(ctx));
      if (outcome && !outcome.ok) throw outcome.error;
      ctx.body = summary(1, [], warningsOf(ctx, [{ index: 0, event }]));
    });
  }

  for (const path of OPENLINEAGE_BATCH_PATHS) {
    router.post(path, async (ctx) => {
      authorize(ctx);
      const body = await jsonValueBody(ctx, limit, 'a JSON array of OpenLineage events');
      if (!Array.isArray(body)) throw badRequest('Request body must be a JSON array of OpenLineage events');
      if (body.length > config.MAX_BATCH_PROPOSALS) {
        throw validationFailed(`Too many events in one batch: ${body.length} > ${config.MAX_BATCH_PROPOSALS} (MAX_BATCH_PROPOSALS)`);
      }
      const failed: FailedEvent[] = [];
      const fail = (index: number, e: CatalogError) => failed.push({ index, reason: e.message, retriable: false });
      const valid: Array<{ index: number; event: OpenLineageEvent }> = [];
      body.forEach((value, index) => {
        try {
          valid.push({ index, event: parseOpenLineageEvent(value, ` [${index}]`) });
        } catch (e) {
          if (!isCatalogError(e)) throw e;
          fail(index, e);
        }
      });
      const outcomes = await ingestOpenLineage(
        store,
        valid.map((v) => v.event),
        deps.writeOptions(ctx),
        onEachEntity(ctx),
      );
      for (const o of outcomes) if (!o.ok) fail(valid[o.index]!.index, o.error);
      failed.sort((a, b) => a.index - b.index);
      const written = outcomes.filter((o) => o.ok).map((o) => valid[o.index]!);
      const answer = summary(body.length, failed, warningsOf(ctx, written));
      // Every event refused is the client's mistake: a 400, with the same report.
      ctx.status = answer.status === 'failure' ? 400 : 200;
      ctx.body = answer.status === 'failure' ? { error: `Every event was refused; first: ${failed[0]!.reason}`, ...answer } : answer;
    });
  }
}
