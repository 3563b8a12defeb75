// The restoreIndices action (POST /operations?action=restoreIndices and the older
// /aspects?action=restoreIndices, docs/wire-contract.md §Restore) as a plain function; the ingestion
// service maps thrown CatalogErrors to HTTP. One call restores one window, like DataHub: `batchSize` rows from
// `start`, or `limit` rows in batches of `batchSize`; with `urn` every row of that urn. Whole-store
// rebuilds belong to the CLI (tools/restore-indices.ts), which pages by keyset and can resume.
import { z } from 'zod';
import { ASPECT_NAME, badRequest, InvalidUrnError, parseUrn, assertCan, restoreIndicesDenied, type Actor } from '@lineage/catalog/model';
import { restoreIndices, type RestoreArgs, type RestoreResult } from '@lineage/catalog/operations';
import type { Store } from '@lineage/catalog/store';
import { processMetrics } from '@lineage/service-kit';

/** DataHub's defaults for the Rest.li action. */
const API_DEFAULT_BATCH_SIZE = 10;

// The Python client sends JSON numbers, but curl users and older clients send "10": accept both.
const integer = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'expected an integer')
      .transform(Number),
  ])
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
const positive = integer.pipe(z.number().int().min(1, 'must be at least 1'));
// Python's client sends `"urn": ""` in some paths: an empty string means "not given".
const text = z.string().transform((s) => (s === '' ? undefined : s));

const restoreBodySchema = z.looseObject({
  urn: text.nullish(),
  aspect: text.nullish(),
  urnLike: text.nullish(),
  start: integer.nullish(),
  batchSize: positive.nullish(),
  limit: integer.nullish(),
  gePitEpochMs: integer.nullish(),
  lePitEpochMs: integer.nullish(),
});

/** Validated API parameters as the domain's arguments (one window). */
export type WindowArgs = RestoreArgs & { batchSize: number; start: number; limit: number; requestedLimit: number };

export function restoreArgsOfBody(body: unknown): WindowArgs {
  const input = body === undefined || body === null || body === '' ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw badRequest('The request body must be a JSON object');
  const parsed = restoreBodySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'body');
    throw badRequest(`Invalid parameter ${name}: ${issue.message}`);
  }
  const p = parsed.data;
  let urn: string | undefined;
  if (p.urn != null) {
    try {
      urn = parseUrn(p.urn).text;
    } catch (e) {
      if (e instanceof InvalidUrnError) throw badRequest(`Invalid parameter urn: ${e.message}`);
      throw e;
    }
  }
  if (p.aspect != null && !ASPECT_NAME.test(p.aspect)) throw badRequest(`Invalid parameter aspect: '${p.aspect}' is not an aspect name`);
  const batchSize = p.batchSize ?? API_DEFAULT_BATCH_SIZE;
  const start = p.start ?? 0;
  const requestedLimit = p.limit ?? 0;
  // DataHub's window: `limit` rows when given, else one batch; a single urn is restored whole.
  const limit = requestedLimit > 0 ? requestedLimit : urn !== undefined ? 0 : batchSize;
  return {
    urn,
    aspect: p.aspect ?? undefined,
    urnLike: p.urnLike ?? undefined,
    start,
    batchSize,
    limit,
    requestedLimit,
    gePitEpochMs: p.gePitEpochMs ?? undefined,
    lePitEpochMs: p.lePitEpochMs ?? undefined,
  };
}

const show = (v: string | number | null | undefined) => (v === undefined || v === null ? 'null' : String(v));

/** DataHub's `{args=RestoreIndicesArgs(…), result=RestoreIndicesResult(…)}` line (clients only log it). */
function summaryOf(args: WindowArgs, r: RestoreResult): string {
  return (
    `{args=RestoreIndicesArgs(start=${args.start}, batchSize=${args.batchSize}, limit=${args.requestedLimit}, ` +
    `aspectName=${show(args.aspect)}, urn=${show(args.urn)}, urnLike=${show(args.urnLike)}, ` +
    `gePitEpochMs=${show(args.gePitEpochMs)}, lePitEpochMs=${show(args.lePitEpochMs)}), ` +
    `result=RestoreIndicesResult(ignored=${r.ignored}, rowsMigrated=${r.rowsMigrated}, timeSqlQueryMs=${r.timeSqlQueryMs}, ` +
    `edgesAdded=${r.edgesAdded}, edgesRemoved=${r.edgesRemoved}, edgesChanged=${r.edgesChanged}, ` +
    `searchFieldsRewritten=${r.searchFieldsRewritten}, lastUrn=${show(r.lastUrn)}, lastAspect=${show(r.lastAspect)}, timeMs=${r.timeMs})}`
  );
}

export interface RestoreIndicesResponse {
  value: string;
  rowsScanned: number;
  rowsMigrated: number;
  ignored: number;
  ignoredRows: RestoreResult['ignoredRows'];
  edgesAdded: number;
  edgesRemoved: number;
  edgesChanged: number;
  searchFieldsRewritten: number;
  lastUrn: string | null;
  lastAspect: string | null;
  timeSqlQueryMs: number;
  timeMs: number;
}

/**
 * Authorizes (RESTORE_INDICES_PRIVILEGE), validates and runs one restore window. `deniedMessage`
 * differs per path: restoreIndicesDenied() for /operations, updateEntitiesDenied() for /aspects.
 */
export async function handleRestoreIndices(
  store: Store,
  body: unknown,
  actor: Actor,
  deniedMessage: string = restoreIndicesDenied(),
): Promise<RestoreIndicesResponse> {
  assertCan(actor, 'RESTORE_INDICES', deniedMessage);
  const args = restoreArgsOfBody(body);
  const { requestedLimit: _, ...domainArgs } = args;
  const r = await processMetrics().trackRestore((onProgress) => restoreIndices(store, domainArgs, onProgress));
  return {
    value: summaryOf(args, r),
    rowsScanned: r.rowsScanned,
    rowsMigrated: r.rowsMigrated,
    ignored: r.ignored,
    ignoredRows: r.ignoredRows,
    edgesAdded: r.edgesAdded,
    edgesRemoved: r.edgesRemoved,
    edgesChanged: r.edgesChanged,
    searchFieldsRewritten: r.searchFieldsRewritten,
    lastUrn: r.lastUrn,
    lastAspect: r.lastAspect,
    timeSqlQueryMs: r.timeSqlQueryMs,
    timeMs: r.timeMs,
  };
}
