// Crowds of like siblings drawn as one box, so a large neighbourhood stays readable: 480 datasets on
// one platform two hops downstream are one "480 datasets" group, not a column of 480 boxes. Pure: it
// turns the loaded Neighbourhood into the boxes and edges that are laid out and drawn.
//
// Siblings are alike when they share side, degree, entity type, platform and the boxes one hop nearer
// the centre they link to ("nearer" below). Sides are walked outwards from the centre, so a node's
// nearer boxes are already known: when its parents were grouped, the nearer box is their group and
// children of different parents still fall into one group; when the parents are drawn one by one, each
// parent's children form their own group and every edge still ends where it did.
import type { Placed } from './layout.ts';
import { columnOf, type GraphEdge, type GraphNode, type Neighbourhood } from './model.ts';

/**
 * More alike siblings than this are grouped. Eight boxes (64 px high, 16 px apart) make a column of
 * about 620 px, what the canvas of a 1280×800 window shows at full size; a ninth pushes the column
 * past one screen, and from there it only grows into the unreadable stack a 500-node Fit used to be.
 */
export const GROUP_THRESHOLD = 8;

export interface NodeGroup {
  /** Stable while the group means the same siblings (state.expandedGroups holds it across draws). */
  key: string;
  side: 'upstream' | 'downstream';
  degree: number;
  type: string;
  platform: string | null;
  /** Signed layout column, as columnOf. */
  column: number;
  /** The boxes (entity urns or collapsed group keys) one hop nearer the centre its members link to. */
  nearer: string[];
  /** Member urns, in the neighbourhood's order. */
  members: string[];
  /** Drawn as its members (with a collapse control) rather than as one box. */
  expanded: boolean;
}

/**
 * One box to draw: an entity on its own, a collapsed group, or the collapse control that heads an
 * expanded group's members. A group's box and its control both use the group key as id (only one of
 * them is drawn at a time). Controls are not laid out: placeCollapseControls puts them in afterwards.
 */
type DrawnBox =
  | { kind: 'entity'; id: string; column: number }
  | { kind: 'group'; id: string; column: number; group: NodeGroup }
  | { kind: 'collapse'; id: string; column: number; group: NodeGroup };

export interface Grouping {
  /**
   * In the neighbourhood's order, a group where its first member would be; an expanded group's control
   * right before its members. Drawn (and tabbed through) in this order.
   */
  boxes: DrawnBox[];
  /** The neighbourhood's edges with each member's ends moved to its collapsed group; no duplicates, no loops. */
  edges: GraphEdge[];
  /** Every group found, collapsed or expanded, by key. */
  groups: Map<string, NodeGroup>;
  /** Member urn → key of the collapsed group drawn in its place. */
  groupOf: Map<string, string>;
}

export interface GroupingOptions {
  /**
   * Urns drawn on their own whatever their siblings (expanded nodes, the node holding the selected
   * column, …). The centre and context nodes never group.
   */
  keep: ReadonlySet<string>;
  /** Keys of groups the user expanded. */
  expandedGroups: ReadonlySet<string>;
  threshold?: number;
}

/**
 * A short, stable digest (cyrb53) of a group's defining parts. The parts include the keys of nearer
 * groups, so spelling them out would nest one key in the next and grow with every hop.
 */
