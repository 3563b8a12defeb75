// The impact list's rows, built from lineage results without touching the page: one row per reached
// entity (entity mode) or per reached column (column mode), their sort orders, the facet counts of a
// first page, and the CSV records of the export. impact-list.ts draws them, impact-export.ts writes them.
import { schemaFieldParts } from '@lineage/catalog/browser';
import { csvRecord } from './csv.ts';
import { summarise, typeLabel, urnTail, type Direction, type RawEntity, type RawResult } from './model.ts';
import type { Facet } from './queries.ts';

/** Entity mode traces an entity; column mode traces the selected column (state.selectedColumn). */
export type ImpactMode = 'entity' | 'column';

/** A scroll id (entity mode, scrollAcrossLineage) or a result offset (column mode, searchAcrossLineage). */
export type ImpactCursor = string | number;

/** A lineage result as the impact requests return it: a column carries its parent, paths are optional. */
export interface ImpactResult extends RawResult {
  entity: RawEntity & { parent?: { urn: string; type: string; properties?: { name?: string | null } | null } | null };
}

export interface ImpactRow {
  /** The result itself: an entity, or a column's schemaField urn. */
  urn: string;
  degree: number;
  /** API type of the entity the row names: the result, or a column's parent. */
  type: string;
  /** Name of that entity. */
  name: string;
  platform: string | null;
  /** What clicking the name centres the graph on: the entity, or a column's parent. */
  target: string;
  /** Column mode: the column's fieldPath; '' for a job the column lineage passed through. */
  column: string | null;
  /** Column mode: the column's parent entity; null for a job. */
  parentUrn: string | null;
  /** Each path the catalog gave from the traced entity or column to this result, as urns. */
  paths: string[][];
  /** Position in the catalog's (degree, urn) order: the last tie-break of every sort. */
  order: number;
}

function pathsOf(r: RawResult): string[][] {
  const out: string[][] = [];
  for (const p of r.paths ?? []) {
    const steps = (p?.path ?? []).filter((s): s is RawEntity => s !== null).map((s) => s.urn);
    if (steps.length) out.push(steps);
  }
  return out;
}

/** Rows of one page of results, numbered on from `firstOrder`. */
export function impactRowsOf(mode: ImpactMode, results: readonly ImpactResult[], firstOrder: number): ImpactRow[] {
  return results.map((r, i) => {
    const order = firstOrder + i;
    const parent = r.entity.parent;
    if (mode === 'column' && r.entity.type === 'SCHEMA_FIELD' && parent) {
      // The column impact requests select the parent's key, and a chart's or dashboard's title (its
      // urn holds only an id); a dataset's name and platform are the ones its urn implies.
      const p = summarise({ urn: parent.urn, type: parent.type, properties: parent.properties ?? null });
      return {
        urn: r.entity.urn,
        degree: r.degree,
        type: parent.type,
        name: p.name,
        platform: p.platform,
        target: parent.urn,
        column: r.entity.fieldPath ?? schemaFieldParts(r.entity.urn)?.path ?? '',
        parentUrn: parent.urn,
        paths: pathsOf(r),
        order,
      };
    }
    const s = summarise(r.entity);
    return {
      urn: s.urn,
      degree: r.degree,
      type: s.type,
      name: s.name,
      platform: s.platform,
      target: s.urn,
      column: mode === 'column' ? '' : null,
      parentUrn: null,
      paths: pathsOf(r),
      order,
    };
  });
}

/** How a path step reads: a column as `parent.column`, anything else by the name its urn implies. */
export function stepName(urn: string): string {
  const field = schemaFieldParts(urn);
  return field ? `${urnTail(field.parent)}.${field.path}` : urnTail(urn);
}

export type SortKey = 'degree' | 'name' | 'type' | 'column';

export interface ImpactSort {
  key: SortKey;
  descending: boolean;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The rows in a new array, by `sort.key` (names and types as read, ignoring case, numbers in names
 * by value), ties by degree and then in the catalog's order, so a sort is the same on every click.
 */
export function sortRows(rows: readonly ImpactRow[], sort: ImpactSort): ImpactRow[] {
  const primary = (a: ImpactRow, b: ImpactRow): number => {
    switch (sort.key) {
      case 'degree':
        return a.degree - b.degree;
      case 'name':
        return collator.compare(a.name, b.name);
      case 'type':
        return collator.compare(typeLabel(a.type), typeLabel(b.type));
      case 'column':
        return collator.compare(a.column ?? '', b.column ?? '');
    }
  };
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => sign * primary(a, b) || a.degree - b.degree || a.order - b.order);
}

export interface FacetCounts {
  /** API type → count, most first. */
  types: Array<{ value: string; label: string; count: number }>;
  platforms: Array<{ value: string; label: string; count: number }>;
}

/** The type and platform counts of a first page's facets, most first (the facets' own order otherwise). */
export function facetCountsOf(facets: readonly Facet[] | null | undefined): FacetCounts {
  const out: FacetCounts = { types: [], platforms: [] };
  for (const f of facets ?? []) {
    if (f.field === '_entityType') {
      for (const a of f.aggregations) out.types.push({ value: a.value, label: typeLabel(a.value), count: a.count });
    } else if (f.field === 'platform') {
      for (const a of f.aggregations) {
        out.platforms.push({
          value: a.value,
          label: a.entity?.properties?.displayName ?? a.entity?.name ?? a.displayName ?? urnTail(a.value),
          count: a.count,
        });
      }
    }
  }
  const most = (a: { count: number; label: string }, b: { count: number; label: string }) =>
    b.count - a.count || collator.compare(a.label, b.label);
  out.types.sort(most);
  out.platforms.sort(most);
  return out;
}

/** The export's columns: DataHub's impact-analysis CSV names, the ones this page can fill. */
export const ENTITY_CSV_COLUMNS = ['urn', 'name', 'type', 'platform', 'entity url', 'level of dependency'] as const;
export const COLUMN_CSV_COLUMNS = [...ENTITY_CSV_COLUMNS, 'column', 'parent urn'] as const;

export function csvHeaderOf(mode: ImpactMode): string {
  return csvRecord(mode === 'column' ? COLUMN_CSV_COLUMNS : ENTITY_CSV_COLUMNS);
}

/** This page's link to an entity: the explorer at `pageAddress` centred on it. */
function entityLink(pageAddress: string, urn: string): string {
  return `${pageAddress}#urn=${encodeURIComponent(urn)}`;
}

/** A row as a CSV record; its entity url opens the entity the row names (a column's parent). */
export function csvRecordOf(row: ImpactRow, mode: ImpactMode, pageAddress: string): string {
  const common = [row.urn, row.name, typeLabel(row.type), row.platform, entityLink(pageAddress, row.target), row.degree];
  return csvRecord(mode === 'column' ? [...common, row.column, row.parentUrn] : common);
}

/** A file name people can keep: `lineage-<name>-<direction>.csv`, odd characters turned into `_`. */
export function exportFileName(name: string, direction: Direction): string {
  const safe =
    name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+|_+$/g, '')
      .slice(0, 120) || 'entity';
  return `lineage-${safe}-${direction.toLowerCase()}.csv`;
}
