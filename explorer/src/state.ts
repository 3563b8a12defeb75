// The page's one mutable state object and its types. Every module that reads or changes page state
// is handed this object by main.ts; nothing else keeps state between events.
// The types it holds are declared here, not in the modules that fill them, so that every module
// may import the state and the state imports none of them back.
import type { LineageFilter } from './catalog-requests.ts';
import type { ColumnEdge, ColumnGraph, DatasetColumnsInput } from './columns.ts';
import type { Direction, EntitySummary, Neighbourhood } from './model.ts';
import type { FacetCounts, ImpactCursor, ImpactMode, ImpactRow, ImpactSort } from './impact-rows.ts';

export type Degree = '1' | '2' | '3+';

/** The degree control as scrollAcrossLineage's degree filter values: up to that many hops. */
export function degreeFilterValues(degree: Degree): string[] {
  return degree === '1' ? ['1'] : degree === '2' ? ['1', '2'] : ['1', '2', '3+'];
}

/** Sides in the order they are requested, listed and paged. */
export const DIRECTIONS: readonly Direction[] = ['UPSTREAM', 'DOWNSTREAM'];

/** Where one side's scrollAcrossLineage paging stands. */
interface Cursor {
  next: string | null;
  total: number;
  loaded: number;
  partial: boolean;
}

/** The cost of the last draw, shown in the status line and read by the end-to-end test. */
interface Timings {
  fetchMs: number;
  layoutMs: number;
  renderMs: number;
  totalMs: number;
  nodes: number;
  edges: number;
  /** Boxes drawn: entities on their own plus collapsed groups (grouping.ts). */
  drawn: number;
}

export interface TimeWindow {
  startTimeMillis: number | null;
  endTimeMillis: number | null;
}

interface PlatformOption {
  label: string;
  count: number;
}

/** The catalog's column walk from the selected column, as column-trace.ts loads it. */
export interface ColumnTrace {
  /** The selected column's key (columns.ts columnKey). */
  key: string;
  /** Column keys reached upstream and downstream. */
  upstream: Set<string>;
  downstream: Set<string>;
  /** Column → column steps of the reached columns' paths, in data-flow order. */
  edges: ColumnEdge[];
  /** Some direction reached more than column-trace.ts's TRACE_LIMIT columns: only the nearest are highlighted. */
  partial: boolean;
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
  /** The catalog's column walk from the selected column (column-trace.ts); null while none is loaded. */
  columnTrace: ColumnTrace | null;
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
  /** The impact list beside the graph (impact-list.ts). */
  impact: ImpactListState;
  /**
   * Keys of the sibling groups (grouping.ts) the user opened. Not cleared on re-centre or reload: a
   * key follows its group's nearer boxes back to the centre, so it only ever matches the same group.
   */
  expandedGroups: Set<string>;
  /** Set by a keyboard re-centre: the next draw puts focus on the new centre. */
  refocusCentre: boolean;
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
    columnTrace: null,
    expanded: new Set(),
    zoom: 1,
    graphSize: { width: 0, height: 0 },
    seq: 0,
    busy: false,
    timings: null,
    impact: createImpactListState(),
    expandedGroups: new Set(),
    refocusCentre: false,
  };
}

/** What the impact list and its export trace (impact-source.ts asks the catalog for it). */
export interface ImpactQuery {
  mode: ImpactMode;
  /** The traced entity, or the traced column's schemaField urn. */
  urn: string;
  /** How the list's heading and the file name call it: the entity's name, or `parent.column`. */
  label: string;
  direction: Direction;
  filter: LineageFilter;
}

/** The impact list: what it traces, the rows loaded so far and how they are shown. */
export interface ImpactListState {
  /** Its own direction, independent of the graph's: one side at a time. */
  direction: Direction;
  /** What the loaded rows answer; null before an entity is open. */
  query: ImpactQuery | null;
  rows: ImpactRow[];
  total: number;
  next: ImpactCursor | null;
  partial: boolean;
  facets: FacetCounts | null;
  sort: ImpactSort;
  /** Rows (by urn) whose paths are shown. */
  openPaths: Set<string>;
  /** A page is being fetched; the number says which request, so an overtaken one drops its reply. */
  loading: boolean;
  /** The last page could not be fetched: the same view asks again rather than keeping the gap. */
  failed: boolean;
  seq: number;
  /** The running export, to cancel it; null when none runs. */
  exporting: AbortController | null;
}

export function createImpactListState(): ImpactListState {
  return {
    direction: 'DOWNSTREAM',
    query: null,
    rows: [],
    total: 0,
    next: null,
    partial: false,
    facets: null,
    sort: { key: 'degree', descending: false },
    openPaths: new Set(),
    loading: false,
    failed: false,
    seq: 0,
    exporting: null,
  };
}
