// Lineage stamps and their granularity (LINEAGE_STAMP_GRANULARITY_MS, docs/lineage-model.md §Aspect
// rows): a scheduled job reports the same lineage on every run, and what differs from one run to
// the next is only *when* it was seen. A new value of an aspect that differs from the stored one in
// such stamps alone, each by less than the granularity, is judged unchanged like an identical one,
// so the write path writes no version and restamps no edge; the stamps then move at most once per
// granularity, and time windows are accurate to it.
import { isJsonRecord, sameJsonText } from './json.ts';
import { OPENLINEAGE_ASPECT } from './openlineage/entity-state.ts';
import { timeOfEventKey } from './openlineage/event-keys.ts';
import { isLineageAspect } from './relationships.ts';

type Path = ReadonlyArray<string | number>;
/** Whether the leaves `a` and `b`, which differ, at `path` are one stamp moved by less than the granularity. */
type StampRule = (path: Path, a: unknown, b: unknown) => boolean;

/** The fields of an Upstream or Edge record that stamp it (§Stamps and provenance: the edge's createdOn / updatedOn). */
const RECORD_STAMPS: ReadonlySet<unknown> = new Set(['created', 'auditStamp', 'lastModified']);

const near = (a: unknown, b: unknown, granularityMs: number) =>
  typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < granularityMs;

/** A lineage aspect's records (an element of a list): the `time` of their created / auditStamp / lastModified stamps. */
const recordStamps =
  (g: number): StampRule =>
  (path, a, b) => {
    const n = path.length;
    return n >= 3 && path[n - 1] === 'time' && RECORD_STAMPS.has(path[n - 2]) && typeof path[n - 3] === 'number' && near(a, b, g);
  };

/**
 * The OpenLineage door's own record (model/openlineage): the newest event time and every event key
 * it keeps (of the entity, its facets, its lineage and column state, when each dataset was seen),
 * compared by their time. The facets it keeps verbatim are the producers' and are compared exactly.
 */
const openLineageStamps =
  (g: number): StampRule =>
  (path, a, b) => {
    if (path[0] === 'facets') return false;
    if (path.length === 1 && path[0] === 'eventTime') return near(a, b, g);
    return typeof a === 'string' && typeof b === 'string' && near(timeOfEventKey(a), timeOfEventKey(b), g);
  };

/** Whether `a` and `b` are the same JSON value, key order aside, but for leaves `stamp` accepts. */
function sameButStamps(a: unknown, b: unknown, path: Array<string | number>, stamp: StampRule): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameButStamps(x, b[i], [...path, i], stamp));
  }
  if (isJsonRecord(a) || isJsonRecord(b)) {
    if (!isJsonRecord(a) || !isJsonRecord(b)) return false;
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
    return keys.every((k) => k in b && sameButStamps(a[k], b[k], [...path, k], stamp));
  }
  return stamp(path, a, b);
}

/**
 * Whether writing `nextText` over `storedText` (aspect `aspectName`) would change nothing: the same
 * value, key order aside, or — with a granularity above 0 — the same but for lineage stamps, each
 * moved by less than `granularityMs`. Granularity 0: identical values only.
 */
export function unchangedWithinGranularity(aspectName: string, storedText: string, nextText: string, granularityMs: number): boolean {
  if (sameJsonText(storedText, nextText)) return true;
  if (!(granularityMs > 0)) return false;
  const rule =
    aspectName === OPENLINEAGE_ASPECT
      ? openLineageStamps(granularityMs)
      : isLineageAspect(aspectName)
        ? recordStamps(granularityMs)
        : undefined;
  return rule !== undefined && sameButStamps(JSON.parse(storedText), JSON.parse(nextText), [], rule);
}
