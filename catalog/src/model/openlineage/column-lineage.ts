// The column merge (README.md §Order): per (job, output column), the newest authoritative report
// of its upstream columns and what START/RUNNING/OTHER events newer than it added per run, kept in
// the output's openLineage aspect (`columnLineage`).
import { asRecord, type JsonRecord } from '../json.ts';
import type { Seen } from './event-keys.ts';
import { sorted, sortedRecord, str, strings } from './stored-values.ts';

/**
 * Column lineage of one output, per job and column: the newest authoritative report of the column
 * (`set`: its upstream columns and, per upstream column, how it makes the column) and the upstream
 * columns START/RUNNING/OTHER events newer than it added, per run. Kept in the output's
 * openLineage aspect (`columnLineage`).
 */
export type Reported = Seen & { ops?: string[] };
interface ColumnState {
  set?: Seen & { upstreams: string[]; ops?: Record<string, string[]> };
  /** Upstream column → run → the newest report of that run adding it. */
  added: Record<string, Record<string, Reported>>;
}
export type ColumnLineage = Record<string, Record<string, ColumnState>>;

function reportedOf(v: unknown): Reported | undefined {
  const r = asRecord(v);
  if (typeof r?.key !== 'string') return undefined;
  const ops = strings(r.ops);
  return { key: r.key, actor: str(r.actor) ?? '', ...(ops.length ? { ops } : {}) };
}

export function columnLineageOf(stored: JsonRecord): ColumnLineage {
  const out: ColumnLineage = {};
  for (const [job, columns] of Object.entries(asRecord(stored.columnLineage) ?? {})) {
    out[job] = {};
    for (const [column, c] of Object.entries(asRecord(columns) ?? {})) {
      const set = asRecord(asRecord(c)?.set);
      const added: Record<string, Record<string, Reported>> = {};
      for (const [f, v] of Object.entries(asRecord(asRecord(c)?.added) ?? {})) {
        // Written before runs were kept: one report (run '').
        const legacy = reportedOf(v);
        const runs = legacy
          ? { '': legacy }
          : Object.fromEntries(
              Object.entries(asRecord(v) ?? {}).flatMap(([run, r]) => {
                const rep = reportedOf(r);
                return rep ? [[run, rep]] : [];
              }),
            );
        if (Object.keys(runs).length) added[f] = runs;
      }
      const setOps = Object.fromEntries(
        Object.entries(asRecord(set?.ops) ?? {}).flatMap(([f, o]) => (strings(o).length ? [[f, strings(o)] as const] : [])),
      );
      out[job][column] = {
        ...(set && typeof set.key === 'string'
          ? {
              set: {
                key: set.key,
                actor: str(set.actor) ?? '',
                upstreams: strings(set.upstreams),
                ...(Object.keys(setOps).length ? { ops: setOps } : {}),
              },
            }
          : {}),
        added,
      };
    }
  }
  return out;
}

export function nextColumnLineage(
  cl: ColumnLineage,
  jobUrn: string,
  columns: Map<string, Map<string, string[]>>,
  mode: 'add' | 'set',
  r: Seen,
  run: string,
): ColumnLineage {
  const job: Record<string, ColumnState> = { ...(cl[jobUrn] ?? {}) };
  for (const [column, ups] of columns) {
    const c = job[column] ?? { added: {} };
    if (c.set !== undefined && r.key <= c.set.key) continue;
    if (mode === 'set') {
      const ops = Object.fromEntries(sorted(ups.keys()).flatMap((f) => (ups.get(f)!.length ? [[f, ups.get(f)!]] : [])));
      const added = Object.fromEntries(
        Object.entries(c.added).flatMap(([f, runs]) => {
          const left = Object.fromEntries(Object.entries(runs).filter(([, a]) => a.key > r.key));
          return Object.keys(left).length ? [[f, left]] : [];
        }),
      );
      job[column] = { set: { ...r, upstreams: sorted(ups.keys()), ...(Object.keys(ops).length ? { ops } : {}) }, added };
    } else {
      const added = { ...c.added };
      for (const [f, ops] of ups) {
        const had = added[f]?.[run];
        if (had === undefined || r.key > had.key) added[f] = { ...added[f], [run]: { ...r, ...(ops.length ? { ops } : {}) } };
      }
      job[column] = { ...c, added };
    }
  }
  return { ...cl, [jobUrn]: job };
}

/** The column state without what `run` added to the job's columns (the run failed). */
export function withdrawColumnLineage(cl: ColumnLineage, jobUrn: string, run: string): ColumnLineage {
  const job = cl[jobUrn];
  if (!job) return cl;
  const next: Record<string, ColumnState> = {};
  for (const [column, c] of Object.entries(job)) {
    const added = Object.fromEntries(
      Object.entries(c.added).flatMap(([f, runs]) => {
        const { [run]: _gone, ...left } = runs;
        return Object.keys(left).length ? [[f, left]] : [];
      }),
    );
    // A column only this run reported is gone, as if the run had never reported it.
    if (c.set || Object.keys(added).length) next[column] = { ...c, added };
  }
  const { [jobUrn]: _job, ...others } = cl;
  return Object.keys(next).length ? { ...cl, [jobUrn]: next } : others;
}

export const columnLineageJson = (cl: ColumnLineage): JsonRecord =>
  sortedRecord(
    Object.fromEntries(
      Object.entries(cl).map(([job, columns]) => [
        job,
        sortedRecord(
          Object.fromEntries(
            Object.entries(columns).map(([column, c]) => [
              column,
              {
                ...(c.set ? { set: c.set } : {}),
                added: sortedRecord(Object.fromEntries(Object.entries(c.added).map(([f, runs]) => [f, sortedRecord(runs)]))),
              },
            ]),
          ),
        ),
      ]),
    ),
  );

/** Distinct, sorted ignoring case (as DataHub's converter sorts them). */
export function sortedOps(ops: Iterable<string>): string[] {
  return [...new Set(ops)].sort((a, b) => {
    const x = a.toLowerCase(),
      y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}
