// The fast path depends on Neo4j planning the traversal as a breadth-first pruning var-expand
// (each node visited once, min(length(p)) = BFS depth). Innocent-looking edits (moving the time
// window test outside all(), aggregating anything but min(length(p)) in that horizon) silently turn
// it into an exhaustive path enumeration, so every expansion of the traversal templates is checked
// here with EXPLAIN.
import { testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { statementNames } from '../../catalog/src/store/cypher.ts';

let store: Store;
beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

interface PlanNode {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: PlanNode[];
}
const operators = (p: PlanNode): PlanNode[] => [p, ...p.children.flatMap(operators)];

async function explain(name: string, params: Record<string, unknown>): Promise<PlanNode[]> {
  const text = store.statements.all.get(name)!;
  const r = await store.driver.executeQuery(`EXPLAIN ${text}`, params, { database: store.database });
  return operators(r.summary.plan as unknown as PlanNode);
}

const reachFiles = statementNames.filter((n) => n.startsWith('lineage/reach-'));
const WALKS = ['down-1', 'down-2', 'down-max', 'up-1', 'up-2', 'up-max'].flatMap((s) => [s, `${s}-windowed`]);
const windowOf = (name: string) => ({ start: 1_000, end: 2_000, windowed: name.endsWith('-windowed') });

test("there is one reach statement per direction, depth bound and walk (every edge, or a time window's)", () => {
  expect([...reachFiles].sort()).toEqual(WALKS.map((s) => `lineage/reach-${s}`).sort());
});

// A windowed walk tests every edge it reads; the other must not (the test costs time on every edge).
function expectEdgeTest(name: string, expand: PlanNode) {
  if (windowOf(name).windowed) expect(String(expand.arguments.Details)).toContain('$start');
  else expect(String(expand.arguments.Details)).not.toContain('$start');
}

describe.each(reachFiles)('%s', (name) => {
  test('plans a BFS pruning var-expand (one hop for *1..1), seeded from the urn index', async () => {
    const ops = await explain(name, { urn: 'urn:li:dataset:x', ...windowOf(name), maxHops: 1000, includeSoftDeleted: false, limit: 10 });
    const expand = ops.filter((o) => o.operatorType.includes('VarLengthExpand'));
    expect(expand).toHaveLength(1);
    if (/-1(-windowed)?$/.test(name)) {
      // Neo4j 5.26 only applies the pruning rewrite when the upper bound exceeds 1; *1..1 is
      // planned as a single-hop expand (no '*' in the pattern), which cannot enumerate paths either.
      expect(String(expand[0]!.arguments.Details)).toMatch(/\[rs:LINEAGE\]/);
    } else {
      expect(expand[0]!.operatorType).toMatch(/Pruning/);
      expect(expand[0]!.operatorType).toMatch(/BFS/);
    }
    expect(ops.some((o) => o.operatorType.startsWith('NodeUniqueIndexSeek'))).toBe(true);
    expectEdgeTest(name, expand[0]!);
  });
});

test('the paths statements use a (bidirectional) shortest-path operator, not an enumeration', async () => {
  for (const name of ['lineage/paths-down', 'lineage/paths-up']) {
    const ops = await explain(name, { urn: 'urn:li:dataset:x', targets: ['urn:li:dataset:y'], unwindowed: false, start: 0, end: 1 });
    expect(ops.map((o) => o.operatorType).join(' ')).toMatch(/ShortestPath/);
    expect(ops.some((o) => o.operatorType.includes('VarLengthExpand'))).toBe(false);
  }
});

const selectFiles = statementNames.filter((n) => n.startsWith('lineage/select-'));

test('there is one page, two counts and one cut statement per direction, depth bound and walk', () => {
  expect([...selectFiles].sort()).toEqual(
    ['counts', 'counts-judged', 'cut', 'page'].flatMap((k) => WALKS.map((s) => `lineage/select-${k}-${s}`)).sort(),
  );
});

// The in-database selection (select.ts) is only as fast as these plans: a pruning BFS, and for
// the page a PartialTop over the BFS's degree order, which stops once the page is full.
describe.each(selectFiles)('%s', (name) => {
  test('plans a BFS pruning var-expand seeded from the urn index; a page plans a PartialTop', async () => {
    const ops = await explain(name, {
      urn: 'urn:li:dataset:x',
      ...windowOf(name),
      maxHops: 1000,
      d1: true,
      d2: true,
      d3: true,
      afterDegree: 0,
      afterUrn: '',
      keys: [1],
      pairs: null,
      criteria: [],
      tokens: [],
      limit: 10,
      untilDegree: 1000,
      untilUrn: null,
      degree: 2,
      rank: 10,
      visibleKeys: [1],
    });
    expect(ops.some((o) => o.operatorType.startsWith('NodeUniqueIndexSeek'))).toBe(true);
    const expand = ops.filter((o) => o.operatorType.includes('VarLengthExpand'));
    if (/-1(-windowed)?$/.test(name)) {
      // *1..1: a single-hop expand (see above); a one-hop reach is small, sorting it is cheap.
      expect(ops.some((o) => /^(VarLength)?Expand/.test(o.operatorType))).toBe(true);
      return;
    }
    expect(expand).toHaveLength(1);
    expect(expand[0]!.operatorType).toMatch(/Pruning/);
    expect(expand[0]!.operatorType).toMatch(/BFS/);
    if (name.includes('-page-')) expect(ops.some((o) => o.operatorType.startsWith('PartialTop'))).toBe(true);
    expectEdgeTest(name, expand[0]!);
  });
});

test('lineage/node-ids looks each urn up in the urn index (it runs before the walk, on every request with an exact urn filter)', async () => {
  const ops = await explain('lineage/node-ids', { urns: ['urn:li:dataset:x', 'urn:li:dataset:y'] });
  expect(ops.some((o) => o.operatorType.startsWith('NodeUniqueIndexSeek'))).toBe(true);
  expect(ops.some((o) => /AllNodesScan|NodeByLabelScan/.test(o.operatorType))).toBe(false);
});
