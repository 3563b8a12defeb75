// The search box: as-you-type suggestions (debounced) from searchAcrossEntities — which matches
// names, qualified names and urns — each with its type and platform, visited entities first; arrow
// keys walk the list, Enter opens. A pasted urn opens directly on Enter.
import { searchEntities } from './catalog-requests.ts';
import type { Elements } from './elements.ts';
import type { Messages } from './messages.ts';
import { summarise, typeLabel, type EntitySummary } from './model.ts';
import { recent } from './recent.ts';
import { colourOf, escapeXml } from './render.ts';

const SEARCH_COUNT = 25;
/** Typing pauses this long before the catalog is asked: one request per pause, not per key. */
const SUGGEST_DEBOUNCE_MS = 250;

interface Suggestion {
  summary: EntitySummary;
  where: string;
}

export function wireSearch(ui: Elements, deps: { messages: Messages; navigateTo(urn: string): void }): void {
  const { messages, navigateTo } = deps;

  let asked = 0;

  function hideResults(): void {
    asked++;
    ui.searchResults.hidden = true;
    ui.searchResults.innerHTML = '';
    ui.search.setAttribute('aria-expanded', 'false');
  }

  function showSuggestions(items: Suggestion[], note?: string): void {
    ui.searchResults.hidden = false;
    ui.search.setAttribute('aria-expanded', 'true');
    const rows = items.map(
      (s, i) =>
        `<button type="button" class="result" role="option" data-urn="${escapeXml(s.summary.urn)}" data-index="${i}" title="${escapeXml(s.summary.urn)}">` +
        `<span class="rtype" style="color:${colourOf(s.summary.type)}">${escapeXml(typeLabel(s.summary.type))}</span>` +
        `<span class="rname">${escapeXml(s.summary.name)}</span>` +
        `<span class="rmeta">${escapeXml([s.summary.platform, s.where].filter(Boolean).join(' · '))}</span></button>`,
    );
    ui.searchResults.innerHTML = (note ? `<p class="note">${escapeXml(note)}</p>` : '') + rows.join('');
  }

  /** Visited matches show at once, while the catalog is asked. */
  async function searchByName(text: string): Promise<void> {
    const mine = ++asked;
    const needle = text.toLowerCase();
    const found = new Map<string, Suggestion>();
    for (const r of recent()) {
      if (r.name.toLowerCase().includes(needle) || r.urn.toLowerCase().includes(needle)) found.set(r.urn, { summary: r, where: 'visited' });
    }
    showSuggestions([...found.values()], `Searching for “${text}”…`);
    try {
      const page = await searchEntities(text, SEARCH_COUNT);
      if (mine !== asked) return;
      for (const res of page?.searchResults ?? []) {
        if (!found.has(res.entity.urn)) found.set(res.entity.urn, { summary: summarise(res.entity), where: '' });
      }
      const items = [...found.values()];
      const total = page?.total ?? 0;
      showSuggestions(
        items,
        items.length
          ? `${total} match${total === 1 ? '' : 'es'} for “${text}”${total > SEARCH_COUNT ? ` (first ${SEARCH_COUNT} shown: refine the search)` : ''}`
          : `Nothing matches “${text}”. Try part of a name, or paste an entity urn.`,
      );
    } catch (e) {
      if (mine !== asked) return;
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

  // As you type: a pause of SUGGEST_DEBOUNCE_MS asks the catalog; a urn is opened by Enter only.
  let timer: ReturnType<typeof setTimeout> | undefined;
  ui.search.addEventListener('input', () => {
    clearTimeout(timer);
    const text = ui.search.value.trim();
    if (text.length < 2 || /^urn:li:/i.test(text)) {
      hideResults();
      return;
    }
    timer = setTimeout(() => void searchByName(text), SUGGEST_DEBOUNCE_MS);
  });

  ui.searchForm.addEventListener('submit', (ev) => {
    clearTimeout(timer);
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
