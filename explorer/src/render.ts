// Draws a laid-out neighbourhood as one SVG string (a single innerHTML write is what keeps a
// 500-node picture fast). Interaction is wired by interaction.ts through event delegation on data-*
// attributes: data-urn (a node: re-centre), data-col (a column row: highlight its lineage),
// data-more (load the next page of a side), data-expand (load the next hop of a node), data-group
// (a group of siblings, or the collapse control of an opened one: open or close it).
import type { GraphNode, Neighbourhood } from './model.ts';
import { typeLabel } from './model.ts';
import { displayColourOf } from '@lineage/catalog/browser';
import type { Placed } from './layout.ts';
import { columnKey, displayFieldPath, splitColumnKey, type ColumnEdge } from './columns.ts';
import type { Grouping, NodeGroup } from './grouping.ts';

export const NODE_WIDTH = 216;
const HEADER_HEIGHT = 64;
const ROW_HEIGHT = 22;
const MAX_ROWS = 12;
export const MORE_WIDTH = 170;
export const MORE_HEIGHT = 54;
/** A group is drawn as a node-sized card with two cards stacked behind it, each this much lower right. */
const STACK_OFFSET = 4;
export const GROUP_WIDTH = NODE_WIDTH + 2 * STACK_OFFSET;
export const GROUP_HEIGHT = HEADER_HEIGHT + 2 * STACK_OFFSET;
export const COLLAPSE_HEIGHT = 34;
/** Between a collapse control and the member below it: the layout's own gap between boxes. */
export const COLLAPSE_GAP = 16;

const NEUTRAL_COLOUR = '#475569';
export const colourOf = (type: string): string => displayColourOf(type) ?? NEUTRAL_COLOUR;

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The rows a dataset shows in column display: lineage-carrying columns first, capped. */
export function visibleColumns(
  all: readonly string[],
  withEdges: ReadonlySet<string>,
  dataset: string,
): { rows: string[]; hidden: number } {
  if (all.length <= MAX_ROWS) return { rows: [...all], hidden: 0 };
  const linked = all.filter((p) => withEdges.has(columnKey(dataset, p)));
  const rest = all.filter((p) => !withEdges.has(columnKey(dataset, p)));
  const rows = [...linked, ...rest].slice(0, MAX_ROWS - 1);
  return { rows, hidden: all.length - rows.length };
}

export function nodeHeight(rows: number, hidden: number): number {
  return HEADER_HEIGHT + (rows + (hidden > 0 ? 1 : 0)) * ROW_HEIGHT + (rows > 0 || hidden > 0 ? 6 : 0);
}

export interface MoreAffordance {
  id: string;
  side: 'UPSTREAM' | 'DOWNSTREAM';
  remaining: number;
}

export interface RenderInput {
  graph: Neighbourhood;
  positions: Map<string, Placed>;
  width: number;
  height: number;
  /** Column display: rows per dataset node (absent = display off). */
  rows?: Map<string, { rows: string[]; hidden: number }>;
  columnEdges?: readonly ColumnEdge[];
  selectedColumn?: string | null;
  highlighted?: ReadonlySet<string>;
  more: readonly MoreAffordance[];
  /** Nodes that offer "load next hop" (at the degree limit). */
  expandable: ReadonlySet<string>;
  /** What is drawn: entities, groups and collapse controls, and the edges between them. */
  grouping: Grouping;
}

function sideLabel(n: GraphNode): string {
  if (n.side === 'centre') return 'selected entity';
  const hops = `${n.degree} hop${n.degree === 1 ? '' : 's'}`;
  return `${n.side} · ${hops}`;
}

