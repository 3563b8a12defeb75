// The neighbourhood the page draws, built from scrollAcrossLineage pages. Results give each entity's
// minimum degree and one shortest path from the centre (docs/wire-contract.md §Lineage search);
// consecutive path entries are the edges drawn, so the picture is the union of shortest paths. An
// entity that only appears on a path (filtered out by type/platform, or beyond the loaded page) is
// kept as a "context" node so the graph stays connected.

import { displayLabelOf, pageFieldsOf, urnDisplayName, urnPlatformName } from '@lineage/catalog/browser';

export type Direction = 'UPSTREAM' | 'DOWNSTREAM';
export type Side = 'centre' | 'upstream' | 'downstream';

/**
 * What GraphQL returns for the ExplorerEntity fragment (queries.ts, from the descriptors: which of
 * these fields a type has is `pageFieldsOf` its type); every field optional by type.
 */
export interface RawEntity {
  urn: string;
  type: string;
  exists?: boolean | null;
  name?: string | null;
  jobId?: string | null;
  flowId?: string | null;
  chartId?: string | null;
  dashboardId?: string | null;
  fieldPath?: string | null;
  orchestrator?: string | null;
  tool?: string | null;
  platform?: { urn?: string; name: string; properties?: { displayName?: string | null } | null } | null;
  properties?: { name?: string | null } | null;
  dataFlow?: { urn?: string; flowId?: string | null; orchestrator?: string | null; properties?: { name?: string | null } | null } | null;
}

export interface RawResult {
  degree: number;
  entity: RawEntity;
  paths?: Array<{ path: Array<RawEntity | null> } | null> | null;
}

export interface EntitySummary {
  urn: string;
  type: string;
  name: string;
  platform: string | null;
  exists: boolean | null;
  /** A job's pipeline (its dataFlow), which the graph draws it under. */
  pipeline?: { urn: string; name: string };
}

export interface GraphNode extends EntitySummary {
  side: Side;
  /** Hops from the centre (0 for the centre itself). */
  degree: number;
  /** Only known as a step on a path: not itself a result under the current filters. */
  context: boolean;
}

/** Data flows from → to. */
export interface GraphEdge {
  from: string;
  to: string;
}

export interface Neighbourhood {
  centre: string;
  nodes: Map<string, GraphNode>;
  edges: Map<string, GraphEdge>;
}

/** The name a urn's key gives (`urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)` → `db.t`). */
export const urnTail = urnDisplayName;

/** A field of a reply, by the name the type's page fields give it, when it holds text. */
function textOf(reply: object | null | undefined, field: string | undefined): string | null {
  const value = reply && field !== undefined ? (reply as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : null;
}

/** Text that names something: not empty, and not a urn (which is what a missing name turns into). */
function nameText(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed && !trimmed.startsWith('urn:li:') ? trimmed : null;
}

/**
 * Name, platform and pipeline of an entity, from the fields its type's descriptor says name it:
 * the descriptive name, else the key's name, else the urn's; the platform entity, else the entity
 * its key names as platform (a job's flow, also drawn as its pipeline), else the key's text, else the urn's.
 */
export function summarise(e: RawEntity): EntitySummary {
  const fields = pageFieldsOf(e.type);
  const via = fields?.via;
  const parent = via
    ? ((e as unknown as Record<string, unknown>)[via.field] as
        { urn?: string; properties?: { name?: string | null } | null } | null | undefined)
    : undefined;
  const pipeline = parent?.urn;
  const pipelineName = pipeline
    ? (nameText(parent?.properties?.name) ?? nameText(textOf(parent, via?.fields.name)) ?? nameText(urnTail(pipeline)))
    : null;
  // A job whose own fields name nothing (an empty name, a urn where the name belongs) is its id, else its flow's name.
  const name = nameText(e.properties?.name) ?? nameText(textOf(e, fields?.name)) ?? nameText(urnTail(e.urn)) ?? pipelineName ?? e.urn;
  const platform =
    e.platform?.properties?.displayName ??
    e.platform?.name ??
    textOf(parent, via?.fields.platform) ??
    textOf(e, fields?.platform) ??
    urnPlatformName(e.urn);
  return {
    urn: e.urn,
    type: e.type,
    name,
    platform,
    exists: e.exists ?? null,
    ...(pipeline ? { pipeline: { urn: pipeline, name: pipelineName ?? pipeline } } : {}),
  };
}

export function emptyNeighbourhood(centre: RawEntity): Neighbourhood {
  const nodes = new Map<string, GraphNode>();
  nodes.set(centre.urn, { ...summarise(centre), side: 'centre', degree: 0, context: false });
  return { centre: centre.urn, nodes, edges: new Map() };
}

function addEdge(g: Neighbourhood, from: string, to: string): void {
  if (from === to) return;
  g.edges.set(`${from}\u0000${to}`, { from, to });
}

/**
 * Adds one page of results seen from `origin` (the centre, or an expanded node at `originDegree`)
 * in `direction`. Returns the urns that became (non-context) nodes.
 */
export function mergeResults(
  g: Neighbourhood,
  direction: Direction,
  results: readonly RawResult[],
  origin = g.centre,
  originDegree = 0,
): string[] {
  const side: Side = direction === 'UPSTREAM' ? 'upstream' : 'downstream';
  const added: string[] = [];
  const place = (e: RawEntity, degree: number, context: boolean) => {
    const existing = g.nodes.get(e.urn);
    if (!existing) {
      g.nodes.set(e.urn, { ...summarise(e), side, degree, context });
      if (!context) added.push(e.urn);
    } else if (existing.side !== 'centre') {
      if (existing.context && !context) {
        existing.context = false;
        added.push(e.urn);
      }
      // Keep the shortest distance seen from the centre when it is reached on the same side.
      if (existing.side === side && degree < existing.degree) existing.degree = degree;
    }
  };
  for (const r of results) {
    place(r.entity, originDegree + r.degree, false);
    const path = r.paths?.find((p) => p && p.path.length >= 2)?.path;
    if (!path) {
      // No path rendered: a direct link is the best we know (degree 1 is always direct).
      if (r.degree === 1) direction === 'DOWNSTREAM' ? addEdge(g, origin, r.entity.urn) : addEdge(g, r.entity.urn, origin);
      continue;
    }
    const steps = path.filter((p): p is RawEntity => p !== null);
    for (let i = 1; i < steps.length - 1; i++) place(steps[i]!, originDegree + i, true);
    for (let i = 0; i + 1 < steps.length; i++) {
      const near = steps[i]!.urn;
      const far = steps[i + 1]!.urn;
      if (direction === 'DOWNSTREAM') addEdge(g, near, far);
      else addEdge(g, far, near);
    }
  }
  return added;
}

/** Partition (column) index of a node: upstream to the left (negative), downstream to the right. */
export function columnOf(n: GraphNode): number {
  return n.side === 'upstream' ? -n.degree : n.side === 'downstream' ? n.degree : 0;
}

/** The entity-type names people read (the API's enum names are the filter values). */
export const typeLabel = displayLabelOf;
