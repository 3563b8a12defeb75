// Marquez 0.51's soft deletes and tag writes (docs/marquez-compatibility.md §Writes) on the
// ingestion service: DELETE of a dataset, a job or a namespace is DataHub's soft delete
// (`status.removed`), tags on a dataset or a job are its `globalTags`; every change goes through
// the one write path with its authorization (an Editor, or a policy granting the privilege on the
// entity), and each answers what Marquez answers: the dataset, job or namespace JSON.
import type { Context } from 'koa';
import type Router from '@koa/router';
import { badRequest, parseUrn } from '@lineage/catalog/model';
import { datasetRows, fieldTagChange, getDataset, getJob, jobOrThrow, namespaceContents } from '@lineage/catalog/read';
import type { AspectChange } from '@lineage/catalog/write';
import type { IngestionContext } from './context.ts';

const removal = (urn: string): AspectChange => ({
  urn: parseUrn(urn),
  aspectName: 'status',
  changeType: 'UPSERT',
  value: { removed: true },
});

/** The tag urn of a Marquez tag name; a name the urn grammar refuses is a 400. */
function tagUrnOf(name: string): string {
  const urn = `urn:li:tag:${name}`;
  try {
    if (name !== '' && parseUrn(urn).entityType === 'tag') return urn;
  } catch {
    // refused below
  }
  throw badRequest(`Tag name '${name}' is not a valid tag name`);
}

/** A PATCH of globalTags that adds or removes one tag (RFC 6902, the record keyed by its urn). */
function tagPatch(urn: string, op: 'add' | 'remove', tag: string): AspectChange {
  const path = `/tags/${tag.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const patch = op === 'add' ? [{ op, path, value: { tag } }] : [{ op, path }];
  return { urn: parseUrn(urn), aspectName: 'globalTags', changeType: 'PATCH', patchText: JSON.stringify(patch) };
}

export function registerMarquezWrites(router: Router, deps: Pick<IngestionContext, 'store' | 'ingest'>): void {
  const { store } = deps;
  const p = (ctx: Context, name: string) => String(ctx.params[name]);
  const datasetId = (ctx: Context) => ({ namespace: p(ctx, 'namespace'), name: p(ctx, 'dataset') });
  const jobId = (ctx: Context) => ({ namespace: p(ctx, 'namespace'), name: p(ctx, 'job') });

  router.delete('/api/v1/namespaces/:namespace/datasets/:dataset', async (ctx) => {
    const json = await getDataset(store, datasetId(ctx));
    const { urn } = await datasetRows(store, datasetId(ctx));
    await deps.ingest(ctx, [removal(urn)]);
    ctx.body = json;
  });
  router.delete('/api/v1/namespaces/:namespace/jobs/:job', async (ctx) => {
    const json = await getJob(store, jobId(ctx));
    await deps.ingest(ctx, [removal((await jobOrThrow(store, jobId(ctx))).urn)]);
    ctx.body = json;
  });
  router.delete('/api/v1/namespaces/:namespace', async (ctx) => {
    const { json, urns } = await namespaceContents(store, p(ctx, 'namespace'));
    if (urns.length) await deps.ingest(ctx, urns.map(removal));
    ctx.body = json;
  });

  const tagDataset = (op: 'add' | 'remove') => async (ctx: Context) => {
    const tag = tagUrnOf(p(ctx, 'tag'));
    await getDataset(store, datasetId(ctx));
    const { urn } = await datasetRows(store, datasetId(ctx));
    await deps.ingest(ctx, [tagPatch(urn, op, tag)]);
    ctx.body = await getDataset(store, datasetId(ctx));
  };
  router.post('/api/v1/namespaces/:namespace/datasets/:dataset/tags/:tag', tagDataset('add'));
  router.delete('/api/v1/namespaces/:namespace/datasets/:dataset/tags/:tag', tagDataset('remove'));

  // A column's tag: Marquez upper-cases it; kept in editableSchemaMetadata, written only if it changes.
  const tagField = (op: 'add' | 'remove') => async (ctx: Context) => {
    const tag = tagUrnOf(p(ctx, 'tag').toUpperCase());
    await getDataset(store, datasetId(ctx));
    const change = await fieldTagChange(store, datasetId(ctx), p(ctx, 'field'), tag, op);
    if (change.value) {
      const { urn, value, precondition } = change;
      await deps.ingest(ctx, [{ urn: parseUrn(urn), aspectName: 'editableSchemaMetadata', changeType: 'UPSERT', value, precondition }]);
    }
    ctx.body = await getDataset(store, datasetId(ctx));
  };
  router.post('/api/v1/namespaces/:namespace/datasets/:dataset/fields/:field/tags/:tag', tagField('add'));
  router.delete('/api/v1/namespaces/:namespace/datasets/:dataset/fields/:field/tags/:tag', tagField('remove'));

  const tagJob = (op: 'add' | 'remove') => async (ctx: Context) => {
    const tag = tagUrnOf(p(ctx, 'tag'));
    await getJob(store, jobId(ctx));
    await deps.ingest(ctx, [tagPatch((await jobOrThrow(store, jobId(ctx))).urn, op, tag)]);
    ctx.body = await getJob(store, jobId(ctx));
  };
  router.post('/api/v1/namespaces/:namespace/jobs/:job/tags/:tag', tagJob('add'));
  router.delete('/api/v1/namespaces/:namespace/jobs/:job/tags/:tag', tagJob('remove'));
}
