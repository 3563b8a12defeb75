// searchAcrossLineageCounts (docs/wire-contract.md §Lineage counts): how many entities a lineage
// search would reach, without the search. Two readings, as in DataHub:
// - materialized (includeGhostEntities false): entities with key rows of their own that a search
//   could return (a column only when something was written to its own urn), soft-deleted ones
//   only when asked; any lineage filter field;
// - the graph (includeGhostEntities true): every node the walk reaches, ghosts and soft-deleted
//   ones too, filtered only by what a urn and its parent tell (platform, origin, parent) — anything
//   else is a 400 — and, unless validation is off, columns confirmed by their parent's schema.
// A filter on a listed field (tags, glossaryTerms, owners, domains) holds the rows that pass
// everything else and reads those fields for them afterwards, as a search does (listed.ts).
import { badRequest } from '../../model/errors.ts';
import { fieldPathAliases, originOf, parentOf, platformOf } from '../../model/key-search-fields.ts';
import { clausesMatch, type FilterField, type FilterSubject } from '../../model/filters.ts';
import { readListedValues } from './listed.ts';
import type { Store } from '../../store/store.ts';
import { rowKey } from '../../store/rows.ts';
import { hasLineage } from '../../model/relationships.ts';
import { parseUrn, tryParseUrn } from '../../model/urn.ts';
import { normalizeQuery, type LineageLimits, type LineageQuery } from './query.ts';
import { planLineageRead } from './plan.ts';
import { reach, type ReachRow } from './traverse.ts';
import { countInDatabase } from './select.ts';

const SCHEMA_FIELD_VALIDATION = ['NONE', 'AUTO', 'ALWAYS'] as const;
type SchemaFieldValidation = (typeof SCHEMA_FIELD_VALIDATION)[number];

export interface LineageCountQuery extends Omit<LineageQuery, 'includeGhosts' | 'liftFields' | 'includePaths'> {
  includeGhostEntities?: boolean | null | undefined;
  validateSchemaFields?: SchemaFieldValidation | null | undefined;
}

/** What a count off the graph can filter on: what a urn and its parent tell. */
const GRAPH_FILTER_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>(['platform', 'origin', 'parent']);

/** AUTO validates columns against their parents' schemas up to this many parents, like ALWAYS. */
const MAX_PARENTS_TO_VALIDATE = 1000;

/**
 * Columns their parent's schemaMetadata declares (by fieldPath or its plain v2 form); a column
 * whose parent has no schemaMetadata is confirmed by nothing.
 */
async function declaredColumns(store: Store, rows: ReachRow[], timeoutMs: number): Promise<Set<string>> {
  const parents = [...new Set(rows.flatMap((r) => (r.entityType === 'schemaField' && r.parentUrn ? [r.parentUrn] : [])))];
  if (!parents.length) return new Set();
  const schemas = await store.read(
    (tx) => tx.run<{ urn: string; value: string }>('aspects/fetch-latest', { keys: parents.map((p) => rowKey(p, 'schemaMetadata')) }),
    { timeoutMs, metadata: { app: 'lineage', op: 'declared-columns' } },
  );
  const declared = new Set<string>();
  for (const s of schemas) {
    let fields: unknown;
    try {
      fields = (JSON.parse(s.value) as { fields?: unknown }).fields;
    } catch {
      continue;
    }
    for (const f of Array.isArray(fields) ? fields : []) {
      const path = (f as { fieldPath?: unknown } | null)?.fieldPath;
      if (typeof path === 'string') for (const alias of fieldPathAliases(path)) declared.add(`${s.urn}\u0000${alias}`);
    }
  }
  return declared;
}

function isDeclared(declared: Set<string>, row: ReachRow): boolean {
  const fieldPath = parseUrn(row.urn).parts[1] ?? '';
  // The urn carries the fieldPath as DataHub encodes it; a schema declares it as written.
  const written = fieldPath.replaceAll('%28', '(').replaceAll('%29', ')').replaceAll('%2C', ',');
  return [fieldPath, written].some((p) => fieldPathAliases(p).some((a) => declared.has(`${row.parentUrn}\u0000${a}`)));
}

