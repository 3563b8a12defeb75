// Pure parts of restoreIndices: which rows the registry accepts, how a LIKE pattern becomes an
// index range, and the difference between the derived state a row justifies and what the graph
// holds. No database access here, so every rule is unit-tested on its own.
import { checkAspectPlacement } from '../../model/aspects/index.ts';
import { entityTypeSpec } from '../../model/entity-type-spec.ts';
import { likeToRegex } from '../../store/like-pattern.ts';
import type { DerivedEdge } from '../../model/relationships.ts';
import { InvalidUrnError, parseUrn, type Urn } from '../../model/urn.ts';

// ---------------------------------------------------------------------------------------------
// Scope

/** Above every urn the catalog stores (they start with "urn:"), so it closes an open range. */
const RANGE_TOP = '\uffff\uffff';

export interface UrnRange {
  lower: string;
  upper: string;
  /** Java regex for Cypher's =~ (anchored by =~ itself). */
  regex: string;
}

/** Literal text before the first unescaped wildcard of a SQL LIKE pattern. */
export function likePrefix(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += pattern[++i]!;
    else if (c === '%' || c === '_') return out;
    else out += c;
  }
  return out;
}

/** Smallest string above every string that starts with prefix. */
function prefixUpper(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const code = prefix.charCodeAt(i);
    if (code < 0xffff) return prefix.slice(0, i) + String.fromCharCode(code + 1);
  }
  return RANGE_TOP;
}

/**
 * The index range and filter of a scope: an exact urn is [urn, urn + "\0"), a LIKE pattern is its
 * literal prefix's range plus the full pattern as a regex, nothing is everything.
 */
export function urnRange(scope: { urn?: string | undefined; urnLike?: string | undefined }): UrnRange {
  const like = scope.urnLike === undefined ? undefined : likeToRegex(scope.urnLike);
  if (scope.urn !== undefined) {
    return { lower: scope.urn, upper: `${scope.urn}\u0000`, regex: like ?? '(?s).*' };
  }
  if (scope.urnLike !== undefined) {
    const prefix = likePrefix(scope.urnLike);
    return { lower: prefix, upper: prefix === '' ? RANGE_TOP : prefixUpper(prefix), regex: like! };
  }
  return { lower: '', upper: RANGE_TOP, regex: '(?s).*' };
}

/** likeToRegex's Java-flavoured pattern as a JS RegExp (same semantics for what it emits). */
export function likeMatcher(pattern: string): RegExp {
  return new RegExp(`^(?:${likeToRegex(pattern).replace(/^\(\?s\)/, '')})$`, 's');
}

// ---------------------------------------------------------------------------------------------
// Registry check

export type RowCheck = { ok: true; urn: Urn; value: unknown } | { ok: false; reason: string };

/** Urn alone: parseable, canonical, of a valid entity type whose key fits. */
export function checkUrn(urnText: string): { ok: true; urn: Urn } | { ok: false; reason: string } {
  let urn: Urn;
  try {
    urn = parseUrn(urnText);
  } catch (e) {
    if (e instanceof InvalidUrnError) return { ok: false, reason: `invalid urn (${e.reason})` };
    return { ok: false, reason: `invalid urn (${(e as Error).message})` };
  }
  if (urn.text !== urnText) return { ok: false, reason: `urn is not in canonical form (${urn.text})` };
  try {
    entityTypeSpec(urn.entityType);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, urn };
}

/**
 * Whether a stored row can be restored: its urn (checkUrn), its JSON, and its aspect name against
 * the entity's registry entry (name syntax, another type's key aspect, an entity-specific aspect on
 * the wrong type, a urn whose key does not fit its type). A value that merely fails today's schema
 * is still restored: derivation reads stored values defensively, and ignoring such a row would
 * drop edges the write path once accepted.
 */
export function checkRow(urnText: string, aspect: string, valueText: string): RowCheck {
  const u = checkUrn(urnText);
  if (!u.ok) return u;
  let value: unknown;
  try {
    value = JSON.parse(valueText);
  } catch {
    return { ok: false, reason: 'stored value is not valid JSON' };
  }
  try {
    checkAspectPlacement(aspect, u.urn);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, urn: u.urn, value };
}

// ---------------------------------------------------------------------------------------------
// Edge difference

/** An edge as edges/owned-by returns it (typed or LINEAGE). */
export interface StoredEdge {
  owner: string;
  aspect: string;
  type: string;
  key: string;
  source: string;
  destination: string;
  createdOn: number | null;
  createdActor: string | null;
  updatedOn: number | null;
  updatedActor: string | null;
  properties: string | null;
  via: string | null;
  manual: boolean | null;
  lineageType: string | null;
}

export interface EdgeRef {
  type: string;
  key: string;
  source: string;
  destination: string;
  owner: string;
  aspect: string;
}

export interface ChangedEdge extends EdgeRef {
  fields: Record<string, { expected: unknown; actual: unknown }>;
}

export interface EdgeDiff {
  missing: EdgeRef[];
  extra: EdgeRef[];
  changed: ChangedEdge[];
  /** Edges to (re)create: missing, changed, and those a deletion of an extra edge takes along. */
  toMerge: DerivedEdge[];
  /** Relationships to delete, as edges/delete-by-key rows. */
  toDelete: Array<{ source: string; destination: string; key: string }>;
}

