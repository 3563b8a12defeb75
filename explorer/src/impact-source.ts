// What the impact list and its export ask the catalog for: the traced entity or column, a direction
// and the graph's filters (state.ts ImpactQuery), and one page of rows at a time — with paths and first-page
// facets for the list, without them for the export.
import { columnImpact, exportColumnImpactPage, exportLineagePage, scrollLineage, type LineageFilter } from './catalog-requests.ts';
import { schemaFieldUrnOf, splitColumnKey } from './columns.ts';
import { urnTail, type Direction } from './model.ts';
import { facetCountsOf, impactRowsOf, type FacetCounts, type ImpactCursor, type ImpactRow } from './impact-rows.ts';
import { degreeFilterValues, type ExplorerState, type ImpactQuery } from './state.ts';

export interface ImpactPage {
  rows: ImpactRow[];
  total: number;
  /** Where the next page starts; null after the last. */
  next: ImpactCursor | null;
  partial: boolean;
  /** Counts by type and platform: on an entity-mode first page of the list only. */
  facets: FacetCounts | null;
}

/**
 * What the list shows for the page as it stands: the selected column when there is one, else the
 * centre; null before an entity is open. The filter is a copy, so a later change of the controls
 * does not change a query already asked.
 */
export function impactQueryOf(state: ExplorerState, direction: Direction): ImpactQuery | null {
  const filter: LineageFilter = {
    degrees: degreeFilterValues(state.degree),
    types: new Set(state.types),
    platforms: new Set(state.platforms),
    timeWindow: { ...state.timeWindow },
  };
  if (state.selectedColumn) {
    const { dataset, path } = splitColumnKey(state.selectedColumn);
    const name = state.graph?.nodes.get(dataset)?.name ?? urnTail(dataset);
    return { mode: 'column', urn: schemaFieldUrnOf(state.selectedColumn), label: `${name}.${path}`, direction, filter };
  }
  const centre = state.graph?.centre ?? state.centre?.urn;
  if (!centre) return null;
  const label = state.graph?.nodes.get(centre)?.name ?? (state.centre?.urn === centre ? state.centre.name : urnTail(centre));
  return { mode: 'entity', urn: centre, label, direction, filter };
}

/** What decides a query's rows, as one comparable text. */
const queryKey = (q: ImpactQuery) =>
  JSON.stringify([
    q.mode,
    q.urn,
    q.direction,
    q.filter.degrees,
    [...q.filter.types].sort(),
    [...q.filter.platforms].sort(),
    q.filter.timeWindow ?? null,
  ]);

/** Two queries ask for the same rows. */
export function sameImpactQuery(a: ImpactQuery | null, b: ImpactQuery | null): boolean {
  return (a && queryKey(a)) === (b && queryKey(b));
}

/** Reached columns asked for per request, and at most in all, while the page applies a type filter. */
const TYPED_COLUMN_BATCH = 1_000;
const TYPED_COLUMN_LIMIT = 20_000;

/** The last column reach read whole for a type filter: paging through it asks the catalog once. */
let typedColumns: { key: string; rows: Promise<{ rows: ImpactRow[]; partial: boolean }> } | null = null;

/**
 * Column mode with types ticked. Reached columns come back as SCHEMA_FIELD results, which DataHub's
 * `_entityType` filter would drop every one of; the types the user ticked name the columns' parents
 * (a dataset, chart or dashboard, or the job a column passed through). So the page reads the column
 * reach whole, in batches (at most TYPED_COLUMN_LIMIT, beyond which the list says it is partial), and
 * keeps the rows whose parent has a ticked type; total and pages come from that one list, so they
 * agree with each other.
 */
