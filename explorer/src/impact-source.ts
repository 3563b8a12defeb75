// What the impact list and its export ask the catalog for: the traced entity or column, a direction
// and the graph's filters (ImpactQuery), and one page of rows at a time — with paths and first-page
// facets for the list, without them for the export.
import { columnImpact, exportColumnImpactPage, exportLineagePage, scrollLineage, type LineageFilter } from './catalog-requests.ts';
import { schemaFieldUrnOf, splitColumnKey } from './columns.ts';
import { urnTail, type Direction } from './model.ts';
import { facetCountsOf, impactRowsOf, type FacetCounts, type ImpactCursor, type ImpactMode, type ImpactRow } from './impact-rows.ts';
import { degreeFilterValues, type ExplorerState } from './state.ts';

export interface ImpactQuery {
  mode: ImpactMode;
  /** The traced entity, or the traced column's schemaField urn. */
  urn: string;
  /** How the list's heading and the file name call it: the entity's name, or `parent.column`. */
  label: string;
  direction: Direction;
  filter: LineageFilter;
}

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

/** Two queries ask for the same rows. */
export function sameImpactQuery(a: ImpactQuery | null, b: ImpactQuery | null): boolean {
  const key = (q: ImpactQuery | null) => q && JSON.stringify([q.mode, q.urn, q.direction, q.filter.degrees, [...q.filter.types].sort(), [...q.filter.platforms].sort(), q.filter.timeWindow ?? null]);
  return key(a) === key(b);
}

/** A page of the list: rows with their paths, numbered on from `loaded`. */
export async function fetchListPage(q: ImpactQuery, cursor: ImpactCursor | null, count: number, loaded: number): Promise<ImpactPage> {
  if (q.mode === 'column') {
    const start = typeof cursor === 'number' ? cursor : 0;
    const page = await columnImpact(q.urn, q.direction, q.filter, start, count);
    const rows = impactRowsOf('column', page.searchResults, loaded);
    const end = start + page.searchResults.length;
    return { rows, total: page.total, next: page.searchResults.length && end < page.total ? end : null, partial: page.isPartial === true, facets: null };
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
  if (q.mode === 'column') {
    const start = typeof cursor === 'number' ? cursor : 0;
    const page = await exportColumnImpactPage(q.urn, q.direction, q.filter, start, count);
    const end = start + page.searchResults.length;
    return { rows: impactRowsOf('column', page.searchResults, loaded), total: page.total, next: page.searchResults.length && end < page.total ? end : null, partial: page.isPartial === true, facets: null };
  }
  const page = await exportLineagePage(q.urn, q.direction, q.filter, typeof cursor === 'string' ? cursor : null, count);
  return { rows: impactRowsOf('entity', page.searchResults, loaded), total: page.total, next: page.searchResults.length ? page.nextScrollId : null, partial: page.isPartial === true, facets: null };
}