const LINEAGE = 'LINEAGE';

/** What a stored relationship should look like, per derived edge: the typed edge and its LINEAGE twin. */
function expectedOf(e: DerivedEdge): Array<{ ref: EdgeRef; props: Record<string, unknown> }> {
  const typed = {
    ref: { type: e.type, key: e.key, source: e.source, destination: e.destination, owner: e.owner, aspect: e.aspect },
    props: {
      createdOn: e.createdOn,
      createdActor: e.createdActor,
      updatedOn: e.updatedOn,
      updatedActor: e.updatedActor,
      properties: e.properties === null ? null : JSON.stringify(e.properties),
      via: e.via,
      manual: e.manual,
    },
  };
  if (!e.lineage) return [typed];
  return [
    typed,
    {
      ref: { type: LINEAGE, key: e.key, source: e.lineage.upstream, destination: e.lineage.downstream, owner: e.owner, aspect: e.aspect },
      props: { lineageType: e.type, createdOn: e.createdOn, updatedOn: e.updatedOn, manual: e.manual, via: e.via },
    },
  ];
}

function actualProps(s: StoredEdge, expected: Record<string, unknown>): Record<string, unknown> {
  const all: Record<string, unknown> = {
    createdOn: s.createdOn,
    createdActor: s.createdActor,
    updatedOn: s.updatedOn,
    updatedActor: s.updatedActor,
    properties: s.properties,
    via: s.via,
    manual: s.manual,
    lineageType: s.lineageType,
  };
  return Object.fromEntries(Object.keys(expected).map((k) => [k, all[k] ?? null]));
}

const refOf = (s: StoredEdge): EdgeRef => ({
  type: s.type,
  key: s.key,
  source: s.source,
  destination: s.destination,
  owner: s.owner,
  aspect: s.aspect,
});
const idOf = (type: string, key: string) => `${type === LINEAGE ? LINEAGE : 'typed'}\u0000${key}`;
const pairOf = (a: string, b: string, key: string) => (a < b ? `${a}\u0000${b}\u0000${key}` : `${b}\u0000${a}\u0000${key}`);

/**
 * Compares the edges some rows justify with the edges the graph holds for the same owners and
 * aspects. A stored edge is extra when no derived edge has its identity (typed/LINEAGE, key) or
 * when it duplicates one or joins the wrong nodes; it is changed when only properties differ.
 * edges/delete-by-key removes every relationship with the key between the two nodes, so a derived
 * edge sharing that node pair and key is merged again afterwards.
 */
export function diffEdges(derived: readonly DerivedEdge[], stored: readonly StoredEdge[]): EdgeDiff {
  const expected = new Map<string, { edge: DerivedEdge; ref: EdgeRef; props: Record<string, unknown> }>();
  for (const e of derived) for (const x of expectedOf(e)) expected.set(idOf(x.ref.type, x.ref.key), { edge: e, ...x });
  const storedById = new Map<string, StoredEdge[]>();
  for (const s of stored) {
    const id = idOf(s.type, s.key);
    const list = storedById.get(id);
    if (list) list.push(s);
    else storedById.set(id, [s]);
  }

  const diff: EdgeDiff = { missing: [], extra: [], changed: [], toMerge: [], toDelete: [] };
  const merge = new Map<string, DerivedEdge>();
  const deletedPairs = new Set<string>();
  const remove = (s: StoredEdge) => {
    diff.extra.push(refOf(s));
    const pair = pairOf(s.source, s.destination, s.key);
    if (!deletedPairs.has(pair)) {
      deletedPairs.add(pair);
      diff.toDelete.push({ source: s.source, destination: s.destination, key: s.key });
    }
  };

  for (const [id, list] of storedById) {
    const want = expected.get(id);
    if (!want) {
      list.forEach(remove);
      continue;
    }
    const [first] = list;
    const sameEnds =
      list.length === 1 &&
      first!.type === want.ref.type &&
      first!.source === want.ref.source &&
      first!.destination === want.ref.destination &&
      first!.owner === want.ref.owner &&
      first!.aspect === want.ref.aspect;
    if (!sameEnds) {
      list.forEach(remove);
      diff.missing.push(want.ref);
      merge.set(want.edge.key, want.edge);
      continue;
    }
    const actual = actualProps(first!, want.props);
    const fields: ChangedEdge['fields'] = {};
    for (const [k, v] of Object.entries(want.props)) {
      if (actual[k] !== v) fields[k] = { expected: v, actual: actual[k] };
    }
    if (Object.keys(fields).length) {
      diff.changed.push({ ...want.ref, fields });
      merge.set(want.edge.key, want.edge);
    }
  }
  for (const [id, want] of expected) {
    if (!storedById.has(id)) {
      diff.missing.push(want.ref);
      merge.set(want.edge.key, want.edge);
    }
  }
  // Collateral of delete-by-key: any expected relationship between a deleted pair with that key.
  for (const want of expected.values()) {
    if (deletedPairs.has(pairOf(want.ref.source, want.ref.destination, want.ref.key))) merge.set(want.edge.key, want.edge);
  }
  diff.toMerge = [...merge.values()];
  return diff;
}
