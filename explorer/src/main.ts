// The explorer page: sign-in, search, filters, and the draw cycle (fetch → layout → render).
// State lives in one object; the URL hash (#urn=…) names the centre so back/forward and links work.
import './style.css';
import { ApiError, checkToken, graphql, normaliseToken, tokenStore } from './api.ts';
import { COLUMNS_QUERY, ENTITY_QUERY, SCROLL_QUERY, SEARCH_QUERY, type ColumnsReply, type EntityReply, type Facet, type ScrollReply, type SearchReply } from './queries.ts';
import { columnOf, emptyNeighbourhood, mergeResults, summarise, typeLabel, urnTail, type Direction, type EntitySummary, type Neighbourhood, type RawEntity, type RawResult } from './model.ts';
import { buildColumnGraph, columnClosure, schemaFieldsOf, splitColumnKey, type ColumnGraph, type DatasetColumnsInput } from './columns.ts';
import { layoutGraph, type LayoutNode } from './layout.ts';
import { colourOf, escapeXml, MORE_HEIGHT, MORE_WIDTH, NODE_WIDTH, nodeHeight, renderSvg, TYPE_COLOURS, visibleColumns, type MoreAffordance } from './render.ts';

type Degree = '1' | '2' | '3+';
const DIRECTIONS: readonly Direction[] = ['UPSTREAM', 'DOWNSTREAM'];
const RECENT_KEY = 'lineage-explorer.recent';

interface Cursor {
  next: string | null;
  total: number;
  loaded: number;
  partial: boolean;
}

interface Timings {
  fetchMs: number;
  layoutMs: number;
  renderMs: number;
  totalMs: number;
  nodes: number;
  edges: number;
}

