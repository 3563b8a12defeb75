// Zoom and scroll of the drawn graph inside the canvas. Zoom resizes the SVG (its viewBox keeps the
// drawing), so the canvas's own scrollbars keep working at every zoom level.
import type { Elements } from './elements.ts';
import type { Placed } from './layout.ts';
import { colourOf } from './render.ts';
import type { ExplorerState } from './state.ts';

/** The overview's longer side, in CSS pixels. */
const MINIMAP_SIZE = 180;

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
  /**
   * The overview (minimap) of a picture larger than the view: every box as a small rectangle and
   * the visible part framed; a click there scrolls the graph to that place. Hidden when it all fits.
   */
  updateMinimap(positions: ReadonlyMap<string, Placed>, boxes: ReadonlyArray<{ id: string; type: string }>): void;
}

export function createViewport(state: ExplorerState, ui: Elements): Viewport {
  function applyZoom(): void {
    const svg = ui.host.querySelector('svg');
    if (!svg) return;
    svg.setAttribute('width', String(Math.ceil(state.graphSize.width * state.zoom)));
    svg.setAttribute('height', String(Math.ceil(state.graphSize.height * state.zoom)));
    syncMinimap();
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
    if (whole >= MIN_LEGIBLE_FIT_ZOOM || whole >= across) {
      setZoom(whole);
      ui.canvas.scrollLeft = 0;
      ui.canvas.scrollTop = 0;
      return;
    }
    // Too tall to show whole and still read: both sides always fit across (Fit must show the
    // upstream and the far downstream), never enlarged past 1:1; the user scrolls down, starting
    // at the centre rather than at the top of a long column.
    setZoom(Math.min(across, 1));
    ui.canvas.scrollLeft = 0;
    if (state.graph) scrollToNode(state.graph.centre);
  }

  let mini: { scale: number } | null = null;

  function updateMinimap(positions: ReadonlyMap<string, Placed>, boxes: ReadonlyArray<{ id: string; type: string }>): void {
    const { width, height } = state.graphSize;
    if (!width || !boxes.length) {
      ui.minimap.hidden = true;
      mini = null;
      return;
    }
    const scale = MINIMAP_SIZE / Math.max(width, height);
    mini = { scale };
    const rects = boxes
      .map((b) => {
        const p = positions.get(b.id);
        return p ? `<rect x="${p.x}" y="${p.y}" width="${p.width}" height="${p.height}" rx="6" fill="${colourOf(b.type)}"/>` : '';
      })
      .join('');
    ui.minimap.innerHTML = `<svg width="${Math.ceil(width * scale)}" height="${Math.ceil(height * scale)}" viewBox="0 0 ${width} ${height}">${rects}</svg><div class="minimap-view"></div>`;
    syncMinimap();
  }

  /** Shown only while the picture is larger than the view; the frame follows scroll and zoom. */
  function syncMinimap(): void {
    if (!mini) return;
    const c = ui.canvas;
    const fullW = state.graphSize.width * state.zoom;
    const fullH = state.graphSize.height * state.zoom;
    const larger = fullW > c.clientWidth + 2 || fullH > c.clientHeight + 2;
    ui.minimap.hidden = !larger;
    if (!larger) return;
    const k = mini.scale / state.zoom;
    const frame = ui.minimap.querySelector<HTMLElement>('.minimap-view')!;
    frame.style.left = `${c.scrollLeft * k}px`;
    frame.style.top = `${c.scrollTop * k}px`;
    frame.style.width = `${Math.min(fullW, c.clientWidth) * k}px`;
    frame.style.height = `${Math.min(fullH, c.clientHeight) * k}px`;
  }

  ui.canvas.addEventListener('scroll', syncMinimap, { passive: true });
  window.addEventListener('resize', syncMinimap);
  ui.minimap.addEventListener('pointerdown', (ev) => {
    if (!mini) return;
    ev.preventDefault();
    ev.stopPropagation();
    const svg = ui.minimap.querySelector('svg')!.getBoundingClientRect();
    const go = (e: PointerEvent) => {
      const k = state.zoom / mini!.scale;
      ui.canvas.scrollLeft = (e.clientX - svg.left) * k - ui.canvas.clientWidth / 2;
      ui.canvas.scrollTop = (e.clientY - svg.top) * k - ui.canvas.clientHeight / 2;
    };
    go(ev);
    const up = () => {
      window.removeEventListener('pointermove', go);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', go);
    window.addEventListener('pointerup', up);
  });

  /** Puts a node in the middle of the canvas across, and at most 200px down from its top. */
  function scrollToNode(urn: string): void {
    const el = ui.host.querySelector<SVGGElement>(`g.node[data-urn="${CSS.escape(urn)}"]`);
    if (!el) return;
    const box = el.getBoundingClientRect();
    const canvasBox = ui.canvas.getBoundingClientRect();
    ui.canvas.scrollLeft += box.left + box.width / 2 - (canvasBox.left + canvasBox.width / 2);
    ui.canvas.scrollTop += box.top + box.height / 2 - (canvasBox.top + Math.min(canvasBox.height / 2, 200));
  }

  return { applyZoom, setZoom, fit, scrollToNode, updateMinimap };
}
