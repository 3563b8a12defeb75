// The benchmark graph (generate.ts) as MCPs: the same rows the SDK would send, entity aspects
// first and lineage second, in batches of the ingestion API's size.
import { ACTOR, BASE_TIME, COLUMNS, fieldUrn, type Graph } from './generate.ts';

export interface Proposal {
  entityType: string;
  entityUrn: string;
  changeType: 'UPSERT';
  aspectName: string;
  aspect: { value: string; contentType: 'application/json' };
  systemMetadata: { lastObserved: number; runId: string };
}

const stamp = (t: number) => ({ time: t, actor: ACTOR });

function mcp(entityType: string, urn: string, aspectName: string, value: unknown, t: number): Proposal {
  return {
    entityType,
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    systemMetadata: { lastObserved: t, runId: 'bench' },
  };
}

function schemaMetadata(name: string) {
  return {
    schemaName: name,
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: Array.from({ length: COLUMNS }, (_, c) => ({
      fieldPath: `col_${c}`,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      nativeDataType: 'string',
      nullable: true,
    })),
  };
}

/** Phase 1: every entity is created by a descriptive (non-lineage) aspect. */
export function entityProposals(g: Graph, id: number): Proposal[] {
  const e = g.entities[id]!;
  const t = BASE_TIME + (id % 10) * 86_400_000;
  switch (e.kind) {
    case 'dataset': {
      const name = /,([^,]+),PROD\)$/.exec(e.urn)![1]!;
      const out = [
        mcp(
          'dataset',
          e.urn,
          'datasetProperties',
          { name, description: `bench table ${name}`, customProperties: { domain: String(e.domain) } },
          t,
        ),
      ];
      if (e.schema) out.push(mcp('dataset', e.urn, 'schemaMetadata', schemaMetadata(name), t));
      return out;
    }
    case 'dataFlow':
      return [mcp('dataFlow', e.urn, 'dataFlowInfo', { name: `domain ${e.domain}`, customProperties: {} }, t)];
    case 'dataJob':
      return [
        mcp(
          'dataJob',
          e.urn,
          'dataJobInfo',
          { name: e.urn.slice(e.urn.lastIndexOf(',') + 1, -1), type: { string: 'COMMAND' }, customProperties: {} },
          t,
        ),
      ];
    default:
      return [mcp(e.kind, e.urn, 'status', { removed: false }, t)];
  }
}

/** Phase 2: the lineage aspect of an entity (none for roots without upstreams and flows). */
export function lineageProposals(g: Graph, id: number): Proposal[] {
  const e = g.entities[id]!;
  const t = BASE_TIME + (id % 10) * 86_400_000;
  const urns = (ids: number[]) => ids.map((i) => g.entities[i]!.urn);
  switch (e.kind) {
    case 'dataset': {
      if (!e.ups.length) return [];
      const value: Record<string, unknown> = {
        upstreams: urns(e.ups).map((dataset) => ({ auditStamp: stamp(t), created: stamp(t), dataset, type: 'TRANSFORMED' })),
      };
      if (e.fine) {
        value.fineGrainedLineages = e.fine.map((f) => ({
          upstreamType: 'FIELD_SET',
          upstreams: [fieldUrn(g.entities[f.up]!.urn, f.col)],
          downstreamType: 'FIELD',
          downstreams: [fieldUrn(e.urn, f.col)],
          confidenceScore: 1.0,
        }));
      }
      return [mcp('dataset', e.urn, 'upstreamLineage', value, t)];
    }
    case 'dataJob':
      return [mcp('dataJob', e.urn, 'dataJobInputOutput', { inputDatasets: urns(e.ups), outputDatasets: urns(e.outs ?? []) }, t)];
    case 'chart':
      return [
        mcp(
          'chart',
          e.urn,
          'chartInfo',
          {
            title: e.urn,
            description: 'bench chart',
            lastModified: { created: stamp(t), lastModified: stamp(t) },
            inputs: urns(e.ups).map((u) => ({ string: u })),
          },
          t,
        ),
      ];
    case 'dashboard':
      return [
        mcp(
          'dashboard',
          e.urn,
          'dashboardInfo',
          {
            title: e.urn,
            description: 'bench dashboard',
            lastModified: { created: stamp(t), lastModified: stamp(t) },
            charts: urns(e.ups),
          },
          t,
        ),
      ];
    case 'mlPrimaryKey':
      return [
        mcp('mlPrimaryKey', e.urn, 'mlPrimaryKeyProperties', { description: 'bench key', dataType: 'ORDINAL', sources: urns(e.ups) }, t),
      ];
    case 'mlFeature':
      return [
        mcp('mlFeature', e.urn, 'mlFeatureProperties', { description: 'bench feature', dataType: 'CONTINUOUS', sources: urns(e.ups) }, t),
      ];
    default:
      return [];
  }
}

/** All proposals in load order, in batches (phase 1 for every entity, then phase 2). */
export function* proposalBatches(
  g: Graph,
  batchSize: number,
  fromBatch = 0,
): Generator<{ index: number; phase: 1 | 2; proposals: Proposal[] }> {
  let buf: Proposal[] = [];
  let index = 0;
  for (const phase of [1, 2] as const) {
    for (let id = 0; id < g.entities.length; id++) {
      for (const p of phase === 1 ? entityProposals(g, id) : lineageProposals(g, id)) {
        buf.push(p);
        if (buf.length === batchSize) {
          if (index >= fromBatch) yield { index, phase, proposals: buf };
          index++;
          buf = [];
        }
      }
    }
    // A batch never spans phases: phase 2 may only start once every entity exists.
    if (buf.length) {
      if (index >= fromBatch) yield { index, phase, proposals: buf };
      index++;
      buf = [];
    }
  }
}
