// Entities centred on in this tab, newest first: search offers them before the catalog answers.
// sessionStorage, like the token: nothing the user looked at outlives the tab.
import type { EntitySummary } from './model.ts';

const RECENT_KEY = 'lineage-explorer.recent';
const KEEP = 30;

export function recent(): EntitySummary[] {
  try {
    return JSON.parse(sessionStorage.getItem(RECENT_KEY) ?? '[]') as EntitySummary[];
  } catch {
    return [];
  }
}

export function remember(e: EntitySummary): void {
  const list = [e, ...recent().filter((r) => r.urn !== e.urn)].slice(0, KEEP);
  sessionStorage.setItem(RECENT_KEY, JSON.stringify(list));
}