const state = {
  centre: null as EntitySummary | null,
  graph: null as Neighbourhood | null,
  degree: '3+' as Degree,
  directions: { UPSTREAM: true, DOWNSTREAM: true } as Record<Direction, boolean>,
  types: new Set<string>(),
  platforms: new Set<string>(),
  pageSize: 50,
  showColumns: false,
  cursors: {} as Partial<Record<Direction, Cursor>>,
  typeOptions: new Map<string, number>(),
  platformOptions: new Map<string, { label: string; count: number }>(),
  degreeCounts: new Map<string, number>(),
  columnCache: new Map<string, DatasetColumnsInput>(),
  columns: null as ColumnGraph | null,
  selectedColumn: null as string | null,
  expanded: new Set<string>(),
  zoom: 1,
  graphSize: { width: 0, height: 0 },
  seq: 0,
  busy: false,
};

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from index.html`);
  return el as T;
};
const ui = {
  signin: $('signin'),
  signinForm: $<HTMLFormElement>('signin-form'),
  token: $<HTMLTextAreaElement>('token'),
  signinError: $('signin-error'),
  signinSubmit: $<HTMLButtonElement>('signin-submit'),
  sessionState: $('session-state'),
  signOut: $<HTMLButtonElement>('sign-out'),
  searchForm: $<HTMLFormElement>('search-form'),
  search: $<HTMLInputElement>('search'),
  searchResults: $('search-results'),
  status: $('status'),
  message: $('message'),
  canvas: $('canvas'),
  empty: $('empty'),
  host: $('graph-host'),
  dirUp: $<HTMLInputElement>('dir-upstream'),
  dirDown: $<HTMLInputElement>('dir-downstream'),
  columnsToggle: $<HTMLInputElement>('columns-toggle'),
  pageSize: $<HTMLSelectElement>('page-size'),
  typeFilter: $('type-filter'),
  platformFilter: $('platform-filter'),
  degreeCounts: $('degree-counts'),
  legendTypes: $('legend-types'),
};

// ---------------------------------------------------------------- messages

function showMessage(text: string, kind: 'error' | 'info' = 'error'): void {
  ui.message.hidden = false;
  ui.message.className = `message ${kind === 'info' ? 'info' : ''}`;
  ui.message.innerHTML = `<p>${escapeXml(text)}</p><button type="button" aria-label="Dismiss message">×</button>`;
  ui.message.querySelector('button')!.addEventListener('click', clearMessage);
}

function clearMessage(): void {
  ui.message.hidden = true;
  ui.message.textContent = '';
}

/** Every API failure goes through here: a 401 sends the user back to sign-in with the reason. */
function reportError(e: unknown, doing: string): void {
  if (e instanceof ApiError && e.kind === 'unauthenticated') {
    tokenStore.clear();
    openSignIn(e.message);
    return;
  }
  if (e instanceof ApiError) {
    const prefix = e.kind === 'forbidden' ? `You are not allowed to ${doing}` : `Could not ${doing}`;
    showMessage(`${prefix}: ${e.message}`);
    return;
  }
  showMessage(`Could not ${doing}: ${(e as Error).message}`);
}

// ---------------------------------------------------------------- sign-in

function openSignIn(error?: string): void {
  ui.signin.hidden = false;
  ui.sessionState.textContent = 'Not signed in';
  ui.signOut.hidden = true;
  if (error) {
    ui.signinError.hidden = false;
    ui.signinError.textContent = error;
  } else {
    ui.signinError.hidden = true;
  }
  ui.token.focus();
}

function signedIn(): void {
  ui.signin.hidden = true;
  ui.sessionState.textContent = 'Signed in (token kept for this tab only)';
  ui.signOut.hidden = false;
}

ui.signinForm.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const token = normaliseToken(ui.token.value);
  if (!token) {
    openSignIn('Paste a token first.');
    return;
  }
  ui.signinSubmit.disabled = true;
  ui.signinSubmit.textContent = 'Checking…';
  try {
    await checkToken(token);
    tokenStore.set(token);
    ui.token.value = '';
    signedIn();
    ui.search.focus();
    if (!state.graph) void routeFromHash();
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'unauthenticated') {
      openSignIn('That token was rejected (HTTP 401 Unauthorized): it is not a valid, current personal access token for this catalog. Check that you copied all of it, and that it has not expired or been revoked.');
    } else {
      openSignIn(`Could not check the token: ${(e as Error).message}`);
    }
  } finally {
    ui.signinSubmit.disabled = false;
    ui.signinSubmit.textContent = 'Sign in';
  }
});

ui.signOut.addEventListener('click', () => {
  tokenStore.clear();
  openSignIn();
});

// ---------------------------------------------------------------- search

function recent(): EntitySummary[] {
  try {
    return JSON.parse(sessionStorage.getItem(RECENT_KEY) ?? '[]') as EntitySummary[];
  } catch {
    return [];
  }
}

function remember(e: EntitySummary): void {
  const list = [e, ...recent().filter((r) => r.urn !== e.urn)].slice(0, 30);
  sessionStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

function hideResults(): void {
  ui.searchResults.hidden = true;
  ui.searchResults.innerHTML = '';
}

interface Suggestion {
  summary: EntitySummary;
  where: string;
}

function showSuggestions(items: Suggestion[], note?: string): void {
  ui.searchResults.hidden = false;
  const rows = items.map((s, i) => `<button type="button" class="result" role="option" data-urn="${escapeXml(s.summary.urn)}" data-index="${i}">`
    + `<span class="rtype" style="color:${colourOf(s.summary.type)}">${escapeXml(s.summary.type)}</span>`
    + `<span class="rname">${escapeXml(s.summary.name)}</span>`
    + `<span class="rmeta">${escapeXml([s.summary.platform, s.where].filter(Boolean).join(' · '))}</span></button>`);
  ui.searchResults.innerHTML = (note ? `<p class="note">${escapeXml(note)}</p>` : '') + rows.join('');
}

ui.searchResults.addEventListener('click', (ev) => {
  const button = (ev.target as Element).closest<HTMLElement>('[data-urn]');
  if (!button) return;
  hideResults();
  ui.search.value = button.dataset.urn!;
  navigateTo(button.dataset.urn!);
});

ui.searchResults.addEventListener('keydown', (ev) => {
  const items = [...ui.searchResults.querySelectorAll<HTMLElement>('.result')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  if (ev.key === 'ArrowDown') items[Math.min(items.length - 1, at + 1)]?.focus();
  else if (ev.key === 'ArrowUp') (at <= 0 ? ui.search : items[at - 1]!).focus();
  else if (ev.key === 'Escape') {
    hideResults();
    ui.search.focus();
  } else return;
  ev.preventDefault();
});

ui.search.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown' && !ui.searchResults.hidden) {
    ui.searchResults.querySelector<HTMLElement>('.result')?.focus();
    ev.preventDefault();
  } else if (ev.key === 'Escape') hideResults();
});

ui.searchForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = ui.search.value.trim();
  if (!text) return;
  clearMessage();
  if (/^urn:li:/i.test(text)) {
    hideResults();
    navigateTo(text);
  } else {
    void searchByName(text);
  }
});

/** Names (and urn fragments) are found catalogue-wide with searchAcrossEntities; visited entities first. */
async function searchByName(text: string): Promise<void> {
  const needle = text.toLowerCase();
  const found = new Map<string, Suggestion>();
  for (const r of recent()) {
    if (r.name.toLowerCase().includes(needle) || r.urn.toLowerCase().includes(needle)) found.set(r.urn, { summary: r, where: 'visited' });
  }
  showSuggestions([...found.values()], `Searching for “${text}”…`);
  try {
    const r = await graphql<SearchReply>(SEARCH_QUERY, { input: { query: text, start: 0, count: 25 } });
    for (const res of r.searchAcrossEntities?.searchResults ?? []) {
      if (!found.has(res.entity.urn)) found.set(res.entity.urn, { summary: summarise(res.entity), where: '' });
    }
    const items = [...found.values()];
    const total = r.searchAcrossEntities?.total ?? 0;
    showSuggestions(items, items.length
      ? `${total} match${total === 1 ? '' : 'es'} for “${text}”${total > 25 ? ' (first 25 shown: refine the search)' : ''}`
      : `Nothing matches “${text}”. Try part of a name, or paste an entity urn.`);
  } catch (e) {
    hideResults();
    reportError(e, `search for “${text}”`);
  }
}

document.addEventListener('keydown', (ev) => {
  const target = ev.target as HTMLElement;
  const typing = target.closest('input, textarea, select');
  if (ev.key === '/' && !typing) {
    ev.preventDefault();
    ui.search.focus();
    ui.search.select();
  } else if ((ev.key === '+' || ev.key === '=') && !typing) setZoom(state.zoom * 1.2);
  else if (ev.key === '-' && !typing) setZoom(state.zoom / 1.2);
});

document.addEventListener('click', (ev) => {
  if (!ui.searchForm.contains(ev.target as Node)) hideResults();
});

// ---------------------------------------------------------------- navigation

function navigateTo(urn: string): void {
  const hash = `#urn=${encodeURIComponent(urn)}`;
  if (location.hash === hash) void loadCentre(urn);
  else location.hash = hash;
}