function digest(parts: readonly string[]): string {
  const s = parts.join('\u0000');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

export function groupNeighbourhood(graph: Neighbourhood, options: GroupingOptions): Grouping {
  const { keep, expandedGroups, threshold = GROUP_THRESHOLD } = options;
  const distance = (urn: string): number => {
    const n = graph.nodes.get(urn);
    return n ? Math.abs(columnOf(n)) : Infinity;
  };
  const linked = new Map<string, string[]>();
  const link = (a: string, b: string) => (linked.get(a) ?? linked.set(a, []).get(a)!).push(b);
  for (const e of graph.edges.values()) {
    link(e.from, e.to);
    link(e.to, e.from);
  }
  // Rings by hops from the centre, walked outwards: a ring's nearer boxes are settled by then.
  const rings: GraphNode[][] = [];
  for (const n of graph.nodes.values()) (rings[Math.abs(columnOf(n))] ??= []).push(n);

  const groupOf = new Map<string, string>();
  const groups = new Map<string, NodeGroup>();
  const boxOf = (urn: string): string => groupOf.get(urn) ?? urn;
  for (const ring of rings) {
    const alike = new Map<string, NodeGroup>();
    for (const n of ring ?? []) {
      if (n.side === 'centre' || n.context || keep.has(n.urn)) continue;
      const here = distance(n.urn);
      const nearer = [...new Set((linked.get(n.urn) ?? []).filter((m) => distance(m) < here).map(boxOf))].sort();
      const platform = n.platform ?? '';
      const key = `group:${n.side}:${n.degree}:${digest([n.side, String(n.degree), n.type, platform, ...nearer])}`;
      let group = alike.get(key);
      if (!group) {
        group = {
          key,
          side: n.side,
          degree: n.degree,
          type: n.type,
          platform: n.platform,
          column: columnOf(n),
          nearer,
          members: [],
          expanded: expandedGroups.has(key),
        };
        alike.set(key, group);
      }
      group.members.push(n.urn);
    }
    for (const group of alike.values()) {
      if (group.members.length <= threshold) continue;
      groups.set(group.key, group);
      if (!group.expanded) for (const m of group.members) groupOf.set(m, group.key);
    }
  }

  // Boxes in the neighbourhood's order; a group sits where its first member would, an expanded
  // group's control and members together there.
  const boxes: DrawnBox[] = [];
  const placedGroups = new Set<string>();
  const expandedOf = new Map<string, NodeGroup>();
  for (const g of groups.values()) if (g.expanded) for (const m of g.members) expandedOf.set(m, g);
  for (const n of graph.nodes.values()) {
    const collapsed = groupOf.get(n.urn);
    const expanded = expandedOf.get(n.urn);
    const group = collapsed ? groups.get(collapsed)! : expanded;
    if (!group) {
      boxes.push({ kind: 'entity', id: n.urn, column: columnOf(n) });
      continue;
    }
    if (placedGroups.has(group.key)) continue;
    placedGroups.add(group.key);
    if (!group.expanded) {
      boxes.push({ kind: 'group', id: group.key, column: group.column, group });
      continue;
    }
    boxes.push({ kind: 'collapse', id: group.key, column: group.column, group });
    for (const m of group.members) boxes.push({ kind: 'entity', id: m, column: group.column });
  }

  const edges = new Map<string, GraphEdge>();
  for (const e of graph.edges.values()) {
    const from = boxOf(e.from);
    const to = boxOf(e.to);
    if (from !== to) edges.set(`${from}\u0000${to}`, { from, to });
  }
  return { boxes, edges: [...edges.values()], groups, groupOf };
}

/**
 * Puts each expanded group's collapse control right above its topmost member, moving that member and
 * everything below it in the same column down to make room. Done after the layout rather than by it:
 * keeping a control beside its members inside ELK (its model-order options) multiplied the layout
 * time of a 480-member column several times. Members link to the same nearer boxes, so the layout
 * tends to keep them in one run under the control; a sibling of another kind linked to the same
 * boxes can still land among them. Adds the controls to `positions`; returns how much taller the
 * tallest column got.
 */
export function placeCollapseControls(
  grouping: Grouping,
  positions: Map<string, Placed>,
  control: { width: number; height: number; gap: number },
): number {
  const byColumn = new Map<number, string[]>();
  const distance = new Map<string, number>();
  for (const b of grouping.boxes) {
    if (b.kind === 'collapse') continue;
    (byColumn.get(b.column) ?? byColumn.set(b.column, []).get(b.column)!).push(b.id);
    distance.set(b.id, Math.abs(b.column));
  }
  // Boxes with an edge to a box further from the centre: the layout placed them to keep those edges apart.
  const leadOut = new Set<string>();
  for (const e of grouping.edges) {
    const [from, to] = [distance.get(e.from) ?? 0, distance.get(e.to) ?? 0];
    if (from < to) leadOut.add(e.from);
    else if (to < from) leadOut.add(e.to);
  }
  const grown = new Map<number, number>();
  for (const g of grouping.groups.values()) {
    if (!g.expanded) continue;
    const placed = g.members.filter((m) => positions.has(m));
    const slots = placed.map((m) => positions.get(m)!).sort((a, b) => a.y - b.y);
    const top = slots[0];
    if (!top) continue;
    // Members that lead nowhere further tie on everything the layout minimises, so it orders them at
    // random; they read better in the neighbourhood's order, which swapping places gives them when
    // all are the same size. Members with edges further out keep the layout's order, which keeps
    // those edges uncrossed.
    const movable = slots.every((p) => p.height === top.height && p.width === top.width) && !placed.some((m) => leadOut.has(m));
    if (movable) placed.forEach((m, i) => positions.set(m, slots[i]!));
    const { x, y } = top;
    const room = control.height + control.gap;
    for (const id of byColumn.get(g.column) ?? []) {
      const p = positions.get(id);
      if (p && p.y >= y) positions.set(id, { ...p, y: p.y + room });
    }
    positions.set(g.key, { x, y, width: control.width, height: control.height });
    grown.set(g.column, (grown.get(g.column) ?? 0) + room);
  }
  return Math.max(0, ...grown.values());
}
