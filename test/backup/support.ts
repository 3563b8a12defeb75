// Helpers shared by the backup suites (backup.test.ts, offline-import.test.ts).
import { parseUrn } from '../../catalog/src/model/urn.ts';
import type { AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { toPlain, type Store } from '../../catalog/src/store/store.ts';
import { searchLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';

/** The seed's write time (the suites' stamps are fixed so that files compare byte for byte). */
export const T0 = 1_700_000_000_000;

export const upsert = (urn: string, aspectName: string, value: unknown, lastObserved = T0): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved, runId: 'seed' },
});

/** A statement of the test's own, read back as plain values. */
export async function cypher<T = Record<string, unknown>>(store: Store, text: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await store.driver.executeQuery(text, params, { database: 'neo4j' });
  return r.records.map((x) => toPlain(x.toObject()) as T);
}

/** An object as JSON with its keys sorted: properties compare as text. */
export const sortedJson = (o: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));

const limits = { maxHops: 1000, maxResults: 100_000, deadlineMs: 30_000 };

/** The first page (100, with paths and facets) of each query, as text: two catalogs answer alike iff these are equal. */
export async function probeAnswers(store: Store, probes: readonly LineageQuery[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of probes) {
    const p = await searchLineage(store, { ...q, includePaths: true }, { start: 0, count: 100 }, limits);
    out.push(
      JSON.stringify({ q, total: p.total, hits: p.hits.map((h) => ({ urn: h.urn, degree: h.degree, paths: h.paths })), facets: p.facets }),
    );
  }
  return out;
}