function urnFromHash(): string | null {
  const m = /^#urn=(.+)$/.exec(location.hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

async function routeFromHash(): Promise<void> {
  const urn = urnFromHash();
  if (urn && tokenStore.get()) await loadCentre(urn);
}

window.addEventListener('hashchange', () => void routeFromHash());

async function loadCentre(urn: string): Promise<void> {
  const seq = ++state.seq;
  clearMessage();
  setStatus(`Opening ${urnTail(urn)}…`);
  let entity: RawEntity | null;
  try {
    entity = (await graphql<EntityReply>(ENTITY_QUERY, { urn })).entity;
  } catch (e) {
    if (seq !== state.seq) return;
    setStatus('');
    if (e instanceof ApiError && e.kind === 'bad-request') showMessage(`“${urn}” is not a valid entity urn: ${e.message}`);
    else reportError(e, `open ${urn}`);
    return;
  }
  if (seq !== state.seq) return;
  if (!entity) {
    setStatus('');
    showMessage(`Entity not found: the catalog does not support the entity type of ${urn}, so it has no lineage to show.`);
    return;
  }
  if (entity.exists === false) {
    setStatus('');
    showMessage(`Entity not found: nothing has been ingested for ${urn}. Check the urn (platform, name and environment must match exactly).`);
    return;
  }
  const summary = summarise(entity);
  remember(summary);
  state.centre = summary;
  state.typeOptions.clear();
  state.platformOptions.clear();
  state.selectedColumn = null;
  state.expanded.clear();
  document.title = `${summary.name} · Lineage explorer`;
  ui.search.value = urn;
  await loadNeighbourhood(entity, true);
}

// ---------------------------------------------------------------- fetching

function degreeValues(): string[] {
  return state.degree === '1' ? ['1'] : state.degree === '2' ? ['1', '2'] : ['1', '2', '3+'];
}

function filterClause(degrees: string[]): Array<Record<string, unknown>> {
  const and: Array<Record<string, unknown>> = [{ field: 'degree', values: degrees }];
  if (state.types.size) and.push({ field: '_entityType', values: [...state.types] });
  if (state.platforms.size) and.push({ field: 'platform', values: [...state.platforms] });
  return [{ and }];
}

async function scrollPage(urn: string, direction: Direction, degrees: string[], scrollId: string | null, count: number) {
  const reply = await graphql<ScrollReply>(SCROLL_QUERY, {
    // Later pages need no facets: the first page's already fill the filters.
    input: { urn, direction, count, orFilters: filterClause(degrees), ...(scrollId ? { scrollId, searchFlags: { skipAggregates: true } } : {}) },
  });
  if (!reply.scrollAcrossLineage) throw new ApiError('server', 'scrollAcrossLineage returned nothing');
  return reply.scrollAcrossLineage;
}

function recordFacets(facets: readonly Facet[] | null, replace: boolean): void {
  for (const f of facets ?? []) {
    if (f.field === '_entityType') {
      for (const a of f.aggregations) {
        if (replace || !state.typeOptions.has(a.value)) state.typeOptions.set(a.value, (replace ? state.typeOptions.get(a.value) ?? 0 : 0) + a.count);
      }
    } else if (f.field === 'platform') {
      for (const a of f.aggregations) {
        const label = a.entity?.properties?.displayName ?? a.entity?.name ?? a.displayName ?? urnTail(a.value);
        const had = state.platformOptions.get(a.value);
        if (replace || !had) state.platformOptions.set(a.value, { label, count: (replace ? had?.count ?? 0 : 0) + a.count });
      }
    } else if (f.field === 'degree') {
      for (const a of f.aggregations) state.degreeCounts.set(a.value, (state.degreeCounts.get(a.value) ?? 0) + a.count);
    }
  }
}

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
  setStatus('Loading lineage…');
  setBusy(true);
  try {
    const pages = await Promise.all(active.map(async (direction) => ({ direction, page: await scrollPage(centre.urn, direction, degreeValues(), null, state.pageSize) })));
    if (seq !== state.seq) return;
    for (const { direction, page } of pages) {
      mergeResults(graph, direction, page.searchResults);
      state.cursors[direction] = { next: page.nextScrollId, total: page.total, loaded: page.searchResults.length, partial: page.isPartial === true };
      recordFacets(page.facets, unfiltered || fresh);
    }
    renderFilters();
    await draw(seq, t0);
  } catch (e) {
    if (seq !== state.seq) return;
    setStatus('');
    reportError(e, `load the lineage of ${state.centre?.name ?? centre.urn}`);
    await draw(seq, t0).catch(() => undefined);
  } finally {
    if (seq === state.seq) setBusy(false);
  }
}

