// The graph first: the controls and the impact list are side panels that collapse, each with its
// toggle in the stage bar. The choice is remembered in localStorage (a layout preference, never the
// token); with no choice made, a screen under 1,600 px starts with both closed so the graph has the
// whole width. At phone width the controls open as a sheet over the graph.
import type { Elements } from './elements.ts';

const PANELS_KEY = 'lineage-explorer.panels';
/** Below this width both panels start closed: two fixed panels left 632 of 1,280 px to the graph. */
const WIDE_SCREEN_PX = 1600;
const NARROW = '(max-width: 760px)';

type Panel = 'controls' | 'impact';

function remembered(): Partial<Record<Panel, boolean>> {
  try {
    return JSON.parse(localStorage.getItem(PANELS_KEY) ?? '{}') as Partial<Record<Panel, boolean>>;
  } catch {
    return {};
  }
}

export interface Panels {
  /** Opens a panel (e.g. the controls when a filter is reached from elsewhere). */
  open(panel: Panel): void;
}

export function wirePanels(ui: Elements, onResize: () => void): Panels {
  const narrow = () => window.matchMedia(NARROW).matches;
  const toggles: Record<Panel, HTMLButtonElement> = { controls: ui.controlsToggle, impact: ui.impactToggle };
  const labels: Record<Panel, [string, string]> = { controls: ['Filters', 'Hide filters'], impact: ['Impact list', 'Hide impact list'] };

  function isOpen(panel: Panel): boolean {
    // At phone width the controls are a sheet, closed until asked for, and the list follows the graph.
    if (narrow()) return panel === 'controls' ? document.body.classList.contains('controls-sheet-open') : true;
    return remembered()[panel] ?? window.innerWidth >= WIDE_SCREEN_PX;
  }

  function apply(): void {
    for (const panel of ['controls', 'impact'] as const) {
      const open = isOpen(panel);
      document.body.classList.toggle(`${panel}-closed`, !open);
      toggles[panel].setAttribute('aria-expanded', String(open));
      toggles[panel].textContent = labels[panel][open ? 1 : 0];
    }
    onResize();
  }

  function set(panel: Panel, open: boolean): void {
    if (narrow() && panel === 'controls') {
      document.body.classList.toggle('controls-sheet-open', open);
      if (open) ui.controlsClose.focus();
      else ui.controlsToggle.focus();
    } else {
      localStorage.setItem(PANELS_KEY, JSON.stringify({ ...remembered(), [panel]: open }));
    }
    apply();
  }

  ui.controlsToggle.addEventListener('click', () => set('controls', !isOpen('controls')));
  ui.impactToggle.addEventListener('click', () => set('impact', !isOpen('impact')));
  ui.controlsClose.addEventListener('click', () => set('controls', false));
  ui.controls.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && narrow() && isOpen('controls')) set('controls', false);
  });
  window.matchMedia(NARROW).addEventListener('change', apply);
  window.addEventListener('resize', () => {
    // Only the default follows the width; a remembered choice stays.
    if (remembered().controls === undefined || remembered().impact === undefined) apply();
  });
  apply();
  return {
    open: (panel) => {
      if (!isOpen(panel)) set(panel, true);
    },
  };
}
