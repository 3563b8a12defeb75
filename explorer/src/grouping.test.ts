import { GROUP_THRESHOLD, groupNeighbourhood, placeCollapseControls, type Grouping } from './grouping.ts';
import type { Placed } from './layout.ts';
import type { GraphNode, Neighbourhood, Side } from './model.ts';

const ds = (name: string, platform = 'hive') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const job = (name: string) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,flow,PROD),${name})`;
const centre = ds('root');

interface Spec {
  urn: string;
  side: Side;
  degree: number;
  type?: string;
  platform?: string | null;
  context?: boolean;
}

/** A neighbourhood from nodes and data-flow edges, as model.ts would build it. */
function neighbourhood(specs: readonly Spec[], edges: ReadonlyArray<[string, string]>): Neighbourhood {
  const nodes = new Map<string, GraphNode>();
  nodes.set(centre, {
    urn: centre,
    type: 'DATASET',
    name: 'root',
    platform: 'hive',
    exists: true,
    side: 'centre',
    degree: 0,
    context: false,
  });
  for (const s of specs) {
    nodes.set(s.urn, {
      urn: s.urn,
      type: s.type ?? 'DATASET',
      name: s.urn,
      platform: s.platform === undefined ? 'hive' : s.platform,
      exists: true,
      side: s.side,
      degree: s.degree,
      context: s.context ?? false,
    });
  }
  return { centre, nodes, edges: new Map(edges.map(([from, to]) => [`${from}\u0000${to}`, { from, to }])) };
}

/** centre → `fanOut` children → `perChild` grandchildren each (test/e2e/seed.ts seedWideGraph's shape). */
function wide(fanOut: number, perChild: number): { graph: Neighbourhood; children: string[]; grand: string[][] } {
  const children = Array.from({ length: fanOut }, (_, i) => ds(`c${i}`));
  const grand = children.map((_, i) => Array.from({ length: perChild }, (_, j) => ds(`c${i}_g${j}`)));
  const specs: Spec[] = [
    ...children.map((urn) => ({ urn, side: 'downstream' as const, degree: 1 })),
    ...grand.flat().map((urn) => ({ urn, side: 'downstream' as const, degree: 2 })),
  ];
  const edges: Array<[string, string]> = [
    ...children.map((c): [string, string] => [centre, c]),
    ...grand.flatMap((g, i) => g.map((u): [string, string] => [children[i]!, u])),
  ];
  return { graph: neighbourhood(specs, edges), children, grand };
}

const none = new Set<string>();
const group = (options: { keep?: Set<string>; expanded?: Set<string> }, graph: Neighbourhood): Grouping =>
  groupNeighbourhood(graph, { keep: options.keep ?? none, expandedGroups: options.expanded ?? none });
const drawnIds = (g: Grouping) => g.boxes.map((b) => `${b.kind}:${b.kind === 'entity' ? b.id : b.group.members.length}`);

test('500 downstream of 20 children: one group per ring, edges centre → 20 → 480 once each', () => {
  const { graph, children, grand } = wide(20, 24);
  const g = group({}, graph);
  expect(drawnIds(g)).toEqual([`entity:${centre}`, 'group:20', 'group:480']);
  const [ring1, ring2] = [...g.groups.values()];
  expect(ring1).toMatchObject({
    side: 'downstream',
    degree: 1,
    type: 'DATASET',
    platform: 'hive',
    column: 1,
    nearer: [centre],
    expanded: false,
  });
  expect(ring1!.members).toEqual(children);
  // The grandchildren have 20 different parents, but all of them are drawn as the one ring-1 group.
  expect(ring2).toMatchObject({ degree: 2, column: 2, nearer: [ring1!.key] });
  expect(ring2!.members).toEqual(grand.flat());
  expect(g.edges).toEqual([
    { from: centre, to: ring1!.key },
    { from: ring1!.key, to: ring2!.key },
  ]);
  expect(g.groupOf.get(grand[3]![5]!)).toBe(ring2!.key);
  expect(g.groupOf.has(centre)).toBe(false);
});

test(`up to ${GROUP_THRESHOLD} alike siblings stay boxes; one more makes a group`, () => {
  expect(group({}, wide(GROUP_THRESHOLD, 0).graph).groups.size).toBe(0);
  expect(group({}, wide(GROUP_THRESHOLD, 0).graph).boxes).toHaveLength(GROUP_THRESHOLD + 1);
  expect(drawnIds(group({}, wide(GROUP_THRESHOLD + 1, 0).graph))).toEqual([`entity:${centre}`, `group:${GROUP_THRESHOLD + 1}`]);
});

test('side, degree, type and platform each split a group; parents drawn as boxes split their children', () => {
  const specs: Spec[] = [];
  const edges: Array<[string, string]> = [];
  const add = (urn: string, side: Side, type = 'DATASET', platform = 'hive') => {
    specs.push({ urn, side, degree: 1, type, platform });
    edges.push(side === 'downstream' ? [centre, urn] : [urn, centre]);
  };
  for (let i = 0; i < 10; i++) {
    add(ds(`down_hive_${i}`), 'downstream');
    add(ds(`down_kafka_${i}`, 'kafka'), 'downstream', 'DATASET', 'kafka');
    add(job(`down_job_${i}`), 'downstream', 'DATA_JOB', 'airflow');
    add(ds(`up_hive_${i}`), 'upstream');
  }
  // Three boxed parents (too few to group) with ten children each: three groups, one per parent.
  const parents = [0, 1, 2].map((i) => ds(`parent_${i}`, 's3'));
  for (const p of parents) add(p, 'downstream', 'DATASET', 's3');
  parents.forEach((p, i) => {
    for (let j = 0; j < 10; j++) {
      const u = ds(`p${i}_child_${j}`);
      specs.push({ urn: u, side: 'downstream', degree: 2 });
      edges.push([p, u]);
    }
  });
  const g = group({}, neighbourhood(specs, edges));
  const summary = [...g.groups.values()].map(
    (x) => `${x.side} ${x.degree} ${x.type} ${x.platform} ${x.members.length} ${x.nearer.join(',')}`,
  );
  expect(summary.sort()).toEqual(
    [
      `downstream 1 DATASET hive 10 ${centre}`,
      `downstream 1 DATASET kafka 10 ${centre}`,
      `downstream 1 DATA_JOB airflow 10 ${centre}`,
      ...parents.map((p) => `downstream 2 DATASET hive 10 ${p}`),
      `upstream 1 DATASET hive 10 ${centre}`,
    ].sort(),
  );
  expect(new Set([...g.groups.keys()]).size).toBe(7);
  // Every parent keeps its own edge to its own children's group.
  for (const p of parents) {
    const children = [...g.groups.values()].find((x) => x.nearer[0] === p)!;
    expect(g.edges).toContainEqual({ from: p, to: children.key });
  }
  // Upstream edges keep the data-flow direction: group → centre.
  const up = [...g.groups.values()].find((x) => x.side === 'upstream')!;
  expect(g.edges).toContainEqual({ from: up.key, to: centre });
});

test('the centre, context nodes and kept nodes are never grouped; the rest still are', () => {
  const { graph, children } = wide(12, 0);
  graph.nodes.get(children[0]!)!.context = true;
  const g = group({ keep: new Set([children[1]!]) }, graph);
  expect(drawnIds(g)).toEqual([`entity:${centre}`, `entity:${children[0]}`, `entity:${children[1]}`, 'group:10']);
  // Nothing beside a kept node: below the threshold it is all boxes.
  expect(group({ keep: new Set(children.slice(0, 4)) }, graph).groups.size).toBe(0);
});

test('an expanded group draws its members after its collapse control, each with its own edge', () => {
  const { graph, children, grand } = wide(20, 24);
  const collapsed = group({}, graph);
  const [ring1, ring2] = [...collapsed.groups.keys()];
  const g = group({ expanded: new Set([ring2!]) }, graph);
  expect(g.groups.get(ring2!)!.expanded).toBe(true);
  expect(g.boxes.map((b) => b.kind)).toEqual(['entity', 'group', 'collapse', ...grand.flat().map(() => 'entity')]);
  expect(g.boxes.slice(3).map((b) => b.id)).toEqual(grand.flat());
  expect(g.boxes[2]).toMatchObject({ kind: 'collapse', id: ring2, column: 2 });
  expect(g.groupOf.has(grand[0]![0]!)).toBe(false);
  expect(g.edges).toHaveLength(1 + 480);
  expect(g.edges).toContainEqual({ from: ring1, to: grand[7]![3] });
  expect(g.edges.some((e) => e.to === ring2 || e.from === ring2)).toBe(false);
  expect(children.every((c) => g.groupOf.get(c) === ring1)).toBe(true);
});

test("placeCollapseControls: the control takes the topmost member's place, that column below it moves down, members in order", () => {
  // centre → 9 upstream (expanded group) plus one upstream job of its own; 2 downstream.
  const ups = Array.from({ length: 9 }, (_, i) => ds(`up${i}`));
  const other = job('other');
  const downs = [ds('d0'), ds('d1')];
  const graph = neighbourhood(
    [
      ...ups.map((urn) => ({ urn, side: 'upstream' as const, degree: 1 })),
      { urn: other, side: 'upstream', degree: 1, type: 'DATA_JOB' },
      ...downs.map((urn) => ({ urn, side: 'downstream' as const, degree: 1 })),
    ],
    [...ups.map((u): [string, string] => [u, centre]), [other, centre], ...downs.map((d): [string, string] => [centre, d])],
  );
  const key = [...group({}, graph).groups.keys()][0]!;
  const g = group({ expanded: new Set([key]) }, graph);
  expect(g.boxes[1]).toMatchObject({ kind: 'collapse', column: -1 });
  expect(g.edges).toHaveLength(12);
  // A layout: the job at the top of the upstream column, the members below it (one run, out of order).
  const at = (x: number, y: number): Placed => ({ x, y, width: 216, height: 64 });
  const positions = new Map<string, Placed>([
    [centre, at(300, 100)],
    [other, at(0, 0)],
    ...downs.map((d, i): [string, Placed] => [d, at(600, 80 * i)]),
  ]);
  [...ups].reverse().forEach((u, i) => positions.set(u, at(0, 80 + 80 * i)));
  const grown = placeCollapseControls(g, positions, { width: 216, height: 34, gap: 16 });
  expect(grown).toBe(50);
  expect(positions.get(key)).toEqual({ x: 0, y: 80, width: 216, height: 34 });
  expect(positions.get(other)!.y).toBe(0);
  // The layout had them bottom to top; they lead nowhere further, so they read in order now.
  expect(ups.map((u) => positions.get(u)!.y)).toEqual(ups.map((_, i) => 80 + 50 + 80 * i));
  // Other columns do not move.
  expect(positions.get(centre)!.y).toBe(100);
  expect(positions.get(downs[1]!)!.y).toBe(80);
  // Nothing expanded: nothing placed, nothing grown.
  const before = new Map(positions);
  expect(placeCollapseControls(group({}, graph), positions, { width: 216, height: 34, gap: 16 })).toBe(0);
  expect(positions).toEqual(before);
});

test("placeCollapseControls keeps the layout's order of members with edges further out", () => {
  const { graph, children } = wide(9, 2);
  const ring1 = [...group({}, graph).groups.keys()][0]!;
  const g = group({ expanded: new Set([ring1]) }, graph);
  const at = (x: number, y: number): Placed => ({ x, y, width: 216, height: 64 });
  const positions = new Map<string, Placed>([[centre, at(0, 0)]]);
  [...children].reverse().forEach((c, i) => positions.set(c, at(300, 80 * i)));
  for (const b of g.boxes) if (b.kind === 'entity' && b.column === 2) positions.set(b.id, at(600, 0));
  placeCollapseControls(g, positions, { width: 216, height: 34, gap: 16 });
  expect(children.map((c) => positions.get(c)!.y)).toEqual(
    [...children]
      .reverse()
      .map((_, i) => 50 + 80 * i)
      .reverse(),
  );
  expect(positions.get(ring1)).toEqual({ x: 300, y: 0, width: 216, height: 34 });
});

test('keys stay the same as pages add members, and change when the nearer boxes do', () => {
  const small = group({}, wide(20, 12).graph);
  const big = group({}, wide(20, 24).graph);
  expect([...big.groups.keys()]).toEqual([...small.groups.keys()]);
  // With the ring-1 group expanded, the grandchildren are grouped per parent, under new keys.
  const ring1 = [...big.groups.keys()][0]!;
  const split = group({ expanded: new Set([ring1]) }, wide(20, 24).graph);
  const ring2 = [...split.groups.values()].filter((x) => x.degree === 2);
  expect(ring2).toHaveLength(20);
  expect(ring2.every((x) => x.members.length === 24 && x.nearer.length === 1 && !big.groups.has(x.key))).toBe(true);
  // A different centre gives different keys: the key follows the nearer boxes back to the centre.
  const other = wide(20, 24).graph;
  const moved: Neighbourhood = {
    ...other,
    centre: ds('elsewhere'),
    edges: new Map([...other.edges].map(([k, e]) => [k, e.from === centre ? { from: ds('elsewhere'), to: e.to } : e])),
  };
  moved.nodes.set(ds('elsewhere'), { ...other.nodes.get(centre)!, urn: ds('elsewhere') });
  moved.nodes.delete(centre);
  expect([...group({}, moved).groups.keys()].some((k) => big.groups.has(k))).toBe(false);
});

test('a node linked from two nearer boxes groups only with siblings linked from the same two', () => {
  const parents = [ds('pa', 's3'), ds('pb', 's3')];
  const both = Array.from({ length: 9 }, (_, i) => ds(`both${i}`));
  const onlyA = Array.from({ length: 9 }, (_, i) => ds(`a${i}`));
  const specs: Spec[] = [
    ...parents.map((urn) => ({ urn, side: 'downstream' as const, degree: 1, platform: 's3' })),
    ...[...both, ...onlyA].map((urn) => ({ urn, side: 'downstream' as const, degree: 2 })),
  ];
  const edges: Array<[string, string]> = [
    ...parents.map((p): [string, string] => [centre, p]),
    ...both.flatMap((u): Array<[string, string]> => [
      [parents[0]!, u],
      [parents[1]!, u],
    ]),
    ...onlyA.map((u): [string, string] => [parents[0]!, u]),
  ];
  const g = group({}, neighbourhood(specs, edges));
  expect([...g.groups.values()].map((x) => [x.nearer, x.members.length])).toEqual([
    [parents, 9],
    [[parents[0]], 9],
  ]);
  expect(g.edges).toHaveLength(2 + 3);
});
