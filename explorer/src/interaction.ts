// Pointer and keyboard handling of the graph and the page: clicks and keys on the SVG (delegated by
// the data-* attributes render.ts writes), column selection, drag to pan, wheel and key zoom,
// scrolling to an edge to load more, and the page-wide shortcuts.
import type { ColumnTracer } from './column-trace.ts';
import type { Details } from './details.ts';
import type { Drawing } from './drawing.ts';
import type { Elements } from './elements.ts';
import type { Direction } from './model.ts';
import type { Navigation } from './navigation.ts';
import { DIRECTIONS, type ExplorerState } from './state.ts';
import type { Viewport } from './viewport.ts';

/** Pointer travel below this is a click, not a drag. */
const DRAG_THRESHOLD_PX = 4;
/** Scroll within this long of the user's own wheel or drag counts as theirs, not the page's. */
const USER_SCROLL_MS = 800;
/** What the arrow keys move between: nodes, groups, collapse controls and "N more". */
const FOCUSABLE_BOXES = 'g.node, g.group, g.group-collapse, g.more, g.col, g.expand';

export function wireInteraction(
  state: ExplorerState,
  ui: Elements,
  deps: { navigation: Navigation; drawing: Drawing; viewport: Viewport; tracer: ColumnTracer; details: Details },
): void {
  const { navigation, drawing, viewport, tracer, details } = deps;
  // dragged: the click that ends a drag must not also activate what it lands on.
  const pointer = { dragged: false, userScrolledAt: 0 };

  /** A column click selects it (or clears it when selected again); column-trace.ts does the rest. */
  const selectColumn = (key: string | null) => void tracer.select(key);

  /**
   * Opens a group of siblings into its members, or closes them back into it. Focus follows to what
   * now stands for the group (its collapse control, or the group again), which the redraw replaced.
   */
  async function toggleGroup(key: string): Promise<void> {
    if (state.busy) return;
    if (!state.expandedGroups.delete(key)) state.expandedGroups.add(key);
    await drawing.redraw();
    const now = ui.host.querySelector<SVGGElement>(`[data-group="${CSS.escape(key)}"]`);
    now?.focus({ preventScroll: true });
    now?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  /**
   * Click, Enter or Space on the graph; the innermost affordance under the target wins. On an entity
   * box a click or Space opens its details, Enter (or a double-click) re-centres there.
   */
  function activate(target: Element, how: 'click' | 'enter' | 'space'): void {
    const more = target.closest<SVGGElement>('[data-more]');
    if (more) return void navigation.loadMore(more.dataset.more as Direction);
    const exp = target.closest<SVGGElement>('[data-expand]');
    if (exp) return void navigation.expand(exp.dataset.expand!);
    const group = target.closest<SVGGElement>('[data-group]');
    if (group) return void toggleGroup(group.dataset.group!);
    const col = target.closest<SVGGElement>('[data-col]');
    if (col) return selectColumn(col.dataset.col!);
    const node = target.closest<SVGGElement>('g.node');
    if (!node) return;
    if (how !== 'enter') return void details.show(node.dataset.urn!);
    if (node.dataset.urn !== state.graph?.centre) recentre(node.dataset.urn!);
  }

  function recentre(urn: string): void {
    state.refocusCentre = true;
    navigation.navigateTo(urn);
    if (details.shown()) void details.show(urn);
  }

  /** Roving tabindex: the graph is one Tab stop, the box last focused holds it. */
  ui.host.addEventListener('focusin', (ev) => {
    const box = (ev.target as Element).closest<SVGGElement>(FOCUSABLE_BOXES);
    if (!box) return;
    for (const other of ui.host.querySelectorAll('[tabindex="0"]')) if (other !== box) other.setAttribute('tabindex', '-1');
    box.setAttribute('tabindex', '0');
  });

  ui.host.addEventListener('dblclick', (ev) => {
    const node = (ev.target as Element).closest<SVGGElement>('g.node');
    if (!node || (ev.target as Element).closest('[data-col], [data-expand]') || node.dataset.urn === state.graph?.centre) return;
    recentre(node.dataset.urn!);
  });

  /** Arrow keys go to the nearest node in that direction (columns are degrees, rows are siblings). */
  function moveFocus(from: SVGGElement, key: string): void {
    const a = from.getBoundingClientRect();
    const ax = a.left + a.width / 2;
    const ay = a.top + a.height / 2;
    let best: SVGGElement | null = null;
    let bestScore = Infinity;
    for (const g of ui.host.querySelectorAll<SVGGElement>(FOCUSABLE_BOXES)) {
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

  ui.host.addEventListener('click', (ev) => {
    if (pointer.dragged) return;
    activate(ev.target as Element, 'click');
  });

  ui.host.addEventListener('keydown', (ev) => {
    const target = ev.target as Element;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      activate(target, ev.key === 'Enter' ? 'enter' : 'space');
    } else if (ev.key === 'Escape') {
      if (state.selectedColumn) selectColumn(null);
      else if (details.shown()) details.close();
    } else if (ev.key.startsWith('Arrow')) {
      const from = target.closest<SVGGElement>(FOCUSABLE_BOXES);
      if (!from) return;
      ev.preventDefault();
      moveFocus(from, ev.key);
    }
  });

  ui.status.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLElement>('[data-more]');
    if (b) void navigation.loadMore(b.dataset.more as Direction);
  });

  ui.zoomIn.addEventListener('click', () => viewport.setZoom(state.zoom * 1.2));
  ui.zoomOut.addEventListener('click', () => viewport.setZoom(state.zoom / 1.2));
  ui.zoomFit.addEventListener('click', () => viewport.fit());

  // Drag to pan; reaching the left/right edge by the user's own scrolling loads the next page of that side.
  ui.canvas.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || (ev.target as Element).closest('button, [tabindex="0"]')) return;
    const start = { x: ev.clientX, y: ev.clientY, left: ui.canvas.scrollLeft, top: ui.canvas.scrollTop };
    pointer.dragged = false;
    const move = (m: PointerEvent) => {
      const dx = m.clientX - start.x;
      const dy = m.clientY - start.y;
      if (!pointer.dragged && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      pointer.dragged = true;
      pointer.userScrolledAt = Date.now();
      ui.canvas.classList.add('panning');
      ui.canvas.scrollLeft = start.left - dx;
      ui.canvas.scrollTop = start.top - dy;
    };
    const up = () => {
      ui.canvas.classList.remove('panning');
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      // After the click this pointerup produces, which must still see the drag.
      setTimeout(() => (pointer.dragged = false), 0);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  });
  ui.canvas.addEventListener(
    'wheel',
    (ev) => {
      if (ev.ctrlKey) {
        ev.preventDefault();
        viewport.setZoom(state.zoom * (ev.deltaY < 0 ? 1.1 : 1 / 1.1));
      }
      pointer.userScrolledAt = Date.now();
    },
    { passive: false },
  );
  ui.canvas.addEventListener('scroll', () => {
    // Scrolls the page makes itself (zoom, recentre) must not load pages.
    if (Date.now() - pointer.userScrolledAt > USER_SCROLL_MS || state.busy) return;
    const c = ui.canvas;
    const nearBottom = c.scrollTop + c.clientHeight >= c.scrollHeight - 40;
    if (c.scrollLeft <= 2 && state.cursors.UPSTREAM?.next) void navigation.loadMore('UPSTREAM');
    else if (c.scrollLeft + c.clientWidth >= c.scrollWidth - 2 && state.cursors.DOWNSTREAM?.next) void navigation.loadMore('DOWNSTREAM');
    else if (nearBottom && c.scrollHeight > c.clientHeight + 40) {
      const side = DIRECTIONS.find((d) => state.cursors[d]?.next);
      if (side) void navigation.loadMore(side);
    }
  });

  // Skip links move focus without touching the address bar, which holds the view (view-url.ts).
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a.skip')) {
    link.addEventListener('click', (ev) => {
      ev.preventDefault();
      const id = link.getAttribute('href')!.slice(1);
      const target = id === 'canvas' ? (ui.host.querySelector<HTMLElement>('[tabindex="0"]') ?? ui.canvas) : document.getElementById(id);
      target?.focus();
    });
  }

  // Page-wide keys, except while typing: / to search, + / - to zoom.
  document.addEventListener('keydown', (ev) => {
    const target = ev.target as HTMLElement;
    const typing = target.closest('input, textarea, select');
    if (ev.key === '/' && !typing) {
      ev.preventDefault();
      ui.search.focus();
      ui.search.select();
    } else if ((ev.key === '+' || ev.key === '=') && !typing) viewport.setZoom(state.zoom * 1.2);
    else if (ev.key === '-' && !typing) viewport.setZoom(state.zoom / 1.2);
  });
}
