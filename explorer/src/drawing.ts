// The draw cycle of a loaded neighbourhood: columns fetched when shown → layout.ts places the
// nodes → render.ts writes the SVG → zoom, empty note, status and timings follow.
import { fetchColumns } from './catalog-requests.ts';
import {
  buildColumnGraph,
  columnClosure,
  splitColumnKey,
  TYPES_WITH_COLUMNS,
  type ColumnEdge,
  type DatasetColumnsInput,
} from './columns.ts';
import type { Elements } from './elements.ts';
import { groupNeighbourhood, placeCollapseControls } from './grouping.ts';
import { layoutGraph, type LayoutNode } from './layout.ts';
import type { Messages } from './messages.ts';
import { columnOf, typeLabel, urnTail, type Neighbourhood } from './model.ts';
import {
  COLLAPSE_GAP,
  COLLAPSE_HEIGHT,
  escapeXml,
  GROUP_HEIGHT,
  GROUP_WIDTH,
  MORE_HEIGHT,
  MORE_WIDTH,
  NODE_WIDTH,
  nodeHeight,
  renderSvg,
  visibleColumns,
  type MoreAffordance,
} from './render.ts';
import { DIRECTIONS, type ExplorerState } from './state.ts';
import type { Status } from './status.ts';
import type { Viewport } from './viewport.ts';

const ENTITIES_PER_COLUMNS_REQUEST = 200;

export interface Drawing {
  /**
   * Draws state.graph as request `seq` (dropped if a newer one started meanwhile), timed from t0.
   * `recentre` resets the zoom and scrolls to the centre: a new picture rather than a grown one.
   */
  draw(seq: number, t0: number, recentre?: boolean): Promise<void>;
  /** Draws the loaded neighbourhood again without fetching its lineage, e.g. with columns toggled. */
  redraw(): Promise<void>;
  /** An error state in place of the graph (never an empty picture), with a Try again button. */
  showError(text: string, retry: () => void): void;
}

