// The page's one mutable state object and its types. Every module that reads or changes page state
// is handed this object by main.ts; nothing else keeps state between events.
import type { ColumnGraph, DatasetColumnsInput } from './columns.ts';
import type { Direction, EntitySummary, Neighbourhood } from './model.ts';

export type Degree = '1' | '2' | '3+';

/** Sides in the order they are requested, listed and paged. */
export const DIRECTIONS: readonly Direction[] = ['UPSTREAM', 'DOWNSTREAM'];

/** Where one side's scrollAcrossLineage paging stands. */
export interface Cursor {
  next: string | null;
  total: number;
  loaded: number;
  partial: boolean;
}

/** The cost of the last draw, shown in the status line and read by the end-to-end test. */
export interface Timings {
  fetchMs: number;
  layoutMs: number;
  renderMs: number;
  totalMs: number;
  nodes: number;
  edges: number;
}

export interface TimeWindow {
  startTimeMillis: number | null;
  endTimeMillis: number | null;
}

export interface PlatformOption {
  label: string;
  count: number;
}

export interface ExplorerState {
  centre: EntitySummary | null;
  graph: Neighbourhood | null;
  degree: Degree;
  directions: Record<Direction, boolean>;
  /** Checked type and platform filters. */
  types: Set<string>;
  platforms: Set<string>;
  /** Lineage edges observed in this window only (scrollAcrossLineage start/endTimeMillis); null = open. */
  timeWindow: TimeWindow;
  pageSize: number;
  showColumns: boolean;
  cursors: Partial<Record<Direction, Cursor>>;
  /** What the facets offered, with counts: the options listed in the filters. */
  typeOptions: Map<string, number>;
  platformOptions: Map<string, PlatformOption>;
  degreeCounts: Map<string, number>;
  /** Kept across re-centres: a dataset's columns do not change while the page is open. */
  columnCache: Map<string, DatasetColumnsInput>;
  columns: ColumnGraph | null;
  selectedColumn: string | null;
  /** Nodes already expanded one hop, so they no longer offer to expand. */
  expanded: Set<string>;
  zoom: number;
  graphSize: { width: number; height: number };
  /**
   * Bumped by every load or draw; an async step that finds it changed was overtaken by a newer
   * one and drops its result.
   */
  seq: number;
  busy: boolean;
  timings: Timings | null;
}

/** The state of a freshly opened page; the defaults match the controls' initial values in index.html. */
export function createState(): ExplorerState {
  return {
    centre: null,
    graph: null,
    degree: '3+',
    directions: { UPSTREAM: true, DOWNSTREAM: true },
    types: new Set(),
    platforms: new Set(),
    timeWindow: { startTimeMillis: null, endTimeMillis: null },
    pageSize: 50,
    showColumns: false,
    cursors: {},
    typeOptions: new Map(),
    platformOptions: new Map(),
    degreeCounts: new Map(),
    columnCache: new Map(),
    columns: null,
    selectedColumn: null,
    expanded: new Set(),
    zoom: 1,
    graphSize: { width: 0, height: 0 },
    seq: 0,
    busy: false,
    timings: null,
  };
}