function nodeSvg(n: GraphNode, p: Placed, input: RenderInput): string {
  const colour = colourOf(n.type);
  const classes = ['node', `side-${n.side}`];
  if (n.context) classes.push('context');
  if (n.exists === false) classes.push('ghost');
  const name = truncate(n.name, 24);
  const platform = truncate(n.platform ?? '—', 16);
  const meta = n.context ? `${sideLabel(n)} · via path` : sideLabel(n);
  const described = `${typeLabel(n.type)} ${n.name}${n.platform ? ` on ${n.platform}` : ''}, ${sideLabel(n)}${n.context ? ', on a path only (filtered out)' : ''}`;
  // The accessible name starts with the text the box shows (WCAG 2.5.3, label in name: a voice
  // user says what they see), then says it in words. Each <text> ends in a space, which SVG does not
  // draw but text extraction keeps: without it the texts read as one word ("DATASEThive…").
  const label = `${n.type} ${platform} ${name} ${meta}: ${described}`;
  const parts: string[] = [];
  parts.push(
    `<g class="${classes.join(' ')}" transform="translate(${p.x},${p.y})" data-urn="${escapeXml(n.urn)}" data-type="${n.type}" data-side="${n.side}" data-degree="${n.degree}" tabindex="-1" role="button" aria-label="${escapeXml(label)}">`,
  );
  parts.push(`<title>${escapeXml(`${n.urn}\n${described}`)}</title>`);
  parts.push(`<rect class="box" width="${p.width}" height="${p.height}" rx="8" style="--type:${colour}"/>`);
  parts.push(`<rect class="strip" width="6" height="${p.height}" rx="3" fill="${colour}"/>`);
  parts.push(`<text class="type" x="16" y="19" fill="${colour}">${escapeXml(n.type)} </text>`);
  parts.push(`<text class="platform" x="${p.width - 12}" y="19" text-anchor="end">${escapeXml(platform)} </text>`);
  parts.push(`<text class="name" x="16" y="40">${escapeXml(name)} </text>`);
  parts.push(`<text class="meta" x="16" y="57">${escapeXml(meta)}</text>`);
  // Column rows and the expand button are buttons of their own: drawn beside the node's button, in
  // a group at the same place, never inside it (a button inside a button reaches no one).
  parts.push('</g>');
  parts.push(`<g class="node-parts" transform="translate(${p.x},${p.y})">`);
  const rows = input.rows?.get(n.urn);
  if (rows) {
    rows.rows.forEach((path, i) => {
      const key = columnKey(n.urn, path);
      const y = HEADER_HEIGHT + i * ROW_HEIGHT;
      const cls = ['col'];
      if (input.selectedColumn === key) cls.push('selected');
      else if (input.highlighted?.has(key)) cls.push('highlighted');
      else if (input.selectedColumn) cls.push('dimmed');
      const shown = truncate(displayFieldPath(path), 28);
      const full = displayFieldPath(path);
      parts.push(
        `<g class="${cls.join(' ')}" data-col="${escapeXml(key)}" data-field="${escapeXml(path)}" tabindex="-1" role="button" aria-pressed="${input.selectedColumn === key}" aria-label="${escapeXml(`${shown}${shown === full ? '' : ` (${full})`}: column of ${n.name}`)}">` +
          `<rect x="6" y="${y}" width="${p.width - 12}" height="${ROW_HEIGHT - 2}" rx="3"/>` +
          `<text x="16" y="${y + 15}">${escapeXml(shown)}</text></g>`,
      );
    });
    if (rows.hidden > 0) {
      parts.push(
        `<text class="col-more" x="16" y="${HEADER_HEIGHT + rows.rows.length * ROW_HEIGHT + 15}">+${rows.hidden} more columns</text>`,
      );
    }
  }
  if (input.expandable.has(n.urn)) {
    const x = n.side === 'upstream' ? -11 : p.width + 11;
    parts.push(
      `<g class="expand" data-expand="${escapeXml(n.urn)}" transform="translate(${x},${HEADER_HEIGHT / 2})" tabindex="-1" role="button" aria-label="${escapeXml(`load the next hop ${n.side} of ${n.name}`)}"><title>Load the next hop</title><circle r="10"/><text y="5" text-anchor="middle">+</text></g>`,
    );
  }
  parts.push('</g>');
  return parts.join('');
}

/** "480 datasets on hive at degree 2 downstream": what a group holds, for its label and title. */
function describeGroup(g: NodeGroup): string {
  return `${g.members.length} ${groupNoun(g)}${g.platform ? ` on ${g.platform}` : ''} at degree ${g.degree} ${g.side}`;
}

