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
