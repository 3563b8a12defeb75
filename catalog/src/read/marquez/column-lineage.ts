// GET /api/v1/column-lineage with Marquez's semantics (docs/marquez-compatibility.md §Column
// lineage), from the column edges the fineGrainedLineages make: the walk starts from the edges into
// the start columns (a dataset's columns, one column, or a job's outputs' columns) and follows each
// edge's upstream column upstream, and with `withDownstream` each edge's downstream column
// downstream; `depth` counts edges, as Marquez's recursive query does.
import { badRequest, isCatalogError, notFound } from '../../model/errors.ts';
import type { JsonRecord } from '../../model/json.ts';
import { schemaFieldParts } from '../../model/browser.ts';
import { schemaFieldUrnOf } from '../../model/key-search-fields.ts';
import { fieldNodeIdOf, parseColumnNodeId, type ColumnNodeId } from '../../model/marquez/column-ids.ts';
import { datasetIdOfUrn, type MarquezId } from '../../model/marquez/ids.ts';
import type { Store } from '../../store/store.ts';
import { getLatestAspectsOf } from '../aspect-reader.ts';
import { MAX_LINEAGE_DEPTH, type MarquezLineage } from './lineage.ts';
import { datasetRows, jobOrThrow } from './reads.ts';
import { jobDatasetUrns } from './render.ts';

/** Column edges a walk collects before it stops; the answer then says it was cut. */
const MAX_COLUMN_EDGES = 100_000;

type ColumnEdge = { downstream: string; upstream: string };
const edgeKey = (e: ColumnEdge) => `${e.downstream}\u0000${e.upstream}`;
const decodePath = (p: string) => p.replaceAll('%28', '(').replaceAll('%29', ')').replaceAll('%2C', ',');
const nodeNotFound = () => notFound('Could not find node');

/** Marquez answers an unknown dataset or job here with its lineage service's message. */
async function orNodeNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    throw isCatalogError(e) && e.kind === 'notFound' ? nodeNotFound() : e;
  }
}

/** The column urns of datasets: their schema's fields and the column nodes their lineage made. */
async function columnsOf(store: Store, datasetUrns: readonly string[]): Promise<Set<string>> {
  const aspects = await getLatestAspectsOf(store, datasetUrns);
  const out = new Set<string>();
  for (const u of datasetUrns) {
    const fields = aspects.get(u)?.get('schemaMetadata')?.value.fields;
    for (const f of Array.isArray(fields) ? fields : []) {
      const path = (f as { fieldPath?: unknown }).fieldPath;
      if (typeof path === 'string') out.add(schemaFieldUrnOf(u, path));
    }
  }
  const prefixes = datasetUrns.map((u) => `urn:li:schemaField:(${u},`);
  const rows = await store.read((tx) => tx.run<{ urn: string }>('marquez/dataset-field-nodes', { prefixes }));
  for (const r of rows) out.add(r.urn);
  return out;
}

/** The columns Marquez starts from for a node: 404 when the node or its columns are unknown. */
async function startColumns(store: Store, node: ColumnNodeId): Promise<Set<string>> {
  if (node.type === 'JOB') {
    const job = await orNodeNotFound(jobOrThrow(store, node.id));
    const aspects = (await getLatestAspectsOf(store, [job.urn])).get(job.urn) ?? new Map();
    return columnsOf(store, jobDatasetUrns(aspects).outputs);
  }
  const { urn } = await orNodeNotFound(datasetRows(store, node.id));
  const columns = await columnsOf(store, [urn]);
  if (node.type !== 'DATASET_FIELD') return columns;
  const field = schemaFieldUrnOf(urn, node.field);
  return columns.has(field) ? new Set([field]) : new Set<string>();
}

