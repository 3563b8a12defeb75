// Search fields on entity nodes (name, qualifiedName, platform, origin, description, removed, exists,
// parentUrn):
// derived from the urn, the entity's status aspect and its one descriptive aspect. Together with
// the derived edges they are the "indices" restoreIndices rebuilds.
import { createHash } from 'node:crypto';
import { descriptorOf } from './entity-registry.ts';
import { keySearchFieldsOf } from './key-search-fields.ts';
import { searchTextOf } from './search-analyzer.ts';
import type { Urn } from './urn.ts';

/** The descriptive aspect of an entity type with its name and description fields (its descriptor's). */
function descriptiveOf(entityType: string) {
  return descriptorOf(entityType)?.modelled?.descriptive;
}

/** Aspects whose values feed the search fields of an entity of this type (subTypes: the typeNames facet). */
export function searchAspectsOf(entityType: string): string[] {
  const d = descriptiveOf(entityType);
  return d ? ['status', 'subTypes', d.aspect] : ['status', 'subTypes'];
}

export interface SearchFields {
  urn: string;
  exists: boolean;
  removed: boolean;
  platform: string | null;
  origin: string | null;
  name: string | null;
  /** The descriptive aspect's qualifiedName (structured queries' `qualifiedName:`); null without one. */
  qualifiedName: string | null;
  description: string | null;
  parentUrn: string | null;
  /**
   * The index words of the name, qualified name, urn and description (search-analyzer.ts): each
   * piece whole and split at `.`, `_`, `-` and case changes, lower case, so "orders" finds
   * fct_orders and "hive" finds every hive dataset.
   */
  searchText: string;
  /** The `subTypes` aspect's typeNames (the typeNames facet); null without one. */
  typeNames: string[] | null;
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
function facetBaseOf(entityType: string, platform: string | null, origin: string | null): number {
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
export function urnFields(urn: Urn): Omit<SearchFields, 'exists' | 'removed' | 'description' | 'qualifiedName' | 'typeNames'> {
  const key = keySearchFieldsOf(urn);
  const platform = key.platform ?? null;
  const origin = key.origin ?? null;
  const name = key.name ?? null;
  return {
    urn: urn.text,
    platform,
    origin,
    name,
    parentUrn: key.parent?.text ?? null,
    searchText: searchTextOf([name, urn.text]),
    facetKey: facetBaseOf(urn.entityType, platform, origin),
  };
}

export function searchFieldsOf(urn: Urn, state: { exists: boolean; aspects: ReadonlyMap<string, unknown> }): SearchFields {
  const d = descriptiveOf(urn.entityType);
  const described = d ? state.aspects.get(d.aspect) : undefined;
  const status = state.aspects.get('status') as { removed?: unknown } | undefined;
  const base = urnFields(urn);
  const removed = state.exists && status?.removed === true;
  const name = (d && firstString(described, d.name)) ?? base.name;
  const description = (d && firstString(described, d.description)) ?? null;
  const qualifiedName = firstString(described, ['qualifiedName']);
  return {
    ...base,
    exists: state.exists,
    removed,
    facetKey: base.facetKey + (state.exists ? 2 : 0) + (removed ? 1 : 0),
    name,
    qualifiedName: qualifiedName ?? null,
    description,
    searchText: searchTextOf([name, qualifiedName, base.name, urn.text, description]),
    typeNames: typeNamesOf(state.aspects.get('subTypes')),
  };
}

function typeNamesOf(subTypes: unknown): string[] | null {
  const names = (subTypes as { typeNames?: unknown } | undefined)?.typeNames;
  if (!Array.isArray(names)) return null;
  const kept = names.filter((n): n is string => typeof n === 'string' && n.length > 0);
  return kept.length ? kept : null;
}

const SEARCH_FIELD_NAMES = [
  'exists',
  'removed',
  'platform',
  'origin',
  'name',
  'qualifiedName',
  'description',
  'parentUrn',
  'searchText',
  'typeNames',
  'facetKey',
] as const;

/** Search fields as read from a node (a missing property reads as absent or null). */
export type StoredFields = { [K in (typeof SEARCH_FIELD_NAMES)[number]]?: unknown };

/**
 * The search fields an entity's rows derive, and those of them its node holds otherwise (none when
 * the node is up to date): what a write and restoreIndices both ask before rewriting a node.
 */
export function searchFieldDrift(
  urn: Urn,
  state: { exists: boolean; aspects: ReadonlyMap<string, unknown> },
  stored: StoredFields | undefined,
): { expected: SearchFields; drift: Record<string, { expected: unknown; actual: unknown }> } {
  const expected = searchFieldsOf(urn, state);
  return { expected, drift: diffFields(expected, stored) };
}

/** Fields of a node that differ from what its rows derive (missing properties read as null). */
export function diffFields(
  expected: SearchFields,
  actual: StoredFields | undefined,
): Record<string, { expected: unknown; actual: unknown }> {
  const out: Record<string, { expected: unknown; actual: unknown }> = {};
  for (const f of SEARCH_FIELD_NAMES) {
    const a = actual?.[f] ?? null;
    const e = expected[f];
    const same = Array.isArray(e) || Array.isArray(a) ? JSON.stringify(a) === JSON.stringify(e) : a === e;
    if (!same) out[f] = { expected: e, actual: a };
  }
  return out;
}