async function loadMore(direction: Direction): Promise<void> {
  const cursor = state.cursors[direction];
  const graph = state.graph;
  if (!cursor?.next || !graph || state.busy) return;
  const seq = ++state.seq;
  const t0 = performance.now();
  setBusy(true);
  setStatus(`Loading more ${direction.toLowerCase()}…`);
  try {
    const page = await scrollPage(graph.centre, direction, degreeValues(), cursor.next, state.pageSize);
    if (seq !== state.seq) return;
    mergeResults(graph, direction, page.searchResults);
    state.cursors[direction] = { next: page.nextScrollId, total: page.total, loaded: cursor.loaded + page.searchResults.length, partial: cursor.partial || page.isPartial === true };
    await draw(seq, t0, false);
  } catch (e) {
    if (seq === state.seq) reportError(e, `load more ${direction.toLowerCase()} entities`);
  } finally {
    if (seq === state.seq) setBusy(false);
  }
}

/** One more hop beyond the degree limit, from one node, in the direction it lies. */
async function expand(urn: string): Promise<void> {
  const graph = state.graph;
  const node = graph?.nodes.get(urn);
  if (!graph || !node || node.side === 'centre' || state.busy) return;
  const direction: Direction = node.side === 'upstream' ? 'UPSTREAM' : 'DOWNSTREAM';
  const seq = ++state.seq;
  const t0 = performance.now();
  setBusy(true);
  setStatus(`Loading the next hop ${node.side} of ${node.name}…`);
  try {
    const page = await scrollPage(urn, direction, ['1'], null, state.pageSize);
    if (seq !== state.seq) return;
    mergeResults(graph, direction, page.searchResults, urn, node.degree);
    state.expanded.add(urn);
    const hidden = page.total - page.searchResults.length;
    await draw(seq, t0, false);
    if (!page.searchResults.length) showMessage(`${node.name} has no further ${node.side} entities matching the filters.`, 'info');
    else if (hidden > 0) showMessage(`Showing ${page.searchResults.length} of ${page.total} entities one hop ${node.side} of ${node.name}; re-centre on it to page through the rest.`, 'info');
  } catch (e) {
    if (seq === state.seq) reportError(e, `expand ${node.name}`);
  } finally {
    if (seq === state.seq) setBusy(false);
  }
}

