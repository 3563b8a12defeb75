// Existence as the store records it (docs/lineage-model.md §Existence): an entity exists iff its key
// aspect row does; a schemaField exists iff its parent does. Read inside the caller's transaction,
// so the write path sees its own locks and the readers a consistent answer.
import { keyAspectNameOf } from '../model/entity-type-spec.ts';
import { parseUrn, type Urn } from '../model/urn.ts';
import { rowKey } from './rows.ts';
import type { Tx } from './store.ts';

export interface Existence {
  exists: boolean;
  /** Soft-deleted (status.removed): it still exists. */
  removed: boolean;
}

/** The urn whose key row answers for this one: a schemaField's parent, else the urn itself. */
function existenceSubjectOf(urn: Urn): Urn {
  return urn.entityType === 'schemaField' && urn.parts[0] ? parseUrn(urn.parts[0]) : urn;
}

/** Existence of each urn, by its text. */
export async function existenceOf(tx: Tx, urns: readonly Urn[]): Promise<Map<string, Existence>> {
  const subjects = urns.map(existenceSubjectOf);
  const rows = [...new Map(subjects.map((u) => [u.text, { urn: u.text, keyRow: rowKey(u.text, keyAspectNameOf(u.entityType)) }])).values()];
  const found = rows.length ? await tx.run<{ urn: string; exists: boolean; removed: boolean }>('entities/exist', { rows }) : [];
  const bySubject = new Map(found.map((r) => [r.urn, { exists: r.exists, removed: r.removed }]));
  return new Map(urns.map((u, i) => [u.text, bySubject.get(subjects[i]!.text) ?? { exists: false, removed: false }]));
}
