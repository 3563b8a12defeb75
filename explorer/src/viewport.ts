// Zoom and scroll of the drawn graph inside the canvas. Zoom resizes the SVG (its viewBox keeps the
// drawing), so the canvas's own scrollbars keep working at every zoom level.
import type { Elements } from './elements.ts';
import type { ExplorerState } from './state.ts';

const MIN_ZOOM = 0.15;
const MAX_ZOOM = 2.5;
const MAX_FIT_ZOOM = 1.5;
/**
 * Fit never goes below this: node names (15 px) still render at about 10 px. A picture that does not
 * fit at it is fitted to the width instead and scrolled, rather than shrunk until its text is dots.
 */
const MIN_LEGIBLE_FIT_ZOOM = 0.65;

export interface Viewport {
  /** Sizes the current SVG to state.zoom. */
  applyZoom(): void;
  /** Zooms about the middle of the visible area. */
  setZoom(z: number): void;
  /**
   * The whole graph in view, from its top-left corner, if its text stays legible that way;
   * otherwise its width (at a legible zoom at least), scrolled to the centre.
   */
  fit(): void;
  scrollToNode(urn: string): void;
}

export function createViewport(state: ExplorerState, ui: Elements): Viewport {
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
    state.zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
    applyZoom();
    canvas.scrollLeft = cx * state.zoom - canvas.clientWidth / 2;
    canvas.scrollTop = cy * state.zoom - canvas.clientHeight / 2;
  }

  function fit(): void {
    const { width, height } = state.graphSize;
    if (!width) return;
    const across = (ui.canvas.clientWidth - 8) / width;
    const whole = Math.min(across, (ui.canvas.clientHeight - 8) / height, MAX_FIT_ZOOM);
    if (whole >= MIN_LEGIBLE_FIT_ZOOM) {
      setZoom(whole);
      ui.canvas.scrollLeft = 0;
      ui.canvas.scrollTop = 0;
      return;
    }
    // Too tall (or wide) to show whole and still read: fit the width, never enlarging past 1:1 nor
    // shrinking below legible, and let the user scroll; start at the centre rather than at the top
    // of a long column.
    setZoom(Math.max(MIN_LEGIBLE_FIT_ZOOM, Math.min(across, 1)));
    ui.canvas.scrollLeft = 0;
    if (state.graph) scrollToNode(state.graph.centre);
  }

  /** Puts a node in the middle of the canvas across, and at most 200px down from its top. */
  function scrollToNode(urn: string): void {
    const el = ui.host.querySelector<SVGGElement>(`g.node[data-urn="${CSS.escape(urn)}"]`);
    if (!el) return;
    const box = el.getBoundingClientRect();
    const canvasBox = ui.canvas.getBoundingClientRect();
    ui.canvas.scrollLeft += box.left + box.width / 2 - (canvasBox.left + canvasBox.width / 2);
    ui.canvas.scrollTop += box.top + box.height / 2 - (canvasBox.top + Math.min(canvasBox.height / 2, 200));
  }

  return { applyZoom, setZoom, fit, scrollToNode };
}