async function loadColumns(graph: Neighbourhood): Promise<void> {
  const datasets = [...graph.nodes.values()].filter((n) => n.type === 'DATASET').map((n) => n.urn);
  const missing = datasets.filter((u) => !state.columnCache.has(u));
  for (let i = 0; i < missing.length; i += 200) {
    const batch = missing.slice(i, i + 200);
    const reply = await graphql<ColumnsReply>(COLUMNS_QUERY, { urns: batch });
    for (const e of reply.entities) {
      if (!e) continue;
      const schema = e.aspects?.find((a) => a.aspectName === 'schemaMetadata');
      state.columnCache.set(e.urn, { urn: e.urn, fineGrainedLineages: e.fineGrainedLineages ?? [], schemaFields: schemaFieldsOf(schema?.payload) });
    }
  }
  state.columns = buildColumnGraph(datasets.map((u) => state.columnCache.get(u)).filter((d): d is DatasetColumnsInput => d !== undefined));
}

// ---------------------------------------------------------------- drawing

function setBusy(busy: boolean): void {
  state.busy = busy;
  ui.canvas.setAttribute('aria-busy', String(busy));
}

function setStatus(text: string): void {
  ui.status.textContent = text;
}

let lastTimings: Timings | null = null;

async function draw(seq: number, t0: number, recentre = true): Promise<void> {
  const graph = state.graph;
  if (!graph) return;
  const columnsOn = state.showColumns;
  if (columnsOn) {
    try {
      await loadColumns(graph);
    } catch (e) {
      reportError(e, 'load columns');
      state.columns = null;
    }
    if (seq !== state.seq) return;
  }
  const fetched = performance.now();
  const columns = columnsOn ? state.columns : null;
  const withEdges = new Set<string>();
  for (const e of columns?.edges ?? []) {
    withEdges.add(e.from);
    withEdges.add(e.to);
  }
  const rows = new Map<string, { rows: string[]; hidden: number }>();
  const layoutNodes: LayoutNode[] = [];
  for (const n of graph.nodes.values()) {
    let height = nodeHeight(0, 0);
    if (columns && n.type === 'DATASET') {
      const v = visibleColumns(columns.columns.get(n.urn) ?? [], withEdges, n.urn);
      rows.set(n.urn, v);
      height = nodeHeight(v.rows.length, v.hidden);
    }
    layoutNodes.push({ id: n.urn, width: NODE_WIDTH, height, column: columnOf(n) });
  }
  const more: MoreAffordance[] = [];
  const columnsUsed = layoutNodes.map((n) => n.column);
  for (const direction of DIRECTIONS) {
    const c = state.cursors[direction];
    if (!c || !c.next) continue;
    const remaining = Math.max(0, c.total - c.loaded);
    if (remaining === 0) continue;
    const id = `more:${direction}`;
    more.push({ id, side: direction, remaining });
    const edge = direction === 'UPSTREAM' ? Math.min(0, ...columnsUsed) - 1 : Math.max(0, ...columnsUsed) + 1;
    layoutNodes.push({ id, width: MORE_WIDTH, height: MORE_HEIGHT, column: edge });
  }
  const layout = await layoutGraph(layoutNodes, [...graph.edges.values()]);
  if (seq !== state.seq) return;
  const laidOut = performance.now();

  let highlighted: Set<string> | undefined;
  if (state.selectedColumn && columns) {
    const c = columnClosure(columns.edges, state.selectedColumn);
    highlighted = new Set([...c.upstream, ...c.downstream]);
  }
  const limit = state.degree === '3+' ? Infinity : Number(state.degree);
  const expandable = new Set<string>();
  for (const n of graph.nodes.values()) {
    if (n.side !== 'centre' && !n.context && n.degree >= limit && !state.expanded.has(n.urn)) expandable.add(n.urn);
  }
  ui.host.innerHTML = renderSvg({
    graph, positions: layout.positions, width: layout.width, height: layout.height, more, expandable,
    ...(columns ? { rows, columnEdges: columns.edges, selectedColumn: state.selectedColumn, ...(highlighted ? { highlighted } : {}) } : {}),
  });
  state.graphSize = { width: layout.width, height: layout.height };
  ui.empty.hidden = true;
  if (recentre) {
    const fit = Math.min(1, (ui.canvas.clientWidth - 8) / Math.max(1, layout.width));
    state.zoom = Math.max(0.72, fit);
  }
  applyZoom();
  renderEmptyNote(graph);
  // Measured after the browser has laid out and painted the new SVG.
  await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  const painted = performance.now();
  lastTimings = {
    fetchMs: Math.round(fetched - t0), layoutMs: Math.round(laidOut - fetched), renderMs: Math.round(painted - laidOut),
    totalMs: Math.round(painted - t0), nodes: graph.nodes.size, edges: graph.edges.size,
  };
  (window as unknown as { __explorer: unknown }).__explorer = { timings: lastTimings, seq };
  ui.host.dataset.ready = String(seq);
  if (recentre) scrollToNode(graph.centre);
  renderStatus();
}

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
    note.innerHTML = `<h2>No ${escapeXml(where)} lineage</h2><p>${escapeXml(state.centre?.name ?? 'This entity')} has no ${escapeXml(where)} entities for ${escapeXml(filters.join('; '))}.</p>`
      + (state.types.size || state.platforms.size || state.degree !== '3+' ? '<p>Widen the filters on the left to see more.</p>' : '');
  }
  ui.host.prepend(note);
}

