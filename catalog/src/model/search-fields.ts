// Search fields on entity nodes (name, platform, origin, description, removed, exists, parentUrn):
// derived from the urn, the entity's status aspect and its one descriptive aspect. Together with
// the derived edges they are the "indices" restoreIndices rebuilds.
import { createHash } from 'node:crypto';
import { nameOf, originOf, parentOf, platformOf } from './entity-registry.ts';
import { descriptorOf } from './entity-types.ts';
import type { Urn } from './urn.ts';

/** The descriptive aspect of an entity type with its name and description fields (its descriptor's). */
function descriptiveOf(entityType: string) {
  return descriptorOf(entityType)?.modelled?.descriptive;
}

/** The descriptive aspect of an entity type (datasetProperties, chartInfo, …); undefined when it has none. */
export function descriptiveAspectOf(entityType: string): string | undefined {
  return descriptiveOf(entityType)?.aspect;
}

/** Aspects whose values feed the search fields of an entity of this type. */
export function searchAspectsOf(entityType: string): string[] {
  const d = descriptiveOf(entityType);
  return d ? ['status', d.aspect] : ['status'];
}

export interface SearchFields {
  urn: string;
  exists: boolean;
  removed: boolean;
  platform: string | null;
  origin: string | null;
  name: string | null;
  description: string | null;
  parentUrn: string | null;
  /** The urn's words (colons and parentheses split), so "hive" or "logging_events" find it. */
  searchText: string;
  /**
   * What impact analysis groups by, as one integer (docs/lineage-model.md §Graph): a 44-bit hash of
   * (entityType, platform, origin) times 4, plus 2 when the entity exists and 1 when it is
   * soft-deleted. Counting a 120k-node reach by one inline integer costs Neo4j ~60 ms; by the
   * three strings and two flags it costs ~400 ms (bench/README.md). The
   * entity_facet_key index maps a key back to its values (cypher/lineage/facet-values.cypher).
   */
  facetKey: number;
}

/** The facetKey of an entity that does not exist (flags 0); `facetKey + 2 (+1)` once it does. */
export function facetBaseOf(entityType: string, platform: string | null, origin: string | null): number {
  // ~2 µs a hash: not worth a cache even for a batch of thousands of entities.
  const text = `${entityType}\u0000${platform ?? ''}\u0000${origin ?? ''}`;
  return parseInt(createHash('sha1').update(text).digest('hex').slice(0, 11), 16) * 4;
}

/** The flags of a facetKey. */
export function facetFlagsOf(facetKey: number): { exists: boolean; removed: boolean } {
  const flags = facetKey % 4;
  return { exists: (flags & 2) !== 0, removed: (flags & 1) !== 0 };
}

function firstString(value: unknown, fields: readonly string[]): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  for (const f of fields) {
    const v = (value as Record<string, unknown>)[f];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

/** Fields that follow from the urn alone (what a ghost node carries). */
export function urnFields(urn: Urn): Omit<SearchFields, 'exists' | 'removed' | 'description'> {
  const platform = platformOf(urn) ?? null;
  const origin = originOf(urn) ?? null;
  return {
    urn: urn.text,
    platform,
    origin,
    name: nameOf(urn) ?? null,
    parentUrn: parentOf(urn)?.text ?? null,
    searchText: urn.text.replace(/[^A-Za-z0-9_.%-]+/g, ' ').trim(),
    facetKey: facetBaseOf(urn.entityType, platform, origin),
  };
}

export function searchFieldsOf(
  urn: Urn,
  state: { exists: boolean; aspects: ReadonlyMap<string, unknown> },
): SearchFields {
  const d = descriptiveOf(urn.entityType);
  const described = d ? state.aspects.get(d.aspect) : undefined;
  const status = state.aspects.get('status') as { removed?: unknown } | undefined;
  const base = urnFields(urn);
  const removed = state.exists && status?.removed === true;
  return {
    ...base,
    exists: state.exists,
    removed,
    facetKey: base.facetKey + (state.exists ? 2 : 0) + (removed ? 1 : 0),
    name: (d && firstString(described, d.name)) ?? base.name,
    description: (d && firstString(described, d.description)) ?? null,
  };
}

export const SEARCH_FIELD_NAMES = ['exists', 'removed', 'platform', 'origin', 'name', 'description', 'parentUrn', 'searchText', 'facetKey'] as const;

/** Search fields as read from a node (a missing property reads as absent or null). */
export type StoredFields = { [K in (typeof SEARCH_FIELD_NAMES)[number]]?: unknown };

/** Fields of a node that differ from what its rows derive (missing properties read as null). */
export function diffFields(expected: SearchFields, actual: StoredFields | undefined): Record<string, { expected: unknown; actual: unknown }> {
  const out: Record<string, { expected: unknown; actual: unknown }> = {};
  for (const f of SEARCH_FIELD_NAMES) {
    const a = actual?.[f] ?? null;
    if (a !== expected[f]) out[f] = { expected: expected[f], actual: a };
  }
  return out;
}
