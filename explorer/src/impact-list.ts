// The impact list beside the graph (DataHub's "Impact Analysis" tab): everything the centre — or the
// selected column — reaches in one direction under the graph's filters, a table page by page with
// degree, type, platform and name, paths on demand, sortable loaded rows, and the CSV export of the
// whole result. It follows the view through view-events ('loaded', 'column') and never changes it,
// except that a name re-centres the graph through navigateTo.
import type { Elements } from './elements.ts';
import { downloadFile, exportImpactCsv } from './impact-export.ts';
import { sortRows, stepName, type ImpactRow, type SortKey } from './impact-rows.ts';
import { fetchListPage, impactQueryOf, sameImpactQuery } from './impact-source.ts';
import type { Messages } from './messages.ts';
import { typeLabel, type Direction } from './model.ts';
import { escapeXml } from './render.ts';
import { createImpactListState, type ExplorerState, type ImpactQuery } from './state.ts';

/** Rows per "Load more": a screenful or two, each row with its paths. */
const LIST_PAGE_SIZE = 100;

export interface ImpactList {
  /** Follows the view: loads the list again when what it traces (or a filter) changed. */
  refresh(): void;
  /** The graph's load failed: the list says so in place of rows, never "0 entities". */
  showError(text: string): void;
}

const numbers = new Intl.NumberFormat('en');
const count = (n: number) => numbers.format(n);

interface HeadColumn {
  label: string;
  sort?: SortKey;
}

const ENTITY_HEAD: HeadColumn[] = [
  { label: 'Degree', sort: 'degree' },
  { label: 'Type', sort: 'type' },
  { label: 'Name', sort: 'name' },
  { label: 'Platform' },
  { label: 'Path' },
];
const COLUMN_HEAD: HeadColumn[] = [
  { label: 'Degree', sort: 'degree' },
  { label: 'Column', sort: 'column' },
  { label: 'Entity', sort: 'name' },
  { label: 'Type', sort: 'type' },
  { label: 'Platform' },
  { label: 'Path' },
];

const sideWord = (d: Direction) => (d === 'DOWNSTREAM' ? 'downstream' : 'upstream');

