// Seeding helpers for lineage tests: every graph goes through writeAspects (the one write path),
// entities are created before lineage names them (strict existence rule).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange, type ExistenceMode } from '../../catalog/src/write/aspect-writer.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { scrollLineage, type LineageHit, type LineageLimits, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';

export const T0 = 1_700_000_000_000;
export const ACTOR = 'urn:li:corpuser:lineage-tester';
export const limits: LineageLimits = { maxHops: 1000, maxResults: 100_000, deadlineMs: 30_000 };

export const upsert = (urn: string, aspectName: string, value: unknown, lastObserved = T0): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved },
});

export async function write(store: Store, changes: AspectChange[], existenceMode: ExistenceMode = 'strict') {
  // Batches keep one transaction small enough for big topologies.
  for (let i = 0; i < changes.length; i += 500) {
    await writeAspects(store, changes.slice(i, i + 500), { actor: ACTOR, existenceMode, now: T0 });
  }
}

export const datasetProps = (urn: string, description?: string) =>
  upsert(urn, 'datasetProperties', { name: parseUrn(urn).parts[1], ...(description ? { description } : {}), customProperties: {} });

export type UpstreamSpec = string | { dataset: string; time?: number; manual?: boolean };

export const upstreams = (downstream: string, ups: UpstreamSpec[], fineGrainedLineages?: unknown[]) =>
  upsert(downstream, 'upstreamLineage', {
    upstreams: ups.map((u) => {
      if (typeof u === 'string') return { dataset: u, type: 'TRANSFORMED' };
      const stamp = u.time === undefined ? undefined : { time: u.time, actor: ACTOR };
      return {
        dataset: u.dataset,
        type: 'TRANSFORMED',
        ...(stamp ? { created: stamp, auditStamp: stamp } : {}),
        ...(u.manual ? { properties: { source: 'UI' } } : {}),
      };
    }),
    ...(fineGrainedLineages ? { fineGrainedLineages } : {}),
  });

/** Creates the datasets, then the edges: `[a, b]` means b is downstream of a. */
export async function seedDatasets(store: Store, nodes: string[], edges: Array<[string, string]>) {
  const byDown = new Map<string, string[]>();
  for (const [up, down] of edges) byDown.set(down, [...(byDown.get(down) ?? []), up]);
  await write(
    store,
    nodes.map((n) => datasetProps(n)),
  );
  await write(
    store,
    [...byDown].map(([down, ups]) => upstreams(down, ups)),
  );
}

/** Every page of a scroll, with the page count, checking each non-final page is full. */
export async function scrollAll(store: Store, q: LineageQuery, count: number, lim = limits) {
  const hits: LineageHit[] = [];
  let scrollId: string | null = null;
  let pages = 0;
  let total = -1;
  do {
    const page = await scrollLineage(store, q, { count, scrollId }, lim);
    pages++;
    total = page.total;
    hits.push(...page.hits);
    if (page.nextCursor) expect(page.hits).toHaveLength(count);
    scrollId = page.nextCursor;
    if (pages > 1000) throw new Error('scroll does not end');
  } while (scrollId);
  return { hits, pages, total };
}

export const degrees = (hits: LineageHit[]) => hits.map((h) => [h.urn, h.degree] as const);