function renderStatus(): void {
  const parts: string[] = [];
  for (const direction of DIRECTIONS) {
    if (!state.directions[direction]) continue;
    const c = state.cursors[direction];
    if (!c) continue;
    const label = direction === 'UPSTREAM' ? 'Upstream' : 'Downstream';
    parts.push(`<span class="pill" data-side-status="${direction}">${label}: ${c.loaded} of ${c.total}</span>`);
    if (c.next && c.total > c.loaded) {
      parts.push(`<button type="button" class="more-btn" data-more="${direction}">${c.total - c.loaded} more ${label.toLowerCase()}</button>`);
    }
    if (c.partial) parts.push(`<span class="warn">${label} results are partial: the catalog cut the traversal short.</span>`);
  }
  if (lastTimings) parts.push(`<span class="pill" title="fetch / layout / render">${lastTimings.nodes} nodes · ${lastTimings.totalMs} ms</span>`);
  ui.status.innerHTML = parts.join('');
}

ui.status.addEventListener('click', (ev) => {
  const b = (ev.target as Element).closest<HTMLElement>('[data-more]');
  if (b) void loadMore(b.dataset.more as Direction);
});

function applyZoom(): void {
  const svg = ui.host.querySelector('svg');
  if (!svg) return;
  svg.setAttribute('width', String(Math.ceil(state.graphSize.width * state.zoom)));
  svg.setAttribute('height', String(Math.ceil(state.graphSize.height * state.zoom)));
}

function setZoom(z: number): void {
  const canvas = ui.canvas;
  const cx = (canvas.scrollLeft + canvas.clientWidth / 2) / state.zoom;
  const cy = (canvas.scrollTop + canvas.clientHeight / 2) / state.zoom;
  state.zoom = Math.min(2.5, Math.max(0.15, z));
  applyZoom();
  canvas.scrollLeft = cx * state.zoom - canvas.clientWidth / 2;
  canvas.scrollTop = cy * state.zoom - canvas.clientHeight / 2;
}

function scrollToNode(urn: string): void {
  const el = ui.host.querySelector<SVGGElement>(`g.node[data-urn="${CSS.escape(urn)}"]`);
  if (!el) return;
  const box = el.getBoundingClientRect();
  const canvasBox = ui.canvas.getBoundingClientRect();
  ui.canvas.scrollLeft += box.left + box.width / 2 - (canvasBox.left + canvasBox.width / 2);
  ui.canvas.scrollTop += box.top + box.height / 2 - (canvasBox.top + Math.min(canvasBox.height / 2, 200));
}

$('zoom-in').addEventListener('click', () => setZoom(state.zoom * 1.2));
$('zoom-out').addEventListener('click', () => setZoom(state.zoom / 1.2));
$('zoom-fit').addEventListener('click', () => {
  const { width, height } = state.graphSize;
  if (!width) return;
  setZoom(Math.min((ui.canvas.clientWidth - 8) / width, (ui.canvas.clientHeight - 8) / height, 1.5));
  ui.canvas.scrollLeft = 0;
  ui.canvas.scrollTop = 0;
});

// ---------------------------------------------------------------- graph interaction