export async function countLineage(store: Store, q: LineageCountQuery, limits: LineageLimits): Promise<number> {
  const startedAt = Date.now();
  const fromGraph = q.includeGhostEntities === true;
  const nq = normalizeQuery({ ...q, liftFields: false, includeGhosts: fromGraph }, startedAt);
  if (fromGraph) {
    const fields = new Set((nq.clauses ?? []).flat().map((c) => c.field));
    const unservable = [...fields].filter((f) => !GRAPH_FILTER_FIELDS.has(f)).sort();
    if (unservable.length || nq.queryTokens.length || nq.program) {
      throw badRequest(
        `A count with includeGhostEntities reads the lineage graph alone, which can filter on platform, origin, parent and degree only; got ${
          unservable.length ? `filters on ${unservable.join(', ')}` : `the text query '${q.query}'`
        }`,
      );
    }
  }
  const source = tryParseUrn(q.urn);
  if (!source) throw badRequest(`Invalid urn: ${q.urn}`);
  if (!hasLineage(source.entityType)) return 0;
  // A materialized count is what a search would total, without its text query: counted in Neo4j
  // when the search's selection could be (a reach without columns), else from streamed rows.
  const walked = { ...nq, urn: source.text };
  const counting = { ...walked, queryTokens: [], program: null };
  const counted = fromGraph ? null : await countInDatabase(store, counting, planLineageRead(counting, limits), limits, startedAt);
  if (counted !== null) return counted;
  // Rows are counted as they pass; only columns are held (urn and parent), for the schema check,
  // and — under a filter on a listed field — the subjects still to be judged on it.
  let count = 0;
  let columns: ReachRow[] = [];
  let pending: FilterSubject[] = [];
  const listed = nq.listedFields.size > 0;
  const kept = (r: ReachRow) =>
    nq.resultTypes.has(r.entityType) &&
    (nq.degreePredicate === null || nq.degreePredicate(r.degree)) &&
    (fromGraph || (r.ownExists && (nq.includeSoftDeleted || !r.removed)));
  await reach(store, walked, planLineageRead(walked, limits), limits, startedAt, {
    reset: () => {
      count = 0;
      columns = [];
      pending = [];
    },
    add: (r) => {
      if (!kept(r)) return;
      if (listed) return void pending.push(subjectOf(r));
      if (!clausesMatch(subjectOf(r), nq.clauses)) return;
      if (fromGraph && r.entityType === 'schemaField') columns.push({ ...r, name: null, description: null, parent: null });
      else count++;
    },
  });
  if (listed) {
    const lists = await readListedValues(
      store,
      pending.map((s) => s.urn),
      nq.listedFields,
      startedAt + limits.deadlineMs - Date.now(),
    );
    for (const s of pending) if (clausesMatch({ ...s, lists: lists.get(s.urn) ?? null }, nq.clauses)) count++;
  }
  if (fromGraph) {
    const validation = q.validateSchemaFields ?? 'AUTO';
    const parents = new Set(columns.flatMap((r) => (r.parentUrn ? [r.parentUrn] : [])));
    if (validation === 'ALWAYS' || (validation === 'AUTO' && parents.size <= MAX_PARENTS_TO_VALIDATE)) {
      const declared = await declaredColumns(store, columns, Math.max(1, startedAt + limits.deadlineMs - Date.now()));
      columns = columns.filter((r) => isDeclared(declared, r));
    }
  }
  return count + columns.length;
}

/** A row's filterable fields; a ghost column whose parent is not even a node takes them from its urn. */
function subjectOf(r: ReachRow) {
  const urn = parseUrn(r.urn);
  const parent = parentOf(urn);
  return {
    urn: r.urn,
    entityType: r.entityType,
    removed: r.removed,
    parent: r.parentUrn,
    name: r.name,
    description: r.description,
    platform: r.platform ?? platformOf(urn) ?? null,
    origin: r.origin ?? (parent ? originOf(parent) : originOf(urn)) ?? null,
  };
}
