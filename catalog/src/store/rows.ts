// Row mapping between the domain and the stored graph: the key of an aspect row and the parameter
// rows of the edge, node and lock statements. Shared by the write path, restore and the readers, so a
// row is keyed one way only (the edges a row justifies: model/relationships.ts edgesOfRow).
import { entityTypeSpec } from '../model/entity-type-spec.ts';
import type { DerivedEdge } from '../model/relationships.ts';
import { urnFields } from '../model/search-fields.ts';
import { parseUrn, UNIT_SEPARATOR, type Urn } from '../model/urn.ts';
import { int, type Tx } from './store.ts';

/** Key of an aspect row: `<urn>␟<aspect>␟<version>` (docs/lineage-model.md §Graph); version 0 is the latest. */
export const rowKey = (urn: string, aspect: string, version = 0) => `${urn}${UNIT_SEPARATOR}${aspect}${UNIT_SEPARATOR}${version}`;

/**
 * The key of the row holding an aspect's value number `sequence` (its maxVersion while it was the
 * latest), given the latest row's key and maxVersion: the latest row while it still is the latest,
 * else the archived copy, numbered one above (aspects/update-rows archives version m as m + 1).
 */
export function rowKeyOfSequence(latestKey: string, latestMaxVersion: number | null, sequence: number): string {
  return latestMaxVersion === sequence ? latestKey : `${latestKey.slice(0, latestKey.lastIndexOf(UNIT_SEPARATOR) + 1)}${sequence + 1}`;
}

/** Parameter rows of edges/merge: the typed edge, plus which end is upstream when it is lineage. */
function edgeRows(edges: readonly DerivedEdge[]) {
  return edges.map((e) => ({
    key: e.key,
    type: e.type,
    source: e.source,
    destination: e.destination,
    owner: e.owner,
    aspect: e.aspect,
    createdOn: e.createdOn === null ? null : int(e.createdOn),
    createdActor: e.createdActor,
    updatedOn: e.updatedOn === null ? null : int(e.updatedOn),
    updatedActor: e.updatedActor,
    properties: e.properties === null ? null : JSON.stringify(e.properties),
    via: e.via,
    manual: e.manual,
    lineage: e.lineage === null ? null : e.lineage.upstream === e.source ? 'down' : 'up',
  }));
}

/**
 * Node rows (ghost-safe MERGE) for every urn an edge set touches, sorted: concurrent batches that
 * create the same ghosts then take their index locks in one order instead of deadlocking.
 */
function nodeRows(urns: Iterable<string>) {
  const rows = [];
  for (const text of [...new Set(urns)].sort()) {
    const u = parseUrn(text);
    const spec = entityTypeSpec(u.entityType);
    rows.push({ ...urnFields(u), entityType: u.entityType, label: spec.label });
  }
  return rows;
}

/**
 * Creates or refreshes derived edges (edges/merge), first merging ghost nodes for the endpoints not
 * known to be present — every endpoint unless `present` says otherwise. The write path, the backup
 * import and restoreIndices all merge edges through this one function.
 */
export async function mergeEdgeRows(tx: Tx, edges: readonly DerivedEdge[], present: (urn: string) => boolean = () => false): Promise<void> {
  if (!edges.length) return;
  const missing = edges.flatMap((e) => [e.source, e.destination]).filter((u) => !present(u));
  if (missing.length) await tx.run('entities/merge-nodes', { rows: nodeRows(missing) });
  await tx.run('edges/merge', { rows: edgeRows(edges) });
}

/** Parameter rows of the entity locks (aspects/lock-entities, lock-and-read): de-duplicated and
 * sorted by urn, so every writer takes its locks in one global order. */
export function lockRows(urns: Iterable<Urn>) {
  return [...new Map([...urns].map((u) => [u.text, u])).values()]
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map((u) => ({ urn: u.text, entityType: u.entityType, label: entityTypeSpec(u.entityType).label }));
}