export function createImpactList(
  state: ExplorerState,
  ui: Elements,
  deps: { navigateTo(urn: string): void; messages: Messages },
): ImpactList {
  const { navigateTo, messages } = deps;
  const list = state.impact;

  function headColumns(q: ImpactQuery | null): HeadColumn[] {
    return q?.mode === 'column' ? COLUMN_HEAD : ENTITY_HEAD;
  }

  function renderHead(): void {
    const cells = headColumns(list.query).map((c) => {
      if (!c.sort) return `<th scope="col">${c.label}</th>`;
      const active = list.sort.key === c.sort;
      const ariaSort = active ? (list.sort.descending ? 'descending' : 'ascending') : 'none';
      const arrow = active ? (list.sort.descending ? '▼' : '▲') : '';
      return `<th scope="col" aria-sort="${ariaSort}"><button type="button" class="impact-sort" data-sort="${c.sort}">${c.label}<span class="arrow" aria-hidden="true">${arrow}</span></button></th>`;
    });
    ui.impactHead.innerHTML = `<tr>${cells.join('')}</tr>`;
  }

  function pathsHtml(row: ImpactRow): string {
    if (!row.paths.length) return '<p class="hint">The catalog gave no path for this row.</p>';
    return `<ol class="impact-paths">${row.paths.map((p) => `<li>${p.map((u) => `<span class="step" title="${escapeXml(u)}">${escapeXml(stepName(u))}</span>`).join('<span class="sep"> → </span>')}</li>`).join('')}</ol>`;
  }

  function rowHtml(row: ImpactRow, mode: ImpactQuery['mode']): string {
    const open = list.openPaths.has(row.urn);
    const pathId = `impact-path-${row.order}`;
    const name = `<th scope="row"><button type="button" class="impact-name" data-centre="${escapeXml(row.target)}" title="Centre the graph on ${escapeXml(row.name)}">${escapeXml(row.name)}</button></th>`;
    const degree = `<td class="num">${row.degree}</td>`;
    const type = `<td>${escapeXml(typeLabel(row.type))}</td>`;
    const platform = `<td>${escapeXml(row.platform ?? '—')}</td>`;
    const what = row.column ? `${row.name}.${row.column}` : row.name;
    const path = `<td><button type="button" class="impact-path-toggle" data-path="${escapeXml(row.urn)}" aria-expanded="${open}" aria-controls="${pathId}" aria-label="Path to ${escapeXml(what)}">Path</button></td>`;
    const cells =
      mode === 'column'
        ? [degree, `<td class="impact-column">${escapeXml(row.column || '—')}</td>`, name, type, platform, path]
        : [degree, type, name, platform, path];
    return (
      `<tr data-urn="${escapeXml(row.urn)}" data-degree="${row.degree}" data-type="${escapeXml(row.type)}">${cells.join('')}</tr>` +
      `<tr id="${pathId}" class="impact-path-row"${open ? '' : ' hidden'}><td colspan="${cells.length}">${open ? pathsHtml(row) : ''}</td></tr>`
    );
  }

  function renderRows(): void {
    const q = list.query;
    ui.impactRows.innerHTML = q
      ? sortRows(list.rows, list.sort)
          .map((r) => rowHtml(r, q.mode))
          .join('')
      : '';
  }

  function renderSummary(): void {
    const q = list.query;
    ui.impactExport.disabled = !q || list.exporting !== null || (list.total === 0 && !list.loading);
    ui.impactMore.hidden = !q || list.next === null;
    ui.impactMore.disabled = list.loading;
    ui.impactMore.textContent = list.loading ? 'Loading…' : `Load more (${count(Math.max(0, list.total - list.rows.length))} left)`;
    if (!q) {
      ui.impactSubject.textContent = 'Pick an entity to see what depends on it.';
      ui.impactCaption.textContent = 'Entities affected';
      ui.impactSummary.textContent = '';
      ui.impactFacets.innerHTML = '';
      return;
    }
    const side = sideWord(q.direction);
    if (q.mode === 'column') {
      ui.impactSubject.innerHTML = `Column <strong>${escapeXml(q.label)}</strong>: the columns ${side} of it${q.direction === 'DOWNSTREAM' ? ' (what a change to it affects)' : ' (what it is made from)'}.`;
      ui.impactCaption.textContent = `Columns ${side} of ${q.label}`;
    } else {
      ui.impactSubject.innerHTML =
        q.direction === 'DOWNSTREAM'
          ? `What depends on <strong>${escapeXml(q.label)}</strong>: the entities a change to it affects.`
          : `What <strong>${escapeXml(q.label)}</strong> depends on: the entities it is made from.`;
      ui.impactCaption.textContent = `Entities ${side} of ${q.label}`;
    }
    const what = q.mode === 'column' ? (list.total === 1 ? 'result' : 'results') : list.total === 1 ? 'entity' : 'entities';
    ui.impactSummary.textContent =
      list.loading && list.rows.length === 0
        ? 'Loading…'
        : list.failed && list.rows.length === 0
          ? 'The list could not be loaded (see the message above the graph).'
          : `${count(list.total)} ${what} ${side}; ${count(list.rows.length)} listed.${list.partial ? ' The catalog cut the traversal short: the results are partial.' : ''}`;
    const f = list.facets;
    ui.impactFacets.innerHTML =
      f && (f.types.length || f.platforms.length)
        ? `<p><span class="impact-facet-label">Types</span> ${f.types.map((t) => `<span class="impact-facet">${escapeXml(t.label)} <span class="count">${count(t.count)}</span></span>`).join(' ')}</p>` +
          `<p><span class="impact-facet-label">Platforms</span> ${f.platforms.map((p) => `<span class="impact-facet">${escapeXml(p.label)} <span class="count">${count(p.count)}</span></span>`).join(' ') || '—'}</p>`
        : '';
  }

  function render(): void {
    renderHead();
    renderRows();
    renderSummary();
  }

  /** The next page, or the first when nothing is loaded; a reply overtaken by a newer load is dropped. */
  async function loadPage(): Promise<void> {
    const q = list.query;
    if (!q || list.loading || (list.rows.length > 0 && list.next === null)) return;
    const seq = ++list.seq;
    list.loading = true;
    list.failed = false;
    renderSummary();
    try {
      const page = await fetchListPage(q, list.rows.length ? list.next : null, LIST_PAGE_SIZE, list.rows.length);
      if (seq !== list.seq) return;
      list.rows = [...list.rows, ...page.rows];
      list.total = page.total;
      list.next = page.next;
      list.partial ||= page.partial;
      if (page.facets) list.facets = page.facets;
      list.loading = false;
      renderRows();
    } catch (e) {
      if (seq !== list.seq) return;
      list.loading = false;
      list.failed = true;
      messages.reportError(e, `list what is ${sideWord(q.direction)} of ${q.label}`);
    } finally {
      if (seq === list.seq) renderSummary();
    }
  }

  function refresh(): void {
    const q = impactQueryOf(state, list.direction);
    if (sameImpactQuery(q, list.query) && !list.failed) return;
    // A new question: rows, paths shown, paging and facets start over; the sort and an export stay.
    const fresh = createImpactListState();
    Object.assign(list, { ...fresh, direction: list.direction, sort: list.sort, exporting: list.exporting, seq: list.seq + 1, query: q });
    render();
    void loadPage();
  }

  function progress(rows: number, total: number): void {
    ui.impactProgress.max = Math.max(1, total);
    ui.impactProgress.value = Math.min(rows, total);
    ui.impactProgressText.textContent = `${count(rows)} of ${count(total)} rows`;
  }

  function endExport(controller: AbortController, text: string): void {
    if (list.exporting !== controller) return;
    list.exporting = null;
    ui.impactProgressBox.hidden = true;
    ui.impactExportStatus.textContent = text;
    renderSummary();
  }

  async function exportAll(): Promise<void> {
    const q = list.query;
    if (!q || list.exporting) return;
    const controller = new AbortController();
    list.exporting = controller;
    ui.impactExportStatus.textContent = '';
    progress(0, list.total);
    ui.impactProgressBox.hidden = false;
    renderSummary();
    const started = performance.now();
    try {
      const file = await exportImpactCsv(q, `${location.origin}${location.pathname}`, { signal: controller.signal, onProgress: progress });
      if (!file) return;
      downloadFile(file);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      endExport(
        controller,
        `Exported ${count(file.rows)} rows to ${file.fileName} in ${seconds} s.${file.partial ? ' The catalog cut a traversal short: the file holds the partial result.' : ''}`,
      );
    } catch (e) {
      if (controller.signal.aborted) return;
      endExport(controller, 'The export failed.');
      messages.reportError(e, `export what is ${sideWord(q.direction)} of ${q.label}`);
    }
  }

  function cancelExport(): void {
    const controller = list.exporting;
    if (!controller) return;
    controller.abort();
    // The request in flight finishes in the background and its reply is dropped.
    endExport(controller, 'Export cancelled.');
  }

  ui.impactHead.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLButtonElement>('[data-sort]');
    if (!b) return;
    const key = b.dataset.sort as SortKey;
    list.sort = { key, descending: list.sort.key === key ? !list.sort.descending : false };
    renderHead();
    renderRows();
    ui.impactHead.querySelector<HTMLButtonElement>(`[data-sort="${key}"]`)?.focus();
  });

  ui.impactRows.addEventListener('click', (ev) => {
    const target = ev.target as Element;
    const centre = target.closest<HTMLButtonElement>('[data-centre]');
    if (centre) return navigateTo(centre.dataset.centre!);
    const toggle = target.closest<HTMLButtonElement>('[data-path]');
    if (!toggle) return;
    const urn = toggle.dataset.path!;
    const row = list.rows.find((r) => r.urn === urn);
    const pathRow = document.getElementById(toggle.getAttribute('aria-controls')!);
    if (!row || !pathRow) return;
    const open = !list.openPaths.has(urn);
    if (open) list.openPaths.add(urn);
    else list.openPaths.delete(urn);
    toggle.setAttribute('aria-expanded', String(open));
    pathRow.hidden = !open;
    pathRow.firstElementChild!.innerHTML = open ? pathsHtml(row) : '';
  });

  for (const input of ui.impactDirectionInputs) {
    input.addEventListener('change', () => {
      list.direction = input.value as Direction;
      refresh();
    });
  }
  ui.impactMore.addEventListener('click', () => void loadPage());
  // Scrolling the list to its end loads the next page, as "Load more" does.
  new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting) && list.next !== null) void loadPage();
  }).observe(ui.impactMore);

  ui.impactExport.addEventListener('click', () => void exportAll());
  ui.impactCancel.addEventListener('click', cancelExport);

  render();
  function showError(text: string): void {
    const fresh = createImpactListState();
    Object.assign(list, {
      ...fresh,
      direction: list.direction,
      sort: list.sort,
      exporting: list.exporting,
      seq: list.seq + 1,
      query: null,
      failed: true,
    });
    render();
    ui.impactSubject.textContent = '';
    ui.impactSummary.innerHTML = `<span class="error" role="alert" data-state="error">Impact list not loaded. ${escapeXml(text)}</span>`;
    ui.impactExport.disabled = true;
  }

  return { refresh, showError };
}
