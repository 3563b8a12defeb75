// W-query's baselines in Neo4j: the pruning walk alone (the floor any answer costs), the walk that
// skips a type as a hop, and the naive variable-length query that enumerates paths (the peers' way).
import type { Driver } from 'neo4j-driver';
import neo4j from 'neo4j-driver';

export const DEGREES = ['1', '2', '3+'] as const;
export type Degree = (typeof DEGREES)[number];
export type Direction = 'DOWNSTREAM' | 'UPSTREAM';
/** One run of the naive query: its time, or that it ran out of time or memory. */
export interface NaiveRun {
  ms: number;
  timedOut: boolean;
  rows: number | null;
  paths: number | null;
  error?: string;
}

/**
 * The pruning BFS alone (no property read, one row out): what any answer from Neo4j costs at least.
 * A windowed walk tests each edge it reads (the test of cypher/lineage/reach.cypher): its floor does too.
 */
function floorText(direction: Direction, windowed = false, reads?: string): string {
  const arrow = direction === 'DOWNSTREAM' ? '-[rs:LINEAGE*1..1000]->' : '<-[rs:LINEAGE*1..1000]-';
  const edgeTest = windowed
    ? ' WHERE all(r IN rs WHERE r.manual OR (coalesce(r.createdOn, 0) = 0 AND coalesce(r.updatedOn, 0) = 0) OR (r.createdOn >= $start AND r.createdOn <= $end) OR (r.updatedOn >= $start AND r.updatedOn <= $end))'
    : '';
  return `MATCH (s:Entity {urn: $urn}) MATCH p = (s)${arrow}(n)${edgeTest} WITH n, min(length(p)) AS degree${reads ? ` WHERE ${reads}` : ''} RETURN count(*) AS rows`;
}

/**
 * The floor of a walk (with the time window's edge test when one is given), or with `reads` (a
 * shape's bench-defined test of node strings) the same BFS counting what passes it.
 */
export async function runFloor(
  driver: Driver,
  direction: Direction,
  urn: string,
  o: { window?: { start: number; end: number } | null; reads?: string } = {},
): Promise<void> {
  const window = o.window ?? null;
  const text = floorText(direction, window !== null, o.reads);
  const session = driver.session({ database: 'neo4j', defaultAccessMode: neo4j.session.READ });
  try {
    await session.run(text, window ? { urn, start: neo4j.int(window.start), end: neo4j.int(window.end) } : { urn });
  } finally {
    await session.close();
  }
}

/**
 * The lightest walk by hops (for the hopFloor of ignoreAsHops shapes): element ids of each hop's
 * frontier in, the new neighbours' ids and whether they are ignored out; ignored ones expanded
 * within the same hop. No properties but the type, no filters, no selection.
 */
export async function runHopFloor(driver: Driver, direction: Direction, urn: string, ignoredType: string): Promise<number> {
  const arrow = direction === 'DOWNSTREAM' ? '-[:LINEAGE]->' : '<-[:LINEAGE]-';
  const text = `UNWIND $frontier AS id MATCH (a) WHERE elementId(a) = id MATCH (a)${arrow}(n) WHERE n <> a
WITH DISTINCT n RETURN elementId(n) AS id, n.entityType = $ignoredType AS ignored`;
  const session = driver.session({ database: 'neo4j', defaultAccessMode: neo4j.session.READ });
  try {
    const start = (await session.run('MATCH (s:Entity {urn: $urn}) RETURN elementId(s) AS id', { urn })).records[0]!.get('id') as string;
    const visited = new Set([start]);
    let frontier = [start];
    while (frontier.length > 0) {
      let expand = frontier;
      const next: string[] = [];
      while (expand.length > 0) {
        const sameHop: string[] = [];
        for (const r of (await session.run(text, { frontier: expand, ignoredType })).records) {
          const id = r.get('id') as string;
          if (visited.has(id)) continue;
          visited.add(id);
          (r.get('ignored') ? sameHop : next).push(id);
        }
        expand = sameHop;
      }
      frontier = next;
    }
    return visited.size - 1;
  } finally {
    await session.close();
  }
}

/** The naive peer query: enumerate every path (count(p) defeats the BFS pruning), aggregate after. */

function naiveText(direction: Direction, maxDepth: number): string {
  const arrow = direction === 'DOWNSTREAM' ? `-[:LINEAGE*1..${maxDepth}]->` : `<-[:LINEAGE*1..${maxDepth}]-`;
  return `MATCH (s:Entity {urn: $urn}) MATCH p = (s)${arrow}(n:Entity) WITH n, min(length(p)) AS degree, count(p) AS paths
RETURN count(n) AS rows, sum(paths) AS paths`;
}

export async function runNaive(driver: Driver, direction: Direction, degree: Degree, urn: string, timeoutMs: number): Promise<NaiveRun> {
  const depth = degree === '1' ? 1 : degree === '2' ? 2 : 1000;
  const session = driver.session({ database: 'neo4j', defaultAccessMode: neo4j.session.READ });
  const t = performance.now();
  try {
    const r = await session.run(naiveText(direction, depth), { urn }, { timeout: timeoutMs });
    const rec = r.records[0]!;
    return { ms: Math.round(performance.now() - t), timedOut: false, rows: Number(rec.get('rows')), paths: Number(rec.get('paths')) };
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    const ms = Math.round(performance.now() - t);
    if (code.includes('TransactionTimedOut') || code.includes('Terminated')) return { ms, timedOut: true, rows: null, paths: null };
    if (code.includes('MemoryPoolOutOfMemory') || code.includes('TransactionMemoryLimit'))
      return { ms, timedOut: true, rows: null, paths: null, error: 'transaction memory limit' };
    return { ms, timedOut: false, rows: null, paths: null, error: `${code} ${(e as Error).message.slice(0, 200)}` };
  } finally {
    await session.close();
  }
}
