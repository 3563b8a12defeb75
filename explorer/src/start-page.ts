// The start page (before an entity is open): the most connected entities and the ones changed last,
// from the catalog itself — something to open in a fresh catalog, and never an example that does
// not exist. A failure says so in place of the lists.
import { fetchStart } from './catalog-requests.ts';
import type { Elements } from './elements.ts';
import type { Messages } from './messages.ts';
import { summarise, typeLabel } from './model.ts';
import { colourOf, escapeXml } from './render.ts';

const START_COUNT = 8;

export interface StartPage {
  load(): Promise<void>;
}

export function createStartPage(ui: Elements, deps: { messages: Messages; navigateTo(urn: string): void }): StartPage {
  const { messages, navigateTo } = deps;

  function item(raw: Parameters<typeof summarise>[0], meta: string): string {
    const s = summarise(raw);
    return (
      `<li><button type="button" class="start-item" data-urn="${escapeXml(s.urn)}" title="${escapeXml(s.urn)}">` +
      `<span class="rtype" style="color:${colourOf(s.type)}">${escapeXml(typeLabel(s.type))}</span> <span class="rname">${escapeXml(s.name)}</span>` +
      ` <span class="rmeta">${escapeXml([s.platform, meta].filter(Boolean).join(' · '))}</span></button></li>`
    );
  }

  async function load(): Promise<void> {
    ui.startLists.dataset.state = 'loading';
    ui.startLists.innerHTML = '<p class="hint">Loading what there is to open…</p>';
    try {
      const r = await fetchStart(START_COUNT);
      if (!r.mostConnectedEntities.length && !r.recentlyChangedEntities.length) {
        ui.startLists.innerHTML =
          "<p>The catalog holds no entities yet. Ingest metadata (DataHub's Rest.li or OpenAPI, or OpenLineage events), then search here.</p>";
      } else {
        const ago = (ms: number) => `changed ${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
        ui.startLists.innerHTML =
          `<div><h3>Most connected</h3><ul id="start-connected">${r.mostConnectedEntities.map((c) => item(c.entity, `${c.links} direct links`)).join('')}</ul></div>` +
          `<div><h3>Recently changed</h3><ul id="start-recent">${r.recentlyChangedEntities.map((c) => item(c.entity, ago(c.changedAt))).join('')}</ul></div>`;
      }
      ui.startLists.dataset.state = 'loaded';
    } catch (e) {
      ui.startLists.dataset.state = 'error';
      ui.startLists.innerHTML = `<p class="error" role="alert">${escapeXml(messages.describe(e, 'load the start page'))}</p>`;
      messages.reportError(e, 'load the start page');
    }
  }

  ui.startLists.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLElement>('[data-urn]');
    if (b) navigateTo(b.dataset.urn!);
  });

  return { load };
}
