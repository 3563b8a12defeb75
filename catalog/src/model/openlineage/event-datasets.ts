// The datasets an event names (its inputs and outputs, or a DatasetEvent's one): the facets it
// gives each, its schema and documentation, and the column lineage its columnLineage facet reports.
import type { JsonRecord } from '../json.ts';
import { facetOf, type OlDataset, type OpenLineageEvent, type SchemaFacetField } from './events.ts';
import { keptFacets } from './entity-state.ts';
import { sortedOps } from './column-lineage.ts';
import { datasetUrnOfDataset, datasetUrnOfName, fieldUrnOf } from './naming.ts';
import { records, str } from './stored-values.ts';

export interface DatasetFacts {
  urn: string;
  /** The facets the event gives it (dataset, input and output facets) that are kept verbatim. */
  kept: JsonRecord;
  schema?: readonly SchemaFacetField[];
  description?: string;
  /**
   * Output column → its upstream columns (schemaField urns) → how each makes it (the input
   * field's `transformations` as `TYPE:SUBTYPE`), from the columnLineage facet.
   */
  columns?: Map<string, Map<string, string[]>>;
  /** The datasets those upstream columns belong to (this dataset left out). */
  columnInputs?: string[];
}

/**
 * The urn of a dataset a column-lineage input field names: the urn of the event's dataset of that
 * (namespace, name) — its TABLE symlink when it has one, as the event's inputs and outputs are
 * named — else the name as sent (docs/lineage-model.md §OpenLineage, Lineage).
 */
type NameResolver = (namespace: string, name: string) => string;

/** The event's datasets by their physical urn → the urn they are written under (symlinks followed). */
export function resolverOf(datasets: readonly OlDataset[]): NameResolver {
  const byName = new Map<string, string>();
  for (const d of datasets) byName.set(datasetUrnOfName(d.namespace, d.name), datasetUrnOfDataset(d));
  return (namespace, name) => {
    const physical = datasetUrnOfName(namespace, name);
    return byName.get(physical) ?? physical;
  };
}

export function datasetFacts(d: OlDataset, resolve: NameResolver): DatasetFacts {
  const urn = datasetUrnOfDataset(d);
  const kept = keptFacets({ ...(d.facets ?? {}), ...(d.inputFacets ?? {}), ...(d.outputFacets ?? {}) }, d.unread);
  const schema = facetOf(d.facets, 'schema')?.fields as SchemaFacetField[] | undefined;
  const description = facetOf(d.facets, 'documentation')?.description;
  const lineage = facetOf(d.facets, 'columnLineage');
  if (!lineage) return { urn, kept, ...(schema ? { schema } : {}), ...(description !== undefined ? { description } : {}) };
  const columns = new Map<string, Map<string, string[]>>();
  const columnInputs = new Set<string>();
  for (const [column, f] of Object.entries(lineage.fields)) {
    const ups = new Map<string, string[]>();
    for (const i of f.inputFields) {
      const upstream = resolve(i.namespace, i.name);
      if (upstream !== urn) columnInputs.add(upstream);
      const fieldUrn = fieldUrnOf(upstream, i.field);
      ups.set(fieldUrn, sortedOps([...(ups.get(fieldUrn) ?? []), ...transformationsOf(i.transformations)]));
    }
    columns.set(column, ups);
  }
  return {
    urn,
    kept,
    ...(schema ? { schema } : {}),
    ...(description !== undefined ? { description } : {}),
    columns,
    columnInputs: [...columnInputs],
  };
}

/**
 * An input field's `transformations` as DataHub's OpenLineage converter writes them into a
 * fine-grained entry's transformOperation: `TYPE:SUBTYPE` (`DIRECT:AGGREGATION`), `TYPE` alone
 * when there is no subtype.
 */
function transformationsOf(v: unknown): string[] {
  return records(v).flatMap((t) => {
    const type = str(t.type);
    if (!type) return [];
    const subtype = str(t.subtype);
    return [subtype ? `${type}:${subtype}` : type];
  });
}

/** Merges datasets named twice in one event (as input and output, or twice as input): facets union. */
function mergeDatasets(list: readonly DatasetFacts[]): DatasetFacts[] {
  const byUrn = new Map<string, DatasetFacts>();
  for (const d of list) {
    const seen = byUrn.get(d.urn);
    byUrn.set(d.urn, seen ? { ...seen, ...d, kept: { ...seen.kept, ...d.kept } } : d);
  }
  return [...byUrn.values()];
}

/** Whether the event says anything of the dataset beyond naming it: only that needs a key kept against older events. */
export const isDescribed = (d: DatasetFacts) =>
  d.schema !== undefined || d.description !== undefined || Object.keys(d.kept).length > 0 || d.columns !== undefined;

/** The datasets of a job or run event. */
export interface JobEventDatasets {
  inputs: DatasetFacts[];
  outputs: DatasetFacts[];
  /** The outputs whose column lineage the event reports. */
  withColumns: DatasetFacts[];
  /** Datasets only that column lineage names (neither input nor output). */
  columnOnly: string[];
  /** Inputs and outputs, each once. */
  datasets: DatasetFacts[];
}

export function jobEventDatasetsOf(e: Extract<OpenLineageEvent, { kind: 'run' | 'job' }>): JobEventDatasets {
  const resolve = resolverOf([...e.inputs, ...e.outputs]);
  const inputs = mergeDatasets(e.inputs.map((d) => datasetFacts(d, resolve)));
  const outputs = mergeDatasets(e.outputs.map((d) => datasetFacts(d, resolve)));
  const withColumns = outputs.filter((d) => d.columns !== undefined);
  const columnOnly = [...new Set(withColumns.flatMap((d) => d.columnInputs ?? []))].filter(
    (u) => !inputs.some((d) => d.urn === u) && !outputs.some((d) => d.urn === u),
  );
  return { inputs, outputs, withColumns, columnOnly, datasets: mergeDatasets([...inputs, ...outputs]) };
}
