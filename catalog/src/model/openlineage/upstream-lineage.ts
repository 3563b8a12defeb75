// An output's upstreamLineage as its column state derives it (column-lineage.ts): the fine-grained
// entries and upstream datasets this door wrote replaced, those of other writers kept.
import { asRecord, type JsonRecord } from '../json.ts';
import { parseUrn } from '../urn.ts';
import { sortedOps, type ColumnLineage, type Reported } from './column-lineage.ts';
import { earlier, later, stampOf, type Seen } from './event-keys.ts';
import { fieldUrnOf } from './naming.ts';
import { records, sorted } from './stored-values.ts';

/** The upstream property naming the job an upstream of ours was reported by. */
const JOB_PROPERTY = 'openlineage.job';

/**
 * What the column state derives: one FIELD_SET → FIELD entry per (job, column), its
 * transformOperation the transformations of its upstream columns, and per upstream dataset its stamps.
 */
function derivedColumnLineage(outputUrn: string, cl: ColumnLineage) {
  const fine = new Map<string, JsonRecord>();
  const datasets = new Map<string, { job: string; first: Seen; last: Seen }>();
  for (const job of sorted(Object.keys(cl))) {
    for (const column of sorted(Object.keys(cl[job]!))) {
      const c = cl[job]![column]!;
      const reports: Array<[string, Reported]> = [
        ...(c.set
          ? c.set.upstreams.map(
              (f) =>
                [f, { key: c.set!.key, actor: c.set!.actor, ...(c.set!.ops?.[f] ? { ops: c.set!.ops[f] } : {}) }] as [string, Reported],
            )
          : []),
        ...Object.entries(c.added).flatMap(([f, runs]) => Object.values(runs).map((r) => [f, r] as [string, Reported])),
      ];
      const ups = sorted(reports.map(([f]) => f));
      if (ups.length === 0) continue;
      const ops = sortedOps(reports.flatMap(([, r]) => r.ops ?? []));
      const entry = {
        upstreamType: 'FIELD_SET',
        upstreams: ups,
        downstreamType: 'FIELD',
        downstreams: [fieldUrnOf(outputUrn, column)],
        confidenceScore: 1,
        ...(ops.length ? { transformOperation: ops.join(',') } : {}),
      };
      fine.set(JSON.stringify(entry), entry);
      for (const [f, rep] of reports) {
        const dataset = parseUrn(f).parts[0]!;
        if (dataset === outputUrn) continue;
        const had = datasets.get(dataset);
        datasets.set(dataset, { job: had?.job ?? job, first: earlier(had?.first, rep), last: later(had?.last, rep) });
      }
    }
  }
  return { fine, datasets };
}

/**
 * An output's upstreamLineage after its column state moved from `before` to `after`: the entries
 * and upstreams `before` derived are replaced by those `after` derives; other writers' are kept.
 */
export function outputUpstreamLineage(
  current: JsonRecord | undefined,
  outputUrn: string,
  before: ColumnLineage,
  after: ColumnLineage,
  legacy?: ReadonlySet<string>,
): JsonRecord {
  const old = derivedColumnLineage(outputUrn, before);
  const next = derivedColumnLineage(outputUrn, after);
  const ourJobs = new Set([...Object.keys(before), ...Object.keys(after)]);
  const isOurs = (u: JsonRecord) => ourJobs.has(String(asRecord(u.properties)?.[JOB_PROPERTY]));
  const otherUpstreams = records(current?.upstreams).filter((u) => !isOurs(u));
  // Written before column state was kept: the entries of exactly the columns an authoritative
  // report gives are replaced by it, as they were then.
  const replaced = (f: JsonRecord) => {
    const downs = Array.isArray(f.downstreams) ? f.downstreams : [];
    return legacy !== undefined && downs.length > 0 && downs.every((x) => legacy.has(String(x)));
  };
  const otherFine = records(current?.fineGrainedLineages).filter((f) => !old.fine.has(JSON.stringify(f)) && !replaced(f));
  const present = new Set(otherUpstreams.map((u) => String(u.dataset)));
  const known = new Set(otherFine.map((f) => JSON.stringify(f)));
  const upstreams = sorted(next.datasets.keys())
    .filter((d) => !present.has(d))
    .map((dataset) => {
      const { job, first, last } = next.datasets.get(dataset)!;
      return { dataset, type: 'TRANSFORMED', auditStamp: stampOf(last), created: stampOf(first), properties: { [JOB_PROPERTY]: job } };
    });
  return {
    ...(current ?? {}),
    upstreams: [...otherUpstreams, ...upstreams],
    fineGrainedLineages: [...otherFine, ...[...next.fine.entries()].filter(([k]) => !known.has(k)).map(([, f]) => f)],
  };
}