/** "datasets", "data jobs", "ML models": the type's label in the plural, lower case unless it starts with an acronym. */
function groupNoun(g: NodeGroup): string {
  const label = typeLabel(g.type);
  const lower = /^.[a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
  return g.members.length === 1 ? lower : `${lower}s`;
}

function groupSvg(g: NodeGroup, p: Placed): string {
  const colour = colourOf(g.type);
  const what = describeGroup(g);
  const hops = `${g.degree} hop${g.degree === 1 ? '' : 's'}`;
  const platform = truncate(g.platform ?? '—', 16);
  const noun = truncate(groupNoun(g), 20);
  const meta = `${hops} · click to open`;
  // Label in name (see nodeSvg): the box's own text first.
  const label = `${g.type} ${platform} ${g.members.length} ${noun} ${meta}: ${what}, expand`;
  const card = (offset: number, cls: string) =>
    `<rect class="${cls}" x="${offset}" y="${offset}" width="${NODE_WIDTH}" height="${HEADER_HEIGHT}" rx="8" style="--type:${colour}"/>`;
  return (
    `<g class="group side-${g.side}" transform="translate(${p.x},${p.y})" data-group="${escapeXml(g.key)}" data-type="${g.type}" data-side="${g.side}" data-degree="${g.degree}" data-count="${g.members.length}" tabindex="-1" role="button" aria-expanded="false" aria-label="${escapeXml(label)}">` +
    `<title>${escapeXml(`${what}\nClick, or Enter, to draw them one by one`)}</title>` +
    card(2 * STACK_OFFSET, 'card') +
    card(STACK_OFFSET, 'card') +
    card(0, 'box') +
    `<rect class="strip" width="6" height="${HEADER_HEIGHT}" rx="3" fill="${colour}"/>` +
    `<text class="type" x="16" y="19" fill="${colour}">${escapeXml(g.type)} </text>` +
    `<text class="platform" x="${NODE_WIDTH - 12}" y="19" text-anchor="end">${escapeXml(platform)} </text>` +
    `<text class="name" x="16" y="41"><tspan class="count" fill="${colour}">${g.members.length}</tspan> ${escapeXml(noun)} </text>` +
    `<text class="meta" x="16" y="57">${escapeXml(meta)}</text>` +
    '</g>'
  );
}

/** Heads an opened group's members: closes them back into the group. */
function collapseSvg(g: NodeGroup, p: Placed): string {
  const colour = colourOf(g.type);
  const what = describeGroup(g);
  const shown = truncate(`${groupNoun(g)} · collapse`, 24);
  return (
    `<g class="group-collapse side-${g.side}" transform="translate(${p.x},${p.y})" data-group="${escapeXml(g.key)}" tabindex="-1" role="button" aria-expanded="true" aria-label="${escapeXml(`− ${g.members.length} ${shown}: ${what}`)}">` +
    `<title>${escapeXml(`${what}\nClick, or Enter, to draw them as one group again`)}</title>` +
    `<rect class="box" width="${p.width}" height="${p.height}" rx="${p.height / 2}" style="--type:${colour}"/>` +
    `<text class="label" x="14" y="${p.height / 2 + 5}"><tspan class="sign" fill="${colour}">−</tspan> <tspan class="count" fill="${colour}">${g.members.length}</tspan> ${escapeXml(shown)}</text>` +
    '</g>'
  );
}

/** A tinted band behind an opened group's control and members, so the set reads as one. */
function bandSvg(g: NodeGroup, positions: Map<string, Placed>): string {
  const head = positions.get(g.key);
  if (!head) return '';
  let bottom = head.y + head.height;
  for (const m of g.members) {
    const p = positions.get(m);
    if (p) bottom = Math.max(bottom, p.y + p.height);
  }
  return `<rect class="group-band" x="${head.x - 8}" y="${head.y - 8}" width="${head.width + 16}" height="${bottom - head.y + 16}" rx="12" style="--type:${colourOf(g.type)}"/>`;
}

function curve(x1: number, y1: number, x2: number, y2: number): string {
  const dx = Math.max(40, Math.abs(x2 - x1) / 2);
  return `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`;
}

/**
 * Jobs drawn under their pipeline: one labelled band per dataFlow and layout column around the jobs
 * of that flow drawn there (as DataHub and Marquez show a job inside its flow).
 */
function pipelineBands(input: RenderInput): string {
  const bands = new Map<string, { name: string; urn: string; boxes: Placed[] }>();
  for (const b of input.grouping.boxes) {
    if (b.kind !== 'entity') continue;
    const n = input.graph.nodes.get(b.id);
    const p = input.positions.get(b.id);
    if (!n?.pipeline || !p) continue;
    const key = `${n.pipeline.urn}\u0000${Math.round(p.x)}`;
    const band = bands.get(key) ?? { name: n.pipeline.name, urn: n.pipeline.urn, boxes: [] };
    band.boxes.push(p);
    bands.set(key, band);
  }
  const out: string[] = [];
  for (const band of bands.values()) {
    const x = Math.min(...band.boxes.map((p) => p.x)) - 8;
    const y = Math.min(...band.boxes.map((p) => p.y)) - 22;
    const right = Math.max(...band.boxes.map((p) => p.x + p.width)) + 8;
    const bottom = Math.max(...band.boxes.map((p) => p.y + p.height)) + 8;
    out.push(
      `<g class="pipeline" data-pipeline="${escapeXml(band.urn)}"><rect x="${x}" y="${y}" width="${right - x}" height="${bottom - y}" rx="10"/>` +
        `<text x="${x + 10}" y="${y + 15}">pipeline ${escapeXml(truncate(band.name, 30))}</text></g>`,
    );
  }
  return out.join('');
}

export function renderSvg(input: RenderInput): string {
  const { graph, positions, grouping } = input;
  const out: string[] = [];
  const drawn = grouping.boxes.filter((b) => b.kind !== 'collapse').length;
  // data-nodes and data-edges count the loaded neighbourhood; data-drawn the boxes actually drawn.
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" id="graph" role="group" aria-label="Lineage graph" viewBox="0 0 ${input.width} ${input.height}" data-nodes="${graph.nodes.size}" data-edges="${graph.edges.size}" data-drawn="${drawn}">`,
  );
  out.push(
    '<defs>' +
      '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#94a3b8"/></marker>' +
      '<marker id="arrow-col" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#a855f7"/></marker>' +
      '<marker id="arrow-hot" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#ea580c"/></marker>' +
      '</defs>',
  );
  out.push('<g class="bands">');
  for (const g of grouping.groups.values()) if (g.expanded) out.push(bandSvg(g, positions));
  out.push(pipelineBands(input));
  out.push('</g>');
  out.push('<g class="edges">');
  for (const e of grouping.edges) {
    const a = positions.get(e.from);
    const b = positions.get(e.to);
    if (!a || !b) continue;
    const y1 = a.y + HEADER_HEIGHT / 2;
    const y2 = b.y + HEADER_HEIGHT / 2;
    out.push(
      `<path class="edge" data-from="${escapeXml(e.from)}" data-to="${escapeXml(e.to)}" d="${curve(a.x + a.width, y1, b.x, y2)}" marker-end="url(#arrow)"/>`,
    );
  }
  out.push('</g>');
  const nodes: string[] = [];
  for (const b of grouping.boxes) {
    const p = positions.get(b.id);
    if (!p) continue;
    if (b.kind === 'group') nodes.push(groupSvg(b.group, p));
    else if (b.kind === 'collapse') nodes.push(collapseSvg(b.group, p));
    else {
      const n = graph.nodes.get(b.id);
      if (n) nodes.push(nodeSvg(n, p, input));
    }
  }
  out.push(`<g class="nodes">${nodes.join('')}</g>`);
  if (input.rows && input.columnEdges?.length) {
    // Column edges above the nodes, so they stay visible where they cross a box.
    out.push('<g class="col-edges">');
    const rowY = (key: string): { x1: number; x2: number; y: number } | undefined => {
      const { dataset, path } = splitColumnKey(key);
      const p = positions.get(dataset);
      const rows = input.rows!.get(dataset);
      if (!p || !rows) return undefined;
      const i = rows.rows.indexOf(path);
      // A column cut off by the row cap attaches to the "+N more" line.
      const index = i >= 0 ? i : rows.rows.length;
      return { x1: p.x, x2: p.x + p.width, y: p.y + HEADER_HEIGHT + index * ROW_HEIGHT + ROW_HEIGHT / 2 - 1 };
    };
    for (const e of input.columnEdges) {
      const a = rowY(e.from);
      const b = rowY(e.to);
      if (!a || !b) continue;
      const hot =
        input.selectedColumn !== null &&
        input.selectedColumn !== undefined &&
        (e.from === input.selectedColumn || input.highlighted?.has(e.from)) &&
        (e.to === input.selectedColumn || input.highlighted?.has(e.to));
      const cls = hot ? 'col-edge hot' : input.selectedColumn ? 'col-edge dimmed' : 'col-edge';
      out.push(
        `<path class="${cls}" data-from="${escapeXml(e.from)}" data-to="${escapeXml(e.to)}" d="${curve(a.x2, a.y, b.x1, b.y)}" marker-end="url(#${hot ? 'arrow-hot' : 'arrow-col'})"/>`,
      );
    }
    out.push('</g>');
  }
  for (const m of input.more) {
    const p = positions.get(m.id);
    if (!p) continue;
    const dir = m.side === 'UPSTREAM' ? 'upstream' : 'downstream';
    out.push(
      `<g class="more" data-more="${m.side}" transform="translate(${p.x},${p.y})" tabindex="-1" role="button" aria-label="${m.remaining} more ${dir} · click to load">` +
        `<rect width="${p.width}" height="${p.height}" rx="27"/>` +
        `<text x="${p.width / 2}" y="23" text-anchor="middle" class="more-count">${m.remaining} more </text>` +
        `<text x="${p.width / 2}" y="41" text-anchor="middle" class="more-hint">${dir} · click to load</text></g>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}
