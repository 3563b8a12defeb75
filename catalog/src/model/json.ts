// JSON as the catalog reads it. Aspect values are stored as received and read back defensively:
// a field is only trusted after a check, so a restated old row or an unmodelled aspect never throws.

/** A JSON value as parsed (what a patch document or a stored aspect holds). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object whose fields are not checked yet. */
export type JsonRecord = Record<string, unknown>;

export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or null when it is not one. */
export function asRecord(value: unknown): JsonRecord | null {
  return isJsonRecord(value) ? value : null;
}

/**
 * JSON text with object keys sorted at every level, so two values that differ only in key order
 * have one text. Arrays keep their order (it is meaningful). For parsed JSON (no undefined, no
 * functions), as JSON.stringify would write it otherwise.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonRecord(value)) {
    // Undefined members are left out, as JSON.stringify leaves them out.
    const keys = Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Whether two JSON texts hold the same value, key order aside (docs/lineage-model.md: an identical
 * write writes nothing). JSON.stringify's length does not depend on key order, so texts of other
 * lengths differ without parsing; only same-length texts that differ are compared canonically.
 */
export function sameJsonText(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
}
