// Which entity is the centre and how much of its lineage is loaded. The URL hash holds the whole view
// (view-url.ts: centre, directions, degree, filters, time window, columns, selected column): every
// change of view is written there first, and the hashchange it fires is what loads — so links,
// reloads and back/forward all take the same road. Loads of the neighbourhood, "N more" pages and
// one-hop expansions go through here and hand the result to the draw cycle.
import { ApiError, tokenStore } from './api.ts';
import { fetchEntity, scrollLineage, type LineageFilter } from './catalog-requests.ts';
import type { ColumnTracer } from './column-trace.ts';
import type { Drawing } from './drawing.ts';
import type { Elements } from './elements.ts';
import { recordFacets, renderFilters, syncControls } from './filters.ts';
import type { Messages } from './messages.ts';
import { emptyNeighbourhood, mergeResults, summarise, urnTail, type Direction, type RawEntity } from './model.ts';
import { remember } from './recent.ts';
import { degreeFilterValues, DIRECTIONS, type ExplorerState } from './state.ts';
import type { Status } from './status.ts';
import type { ViewEvents } from './view-events.ts';
import { parseViewHash, sameLineageRequest, viewHash, viewOf, type ViewParams } from './view-url.ts';

export interface Navigation {
  /** Re-centres through the URL hash, so the move lands in the browser's history. */
  navigateTo(urn: string): void;
  /** Opens the entity the hash names, once signed in. */
  routeFromHash(): Promise<void>;
  /** The next page of one side's lineage. */
  loadMore(direction: Direction): Promise<void>;
  /** One more hop beyond the degree limit, from one node, in the direction it lies. */
  expand(urn: string): Promise<void>;
  /** The same centre under changed controls: a new view in the address bar, then fetched. */
  reload(): void;
  /** The filter the graph's requests use now (degree, types, platforms, time window). */
  filter(): LineageFilter;
  /** The view in the address bar, loaded again (after signing in again). */
  reloadView(): Promise<void>;
}

