// The status line above the graph (progress text, or per-side counts with "N more" buttons and the
// last draw's cost) and the busy flag that keeps loads from overlapping.
import type { Elements } from './elements.ts';
import { DIRECTIONS, type ExplorerState } from './state.ts';

export interface Status {
  /** Plain progress text in place of the counts. */
  set(text: string): void;
  /** The counts of what is loaded; buttons carry data-more for interaction.ts. */
  render(): void;
  setBusy(busy: boolean): void;
  /** The banner under the status line saying a result is partial; '' hides it. */
  setPartialNote(text: string): void;
}

export function createStatus(state: ExplorerState, ui: Elements): Status {
  function set(text: string): void {
    ui.status.textContent = text;
  }

  function render(): void {
    const parts: string[] = [];
    for (const direction of DIRECTIONS) {
      if (!state.directions[direction]) continue;
      const c = state.cursors[direction];
      if (!c) continue;
      const label = direction === 'UPSTREAM' ? 'Upstream' : 'Downstream';
      parts.push(`<span class="pill" data-side-status="${direction}">${label}: ${c.loaded} of ${c.total}</span>`);
      if (c.next && c.total > c.loaded) {
        parts.push(
          `<button type="button" class="more-btn" data-more="${direction}">${c.total - c.loaded} more ${label.toLowerCase()}</button>`,
        );
      }
      if (c.partial) parts.push(`<span class="warn">${label} results are partial: the catalog cut the traversal short.</span>`);
    }
    const t = state.timings;
    if (t) parts.push(`<span class="pill" title="fetch / layout / render">${t.nodes} nodes · ${t.totalMs} ms</span>`);
    ui.status.innerHTML = parts.join('');
  }

  function setBusy(busy: boolean): void {
    state.busy = busy;
    ui.canvas.setAttribute('aria-busy', String(busy));
  }

  function setPartialNote(text: string): void {
    ui.partialNote.hidden = !text;
    ui.partialNote.textContent = text;
  }

  return { set, render, setBusy, setPartialNote };
}
