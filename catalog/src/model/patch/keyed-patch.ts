// The generic keyed patch (DataHub's GenericPatchTemplate): arrayPrimaryKeys {"<arrayField>": [keys]}
// turn each named top-level array into nested maps, one level per key field (a key field
// "a␟b" reads the nested field b of a); an empty key list means an array of strings keyed by
// themselves. A path that stops above the last key level addresses every entry under it.
import { validationFailed } from '../errors.ts';
import { isJsonRecord } from '../json.ts';
import { UNIT_SEPARATOR } from '../urn.ts';
import { applyPlainOp, type Json, type JsonObject, type PatchOp } from './json-patch.ts';

export function applyKeyedGeneric(
  aspectName: string,
  base: JsonObject,
  arrayPrimaryKeys: Readonly<Record<string, string[]>>,
  ops: readonly PatchOp[],
): Json {
  let doc: Json = base;
  for (const [field, keyFields] of Object.entries(arrayPrimaryKeys)) {
    if (!isJsonRecord(doc)) break;
    const stored = doc[field];
    if (stored !== undefined && !Array.isArray(stored)) {
      throw validationFailed(`PATCH on ${aspectName}: arrayPrimaryKeys names ${field}, which is not an array`);
    }
    doc[field] = arrayToMap(aspectName, field, stored ?? [], keyFields);
  }
  for (const op of ops) doc = applyPlainOp(aspectName, doc, op);
  if (!isJsonRecord(doc)) return doc;
  for (const [field, keyFields] of Object.entries(arrayPrimaryKeys)) {
    const view = doc[field];
    if (view === undefined || Array.isArray(view)) continue; // replaced wholesale by the patch
    if (!isJsonRecord(view)) throw validationFailed(`PATCH on ${aspectName}: ${field} must be an array`);
    doc[field] = mapToArray(view, keyFields.length);
  }
  return doc;
}

function arrayToMap(aspectName: string, field: string, entries: Json[], keyFields: readonly string[]): JsonObject {
  const map: JsonObject = {};
  for (const entry of entries) {
    if (keyFields.length === 0) {
      const key = keyText(entry);
      setOwn(map, key, entry);
      continue;
    }
    if (!isJsonRecord(entry)) throw validationFailed(`PATCH on ${aspectName}: ${field} entries are not objects`);
    let level = map;
    keyFields.forEach((keyField, i) => {
      const [outer, inner] = keyField.split(UNIT_SEPARATOR);
      const holder = inner === undefined ? entry : entry[outer ?? ''];
      const raw = isJsonRecord(holder) ? holder[inner ?? outer ?? ''] : undefined;
      const key = keyText(raw ?? '');
      const isLeaf = i === keyFields.length - 1;
      const existing = Object.hasOwn(level, key) ? level[key] : undefined;
      if (isLeaf) {
        setOwn(level, key, { ...(isJsonRecord(existing) ? existing : {}), ...structuredClone(entry) });
      } else {
        if (!isJsonRecord(existing)) setOwn(level, key, {});
        level = level[key] as JsonObject;
      }
    });
  }
  return map;
}

function mapToArray(map: JsonObject, levels: number): Json[] {
  if (levels <= 1) return Object.values(map);
  return Object.values(map).flatMap((child) => (isJsonRecord(child) ? mapToArray(child, levels - 1) : []));
}

function keyText(value: Json): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
}

function setOwn(target: JsonObject, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
