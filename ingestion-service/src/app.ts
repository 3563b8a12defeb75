// The ingestion/operations service: DataHub GMS's Rest.li surface (docs/wire-contract.md §Rest.li) over the
// catalog's write path and reads. The routes live in modules by door (each parses, authorizes, calls
// one domain function and renders); this file builds their context, mounts them and stacks the
// middleware.
import Koa from 'koa';
import Router from '@koa/router';
import { authConfigOf, createTokenStore } from '@lineage/catalog/operations';
import { createIngestionContext, type IngestionDeps } from './context.ts';
import {
  authMiddleware,
  errorMiddleware,
  prefixMiddleware,
  readYourWritesMiddleware,
  requestIdMiddleware,
  unknownRouteMiddleware,
} from './restli.ts';
import { registerServerRoutes } from './server-routes.ts';
import { registerRestliActions, registerRestliReads } from './restli-routes.ts';
import { registerOpenApiEntityRoutes } from './openapi.ts';
import { registerOpenApiRelationshipRoutes } from './openapi-entities.ts';
import { registerRelationshipRoutes } from './relationships.ts';
import { registerOpenLineageRoutes } from './openlineage.ts';
import { registerMarquezRoutes } from './marquez.ts';
import { registerMarquezWrites } from './marquez-writes.ts';
import { registerBackupRoutes } from './backup-handler.ts';
import { registerEventRoutes } from './events.ts';
import { bodyAdmissionMiddleware } from './body-admission.ts';

export type { IngestionDeps } from './context.ts';
export function createIngestionApp(deps: IngestionDeps): Koa {
  const context = createIngestionContext(deps);
  const router = new Router();
  registerServerRoutes(router, context);
  registerRestliActions(router, context);
  // DataHub's OpenAPI doors (the SDK's openapi_ingestion emitter, get_entities, get_related_entities,
  // scroll_lineage) and Rest.li GET /relationships: same write path, authorization and taxonomy.
  registerOpenApiEntityRoutes(router, context);
  registerRelationshipRoutes(router, context);
  registerOpenApiRelationshipRoutes(router, context);
  registerOpenLineageRoutes(router, context);
  // Marquez's read API beside its OpenLineage path (GET /api/v1/lineage, /api/v1/namespaces, /api/v1/jobs).
  registerMarquezRoutes(router, context);
  // Marquez's soft deletes and tag writes, through the one write path and its authorization.
  registerMarquezWrites(router, context);
  registerBackupRoutes(router, context);
  registerEventRoutes(router, deps);
  registerRestliReads(router, context);

  const app = new Koa();
  app.proxy = false;
  app.use(requestIdMiddleware());
  app.use(errorMiddleware(deps.logger));
  app.use(readYourWritesMiddleware());
  app.use(prefixMiddleware());
  app.use(authMiddleware(authConfigOf(deps.config), createTokenStore(deps.store)));
  // After authentication: a request without a valid token is answered without waiting its turn.
  app.use(
    bodyAdmissionMiddleware({
      budgetBytes: deps.config.MAX_INFLIGHT_BODY_BYTES,
      limitBytes: deps.config.MAX_BODY_BYTES,
      waitMs: deps.config.BODY_WAIT_MS,
    }),
  );
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(unknownRouteMiddleware());
  return app;
}
