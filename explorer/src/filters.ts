// The controls panel: degree, direction, display and page-size controls, the type and platform
// filters filled from scrollAcrossLineage facets, and the colour legend below them.
import type { Elements } from './elements.ts';
import { typeLabel, urnTail } from './model.ts';
import type { Facet } from './queries.ts';
import { colourOf, escapeXml } from './render.ts';
import { colouredTypes } from '@lineage/catalog/browser';
import type { Degree, ExplorerState } from './state.ts';
import { dayEndOf, dayOf, dayStartOf } from './time-window.ts';

/**
 * Adds a first page's facets to the filter options. With `replace` the options were cleared for
 * this load and the counts of both sides are summed; without it (a filtered reload) only options
 * not listed yet are added, so the counts from the wider view stay.
 */
export function recordFacets(state: ExplorerState, facets: readonly Facet[] | null, replace: boolean): void {
  for (const f of facets ?? []) {
    if (f.field === '_entityType') {
      for (const a of f.aggregations) {
        if (replace || !state.typeOptions.has(a.value))
          state.typeOptions.set(a.value, (replace ? (state.typeOptions.get(a.value) ?? 0) : 0) + a.count);
      }
    } else if (f.field === 'platform') {
      for (const a of f.aggregations) {
        const label = a.entity?.properties?.displayName ?? a.entity?.name ?? a.displayName ?? urnTail(a.value);
        const had = state.platformOptions.get(a.value);
        if (replace || !had) state.platformOptions.set(a.value, { label, count: (replace ? (had?.count ?? 0) : 0) + a.count });
      }
    } else if (f.field === 'degree') {
      for (const a of f.aggregations) state.degreeCounts.set(a.value, (state.degreeCounts.get(a.value) ?? 0) + a.count);
    }
  }
}

/** Checked filters stay listed (count 0) when the facets no longer offer them, so they can be unchecked. */
export function renderFilters(state: ExplorerState, ui: Elements): void {
  const typeBox = ui.typeFilter.querySelector('.options')!;
  const types = [...state.typeOptions.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const t of state.types) if (!state.typeOptions.has(t)) types.push([t, 0]);
  typeBox.innerHTML = types.length
    ? types
        .map(
          ([value, count]) =>
            `<label class="check"><input type="checkbox" data-filter="type" value="${escapeXml(value)}" ${state.types.has(value) ? 'checked' : ''}>` +
            `<span class="swatch" style="--c:${colourOf(value)}"></span>${escapeXml(typeLabel(value))}<span class="count">${count}</span></label>`,
        )
        .join('')
    : '<p class="hint">No lineage, so nothing to filter.</p>';
  const platformBox = ui.platformFilter.querySelector('.options')!;
  const platforms = [...state.platformOptions.entries()].sort((a, b) => b[1].count - a[1].count || a[1].label.localeCompare(b[1].label));
  for (const p of state.platforms) if (!state.platformOptions.has(p)) platforms.push([p, { label: urnTail(p), count: 0 }]);
  platformBox.innerHTML = platforms.length
    ? platforms
        .map(
          ([value, { label, count }]) =>
            `<label class="check"><input type="checkbox" data-filter="platform" value="${escapeXml(value)}" ${state.platforms.has(value) ? 'checked' : ''}>` +
            `${escapeXml(label)}<span class="count">${count}</span></label>`,
        )
        .join('')
    : '<p class="hint">No platforms in this lineage.</p>';
  ui.degreeCounts.textContent = state.degreeCounts.size
    ? `Entities at degree 1: ${state.degreeCounts.get('1') ?? 0}, 2: ${state.degreeCounts.get('2') ?? 0}, 3+: ${state.degreeCounts.get('3+') ?? 0}`
    : '';
}

export function renderLegend(ui: Elements): void {
  ui.legendTypes.innerHTML = colouredTypes()
    .map((t) => `<li><span class="swatch" style="--c:${colourOf(t)}"></span>${escapeXml(typeLabel(t))}</li>`)
    .join('');
}

/** The controls showing what the state holds: after a link, a reload or back/forward set it. */
export function syncControls(state: ExplorerState, ui: Elements): void {
  for (const input of ui.degreeInputs) input.checked = input.value === state.degree;
  ui.dirUp.checked = state.directions.UPSTREAM;
  ui.dirDown.checked = state.directions.DOWNSTREAM;
  ui.columnsToggle.checked = state.showColumns;
  ui.timeFrom.value = dayOf(state.timeWindow.startTimeMillis);
  ui.timeTo.value = dayOf(state.timeWindow.endTimeMillis);
  // The type and platform boxes are drawn from state.types/platforms by renderFilters.
  renderFilters(state, ui);
}

/**
 * Each control updates the state, then `reload` writes the new view into the address bar
 * (navigation.ts), which fetches the neighbourhood again under it — or only redraws, when the lineage
 * asked for is the same (the column display).
 */
export function wireFilterControls(state: ExplorerState, ui: Elements, actions: { reload(): void }): void {
  const { reload } = actions;
  for (const input of ui.degreeInputs) {
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
  // Hiding columns also drops the selected column from the view (view-url.ts viewOf).
  ui.columnsToggle.addEventListener('change', () => {
    state.showColumns = ui.columnsToggle.checked;
    reload();
  });
  ui.timeFrom.addEventListener('change', () => {
    state.timeWindow = { ...state.timeWindow, startTimeMillis: dayStartOf(ui.timeFrom.value) };
    reload();
  });
  ui.timeTo.addEventListener('change', () => {
    state.timeWindow = { ...state.timeWindow, endTimeMillis: dayEndOf(ui.timeTo.value) };
    reload();
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
}
