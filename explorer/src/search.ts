// The search box: a pasted urn opens directly; other text is a name searched catalogue-wide with
// searchAcrossEntities, offered as a keyboard-navigable list with visited entities first.
import { searchEntities } from './catalog-requests.ts';
import type { Elements } from './elements.ts';
import type { Messages } from './messages.ts';
import { summarise, type EntitySummary } from './model.ts';
import { recent } from './recent.ts';
import { colourOf, escapeXml } from './render.ts';

const SEARCH_COUNT = 25;

interface Suggestion {
  summary: EntitySummary;
  where: string;
}

export function wireSearch(ui: Elements, deps: { messages: Messages; navigateTo(urn: string): void }): void {
  const { messages, navigateTo } = deps;

  function hideResults(): void {
    ui.searchResults.hidden = true;
    ui.searchResults.innerHTML = '';
  }

  function showSuggestions(items: Suggestion[], note?: string): void {
    ui.searchResults.hidden = false;
    const rows = items.map((s, i) => `<button type="button" class="result" role="option" data-urn="${escapeXml(s.summary.urn)}" data-index="${i}">`
      + `<span class="rtype" style="color:${colourOf(s.summary.type)}">${escapeXml(s.summary.type)}</span>`
      + `<span class="rname">${escapeXml(s.summary.name)}</span>`
      + `<span class="rmeta">${escapeXml([s.summary.platform, s.where].filter(Boolean).join(' · '))}</span></button>`);
    ui.searchResults.innerHTML = (note ? `<p class="note">${escapeXml(note)}</p>` : '') + rows.join('');
  }

  /** Visited matches show at once, while the catalog is asked. */
  async function searchByName(text: string): Promise<void> {
    const needle = text.toLowerCase();
    const found = new Map<string, Suggestion>();
    for (const r of recent()) {
      if (r.name.toLowerCase().includes(needle) || r.urn.toLowerCase().includes(needle)) found.set(r.urn, { summary: r, where: 'visited' });
    }
    showSuggestions([...found.values()], `Searching for “${text}”…`);
    try {
      const page = await searchEntities(text, SEARCH_COUNT);
      for (const res of page?.searchResults ?? []) {
        if (!found.has(res.entity.urn)) found.set(res.entity.urn, { summary: summarise(res.entity), where: '' });
      }
      const items = [...found.values()];
      const total = page?.total ?? 0;
      showSuggestions(items, items.length
        ? `${total} match${total === 1 ? '' : 'es'} for “${text}”${total > SEARCH_COUNT ? ` (first ${SEARCH_COUNT} shown: refine the search)` : ''}`
        : `Nothing matches “${text}”. Try part of a name, or paste an entity urn.`);
    } catch (e) {
      hideResults();
      messages.reportError(e, `search for “${text}”`);
    }
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
    messages.clear();
    if (/^urn:li:/i.test(text)) {
      hideResults();
      navigateTo(text);
    } else {
      void searchByName(text);
    }
  });

  document.addEventListener('click', (ev) => {
    if (!ui.searchForm.contains(ev.target as Node)) hideResults();
  });
}
