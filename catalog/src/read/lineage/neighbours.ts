// One hop of lineage, for GraphQL `lineage(input)` (docs/wire-contract.md): the typed relationships of
// an entity in one direction, one per (type, neighbour), with their stamps. Not a walk: no plan,
// no snapshot; ghosts and soft-deleted neighbours are counted as filtered unless asked for.
import type { Store } from '../../store/store.ts';
import { directedStatement } from '../../store/cypher.ts';
import { hasLineage } from '../../model/relationships.ts';
import { parseSource, resolveWindow, walkDirectionOf, windowParams, type LineageDirection } from './query.ts';

/** Transaction timeout when the caller gives none: LINEAGE_DEADLINE_MS's default. */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface NeighbourOptions {
  start?: number | null | undefined;
  count?: number | null | undefined;
  startTimeMillis?: number | null | undefined;
  endTimeMillis?: number | null | undefined;
  /** Also return ghost and soft-deleted neighbours (then `filtered` is 0). */
  includeGhostEntities?: boolean | null | undefined;
  /** Transaction timeout; default 30 s (LINEAGE_DEADLINE_MS's default). */
  timeoutMs?: number | undefined;
}

interface NeighbourRelationship {
  /** DataHub relationship name of the typed edge (DownstreamOf, Consumes, Produces, …). */
  type: string;
  urn: string;
  entityType: string;
  degree: 1;
  createdOn: number | null;
  createdActor: string | null;
  updatedOn: number | null;
  updatedActor: string | null;
  isManual: boolean;
}

export interface NeighbourPage {
  start: number;
  count: number;
  /** Relationships after ghost/soft-deleted filtering. */
  total: number;
  /** Relationships left out because their neighbour is a ghost or soft-deleted. */
  filtered: number;
  relationships: NeighbourRelationship[];
}

interface NeighbourRow extends Omit<NeighbourRelationship, 'degree' | 'isManual'> {
  exists: boolean;
  removed: boolean;
  manual: boolean;
}

export async function lineageNeighbours(
  store: Store,
  urn: string,
  direction: LineageDirection,
  opts: NeighbourOptions = {},
): Promise<NeighbourPage> {
  const source = parseSource(urn);
  const start = Math.max(0, Math.floor(opts.start ?? 0));
  const count = Math.max(0, Math.floor(opts.count ?? 100));
  if (!hasLineage(source.entityType)) return { start, count: 0, total: 0, filtered: 0, relationships: [] };
  const window = resolveWindow({ urn, direction, startTimeMillis: opts.startTimeMillis, endTimeMillis: opts.endTimeMillis }, Date.now());
  const rows = await store.read(
    (tx) =>
      tx.run<NeighbourRow>(directedStatement('lineage/neighbours', walkDirectionOf(direction)), {
        urn: source.text,
        ...windowParams(window),
      }),
    { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, metadata: { app: 'lineage', op: 'neighbours' } },
  );
  // One relationship per (type, neighbour): parallel typed edges from several owners are one fact here.
  const seen = new Set<string>();
  const unique = rows.filter((r) => {
    const k = `${r.type}\u0000${r.urn}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const kept = opts.includeGhostEntities ? unique : unique.filter((r) => r.exists && !r.removed);
  const relationships = kept.slice(start, start + count).map((r): NeighbourRelationship => ({
    type: r.type,
    urn: r.urn,
    entityType: r.entityType,
    degree: 1,
    createdOn: r.createdOn ?? null,
    createdActor: r.createdActor ?? null,
    updatedOn: r.updatedOn ?? null,
    updatedActor: r.updatedActor ?? null,
    isManual: r.manual === true,
  }));
  return { start, count: relationships.length, total: kept.length, filtered: unique.length - kept.length, relationships };
}