function selectColumn(key: string | null): void {
  state.selectedColumn = state.selectedColumn === key ? null : key;
  const svg = ui.host.querySelector('svg');
  const columns = state.columns;
  if (!svg || !columns) return;
  // Restyle in place: a column click should not re-run the layout.
  const hot = state.selectedColumn ? columnClosure(columns.edges, state.selectedColumn) : null;
  const lit = new Set([...(hot?.upstream ?? []), ...(hot?.downstream ?? [])]);
  for (const g of svg.querySelectorAll<SVGGElement>('g.col')) {
    const k = g.dataset.col!;
    g.classList.toggle('selected', k === state.selectedColumn);
    g.classList.toggle('highlighted', k !== state.selectedColumn && lit.has(k));
    g.classList.toggle('dimmed', state.selectedColumn !== null && k !== state.selectedColumn && !lit.has(k));
    g.setAttribute('aria-pressed', String(k === state.selectedColumn));
  }
  const on = (k: string) => k === state.selectedColumn || lit.has(k);
  for (const p of svg.querySelectorAll<SVGPathElement>('path.col-edge')) {
    const isHot = state.selectedColumn !== null && on(p.dataset.from!) && on(p.dataset.to!);
    p.classList.toggle('hot', isHot);
    p.classList.toggle('dimmed', state.selectedColumn !== null && !isHot);
    p.setAttribute('marker-end', `url(#${isHot ? 'arrow-hot' : 'arrow-col'})`);
  }
  if (state.selectedColumn) {
    const { dataset, path } = splitColumnKey(state.selectedColumn);
    const name = state.graph?.nodes.get(dataset)?.name ?? urnTail(dataset);
    setStatus(`Column ${path} of ${name}: ${hot!.upstream.size} upstream and ${hot!.downstream.size} downstream columns highlighted.`);
  } else renderStatus();
}

function activate(target: Element): void {
  const more = target.closest<SVGGElement>('[data-more]');
  if (more) return void loadMore(more.dataset.more as Direction);
  const exp = target.closest<SVGGElement>('[data-expand]');
  if (exp) return void expand(exp.dataset.expand!);
  const col = target.closest<SVGGElement>('[data-col]');
  if (col) return selectColumn(col.dataset.col!);
  const node = target.closest<SVGGElement>('g.node');
  if (node && node.dataset.urn !== state.graph?.centre) navigateTo(node.dataset.urn!);
}

ui.host.addEventListener('click', (ev) => {
  if (dragged) return;
  activate(ev.target as Element);
});

ui.host.addEventListener('keydown', (ev) => {
  const target = ev.target as Element;
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    activate(target);
  } else if (ev.key === 'Escape') {
    if (state.selectedColumn) selectColumn(null);
  } else if (ev.key.startsWith('Arrow')) {
    const from = target.closest<SVGGElement>('g.node');
    if (!from) return;
    ev.preventDefault();
    moveFocus(from, ev.key);
  }
});