export function createNavigation(
  state: ExplorerState,
  ui: Elements,
  deps: { messages: Messages; status: Status; drawing: Drawing; events: ViewEvents; tracer: ColumnTracer },
): Navigation {
  const { messages, status, drawing, events, tracer } = deps;

  function lineageFilter(degrees: readonly string[]): LineageFilter {
    return { degrees, types: state.types, platforms: state.platforms, timeWindow: state.timeWindow };
  }

  const degreeValues = () => degreeFilterValues(state.degree);

  /** What the page last loaded, to tell what a new view changes. */
  let shown: ViewParams | null = null;
  const selectColumn = (key: string | null) => tracer.select(key);

  function navigateTo(urn: string): void {
    state.selectedColumn = null;
    const hash = viewHash(viewOf(state, urn));
    // Setting the hash it already has fires no hashchange; a link written with other escaping (the
    // CSV's unescaped parentheses) is the same view, so compare views, not text.
    if (sameHash(location.hash, hash)) void loadCentre(urn);
    else location.hash = hash;
  }

  /** Puts a view's controls into the page state and onto the controls (the selected column aside). */
  function applyView(view: ViewParams): void {
    state.directions = { ...view.directions };
    state.degree = view.degree;
    state.types = new Set(view.types);
    state.platforms = new Set(view.platforms);
    state.timeWindow = { ...view.timeWindow };
    state.showColumns = view.showColumns;
    syncControls(state, ui);
  }

  async function routeFromHash(): Promise<void> {
    const view = parseViewHash(location.hash);
    if (!view || !tokenStore.get()) return;
    const before = shown;
    applyView(view);
    shown = view;
    if (!before || before.urn !== view.urn || !state.graph) {
      await loadCentre(view.urn);
      if (view.column) await selectColumn(view.column);
    } else if (!sameLineageRequest(before, view)) {
      reloadNeighbourhood();
      if (view.column !== state.selectedColumn) await selectColumn(view.column);
    } else if (view.column !== state.selectedColumn) {
      // selectColumn redraws, with the column display as the view says.
      await selectColumn(view.column);
    } else if (before.showColumns !== view.showColumns) {
      await drawing.redraw();
    }
  }

  // A selected column goes into the address bar without a new history entry or a reload.
  events.on('column', () => {
    if (!state.centre) return;
    const view = viewOf(state, state.centre.urn);
    shown = view;
    history.replaceState(history.state, '', viewHash(view));
  });

  async function loadCentre(urn: string): Promise<void> {
    const seq = ++state.seq;
    messages.clear();
    status.set(`Opening ${urnTail(urn)}…`);
    let entity: RawEntity | null;
    try {
      entity = await fetchEntity(urn);
    } catch (e) {
      if (seq !== state.seq) return;
      status.set('');
      if (e instanceof ApiError && e.kind === 'bad-request') messages.show(`“${urn}” is not a valid entity urn: ${e.message}`);
      else if (isSignInError(e)) messages.reportError(e, `open ${urn}`);
      else failed(messages.describe(e, `open ${urnTail(urn)}`), () => void loadCentre(urn));
      return;
    }
    if (seq !== state.seq) return;
    if (!entity) {
      status.set('');
      messages.show(`Entity not found: the catalog does not support the entity type of ${urn}, so it has no lineage to show.`);
      return;
    }
    if (entity.exists === false) {
      status.set('');
      messages.show(
        `Entity not found: nothing has been ingested for ${urn}. Check the urn (platform, name and environment must match exactly).`,
      );
      return;
    }
    const summary = summarise(entity);
    remember(summary);
    state.centre = summary;
    state.typeOptions.clear();
    state.platformOptions.clear();
    state.selectedColumn = null;
    state.columnTrace = null;
    state.expanded.clear();
    document.title = `${summary.name} · Lineage explorer`;
    ui.search.value = urn;
    await loadNeighbourhood(entity, true);
  }

  /** `fresh`: a new centre, whose filter options start over even when filters are checked. */
  async function loadNeighbourhood(centre: RawEntity, fresh: boolean): Promise<void> {
    const seq = ++state.seq;
    const t0 = performance.now();
    const graph = emptyNeighbourhood(centre);
    state.graph = graph;
    state.cursors = {};
    state.degreeCounts.clear();
    const unfiltered = state.types.size === 0 && state.platforms.size === 0;
    if (fresh || unfiltered) {
      state.typeOptions.clear();
      state.platformOptions.clear();
    }
    const active = DIRECTIONS.filter((d) => state.directions[d]);
    status.set('Loading lineage…');
    status.setBusy(true);
    try {
      // With a type or platform ticked, the options (and their counts) come from the same lineage
      // without those filters, so every option stays listed and several can be ticked.
      const optionFilter: LineageFilter = { ...lineageFilter(degreeValues()), types: new Set(), platforms: new Set() };
      const [pages, options] = await Promise.all([
        Promise.all(
          active.map(async (direction) => ({
            direction,
            page: await scrollLineage(centre.urn, direction, lineageFilter(degreeValues()), null, state.pageSize),
          })),
        ),
        unfiltered
          ? Promise.resolve(null)
          : Promise.all(active.map((direction) => scrollLineage(centre.urn, direction, optionFilter, null, 1))),
      ]);
      if (seq !== state.seq) return;
      if (options) {
        state.typeOptions.clear();
        state.platformOptions.clear();
        for (const page of options) recordFacets(state, page.facets?.filter((f) => f.field !== 'degree') ?? null, true);
      }
      for (const { direction, page } of pages) {
        mergeResults(graph, direction, page.searchResults);
        state.cursors[direction] = {
          next: page.nextScrollId,
          total: page.total,
          loaded: page.searchResults.length,
          partial: page.isPartial === true,
        };
        recordFacets(state, options ? (page.facets?.filter((f) => f.field === 'degree') ?? null) : page.facets, true);
      }
      const partial = active.filter((d) => state.cursors[d]?.partial);
      status.setPartialNote(
        partial.length
          ? `Partial result: the catalog cut the ${partial.map((d) => d.toLowerCase()).join(' and ')} traversal short, so what is drawn and counted is not all of the lineage.`
          : '',
      );
      renderFilters(state, ui);
      await drawing.draw(seq, t0);
    } catch (e) {
      if (seq !== state.seq) return;
      status.set('');
      if (isSignInError(e)) messages.reportError(e, `load the lineage of ${state.centre?.name ?? centre.urn}`);
      // Never the centre alone (that reads as "no lineage"): an error state in place of the graph
      // and the list, with the way to ask again.
      failed(messages.describe(e, `load the lineage of ${state.centre?.name ?? centre.urn}`), reloadNeighbourhood);
      return;
    } finally {
      if (seq === state.seq) status.setBusy(false);
    }
    if (seq === state.seq) events.emit('loaded');
  }

  /** What was shown is no longer known: the graph, its counts and the list give way to the error. */
  function failed(text: string, retry: () => void): void {
    state.cursors = {};
    state.degreeCounts.clear();
    state.typeOptions.clear();
    state.platformOptions.clear();
    renderFilters(state, ui);
    // The filter lists must not read "No lineage" either.
    for (const box of [ui.typeFilter, ui.platformFilter]) box.querySelector('.options')!.innerHTML = '<p class="hint">Not loaded.</p>';
    ui.degreeCounts.textContent = 'Counts unknown: the lineage did not load.';
    status.setPartialNote('');
    drawing.showError(text, retry);
    status.set('Not loaded');
    events.emit('failed', text);
  }

  async function loadMore(direction: Direction): Promise<void> {
    const cursor = state.cursors[direction];
    const graph = state.graph;
    if (!cursor?.next || !graph || state.busy) return;
    const seq = ++state.seq;
    const t0 = performance.now();
    status.setBusy(true);
    status.set(`Loading more ${direction.toLowerCase()}…`);
    try {
      // A click on "N more" brings a screenful's worth, not another first-view page.
      const page = await scrollLineage(
        graph.centre,
        direction,
        lineageFilter(degreeValues()),
        cursor.next,
        Math.max(state.pageSize, MORE_PAGE),
      );
      if (seq !== state.seq) return;
      mergeResults(graph, direction, page.searchResults);
      state.cursors[direction] = {
        next: page.nextScrollId,
        total: page.total,
        loaded: cursor.loaded + page.searchResults.length,
        partial: cursor.partial || page.isPartial === true,
      };
      await drawing.draw(seq, t0, false);
    } catch (e) {
      if (seq === state.seq) {
        messages.reportError(e, `load more ${direction.toLowerCase()} entities`);
        // What is drawn stays true but incomplete: say so where the counts are.
        state.cursors[direction] = { ...cursor, partial: true };
        status.render();
        status.setPartialNote(
          `Only part of the ${direction.toLowerCase()} lineage is drawn: loading more failed. ${messages.describe(e, 'load more')}`,
        );
      }
    } finally {
      if (seq === state.seq) status.setBusy(false);
    }
  }

  async function expand(urn: string): Promise<void> {
    const graph = state.graph;
    const node = graph?.nodes.get(urn);
    if (!graph || !node || node.side === 'centre' || state.busy) return;
    const direction: Direction = node.side === 'upstream' ? 'UPSTREAM' : 'DOWNSTREAM';
    const seq = ++state.seq;
    const t0 = performance.now();
    status.setBusy(true);
    status.set(`Loading the next hop ${node.side} of ${node.name}…`);
    try {
      const page = await scrollLineage(urn, direction, lineageFilter(['1']), null, state.pageSize);
      if (seq !== state.seq) return;
      mergeResults(graph, direction, page.searchResults, urn, node.degree);
      state.expanded.add(urn);
      const hidden = page.total - page.searchResults.length;
      await drawing.draw(seq, t0, false);
      if (!page.searchResults.length) messages.show(`${node.name} has no further ${node.side} entities matching the filters.`, 'info');
      else if (hidden > 0)
        messages.show(
          `Showing ${page.searchResults.length} of ${page.total} entities one hop ${node.side} of ${node.name}; re-centre on it to page through the rest.`,
          'info',
        );
    } catch (e) {
      if (seq === state.seq) messages.reportError(e, `expand ${node.name}`);
    } finally {
      if (seq === state.seq) status.setBusy(false);
    }
  }

  function reloadNeighbourhood(): void {
    if (!state.graph || !state.centre) return;
    const centre = state.graph.nodes.get(state.graph.centre)!;
    state.expanded.clear();
    void loadNeighbourhood({ urn: centre.urn, type: centre.type, name: centre.name, exists: centre.exists }, false);
  }

  function reload(): void {
    if (!state.centre) return;
    const hash = viewHash(viewOf(state, state.centre.urn));
    // A control the address bar does not hold (the page size) changes nothing there: load directly.
    // Compared as views: a link with unescaped parentheses is the same view in other text.
    if (sameHash(location.hash, hash)) reloadNeighbourhood();
    else location.hash = hash;
  }

  /** After signing in again: the view in the address bar, loaded afresh. */
  async function reloadView(): Promise<void> {
    shown = null;
    await routeFromHash();
  }

  return { navigateTo, routeFromHash, loadMore, expand, reload, reloadView, filter: () => lineageFilter(degreeValues()) };
}

/** A 401 goes back to sign-in (messages.reportError); anything else is drawn as an error state. */
function isSignInError(e: unknown): boolean {
  return e instanceof ApiError && (e.kind === 'unauthenticated' || e.kind === 'expired');
}

/** Whether two hashes name the same view, whatever their escaping. */
function sameHash(a: string, b: string): boolean {
  const va = parseViewHash(a);
  const vb = parseViewHash(b);
  return va !== null && vb !== null && viewHash(va) === viewHash(vb);
}

/** "N more" asks for at least this many: one click should show a real step, not another 50. */
const MORE_PAGE = 250;

/** Back, forward and edited links re-centre the page. */
export function wireHistory(navigation: Navigation): void {
  window.addEventListener('hashchange', () => void navigation.routeFromHash());
}
