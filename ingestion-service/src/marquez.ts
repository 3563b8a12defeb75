// Marquez 0.51's API (docs/marquez-compatibility.md) on the ingestion service: namespaces,
// datasets, jobs, runs, lineage, column lineage, search, tags and sources, read from the graph the
// OpenLineage and DataHub doors write. Each route reads its parameters, checks the caller may read,
// calls one catalog read and answers its JSON; errors render as Marquez's `{code, message}`
// (restli.ts errorMiddleware).
import type { Context } from 'koa';
import type Router from '@koa/router';
import { assertCan, badRequest } from '@lineage/catalog/model';
import {
  DEFAULT_LINEAGE_DEPTH,
  getDataset,
  getJob,
  getNamespace,
  getRun,
  getRunFacets,
  listDatasets,
  listJobs,
  listNamespaces,
  listRuns,
  DEFAULT_SEARCH_LIMIT,
  marquezColumnLineage,
  marquezLineage,
  marquezSearch,
  marquezSource,
  marquezSources,
  marquezTags,
  type Page,
} from '@lineage/catalog/read';
import type { Store } from '@lineage/catalog/store';
import { booleanParam, integerParam, queryParam } from './request-params.ts';
import { actorOf } from './restli.ts';

/** Marquez's page defaults. */
const DEFAULT_LIMIT = 100;
/** Said when a lineage walk stopped at its bound: Marquez's body has no field for it. */
const LINEAGE_TRUNCATED_HEADER = 'X-Lineage-Truncated';

const marquezReadDenied = (actorUrn: string) => `${actorUrn} is unauthorized to READ lineage metadata.`;

export function registerMarquezRoutes(router: Router, deps: { store: Store }): void {
  const { store } = deps;
  /** The caller may read, and the page it asks for. */
  const read = (ctx: Context): Page => {
    const actor = actorOf(ctx);
    assertCan(actor, 'READ', marquezReadDenied(actor.urn));
    return { limit: integerParam(ctx, 'limit', DEFAULT_LIMIT), offset: integerParam(ctx, 'offset', 0) };
  };
  const p = (ctx: Context, name: string) => String(ctx.params[name]);

  router.get('/api/v1/namespaces', async (ctx) => {
    ctx.body = await listNamespaces(store, read(ctx));
  });
  router.get('/api/v1/namespaces/:namespace', async (ctx) => {
    read(ctx);
    ctx.body = await getNamespace(store, p(ctx, 'namespace'));
  });
  router.get('/api/v1/namespaces/:namespace/datasets', async (ctx) => {
    ctx.body = await listDatasets(store, p(ctx, 'namespace'), read(ctx));
  });
  router.get('/api/v1/namespaces/:namespace/datasets/:dataset', async (ctx) => {
    read(ctx);
    ctx.body = await getDataset(store, { namespace: p(ctx, 'namespace'), name: p(ctx, 'dataset') });
  });
  router.get('/api/v1/jobs', async (ctx) => {
    ctx.body = await listJobs(store, undefined, read(ctx));
  });
  router.get('/api/v1/namespaces/:namespace/jobs', async (ctx) => {
    ctx.body = await listJobs(store, p(ctx, 'namespace'), read(ctx));
  });
  router.get('/api/v1/namespaces/:namespace/jobs/:job', async (ctx) => {
    read(ctx);
    ctx.body = await getJob(store, { namespace: p(ctx, 'namespace'), name: p(ctx, 'job') });
  });
  router.get('/api/v1/namespaces/:namespace/jobs/:job/runs', async (ctx) => {
    ctx.body = await listRuns(store, { namespace: p(ctx, 'namespace'), name: p(ctx, 'job') }, read(ctx));
  });
  router.get('/api/v1/jobs/runs/:id', async (ctx) => {
    read(ctx);
    ctx.body = await getRun(store, p(ctx, 'id'));
  });
  router.get('/api/v1/jobs/runs/:id/facets', async (ctx) => {
    read(ctx);
    const type = queryParam(ctx, 'type');
    const kind = ['RUN', 'JOB', 'DATASET'].find((t) => t === type?.toUpperCase());
    if (!kind) throw badRequest(`Query parameter 'type' must be one of RUN, JOB, DATASET, got '${type ?? ''}'`);
    // Marquez answers DATASET for a known run with no body (it serves no dataset facets here).
    if (kind === 'DATASET') {
      await getRun(store, p(ctx, 'id'));
      ctx.status = 204;
    } else ctx.body = await getRunFacets(store, p(ctx, 'id'), kind as 'RUN' | 'JOB');
  });
  router.get('/api/v1/lineage', async (ctx) => {
    read(ctx);
    const depth = integerParam(ctx, 'depth', DEFAULT_LINEAGE_DEPTH);
    const { graph, truncated } = await marquezLineage(store, queryParam(ctx, 'nodeId'), depth);
    if (truncated) ctx.set(LINEAGE_TRUNCATED_HEADER, 'true');
    ctx.body = { graph };
  });
  router.get('/api/v1/column-lineage', async (ctx) => {
    read(ctx);
    const depth = integerParam(ctx, 'depth', DEFAULT_LINEAGE_DEPTH);
    const withDownstream = booleanParam(ctx, 'withDownstream', false);
    const { graph, truncated } = await marquezColumnLineage(store, queryParam(ctx, 'nodeId'), depth, withDownstream);
    if (truncated) ctx.set(LINEAGE_TRUNCATED_HEADER, 'true');
    ctx.body = { graph };
  });
  router.get('/api/v1/search', async (ctx) => {
    read(ctx);
    const q = (name: string) => queryParam(ctx, name);
    ctx.body = await marquezSearch(store, {
      q: q('q'),
      filter: q('filter'),
      sort: q('sort'),
      limit: integerParam(ctx, 'limit', DEFAULT_SEARCH_LIMIT),
      namespace: q('namespace'),
      before: q('before'),
      after: q('after'),
    });
  });
  router.get('/api/v1/tags', async (ctx) => {
    ctx.body = await marquezTags(store, read(ctx));
  });
  router.get('/api/v1/sources', async (ctx) => {
    ctx.body = await marquezSources(store, read(ctx));
  });
  router.get('/api/v1/sources/:source', async (ctx) => {
    read(ctx);
    ctx.body = await marquezSource(store, p(ctx, 'source'));
  });
}