/** Arrow keys go to the nearest node in that direction (columns are degrees, rows are siblings). */
function moveFocus(from: SVGGElement, key: string): void {
  const a = from.getBoundingClientRect();
  const ax = a.left + a.width / 2;
  const ay = a.top + a.height / 2;
  let best: SVGGElement | null = null;
  let bestScore = Infinity;
  for (const g of ui.host.querySelectorAll<SVGGElement>('g.node, g.more')) {
    if (g === from) continue;
    const b = g.getBoundingClientRect();
    const dx = b.left + b.width / 2 - ax;
    const dy = b.top + b.height / 2 - ay;
    const along = key === 'ArrowRight' ? dx : key === 'ArrowLeft' ? -dx : key === 'ArrowDown' ? dy : -dy;
    const across = key === 'ArrowRight' || key === 'ArrowLeft' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 4) continue;
    const score = along + across * 3;
    if (score < bestScore) {
      bestScore = score;
      best = g;
    }
  }
  if (best) {
    best.focus();
    best.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

// Drag to pan; reaching the left/right edge by the user's own scrolling loads the next page of that side.
let dragged = false;
let userScrolledAt = 0;
ui.canvas.addEventListener('pointerdown', (ev) => {
  if (ev.button !== 0 || (ev.target as Element).closest('button, [tabindex="0"]')) return;
  const start = { x: ev.clientX, y: ev.clientY, left: ui.canvas.scrollLeft, top: ui.canvas.scrollTop };
  dragged = false;
  const move = (m: PointerEvent) => {
    const dx = m.clientX - start.x;
    const dy = m.clientY - start.y;
    if (!dragged && Math.hypot(dx, dy) < 4) return;
    dragged = true;
    userScrolledAt = Date.now();
    ui.canvas.classList.add('panning');
    ui.canvas.scrollLeft = start.left - dx;
    ui.canvas.scrollTop = start.top - dy;
  };
  const up = () => {
    ui.canvas.classList.remove('panning');
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    setTimeout(() => (dragged = false), 0);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
});
ui.canvas.addEventListener('wheel', (ev) => {
  if (ev.ctrlKey) {
    ev.preventDefault();
    setZoom(state.zoom * (ev.deltaY < 0 ? 1.1 : 1 / 1.1));
  }
  userScrolledAt = Date.now();
}, { passive: false });
ui.canvas.addEventListener('scroll', () => {
  if (Date.now() - userScrolledAt > 800 || state.busy) return;
  const c = ui.canvas;
  const nearBottom = c.scrollTop + c.clientHeight >= c.scrollHeight - 40;
  if (c.scrollLeft <= 2 && state.cursors.UPSTREAM?.next) void loadMore('UPSTREAM');
  else if (c.scrollLeft + c.clientWidth >= c.scrollWidth - 2 && state.cursors.DOWNSTREAM?.next) void loadMore('DOWNSTREAM');
  else if (nearBottom && c.scrollHeight > c.clientHeight + 40) {
    const side = DIRECTIONS.find((d) => state.cursors[d]?.next);
    if (side) void loadMore(side);
  }
});

// ---------------------------------------------------------------- filters

function renderFilters(): void {
  const typeBox = ui.typeFilter.querySelector('.options')!;
  const types = [...state.typeOptions.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const t of state.types) if (!state.typeOptions.has(t)) types.push([t, 0]);
  typeBox.innerHTML = types.length
    ? types.map(([value, count]) => `<label class="check"><input type="checkbox" data-filter="type" value="${escapeXml(value)}" ${state.types.has(value) ? 'checked' : ''}>`
      + `<span class="swatch" style="--c:${colourOf(value)}"></span>${escapeXml(typeLabel(value))}<span class="count">${count}</span></label>`).join('')
    : '<p class="hint">No lineage, so nothing to filter.</p>';
  const platformBox = ui.platformFilter.querySelector('.options')!;
  const platforms = [...state.platformOptions.entries()].sort((a, b) => b[1].count - a[1].count || a[1].label.localeCompare(b[1].label));
  for (const p of state.platforms) if (!state.platformOptions.has(p)) platforms.push([p, { label: urnTail(p), count: 0 }]);
  platformBox.innerHTML = platforms.length
    ? platforms.map(([value, { label, count }]) => `<label class="check"><input type="checkbox" data-filter="platform" value="${escapeXml(value)}" ${state.platforms.has(value) ? 'checked' : ''}>`
      + `${escapeXml(label)}<span class="count">${count}</span></label>`).join('')
    : '<p class="hint">No platforms in this lineage.</p>';
  ui.degreeCounts.textContent = state.degreeCounts.size
    ? `Entities at degree 1: ${state.degreeCounts.get('1') ?? 0}, 2: ${state.degreeCounts.get('2') ?? 0}, 3+: ${state.degreeCounts.get('3+') ?? 0}`
    : '';
}

function reload(): void {
  if (!state.graph || !state.centre) return;
  const centre = state.graph.nodes.get(state.graph.centre)!;
  state.expanded.clear();
  void loadNeighbourhood({ urn: centre.urn, type: centre.type, name: centre.name, exists: centre.exists }, false);
}

for (const input of document.querySelectorAll<HTMLInputElement>('input[name="degree"]')) {
  input.addEventListener('change', () => {
    state.degree = input.value as Degree;
    reload();
  });
}
ui.dirUp.addEventListener('change', () => {
  state.directions.UPSTREAM = ui.dirUp.checked;
  reload();
});
ui.dirDown.addEventListener('change', () => {
  state.directions.DOWNSTREAM = ui.dirDown.checked;
  reload();
});
ui.columnsToggle.addEventListener('change', () => {
  state.showColumns = ui.columnsToggle.checked;
  state.selectedColumn = null;
  if (state.graph) {
    const seq = ++state.seq;
    setBusy(true);
    void draw(seq, performance.now(), false).finally(() => seq === state.seq && setBusy(false));
  }
});
ui.pageSize.addEventListener('change', () => {
  state.pageSize = Number(ui.pageSize.value);
  reload();
});
for (const box of [ui.typeFilter, ui.platformFilter]) {
  box.addEventListener('change', (ev) => {
    const input = ev.target as HTMLInputElement;
    const set = input.dataset.filter === 'type' ? state.types : state.platforms;
    if (input.checked) set.add(input.value);
    else set.delete(input.value);
    reload();
  });
}

function renderLegend(): void {
  ui.legendTypes.innerHTML = Object.keys(TYPE_COLOURS)
    .filter((t) => t !== 'DATA_PROCESS_INSTANCE')
    .map((t) => `<li><span class="swatch" style="--c:${colourOf(t)}"></span>${escapeXml(typeLabel(t))}</li>`).join('');
}

// ---------------------------------------------------------------- start

renderLegend();
if (tokenStore.get()) {
  signedIn();
  void routeFromHash();
} else {
  openSignIn();
}
