// GET /api/v1/lineage with Marquez's semantics (docs/marquez-compatibility.md §Lineage), which are not DataHub's:
// the walk is undirected over job ↔ dataset, `depth` counts job hops from the start job, a dataset
// starts from one job that writes it (else one that reads it), every dataset a reached job reads or
// writes is a node, and a dataset no job touches is answered alone.
import { badRequest } from '../../model/errors.ts';
import type { JsonRecord } from '../../model/json.ts';
import { datasetIdOfUrn, nodeIdOf, parseLineageNodeId, type MarquezId } from '../../model/marquez/ids.ts';
import type { Store } from '../../store/store.ts';
import { getLatestAspectsOf } from '../aspect-reader.ts';
import { jobContexts, olJobs, type OlJob } from './jobs.ts';
import { datasetRows, jobOrThrow } from './reads.ts';
import { datasetDataJson, jobDataJson, jobDatasetUrns } from './render.ts';

/** Marquez's default depth. */
export const DEFAULT_LINEAGE_DEPTH = 20;
/** The catalog's hop bound (LINEAGE_MAX_HOPS at most): a deeper request is a client mistake. */
export const MAX_LINEAGE_DEPTH = 1000;
/** Jobs a walk reaches before it stops; the answer then says it was cut (`truncated`). */
const MAX_LINEAGE_JOBS = 10_000;

export interface MarquezLineage {
  graph: JsonRecord[];
  /** The walk stopped at MAX_LINEAGE_JOBS: the door says so in a header, Marquez's body has no field for it. */
  truncated: boolean;
}

type Edge = { origin: string; destination: string };
const byEdge = (a: Edge, b: Edge) => (a.origin + '\u0000' + a.destination < b.origin + '\u0000' + b.destination ? -1 : 1);

export async function marquezLineage(store: Store, nodeIdText: string | undefined, depth: number): Promise<MarquezLineage> {
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_LINEAGE_DEPTH)
    throw badRequest(`depth must be an integer from 0 to ${MAX_LINEAGE_DEPTH}, got ${depth}`);
  const node = parseLineageNodeId(nodeIdText);
  const jobs = await olJobs(store);
  const jobByUrn = new Map(jobs.map((j) => [j.urn, j]));
  let start: OlJob | undefined;
  let startDataset: { id: MarquezId; urn: string } | undefined;
  if (node.type === 'JOB') {
    start = await jobOrThrow(store, node.id);
  } else {
    const { urn } = await datasetRows(store, node.id);
    startDataset = { id: node.id, urn };
    const touching = await store.read((tx) => tx.run<{ urn: string }>('marquez/dataset-jobs', { urn }));
    start = touching.map((r) => jobByUrn.get(r.urn)).find((j) => j !== undefined);
  }
  if (!start) return { graph: await datasetNodes([startDataset!.urn], new Map()), truncated: false };

  const reached = [start.urn];
  const seen = new Set(reached);
  let frontier = reached;
  let truncated = false;
  for (let hop = 0; hop < depth && frontier.length > 0 && !truncated; hop++) {
    const rows = await store.read((tx) => tx.run<{ urn: string }>('marquez/job-neighbours', { frontier, seen: [...seen] }));
    const next: string[] = [];
    for (const { urn } of rows) {
      if (seen.has(urn) || !jobByUrn.has(urn)) continue;
      if (seen.size >= MAX_LINEAGE_JOBS) {
        truncated = true;
        break;
      }
      seen.add(urn);
      next.push(urn);
    }
    reached.push(...next);
    frontier = next;
  }
  return {
    graph: await graphOf(
      store,
      reached.map((u) => jobByUrn.get(u)!),
    ),
    truncated,
  };

  /** Dataset nodes with the edges to and from the reached jobs. */
  async function datasetNodes(urns: readonly string[], edgesOf: Map<string, { inEdges: Edge[]; outEdges: Edge[] }>): Promise<JsonRecord[]> {
    const aspects = await getLatestAspectsOf(store, urns);
    return urns.flatMap((u) => {
      const id = datasetIdOfUrn(u);
      if (!id) return [];
      const id_ = nodeIdOf('DATASET', id);
      const e = edgesOf.get(u) ?? { inEdges: [], outEdges: [] };
      return [
        {
          id: id_,
          type: 'DATASET',
          data: datasetDataJson(id, aspects.get(u) ?? new Map()),
          inEdges: e.inEdges.sort(byEdge),
          outEdges: e.outEdges.sort(byEdge),
        },
      ];
    });
  }

  async function graphOf(s: Store, reachedJobs: readonly OlJob[]): Promise<JsonRecord[]> {
    const contexts = await jobContexts(s, reachedJobs);
    // A soft-deleted dataset is no node and no edge, as Marquez hides it.
    const touched = [...new Set(contexts.flatMap(({ aspects }) => Object.values(jobDatasetUrns(aspects)).flat()))];
    const removed = new Set(
      [...(await getLatestAspectsOf(s, touched))].flatMap(([u, a]) => (a.get('status')?.value.removed === true ? [u] : [])),
    );
    const datasetEdges = new Map<string, { inEdges: Edge[]; outEdges: Edge[] }>();
    const edgesOfDataset = (u: string) => {
      let e = datasetEdges.get(u);
      if (!e) datasetEdges.set(u, (e = { inEdges: [], outEdges: [] }));
      return e;
    };
    const jobNodes = contexts.map(({ context, aspects }) => {
      const jobNode = nodeIdOf('JOB', context.id);
      const { inputs, outputs } = jobDatasetUrns(aspects);
      const named = (urns: string[]) =>
        urns.flatMap((u) => {
          const id = removed.has(u) ? undefined : datasetIdOfUrn(u);
          return id ? [{ urn: u, node: nodeIdOf('DATASET', id) }] : [];
        });
      const inEdges = named(inputs).map((d) => {
        const edge = { origin: d.node, destination: jobNode };
        edgesOfDataset(d.urn).outEdges.push(edge);
        return edge;
      });
      const outEdges = named(outputs).map((d) => {
        const edge = { origin: jobNode, destination: d.node };
        edgesOfDataset(d.urn).inEdges.push(edge);
        return edge;
      });
      return {
        id: jobNode,
        type: 'JOB',
        data: jobDataJson(context, aspects),
        inEdges: inEdges.sort(byEdge),
        outEdges: outEdges.sort(byEdge),
      };
    });
    const datasets = await datasetNodes([...datasetEdges.keys()], datasetEdges);
    return [...jobNodes, ...datasets].sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  }
}
