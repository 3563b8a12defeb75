// Reads of stored aspect rows and entity existence, shared by the REST service, the GraphQL
// service and authentication.
import { keyAspectOf } from '../model/urn-key.ts';
import { rowKey } from '../store/rows.ts';
import { type Urn } from '../model/urn.ts';
import { int, type Store } from '../store/store.ts';
import { existenceOf, type Existence } from '../store/existence.ts';
import { likeToRegex } from '../store/like-pattern.ts';

export interface AspectRow {
  name: string;
  version: number;
  value: Record<string, unknown>;
  systemMetadata: Record<string, unknown>;
  createdOn: number;
  createdBy: string;
}

interface RawRow {
  name?: string;
  version?: number;
  value: string;
  systemMetadata: string;
  createdOn: number | null;
  createdBy: string | null;
}

function toRow(name: string, version: number, r: RawRow): AspectRow {
  return {
    name,
    version,
    value: JSON.parse(r.value) as Record<string, unknown>,
    systemMetadata: JSON.parse(r.systemMetadata) as Record<string, unknown>,
    createdOn: r.createdOn ?? 0,
    createdBy: r.createdBy ?? 'urn:li:corpuser:unknown',
  };
}

/** One version of an aspect: 0 = latest, n ≥ 1 = the n-th stored version, oldest first. */
export async function getAspect(store: Store, urn: Urn, aspectName: string, version = 0): Promise<AspectRow | undefined> {
  const rows = await store.read((tx) => tx.run<RawRow>('aspects/fetch-one-version', { key: rowKey(urn.text, aspectName, version) }));
  const r = rows[0];
  return r ? toRow(aspectName, version, r) : undefined;
}

export async function getAspectVersions(store: Store, urn: Urn, aspectName: string): Promise<AspectRow[]> {
  const rows = await store.read((tx) =>
    tx.run<RawRow & { version: number }>('aspects/fetch-versions', { urn: urn.text, name: aspectName }),
  );
  return rows.map((r) => toRow(aspectName, r.version, r));
}

/** Latest rows of an entity, by aspect name. */
export async function getLatestAspects(store: Store, urn: Urn, names?: readonly string[]): Promise<Map<string, AspectRow>> {
  const rows = (await getLatestAspectsOf(store, [urn.text])).get(urn.text) ?? new Map<string, AspectRow>();
  if (!names) return rows;
  const wanted = new Set(names);
  return new Map([...rows].filter(([name]) => wanted.has(name)));
}

/** Latest rows of several entities: urn → aspect name → row (an entity with none is absent). */
export async function getLatestAspectsOf(store: Store, urns: readonly string[]): Promise<Map<string, Map<string, AspectRow>>> {
  const out = new Map<string, Map<string, AspectRow>>();
  if (!urns.length) return out;
  const rows = await store.read((tx) => tx.run<RawRow & { urn: string; name: string }>('aspects/fetch-entity-latest', { urns: [...urns] }));
  for (const r of rows) {
    let aspects = out.get(r.urn);
    if (!aspects) out.set(r.urn, (aspects = new Map()));
    aspects.set(r.name, toRow(r.name, 0, r));
  }
  return out;
}

/** Existence of each urn (docs/lineage-model.md §Existence), in a read transaction of its own. */
export function entityExistence(store: Store, urns: readonly Urn[]): Promise<Map<string, Existence>> {
  return store.read((tx) => existenceOf(tx, urns));
}

/** The key aspect as DataHub serves it: derived from the urn. */
export function syntheticKeyAspect(urn: Urn): { name: string; value: Record<string, unknown> } {
  const k = keyAspectOf(urn);
  return { name: k.aspectName, value: k.value };
}

export async function countLatest(store: Store, aspectName: string, urnLike?: string): Promise<number> {
  const rows = await store.read((tx) =>
    tx.run<{ count: number }>('aspects/count-latest', {
      name: aspectName,
      urnRegex: urnLike === undefined ? null : likeToRegex(urnLike),
    }),
  );
  return rows[0]?.count ?? 0;
}

/**
 * Latest rows of one aspect whose JSON names a string (usually a urn), newest first, at most `limit`:
 * a text match the caller confirms on the parsed value (the queries of a dataset, the documents of
 * an asset). An empty string lists every row of the aspect.
 */
export async function latestRowsNaming(
  store: Store,
  aspectName: string,
  needle: string,
  limit: number,
): Promise<{ urn: string; value: Record<string, unknown>; createdOn: number }[]> {
  const rows = await store.read((tx) =>
    tx.run<{ urn: string; value: string; createdOn: number | null }>('aspects/latest-naming', {
      name: aspectName,
      needle,
      limit: int(limit),
    }),
  );
  return rows.map((r) => ({ urn: r.urn, value: JSON.parse(r.value) as Record<string, unknown>, createdOn: r.createdOn ?? 0 }));
}
