// An event's place among all events (README.md §Order), and the stamps that say who reported
// something in which event.
import { asRecord } from '../json.ts';
import type { OpenLineageEvent } from './events.ts';
import { num, str } from './stored-values.ts';

/** Epoch milliseconds as text that sorts as the numbers do (Date's range is ±8.64e15). */
export const timeText = (t: number) => String(t + 1e16).padStart(17, '0');
const timeOfKey = (key: string) => Number(key.slice(0, 17)) - 1e16;

/** A key as eventKeyOf writes it, or a time alone (written before keys): the time it holds, else undefined. */
export function timeOfEventKey(text: string): number | undefined {
  return /^\d{17}(\.[01]\.[0-9a-f]+)?$/.test(text) ? timeOfKey(text) : undefined;
}

/**
 * An event's place among all events: its time; at the same time an end (COMPLETE, FAIL, ABORT)
 * after a start; then its digest, so two different events never tie. Compared as text.
 */
export function eventKeyOf(e: OpenLineageEvent): string {
  const end = e.kind === 'run' && (e.eventType === 'COMPLETE' || e.eventType === 'FAIL' || e.eventType === 'ABORT');
  return `${timeText(e.eventTime)}.${end ? 1 : 0}.${e.digest}`;
}

export const maxKey = (a: string | undefined, b: string) => (a === undefined || b > a ? b : a);

/**
 * Who reported something, and in which event (its key). First and last are the smallest and
 * largest keys: the same whatever the order; the same event resent by someone else changes
 * nothing. Stored as `{time, actor, key}`, shown as DataHub's stamps `{time, actor}`.
 */
export type Seen = { key: string; actor: string };
export const earlier = (a: Seen | undefined, b: Seen): Seen => (!a || b.key < a.key ? b : a);
export const later = (a: Seen | undefined, b: Seen): Seen => (!a || b.key > a.key ? b : a);
export const seenOf = (v: unknown): Seen | undefined => {
  const r = asRecord(v);
  if (typeof r?.key === 'string') return { key: r.key, actor: str(r.actor) ?? '' };
  // Edge stamps written before keys: their time.
  return r && num(r.time) !== undefined ? { key: timeText(num(r.time)!), actor: str(r.actor) ?? '' } : undefined;
};
export const stampOf = (s: Seen) => ({ time: timeOfKey(s.key), actor: s.actor });
