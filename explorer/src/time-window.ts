// The time window as whole UTC days, the way the From / To date inputs and the address bar hold it:
// the window runs from the first millisecond of "from" to the last millisecond of "to".

const DAY_MS = 86_400_000;

/** The first millisecond of a `YYYY-MM-DD` day; null for an empty or malformed value. */
export function dayStartOf(day: string | null): number | null {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(t) ? null : t;
}

/** The last millisecond of a `YYYY-MM-DD` day; null for an empty or malformed value. */
export function dayEndOf(day: string | null): number | null {
  const start = dayStartOf(day);
  return start === null ? null : start + DAY_MS - 1;
}

/** The `YYYY-MM-DD` day a window end falls on; '' for an open end. */
export function dayOf(millis: number | null): string {
  return millis === null ? '' : new Date(millis).toISOString().slice(0, 10);
}