export async function marquezColumnLineage(
  store: Store,
  nodeIdText: string | undefined,
  depth: number,
  withDownstream: boolean,
): Promise<MarquezLineage> {
  if (depth > MAX_LINEAGE_DEPTH) throw badRequest(`depth must be an integer from 0 to ${MAX_LINEAGE_DEPTH}, got ${depth}`);
  const node = parseColumnNodeId(nodeIdText);
  if (node.version !== null && withDownstream) throw badRequest('Node version cannot be specified when withDownstream is true');
  // The catalog keeps no dataset or job versions: a versioned node names nothing here.
  if (node.version !== null) throw nodeNotFound();
  const start = await startColumns(store, node);
  if (start.size === 0) throw nodeNotFound();

  const edges = new Map<string, ColumnEdge>();
  const expandedUp = new Set<string>();
  const expandedDown = new Set<string>();
  let truncated = false;
  const hop = async (downstreamOf: string[], upstreamOf: string[]): Promise<ColumnEdge[]> => {
    downstreamOf.forEach((u) => expandedUp.add(u));
    upstreamOf.forEach((u) => expandedDown.add(u));
    if (downstreamOf.length === 0 && upstreamOf.length === 0) return [];
    const rows = await store.read((tx) => tx.run<ColumnEdge>('marquez/column-edges', { downstreamOf, upstreamOf }));
    const fresh: ColumnEdge[] = [];
    for (const e of rows) {
      const k = edgeKey(e);
      if (edges.has(k)) continue;
      if (edges.size >= MAX_COLUMN_EDGES) {
        truncated = true;
        break;
      }
      edges.set(k, e);
      fresh.push(e);
    }
    return fresh;
  };
  let frontier = await hop([...start], []);
  for (let d = 1; d < depth && frontier.length > 0 && !truncated; d++) {
    const ups = [...new Set(frontier.map((e) => e.upstream))].filter((u) => !expandedUp.has(u));
    const downs = withDownstream ? [...new Set(frontier.map((e) => e.downstream))].filter((u) => !expandedDown.has(u)) : [];
    frontier = await hop(ups, downs);
  }
  return { graph: await graphOf(store, [...edges.values()]), truncated };
}

interface Column {
  urn: string;
  datasetUrn: string;
  id: MarquezId;
  field: string;
  nodeId: string;
}

function columnOf(urn: string): Column | undefined {
  const parts = schemaFieldParts(urn);
  const id = parts ? datasetIdOfUrn(parts.parent) : undefined;
  if (!parts || !id) return undefined;
  const field = decodePath(parts.path);
  return { urn, datasetUrn: parts.parent, id, field, nodeId: fieldNodeIdOf(id, field) };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Marquez's graph of column edges: a node per column (DATASET_FIELD), the downstream ones with
 * their input fields and type; a node's inEdges go from it to its inputs and its outEdges from it
 * to the columns it feeds, as Marquez builds them.
 */
async function graphOf(store: Store, edges: readonly ColumnEdge[]): Promise<JsonRecord[]> {
  const columns = new Map<string, Column>();
  const named = edges.flatMap((e) => {
    const down = columns.get(e.downstream) ?? columnOf(e.downstream);
    const up = columns.get(e.upstream) ?? columnOf(e.upstream);
    if (!down || !up) return [];
    columns.set(down.urn, down);
    columns.set(up.urn, up);
    return [{ down, up }];
  });
  const outputs = new Set(named.map((e) => e.down.urn));
  const schemas = await getLatestAspectsOf(store, [...new Set(named.map((e) => e.down.datasetUrn))]);
  const typeOf = (c: Column) => {
    const fields = schemas.get(c.datasetUrn)?.get('schemaMetadata')?.value.fields;
    const f = (Array.isArray(fields) ? fields : []).find((x) => (x as { fieldPath?: unknown }).fieldPath === c.field) as
      { nativeDataType?: unknown } | undefined;
    return typeof f?.nativeDataType === 'string' ? f.nativeDataType : null;
  };
  const fieldData = (c: Column) => ({ namespace: c.id.namespace, dataset: c.id.name, datasetVersion: null, field: c.field });
  const inputsOf = new Map<string, Column[]>();
  const feeds = new Map<string, Column[]>();
  for (const { down, up } of named) {
    inputsOf.set(down.urn, [...(inputsOf.get(down.urn) ?? []), up]);
    feeds.set(up.urn, [...(feeds.get(up.urn) ?? []), down]);
  }
  const sortedIds = (cs: Column[] | undefined) => [...new Set((cs ?? []).map((c) => c.nodeId))].sort(byText);
  return [...columns.values()]
    .map((c) => {
      const inputs = [...new Map((inputsOf.get(c.urn) ?? []).map((i) => [i.nodeId, i])).values()].sort((a, b) =>
        byText(a.nodeId, b.nodeId),
      );
      const data = outputs.has(c.urn)
        ? {
            ...fieldData(c),
            fieldType: typeOf(c),
            transformationDescription: null,
            transformationType: null,
            inputFields: inputs.map((i) => ({ ...fieldData(i), transformationDescription: null, transformationType: null })),
          }
        : { ...fieldData(c), fieldType: '', transformationDescription: null, transformationType: null, inputFields: [] };
      return {
        id: c.nodeId,
        type: 'DATASET_FIELD',
        data,
        inEdges: sortedIds(inputsOf.get(c.urn)).map((destination) => ({ origin: c.nodeId, destination })),
        outEdges: sortedIds(feeds.get(c.urn)).map((destination) => ({ origin: c.nodeId, destination })),
      };
    })
    .sort((a, b) => byText(a.id, b.id));
}
