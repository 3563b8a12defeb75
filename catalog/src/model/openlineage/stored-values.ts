// Reading values out of the JSON an entity's stored aspects hold: what is not of the expected type
// reads as absent, so a value written by an older version (or by another writer) never throws.
import { asRecord, type JsonRecord } from '../json.ts';

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const records = (v: unknown): JsonRecord[] => (Array.isArray(v) ? v.flatMap((x) => (asRecord(x) ? [asRecord(x)!] : [])) : []);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
export const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** The same keys in the same order whatever order they were added in (the write path compares text). */
export function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
