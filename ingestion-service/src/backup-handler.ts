// GET /operations/backup (docs/wire-contract.md §Backup): the logical export for remote operators,
// streamed as it is read — the same file `npm run export` writes (docs/operations.md §Export).
// Admin-only, with restoreIndices' privilege. Query: urnLike (SQL LIKE, as restoreIndices).
// The moment the file is consistent as of is taken, and the barrier passed, before the first byte:
// a failure there is a plain error answer; a failure later cuts the stream, and the file then
// lacks its closing `]`, which the import refuses as truncated.
import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { assertCan, badRequest, exportCatalogDenied } from '@lineage/catalog/model';
import { prepareExport } from '@lineage/catalog/operations';
import type { Store } from '@lineage/catalog/store';
import type { RestState } from './restli.ts';

const EXPORT_AS_OF_HEADER = 'X-Lineage-Export-As-Of';

export function registerBackupRoutes(router: Router, deps: { store: Store }): void {
  router.get('/operations/backup', async (ctx: Context) => {
    assertCan((ctx.state as RestState).actor, 'RESTORE_INDICES', exportCatalogDenied());
    const urnLike = ctx.query.urnLike;
    if (urnLike !== undefined && (typeof urnLike !== 'string' || urnLike === ''))
      throw badRequest("Query parameter 'urnLike' must be one non-empty SQL LIKE pattern");
    const exp = await prepareExport(deps.store, { urnLike });
    ctx.set(EXPORT_AS_OF_HEADER, String(exp.asOf));
    ctx.set('Content-Disposition', `attachment; filename="lineage-catalog-${exp.asOf}.json"`);
    ctx.type = 'application/json';
    ctx.body = Readable.from(exp.chunks());
  });
}