export function createDrawing(
  state: ExplorerState,
  ui: Elements,
  deps: { messages: Messages; status: Status; viewport: Viewport },
): Drawing {
  const { messages, status, viewport } = deps;

  async function loadColumns(graph: Neighbourhood): Promise<void> {
    const withColumns = [...graph.nodes.values()].filter((n) => TYPES_WITH_COLUMNS.has(n.type)).map((n) => n.urn);
    const missing = withColumns.filter((u) => !state.columnCache.has(u));
    for (let i = 0; i < missing.length; i += ENTITIES_PER_COLUMNS_REQUEST) {
      for (const d of await fetchColumns(missing.slice(i, i + ENTITIES_PER_COLUMNS_REQUEST))) state.columnCache.set(d.urn, d);
    }
    state.columns = buildColumnGraph(
      withColumns.map((u) => state.columnCache.get(u)).filter((d): d is DatasetColumnsInput => d !== undefined),
    );
  }

  async function draw(seq: number, t0: number, recentre = true): Promise<void> {
    const graph = state.graph;
    if (!graph) return;
    const columnsOn = state.showColumns;
    if (columnsOn) {
      try {
        await loadColumns(graph);
      } catch (e) {
        messages.reportError(e, 'load columns');
        state.columns = null;
      }
      if (seq !== state.seq) return;
    }
    const fetched = performance.now();
    const columns = columnsOn ? state.columns : null;
    // The catalog's trace of the selected column (column-trace.ts): its reached columns are shown
    // and lit, and its path steps drawn, even where no loaded lineage record names them (job lineage).
    const trace = columns && state.columnTrace?.key === state.selectedColumn ? state.columnTrace : null;
    const traced = new Set([...(trace?.upstream ?? []), ...(trace?.downstream ?? [])]);
    const columnEdges: ColumnEdge[] = [...(columns?.edges ?? [])];
    const drawnEdges = new Set(columnEdges.map((e) => `${e.from}\u0000${e.to}`));
    for (const e of trace?.edges ?? []) if (!drawnEdges.has(`${e.from}\u0000${e.to}`)) columnEdges.push(e);
    const withEdges = new Set<string>(traced);
    for (const e of columnEdges) {
      withEdges.add(e.from);
      withEdges.add(e.to);
    }
    const tracedPaths = new Map<string, string[]>();
    for (const key of traced) {
      const { dataset, path } = splitColumnKey(key);
      tracedPaths.set(dataset, [...(tracedPaths.get(dataset) ?? []), path]);
    }
    const rows = new Map<string, { rows: string[]; hidden: number }>();
    const layoutNodes: LayoutNode[] = [];
    for (const n of graph.nodes.values()) {
      let height = nodeHeight(0, 0);
      if (columns && TYPES_WITH_COLUMNS.has(n.type)) {
        const known = columns.columns.get(n.urn) ?? [];
        const all = [...known, ...(tracedPaths.get(n.urn) ?? []).filter((p) => !known.includes(p))];
        const v = visibleColumns(all, withEdges, n.urn);
        rows.set(n.urn, v);
        height = nodeHeight(v.rows.length, v.hidden);
      }
      layoutNodes.push({ id: n.urn, width: NODE_WIDTH, height, column: columnOf(n) });
    }
    let highlighted: Set<string> | undefined;
    if (trace) highlighted = traced;
    else if (state.selectedColumn && columns) {
      // Until the catalog's trace arrives: what the loaded column lineage alone connects.
      const c = columnClosure(columns.edges, state.selectedColumn);
      highlighted = new Set([...c.upstream, ...c.downstream]);
    }
    // Crowds of alike siblings become one box each (grouping.ts). What the user is working on stays
    // on its own: nodes they expanded, and the datasets of the selected column and its lineage.
    const keep = new Set(state.expanded);
    for (const key of [...(state.selectedColumn ? [state.selectedColumn] : []), ...(highlighted ?? [])])
      keep.add(splitColumnKey(key).dataset);
    const grouping = groupNeighbourhood(graph, { keep, expandedGroups: state.expandedGroups });
    const entityBoxes = new Map(layoutNodes.map((n) => [n.id, n]));
    const boxes: LayoutNode[] = [];
    for (const b of grouping.boxes) {
      if (b.kind === 'group') boxes.push({ id: b.id, width: GROUP_WIDTH, height: GROUP_HEIGHT, column: b.column });
      else if (b.kind === 'entity') boxes.push(entityBoxes.get(b.id)!);
    }
    const drawnBoxes = boxes.length;
    // "N more" sits one layout column beyond the outermost nodes of its side.
    const more: MoreAffordance[] = [];
    const columnsUsed = boxes.map((n) => n.column);
    for (const direction of DIRECTIONS) {
      const c = state.cursors[direction];
      if (!c || !c.next) continue;
      const remaining = Math.max(0, c.total - c.loaded);
      if (remaining === 0) continue;
      const id = `more:${direction}`;
      more.push({ id, side: direction, remaining });
      const edge = direction === 'UPSTREAM' ? Math.min(0, ...columnsUsed) - 1 : Math.max(0, ...columnsUsed) + 1;
      boxes.push({ id, width: MORE_WIDTH, height: MORE_HEIGHT, column: edge });
    }
    const layout = await layoutGraph(boxes, grouping.edges);
    if (seq !== state.seq) return;
    layout.height += placeCollapseControls(grouping, layout.positions, { width: NODE_WIDTH, height: COLLAPSE_HEIGHT, gap: COLLAPSE_GAP });
    const laidOut = performance.now();

    const limit = state.degree === '3+' ? Infinity : Number(state.degree);
    const expandable = new Set<string>();
    for (const n of graph.nodes.values()) {
      if (n.side !== 'centre' && !n.context && n.degree >= limit && !state.expanded.has(n.urn)) expandable.add(n.urn);
    }
    const focusedBefore = ui.host.contains(document.activeElement) ? rovingKey(document.activeElement) : null;
    ui.host.removeAttribute('data-state');
    ui.host.innerHTML = renderSvg({
      graph,
      positions: layout.positions,
      width: layout.width,
      height: layout.height,
      more,
      expandable,
      grouping,
      ...(columns ? { rows, columnEdges, selectedColumn: state.selectedColumn, ...(highlighted ? { highlighted } : {}) } : {}),
    });
    state.graphSize = { width: layout.width, height: layout.height };
    ui.empty.hidden = true;
    if (recentre) {
      const fit = Math.min(1, (ui.canvas.clientWidth - 8) / Math.max(1, layout.width));
      state.zoom = Math.max(0.72, fit);
    }
    viewport.applyZoom();
    renderEmptyNote(graph);
    // The graph is one Tab stop (arrow keys move inside): the box that had focus, else the centre.
    const stop =
      (!state.refocusCentre && focusedBefore ? ui.host.querySelector<SVGGElement>(focusedBefore) : null) ??
      ui.host.querySelector<SVGGElement>(`g.node[data-urn="${CSS.escape(graph.centre)}"]`);
    stop?.setAttribute('tabindex', '0');
    if (state.refocusCentre || focusedBefore) stop?.focus({ preventScroll: true });
    state.refocusCentre = false;
    // Measured after the browser has laid out and painted the new SVG.
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    const painted = performance.now();
    state.timings = {
      fetchMs: Math.round(fetched - t0),
      layoutMs: Math.round(laidOut - fetched),
      renderMs: Math.round(painted - laidOut),
      totalMs: Math.round(painted - t0),
      nodes: graph.nodes.size,
      edges: graph.edges.size,
      drawn: drawnBoxes,
    };
    // Read by the end-to-end test to wait for, and time, a finished draw.
    (window as unknown as { __explorer: unknown }).__explorer = { timings: state.timings, seq };
    ui.host.dataset.ready = String(seq);
    if (recentre) viewport.scrollToNode(graph.centre);
    viewport.updateMinimap(
      layout.positions,
      grouping.boxes.map((b) => ({ id: b.id, type: b.kind === 'group' ? b.group.type : (graph.nodes.get(b.id)?.type ?? '') })),
    );
    status.render();
  }

  function showError(text: string, retry: () => void): void {
    state.graphSize = { width: 0, height: 0 };
    ui.empty.hidden = true;
    ui.host.dataset.state = 'error';
    ui.host.innerHTML =
      `<div class="load-error" role="alert"><h2>Lineage not loaded</h2><p>${escapeXml(text)}</p>` +
      "<p>Nothing is known about this entity's lineage until it loads: this is not an empty result.</p>" +
      '<button type="button" class="retry">Try again</button></div>';
    ui.host.querySelector('button.retry')!.addEventListener('click', retry);
    viewport.updateMinimap(new Map(), []);
  }

  /** A lone centre gets a note saying why the picture is empty and which filters narrowed it. */
  function renderEmptyNote(graph: Neighbourhood): void {
    ui.host.querySelector('.empty.note')?.remove();
    if (graph.nodes.size > 1) return;
    const active = DIRECTIONS.filter((d) => state.directions[d]);
    const note = document.createElement('div');
    note.className = 'empty note';
    note.setAttribute('role', 'note');
    if (!active.length) {
      note.innerHTML = '<h2>Both directions are off</h2><p>Turn on Upstream or Downstream to see lineage.</p>';
    } else {
      const filters = [state.degree === '3+' ? 'any degree' : `up to ${state.degree} hop${state.degree === '1' ? '' : 's'}`];
      if (state.types.size) filters.push(`types ${[...state.types].map(typeLabel).join(', ')}`);
      if (state.platforms.size) filters.push(`platforms ${[...state.platforms].map(urnTail).join(', ')}`);
      const where = active.length === 2 ? 'upstream or downstream' : active[0]!.toLowerCase();
      note.innerHTML =
        `<h2>No ${escapeXml(where)} lineage</h2><p>${escapeXml(state.centre?.name ?? 'This entity')} has no ${escapeXml(where)} entities for ${escapeXml(filters.join('; '))}.</p>` +
        (state.types.size || state.platforms.size || state.degree !== '3+' ? '<p>Widen the filters on the left to see more.</p>' : '');
    }
    ui.host.prepend(note);
  }

  function redraw(): Promise<void> {
    if (!state.graph) return Promise.resolve();
    const seq = ++state.seq;
    status.setBusy(true);
    return draw(seq, performance.now(), false).finally(() => seq === state.seq && status.setBusy(false));
  }

  return { draw, redraw, showError };
}

/** A selector finding the same box after a redraw (the elements are new). */
function rovingKey(el: Element | null): string | null {
  const g = el?.closest<SVGGElement>('[data-urn], [data-group], [data-col], [data-more], [data-expand]');
  if (!g) return null;
  for (const attr of ['data-col', 'data-expand', 'data-more', 'data-group', 'data-urn']) {
    const v = g.getAttribute(attr);
    if (v !== null) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}
