// The view in the address bar: `#urn=…&dir=…&degree=…&type=…&platform=…&from=…&to=…&columns=1&col=…`,
// so a link or a reload opens the same picture and back/forward step through views. Values equal to
// the page's defaults are left out; a bare `#urn=<urn>` (the older form) is a complete link.
import type { Direction } from './model.ts';
import type { Degree, ExplorerState, TimeWindow } from './state.ts';
import { columnKeyOfUrn, schemaFieldUrnOf } from './columns.ts';
import { dayEndOf, dayOf, dayStartOf } from './time-window.ts';

export interface ViewParams {
  urn: string;
  directions: Record<Direction, boolean>;
  degree: Degree;
  types: string[];
  platforms: string[];
  timeWindow: TimeWindow;
  showColumns: boolean;
  /** The selected column's key (columns.ts columnKey); null when none. */
  column: string | null;
}

const DEGREES: readonly Degree[] = ['1', '2', '3+'];
const DIRECTION_VALUES: Record<string, Record<Direction, boolean>> = {
  both: { UPSTREAM: true, DOWNSTREAM: true },
  up: { UPSTREAM: true, DOWNSTREAM: false },
  down: { UPSTREAM: false, DOWNSTREAM: true },
  none: { UPSTREAM: false, DOWNSTREAM: false },
};

/** The view the page shows, as the hash that reopens it. */
export function viewHash(view: ViewParams): string {
  const q = new URLSearchParams();
  q.set('urn', view.urn);
  const dir = view.directions.UPSTREAM ? (view.directions.DOWNSTREAM ? 'both' : 'up') : view.directions.DOWNSTREAM ? 'down' : 'none';
  if (dir !== 'both') q.set('dir', dir);
  if (view.degree !== '3+') q.set('degree', view.degree);
  for (const t of [...view.types].sort()) q.append('type', t);
  for (const p of [...view.platforms].sort()) q.append('platform', p);
  if (view.timeWindow.startTimeMillis !== null) q.set('from', dayOf(view.timeWindow.startTimeMillis));
  if (view.timeWindow.endTimeMillis !== null) q.set('to', dayOf(view.timeWindow.endTimeMillis));
  if (view.showColumns) q.set('columns', '1');
  if (view.column) q.set('col', schemaFieldUrnOf(view.column));
  return `#${q.toString()}`;
}

/** The hash's view, or null when it names no entity. Unknown or malformed values fall back to the defaults. */
export function parseViewHash(hash: string): ViewParams | null {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const urn = q.get('urn');
  if (!urn) return null;
  const degree = q.get('degree');
  const col = q.get('col');
  return {
    urn,
    directions: { ...(DIRECTION_VALUES[q.get('dir') ?? 'both'] ?? DIRECTION_VALUES.both!) },
    degree: DEGREES.includes(degree as Degree) ? (degree as Degree) : '3+',
    types: q.getAll('type'),
    platforms: q.getAll('platform'),
    timeWindow: { startTimeMillis: dayStartOf(q.get('from')), endTimeMillis: dayEndOf(q.get('to')) },
    showColumns: q.get('columns') === '1' || col !== null,
    column: col ? columnKeyOfUrn(col) : null,
  };
}

/** What the page state shows now, as view parameters. */
export function viewOf(state: ExplorerState, urn: string): ViewParams {
  return {
    urn,
    directions: { ...state.directions },
    degree: state.degree,
    types: [...state.types],
    platforms: [...state.platforms],
    timeWindow: { ...state.timeWindow },
    showColumns: state.showColumns,
    // A column is only selected while columns are shown.
    column: state.showColumns ? state.selectedColumn : null,
  };
}

/** Whether two views fetch the same lineage (centre aside): what decides a reload. */
export function sameLineageRequest(a: ViewParams, b: ViewParams): boolean {
  const set = (xs: string[]) => [...xs].sort().join('\u0000');
  return (
    a.degree === b.degree &&
    a.directions.UPSTREAM === b.directions.UPSTREAM &&
    a.directions.DOWNSTREAM === b.directions.DOWNSTREAM &&
    set(a.types) === set(b.types) &&
    set(a.platforms) === set(b.platforms) &&
    a.timeWindow.startTimeMillis === b.timeWindow.startTimeMillis &&
    a.timeWindow.endTimeMillis === b.timeWindow.endTimeMillis
  );
}
