// Paths for a page of lineage hits (docs/lineage-model.md §Paths): one shortest path per hit, source
// first, with the via entities of the edges between its ends. Asked for by a page only
// (includePaths), so it runs on a page's few dozen hits, never on the whole reach.
import type { Store } from '../../store/store.ts';
import { directedStatement } from '../../store/cypher.ts';
import { walkDirectionOf, windowParams, type LineageDirection, type TimeWindow } from './query.ts';
import type { LineageHit } from './results.ts';

/** Transaction timeout when the caller gives none: LINEAGE_DEADLINE_MS's default. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** A path's nodes with the via of each edge between its two ends (docs/lineage-model.md §Paths). */
function interleave(nodes: readonly string[], vias: ReadonlyArray<string | null>): string[] {
  const out: string[] = [nodes[0]!];
  for (let i = 1; i < nodes.length; i++) {
    const via = vias[i - 1];
    if (via) out.push(via);
    out.push(nodes[i]!);
  }
  return out;
}

/**
 * Paths, source first, for a page of hits: one shortest path per node the walk reached for the
 * hit (a parent lifted from several fields gets one per field, in field urns), with the via of
 * each edge between its ends; a via entity's path is its parent's path followed by itself.
 */
export async function lineagePaths(
  store: Store,
  source: string,
  direction: LineageDirection,
  hits: ReadonlyArray<Pick<LineageHit, 'urn' | 'walkUrns' | 'viaParent'>>,
  opts: { window?: TimeWindow | null; timeoutMs?: number } = {},
): Promise<Map<string, string[][]>> {
  const result = new Map<string, string[][]>();
  if (hits.length === 0) return result;
  const targets = new Set<string>();
  for (const h of hits) for (const t of h.viaParent ? [h.viaParent] : h.walkUrns) if (t !== source) targets.add(t);
  const rows =
    targets.size === 0
      ? []
      : await store.read(
          (tx) =>
            tx.run<{ target: string; path: string[]; vias: Array<string | null> }>(
              directedStatement('lineage/paths', walkDirectionOf(direction)),
              {
                urn: source,
                targets: [...targets],
                ...windowParams(opts.window ?? null),
              },
            ),
          { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, metadata: { app: 'lineage', op: 'paths' } },
        );
  const pathTo = new Map<string, string[]>([[source, [source]]]);
  for (const r of rows) if (!pathTo.has(r.target)) pathTo.set(r.target, interleave(r.path, r.vias ?? []));
  for (const h of hits) {
    if (h.viaParent) {
      const base = pathTo.get(h.viaParent);
      result.set(h.urn, base ? [[...base, h.urn]] : []);
    } else {
      result.set(
        h.urn,
        h.walkUrns.flatMap((w) => (pathTo.has(w) ? [pathTo.get(w)!] : [])),
      );
    }
  }
  return result;
}
