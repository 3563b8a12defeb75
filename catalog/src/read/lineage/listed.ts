// What the entities a lineage walk reached hold under the listed fields — tags, glossaryTerms,
// owners, domains (docs/wire-contract.md §Filters, §Lineage search) — for a filter on one of them
// and for their facets. The walk itself never reads them (its rows carry what a node's own
// properties say): they are read afterwards, in batches, for the candidates only, and only when a
// request filters on them or asks for their facets, so the common lineage search pays nothing.
import { LISTED_FILTER_FIELDS, type ListedField, type ListedValues } from '../../model/filters.ts';
import type { Store } from '../../store/store.ts';

/**
 * The listed facets are counted without a filter on them only when the results number at most
 * this: one batched read of that many entities. Beyond, they are left out (DataHub's lightning
 * path, which answers large lineage results, has no such facets either).
 */
export const LISTED_FACETS_MAX_RESULTS = 1000;

/** Urns per read: one statement's parameter list stays small, however large the reach. */
const BATCH = 5000;

type ListedRow = { urn: string } & Record<ListedField, string[]>;

/**
 * The listed values of some entities (lineage/listed-values), only the fields asked for; an urn
 * without a node, or holding nothing, is absent from the map (it holds nothing).
 */
export async function readListedValues(
  store: Store,
  urns: Iterable<string>,
  fields: ReadonlySet<ListedField>,
  timeoutMs: number,
): Promise<Map<string, ListedValues>> {
  const unique = [...new Set(urns)];
  const out = new Map<string, ListedValues>();
  if (unique.length === 0 || fields.size === 0) return out;
  const lists = Object.fromEntries(LISTED_FILTER_FIELDS.map((f) => [f, fields.has(f)]));
  for (let i = 0; i < unique.length; i += BATCH) {
    const rows = await store.read((tx) => tx.run<ListedRow>('lineage/listed-values', { urns: unique.slice(i, i + BATCH), lists }), {
      timeoutMs: Math.max(1, Math.floor(timeoutMs)),
      metadata: { app: 'lineage', op: 'listed-values' },
    });
    for (const r of rows) {
      const values: ListedValues = {};
      for (const f of LISTED_FILTER_FIELDS) if (r[f].length) values[f] = r[f];
      out.set(r.urn, values);
    }
  }
  return out;
}

/** Every listed field: what a request reads when it asks for their facets. */
export const ALL_LISTED: ReadonlySet<ListedField> = new Set(LISTED_FILTER_FIELDS);
