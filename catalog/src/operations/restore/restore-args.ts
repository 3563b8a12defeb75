// What restoreIndices is asked (docs/wire-contract.md §Restore): the arguments, checked, and the
// scope of rows they select.
import { badRequest } from '../../model/errors.ts';
import { int } from '../../store/store.ts';
import { urnRange, type UrnRange } from './diff.ts';

export interface RestoreArgs {
  urn?: string | undefined;
  aspect?: string | undefined;
  urnLike?: string | undefined;
  /** Rows to skip before the first one restored (offset; the API's window start). */
  start?: number | undefined;
  /** Rows per transaction. */
  batchSize?: number | undefined;
  /** At most this many rows; 0 or absent = every row of the scope. */
  limit?: number | undefined;
  /** Only rows created at or after this time (epoch ms); 0 = no time filter. */
  gePitEpochMs?: number | undefined;
  /** With gePitEpochMs: only rows created at or before this time (default now). */
  lePitEpochMs?: number | undefined;
  clean?: boolean | undefined;
  dryRun?: boolean | undefined;
  /** Resume after this cursor (a previous run's lastUrn/lastAspect, or a progress event's cursor). */
  after?: RestoreCursor | undefined;
}

export type RestorePhase = 'rows' | 'edges' | 'nodes';

/** Where a run stands: rows after (urn, aspect); in clean mode, edge owners or nodes after urn. */
export interface RestoreCursor {
  phase?: RestorePhase;
  urn: string;
  aspect?: string | null;
}

export function validateArgs(args: RestoreArgs): void {
  const nonNegative = (name: string, v: number | undefined) => {
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw badRequest(`${name} must be a non-negative integer`);
  };
  nonNegative('start', args.start);
  nonNegative('limit', args.limit);
  nonNegative('gePitEpochMs', args.gePitEpochMs);
  nonNegative('lePitEpochMs', args.lePitEpochMs);
  if (args.batchSize !== undefined && (!Number.isInteger(args.batchSize) || args.batchSize < 1)) {
    throw badRequest('batchSize must be a positive integer');
  }
  if (args.clean && ((args.start ?? 0) > 0 || (args.limit ?? 0) > 0)) {
    throw badRequest('clean mode rebuilds a whole scope: it cannot be combined with start or limit');
  }
  if (args.after && (args.start ?? 0) > 0) throw badRequest('start cannot be combined with a resume cursor');
}

export interface Scope {
  range: UrnRange;
  aspect: string | null;
  ge: number;
  le: number;
}

export function scopeOf(args: RestoreArgs): Scope {
  const ge = args.gePitEpochMs ?? 0;
  return {
    range: urnRange({ urn: args.urn, urnLike: args.urnLike }),
    aspect: args.aspect ?? null,
    ge,
    le: args.lePitEpochMs ?? Date.now(),
  };
}

export function scanParams(scope: Scope) {
  return { ...scope.range, name: scope.aspect, ge: int(scope.ge), le: int(scope.le) };
}
