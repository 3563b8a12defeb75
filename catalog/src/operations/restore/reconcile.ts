// Making derived state match stored rows: an entity's search fields, and the edges some (owner,
// aspect) pairs justify (with the lineage change events a repair records).
import { lineageChangeRecord, lineageEdgeOf, type ChangeRecord } from '../../model/change-events.ts';
import { keyAspectNameOf } from '../../model/entity-type-spec.ts';
import { SYSTEM_ACTOR_URN } from '../../model/privileges.ts';
import type { DerivedEdge } from '../../model/relationships.ts';
import { searchAspectsOf, searchFieldDrift, type SearchFields, type StoredFields } from '../../model/search-fields.ts';
import type { Urn } from '../../model/urn.ts';
import { mergeEdgeRows, rowKey } from '../../store/rows.ts';
import type { Tx } from '../../store/store.ts';
import { diffEdges, type EdgeDiff, type StoredEdge } from './diff.ts';
import { appendAll, type BatchOutcome } from './restore-report.ts';

export interface RowRead {
  key: string;
  urn: string;
  name: string;
  value: string;
  systemMetadata: string;
  createdBy: string | null;
}

/** Search fields of some entities from their stored rows, compared with (and written to) their nodes. */
export async function reconcileFields(
  tx: Tx,
  urns: Urn[],
  rowsByKey: Map<string, RowRead>,
  write: boolean,
  o: BatchOutcome,
): Promise<void> {
  if (!urns.length) return;
  const current = await tx.run<StoredFields & { urn: string }>('restore/node-fields', { urns: urns.map((u) => u.text) });
  const byUrn = new Map(current.map((c) => [c.urn, c]));
  const rewrite: SearchFields[] = [];
  for (const u of urns) {
    const aspects = new Map<string, unknown>();
    for (const a of searchAspectsOf(u.entityType)) {
      const row = rowsByKey.get(rowKey(u.text, a));
      if (!row) continue;
      try {
        aspects.set(a, JSON.parse(row.value));
      } catch {
        // An unparseable row describes nothing; checkRow reports it when it is scanned.
      }
    }
    const stored = byUrn.get(u.text);
    if (!stored) continue; // the node went away with a concurrent hard delete: nothing to index
    const { expected, drift: fields } = searchFieldDrift(
      u,
      { exists: rowsByKey.has(rowKey(u.text, keyAspectNameOf(u.entityType))), aspects },
      stored,
    );
    if (Object.keys(fields).length) {
      o.fields.push({ urn: u.text, fields });
      rewrite.push(expected);
    }
  }
  if (write && rewrite.length) {
    await tx.run('entities/set-search-fields', { rows: rewrite });
    o.fieldsRewritten += rewrite.length;
  }
}

/**
 * The lineage a repair changed, as change events (docs/change-events.md §What is recorded): a
 * LINEAGE edge the rows justify that was missing is added, one they do not justify is removed.
 */
function restoredLineageChanges(diff: EdgeDiff, derived: readonly DerivedEdge[], stored: readonly StoredEdge[]): ChangeRecord[] {
  // restoreIndices runs as an operation, not for a request's actor: the system actor made the change.
  const stamp = { actor: SYSTEM_ACTOR_URN, time: Date.now() };
  const byKey = new Map(derived.map((e) => [e.key, e]));
  const storedLineage = new Map(stored.filter((e) => e.type === 'LINEAGE').map((e) => [e.key, e]));
  const records: ChangeRecord[] = [];
  for (const ref of diff.extra) {
    const s = ref.type === 'LINEAGE' ? storedLineage.get(ref.key) : undefined;
    if (s)
      records.push(
        lineageChangeRecord(
          { owner: s.owner, aspect: s.aspect, type: s.lineageType ?? 'LINEAGE', upstream: s.source, downstream: s.destination, via: s.via },
          'REMOVE',
          stamp,
        ),
      );
  }
  for (const ref of diff.missing) {
    const e = ref.type === 'LINEAGE' ? byKey.get(ref.key) : undefined;
    const edge = e ? lineageEdgeOf(e) : null;
    if (edge) records.push(lineageChangeRecord(edge, 'ADD', stamp));
  }
  return records;
}

/** Makes the graph match what some (owner, aspect) pairs justify; derived = every edge they justify. */
export async function reconcileEdges(
  tx: Tx,
  owners: Array<{ owner: string; aspect: string | null }>,
  derived: DerivedEdge[],
  write: boolean,
  o: BatchOutcome,
): Promise<void> {
  if (!owners.length) return;
  const stored = await tx.run<StoredEdge>('edges/owned-by', { rows: owners });
  const diff = diffEdges(derived, stored);
  appendAll(o.missing, diff.missing);
  appendAll(o.extra, diff.extra);
  appendAll(o.changed, diff.changed);
  if (!write) return;
  if (diff.toDelete.length) await tx.run('edges/delete-by-key', { rows: diff.toDelete });
  await mergeEdgeRows(tx, diff.toMerge);
  if (tx.changeLog.size) tx.record(restoredLineageChanges(diff, derived, stored));
  o.edgesAdded += diff.missing.length;
  o.edgesRemoved += diff.extra.length;
  o.edgesChanged += diff.changed.length;
}