function typedColumnRows(q: ImpactQuery, withPaths: boolean): Promise<{ rows: ImpactRow[]; partial: boolean }> {
  const key = `${withPaths}\u0000${queryKey(q)}`;
  if (typedColumns?.key === key) return typedColumns.rows;
  const rows = (async () => {
    const kept: ImpactRow[] = [];
    let partial = false;
    for (let start = 0; ; start += TYPED_COLUMN_BATCH) {
      const page = withPaths
        ? await columnImpact(q.urn, q.direction, q.filter, start, TYPED_COLUMN_BATCH)
        : await exportColumnImpactPage(q.urn, q.direction, q.filter, start, TYPED_COLUMN_BATCH);
      partial ||= page.isPartial === true;
      for (const row of impactRowsOf('column', page.searchResults, 0))
        if (q.filter.types.has(row.type)) kept.push({ ...row, order: kept.length });
      const end = start + page.searchResults.length;
      if (!page.searchResults.length || end >= page.total) break;
      if (end >= TYPED_COLUMN_LIMIT) {
        partial = true;
        break;
      }
    }
    return { rows: kept, partial };
  })();
  typedColumns = { key, rows };
  // A failed read is not kept: asking again asks the catalog again.
  rows.catch(() => {
    if (typedColumns?.rows === rows) typedColumns = null;
  });
  return rows;
}

/** A page of the type-filtered column reach, numbered on from `loaded`. */
async function typedColumnPage(
  q: ImpactQuery,
  cursor: ImpactCursor | null,
  count: number,
  loaded: number,
  withPaths: boolean,
): Promise<ImpactPage> {
  const { rows, partial } = await typedColumnRows(q, withPaths);
  const start = typeof cursor === 'number' ? cursor : 0;
  const page = rows.slice(start, start + count).map((r, i) => ({ ...r, order: loaded + i }));
  const end = start + page.length;
  return { rows: page, total: rows.length, next: page.length && end < rows.length ? end : null, partial, facets: null };
}

/** A page of the list: rows with their paths, numbered on from `loaded`. */
export async function fetchListPage(q: ImpactQuery, cursor: ImpactCursor | null, count: number, loaded: number): Promise<ImpactPage> {
  if (q.mode === 'column' && q.filter.types.size) return typedColumnPage(q, cursor, count, loaded, true);
  if (q.mode === 'column') {
    const start = typeof cursor === 'number' ? cursor : 0;
    const page = await columnImpact(q.urn, q.direction, q.filter, start, count);
    const rows = impactRowsOf('column', page.searchResults, loaded);
    const end = start + page.searchResults.length;
    return {
      rows,
      total: page.total,
      next: page.searchResults.length && end < page.total ? end : null,
      partial: page.isPartial === true,
      facets: null,
    };
  }
  const page = await scrollLineage(q.urn, q.direction, q.filter, typeof cursor === 'string' ? cursor : null, count);
  return {
    rows: impactRowsOf('entity', page.searchResults, loaded),
    total: page.total,
    next: page.searchResults.length ? page.nextScrollId : null,
    partial: page.isPartial === true,
    facets: cursor === null ? facetCountsOf(page.facets) : null,
  };
}

/** A page of the export: the same rows without paths. */
export async function fetchExportPage(q: ImpactQuery, cursor: ImpactCursor | null, count: number, loaded: number): Promise<ImpactPage> {
  if (q.mode === 'column' && q.filter.types.size) return typedColumnPage(q, cursor, count, loaded, false);
  if (q.mode === 'column') {
    const start = typeof cursor === 'number' ? cursor : 0;
    const page = await exportColumnImpactPage(q.urn, q.direction, q.filter, start, count);
    const end = start + page.searchResults.length;
    return {
      rows: impactRowsOf('column', page.searchResults, loaded),
      total: page.total,
      next: page.searchResults.length && end < page.total ? end : null,
      partial: page.isPartial === true,
      facets: null,
    };
  }
  const page = await exportLineagePage(q.urn, q.direction, q.filter, typeof cursor === 'string' ? cursor : null, count);
  return {
    rows: impactRowsOf('entity', page.searchResults, loaded),
    total: page.total,
    next: page.searchResults.length ? page.nextScrollId : null,
    partial: page.isPartial === true,
    facets: null,
  };
}
