// The names an entity's key implies — its platform, name, origin and parent, the search fields a
// ghost node carries besides its urn — and a column's urn and names. These read a urn already
// accepted by keyAspectOf; for a urn whose key does not fit they answer undefined rather than
// throw, so display code never fails on a ghost.
import { descriptorOf } from './entity-registry.ts';
import type { FabricType, KeyPart } from './entity-types.ts';
import { isFabricType, keyTextOf } from './urn-key.ts';
import { tryParseUrn, type Urn } from './urn.ts';

/** The key part a descriptor names (namePart, platformPart, …) and its spec, when the key fits. */
function keyPartOf(u: Urn, partName: string | undefined): { text: string; part: KeyPart } | undefined {
  const d = descriptorOf(u.entityType);
  if (partName === undefined || !d || u.parts.length !== d.key.length) return undefined;
  const i = d.key.findIndex((k) => k.name === partName);
  return i < 0 ? undefined : { text: u.parts[i]!, part: d.key[i]! };
}

const tryParse = (text: string | undefined): Urn | undefined => (text === undefined ? undefined : tryParseUrn(text));

/**
 * Platform urn implied by an entity's key, where its key has one: a dataPlatform urn part as it is,
 * a platform name part (orchestrator, dashboard tool) as its urn, a nested urn's own platform.
 */
export function platformOf(u: Urn): string | undefined {
  const at = keyPartOf(u, descriptorOf(u.entityType)?.modelled?.platformPart);
  if (!at || at.text === '') return undefined;
  if (at.part.kind !== 'urn') return `urn:li:dataPlatform:${at.text}`;
  const inner = tryParse(at.text);
  if (!inner) return undefined;
  return inner.entityType === 'dataPlatform' ? inner.text : platformOf(inner);
}

/**
 * Name search field: dataset name, dataJob jobId, dataFlow flowId, chart chartId, schemaField
 * fieldPath, … For generic entities: the whole key text.
 */
export function nameOf(u: Urn): string | undefined {
  const d = descriptorOf(u.entityType);
  if (!d?.modelled) return keyTextOf(u);
  return keyPartOf(u, d.modelled.namePart)?.text;
}

/** Origin (FabricType) from the key: dataset, mlModel, mlModelGroup, dataProcess. */
export function originOf(u: Urn): FabricType | undefined {
  const origin = keyPartOf(u, descriptorOf(u.entityType)?.modelled?.originPart)?.text;
  return origin !== undefined && isFabricType(origin) ? origin : undefined;
}

/** Parent (dataset, chart or dashboard) of a schemaField urn; undefined for anything else. */
export function parentOf(u: Urn): Urn | undefined {
  return tryParse(keyPartOf(u, descriptorOf(u.entityType)?.modelled?.parentPart)?.text);
}

/** The search fields an entity's key implies (what a ghost node carries besides its urn), in one lookup. */
export function keySearchFieldsOf(u: Urn): {
  platform: string | undefined;
  origin: FabricType | undefined;
  name: string | undefined;
  parent: Urn | undefined;
} {
  return { platform: platformOf(u), origin: originOf(u), name: nameOf(u), parent: parentOf(u) };
}

/**
 * The schemaField urn of a parent's field. DataHub percent-encodes the urn grammar's characters
 * ( ) , of a fieldPath it puts into a urn; we do the same, so both name one column alike.
 */
export function schemaFieldUrnOf(parent: string, fieldPath: string): string {
  const encoded = fieldPath.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C');
  return `urn:li:schemaField:(${parent},${encoded})`;
}

/**
 * The names one column goes by: its fieldPath as declared, and for a v2 fieldPath
 * (`[version=2.0].[type=struct].address.[type=string].city`) the plain path (`address.city`).
 */
export function fieldPathAliases(fieldPath: string): string[] {
  const plain = fieldPath
    .split('.')
    .filter((s) => !(s.startsWith('[') && s.endsWith(']')))
    .join('.');
  return plain === fieldPath ? [fieldPath] : [fieldPath, plain];
}
