// Marquez's column tags (POST/DELETE …/datasets/{name}/fields/{field}/tags/{tag},
// docs/marquez-compatibility.md §Writes): the change to a dataset's editableSchemaMetadata that adds
// or removes one tag on one column, as DataHub's editors keep column tags. The door writes it with
// a precondition on the version read, so a concurrent edit is a 412, never lost.
import { notFound } from '../../model/errors.ts';
import { asRecord, type JsonRecord } from '../../model/json.ts';
import type { MarquezId } from '../../model/marquez/ids.ts';
import { UNIT_SEPARATOR } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import { datasetRows } from './reads.ts';

export interface FieldTagChange {
  urn: string;
  /** The new editableSchemaMetadata, or null when the tag is already as asked. */
  value: JsonRecord | null;
  precondition: { versionMatch?: string; noneMatch?: boolean };
}

export async function fieldTagChange(
  store: Store,
  id: MarquezId,
  field: string,
  tagUrn: string,
  op: 'add' | 'remove',
): Promise<FieldTagChange> {
  const { urn, aspects } = await datasetRows(store, id);
  const fields = aspects.get('schemaMetadata')?.value.fields;
  const known = (Array.isArray(fields) ? fields : []).some((f) => asRecord(f)?.fieldPath === field);
  if (!known) throw notFound(`Field '${field}' not found for dataset '${id.name}'.`);
  const key = `${urn}${UNIT_SEPARATOR}editableSchemaMetadata${UNIT_SEPARATOR}0`;
  const [row] = await store.read((tx) => tx.run<{ value: string; maxVersion: number | null }>('marquez/aspect-version', { key }));
  const current = (row ? asRecord(JSON.parse(row.value)) : null) ?? {};
  const infos = (Array.isArray(current.editableSchemaFieldInfo) ? current.editableSchemaFieldInfo : []).flatMap((x) => {
    const r = asRecord(x);
    return r ? [r] : [];
  });
  const info = infos.find((i) => i.fieldPath === field) ?? { fieldPath: field };
  const tags = (Array.isArray(asRecord(info.globalTags)?.tags) ? (asRecord(info.globalTags)!.tags as unknown[]) : []).flatMap((t) => {
    const r = asRecord(t);
    return r ? [r] : [];
  });
  const has = tags.some((t) => t.tag === tagUrn);
  const precondition = row ? { versionMatch: String((row.maxVersion ?? 0) + 1) } : { noneMatch: true };
  if (has === (op === 'add')) return { urn, value: null, precondition };
  const nextTags = op === 'add' ? [...tags, { tag: tagUrn }] : tags.filter((t) => t.tag !== tagUrn);
  const nextInfo = { ...info, globalTags: { ...asRecord(info.globalTags), tags: nextTags } };
  const others = infos.filter((i) => i.fieldPath !== field);
  return { urn, value: { ...current, editableSchemaFieldInfo: [...others, nextInfo] }, precondition };
}
