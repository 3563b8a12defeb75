// Column-level lineage for the column display: a dataset's columns come from its schemaMetadata
// aspect plus every field named in fine-grained lineage; column edges come from each downstream
// dataset's Dataset.fineGrainedLineages (upstream fields → downstream fields, docs/wire-contract.md §GraphQL).
// Charts and dashboards have columns too: their inputFields aspect names, for each of their own
// fields, the column it reads (docs/lineage-model.md §inputFields), which becomes the same kind of edge.
import { schemaFieldParts, UNIT_SEPARATOR } from '@lineage/catalog/browser';

interface SchemaFieldRef {
  /** The parent dataset urn. */
  urn: string;
  /** The fieldPath; '' when the upstream is a whole dataset. */
  path: string;
}

export interface FineGrainedLineage {
  upstreams?: SchemaFieldRef[] | null;
  downstreams?: SchemaFieldRef[] | null;
}

/** One entity's columns: a dataset's, or a chart's or dashboard's (from inputFields). */
export interface DatasetColumnsInput {
  urn: string;
  fineGrainedLineages?: FineGrainedLineage[] | null;
  /** schemaMetadata.fields[].fieldPath, in schema order. */
  schemaFields: string[];
}

export interface ColumnEdge {
  from: string;
  to: string;
}

export interface ColumnGraph {
  /** Column paths per dataset: schema order, then fields only known from lineage. */
  columns: Map<string, string[]>;
  edges: ColumnEdge[];
}

export const columnKey = (dataset: string, path: string): string => `${dataset}${UNIT_SEPARATOR}${path}`;
export function splitColumnKey(key: string): { dataset: string; path: string } {
  const i = key.lastIndexOf(UNIT_SEPARATOR);
  return { dataset: key.slice(0, i), path: key.slice(i + UNIT_SEPARATOR.length) };
}

/** Types whose nodes show column rows. */
export const TYPES_WITH_COLUMNS: ReadonlySet<string> = new Set(['DATASET', 'CHART', 'DASHBOARD']);

/** A chart's or dashboard's own column urns percent-encode `(`, `)` and `,` of the fieldPath. */
const encodeOwnedPath = (path: string) => path.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/,/g, '%2C');
const decodeOwnedPath = (path: string) => path.replace(/%28/g, '(').replace(/%29/g, ')').replace(/%2C/gi, ',');

/** The column key of a schemaField urn (its fieldPath decoded); null for any other urn. */
export function columnKeyOfUrn(urn: string): string | null {
  const parts = schemaFieldParts(urn);
  return parts ? columnKey(parts.parent, decodeOwnedPath(parts.path)) : null;
}

/** The schemaField urn of a column key: the urn the catalog's column walks start from. */
export function schemaFieldUrnOf(key: string): string {
  const { dataset, path } = splitColumnKey(key);
  const written = dataset.startsWith('urn:li:dataset:') ? path : encodeOwnedPath(path);
  return `urn:li:schemaField:(${dataset},${written})`;
}

/**
 * A chart's or dashboard's columns from its inputFields payload: each entry's fieldPath is one of
 * the owner's columns, downstream of the column its schemaFieldUrn names. Tolerant of anything
 * unexpected (entries without both are skipped).
 */
export function inputFieldColumns(owner: string, payload: string | null | undefined): DatasetColumnsInput {
  const out: DatasetColumnsInput = { urn: owner, schemaFields: [], fineGrainedLineages: [] };
  if (!payload) return out;
  let value: { fields?: Array<{ schemaFieldUrn?: unknown; schemaField?: { fieldPath?: unknown } }> };
  try {
    value = JSON.parse(payload) as typeof value;
  } catch {
    return out;
  }
  for (const f of value.fields ?? []) {
    const path = f.schemaField?.fieldPath;
    if (typeof path !== 'string' || path === '') continue;
    if (!out.schemaFields.includes(path)) out.schemaFields.push(path);
    const input = typeof f.schemaFieldUrn === 'string' ? schemaFieldParts(f.schemaFieldUrn) : null;
    if (input)
      out.fineGrainedLineages!.push({
        upstreams: [{ urn: input.parent, path: decodeOwnedPath(input.path) }],
        downstreams: [{ urn: owner, path }],
      });
  }
  return out;
}

/** v2 field paths (`[version=2.0].[type=struct].a.[type=string].b`) read as `a.b`. */
export function displayFieldPath(path: string): string {
  if (!path.startsWith('[')) return path;
  return path.replace(/\[[^\]]*\]\.?/g, '') || path;
}

/** Parses a schemaMetadata RawAspect payload; tolerant of anything unexpected (returns []). */
export function schemaFieldsOf(payload: string | null | undefined): string[] {
  if (!payload) return [];
  try {
    const value = JSON.parse(payload) as { fields?: Array<{ fieldPath?: unknown }> };
    return (value.fields ?? []).map((f) => f.fieldPath).filter((p): p is string => typeof p === 'string');
  } catch {
    return [];
  }
}

export function buildColumnGraph(datasets: readonly DatasetColumnsInput[]): ColumnGraph {
  const columns = new Map<string, string[]>();
  const seen = new Set<string>();
  const addColumn = (dataset: string, path: string) => {
    if (path === '') return;
    const key = columnKey(dataset, path);
    if (seen.has(key)) return;
    seen.add(key);
    const list = columns.get(dataset) ?? [];
    list.push(path);
    columns.set(dataset, list);
  };
  for (const d of datasets) for (const f of d.schemaFields) addColumn(d.urn, f);
  const edges: ColumnEdge[] = [];
  const edgeKeys = new Set<string>();
  for (const d of datasets) {
    for (const fgl of d.fineGrainedLineages ?? []) {
      for (const down of fgl.downstreams ?? []) {
        for (const up of fgl.upstreams ?? []) {
          // A whole-dataset upstream has no column to draw from.
          if (up.path === '' || down.path === '') continue;
          addColumn(up.urn, up.path);
          addColumn(down.urn, down.path);
          const from = columnKey(up.urn, up.path);
          const to = columnKey(down.urn, down.path);
          const k = `${from}\u0000${to}`;
          if (from === to || edgeKeys.has(k)) continue;
          edgeKeys.add(k);
          edges.push({ from, to });
        }
      }
    }
  }
  return { columns, edges };
}

/** Every column upstream and downstream of `start`, across any number of hops (cycles are fine). */
export function columnClosure(edges: readonly ColumnEdge[], start: string): { upstream: Set<string>; downstream: Set<string> } {
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, string[]>();
  for (const e of edges) {
    (outgoing.get(e.from) ?? outgoing.set(e.from, []).get(e.from)!).push(e.to);
    (incoming.get(e.to) ?? incoming.set(e.to, []).get(e.to)!).push(e.from);
  }
  const walk = (next: Map<string, string[]>) => {
    const out = new Set<string>();
    const queue = [start];
    while (queue.length) {
      const at = queue.shift()!;
      for (const n of next.get(at) ?? []) {
        if (n === start || out.has(n)) continue;
        out.add(n);
        queue.push(n);
      }
    }
    return out;
  };
  return { upstream: walk(incoming), downstream: walk(outgoing) };
}
