// Node placement by ELK's layered algorithm (elkjs) in a Web Worker, so a large neighbourhood never
// blocks the page. Each node's partition is its signed degree: ELK keeps partitions in left-to-right
// order, which puts the centre in the middle, upstream to the left and downstream to the right by
// hop count. Edges are drawn by the page itself (render.ts); ELK only orders and places nodes.
import ELK from 'elkjs/lib/elk-api.js';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
  /** Signed degree: negative upstream, 0 centre, positive downstream. */
  column: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
}

export interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutResult {
  positions: Map<string, Placed>;
  width: number;
  height: number;
}

let elk: InstanceType<typeof ELK> | undefined;
function engine(): InstanceType<typeof ELK> {
  elk ??= new ELK({ workerUrl: elkWorkerUrl });
  return elk;
}

export async function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Promise<LayoutResult> {
  const minColumn = Math.min(0, ...nodes.map((n) => n.column));
  const ids = new Set(nodes.map((n) => n.id));
  const large = nodes.length > 150;
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.partitioning.activate': 'true',
      'elk.spacing.nodeNode': '28',
      'elk.layered.spacing.nodeNodeBetweenLayers': '76',
      'elk.padding': '[top=24,left=24,bottom=24,right=24]',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
      // Big graphs: fewer crossing-minimisation sweeps and longest-path layering (network simplex
      // with partitions took ~0.5 s of a 500-node layout). Every edge runs from a lower to a higher
      // partition, so both give the same columns.
      'elk.layered.thoroughness': large ? '1' : '7',
      'elk.layered.layering.strategy': large ? 'LONGEST_PATH' : 'NETWORK_SIMPLEX',
      'elk.separateConnectedComponents': 'false',
      // The page draws its own curves and ignores ELK's edge routes: the cheapest routing, and no
      // room between columns for routes (with the defaults, one box fanning out to 480 members
      // pushed their column 2,400 px away, and routing took half of that layout's time).
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '0',
      'elk.layered.spacing.edgeNodeBetweenLayers': '0',
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.width,
      height: n.height,
      layoutOptions: { 'elk.partitioning.partition': String(n.column - minColumn) },
    })),
    edges: edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  };
  const out = await engine().layout(graph);
  const positions = new Map<string, Placed>();
  for (const c of out.children ?? []) positions.set(c.id, { x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 0, height: c.height ?? 0 });
  return { positions, width: out.width ?? 0, height: out.height ?? 0 };
}
