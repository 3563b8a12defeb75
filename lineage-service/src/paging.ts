// Paging arguments of the resolvers (start / count), as DataHub's resolvers read them.
import { badRequest } from '@lineage/catalog/model';

/** Largest page any list field serves (lineage searches, lineage(), relationships()); more is clamped. */
export const MAX_PAGE_SIZE = 10_000;

/**
 * A `start` or `count` argument: absent → the default; negative → 400 naming it (it used to be
 * silently read as 0); above `max` → clamped, as DataHub's search does (non-strict result limit).
 */
export function pageArgument(
  name: 'start' | 'count',
  value: number | null | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === null || value === undefined) return fallback;
  if (value < 0) throw badRequest(`${name} must not be negative, got ${value}`);
  return Math.min(value, max);
}
