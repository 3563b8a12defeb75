// The shape of a results file (bench/results/<date>-<size>.json): what run.ts writes and report.ts
// renders into bench/README.md.
import type { WorkloadMemory } from './lib/memory.ts';
import type { IngestResult } from './workloads/ingest.ts';
import type { OpenLineageResult } from './workloads/openlineage.ts';
import type { QueryCase, ShapeCase } from './workloads/query.ts';
import type { RestoreRun, RestoreWindows } from './workloads/restore.ts';

/** A run of the API load that was stopped before the end: batches [fromBatch, toBatch) in `ms` of load. */
export interface IngestSegment {
  fromBatch: number;
  toBatch: number;
  ms: number;
  stoppedBy: string;
}

export interface BenchResult {
  file: string;
  startedAt: string;
  totalMs: number;
  size: { label: string; edges: number };
  config: {
    seed: number;
    batch: number;
    concurrency: number;
    runs: number;
    heap: string;
    pageCache: string;
    checkpointInterval?: string;
    checkpointIopsLimit?: number;
    naiveTimeoutMs: number;
    quiet: boolean;
    resumed: boolean;
    events?: 'on' | 'lineage' | 'off';
    serviceNodeOptions?: string;
  };
  machine: { cores: number; cpuModel: string; memoryGiB: number; loadAvg: number[]; node: string; neo4j: string };
  graph: Record<string, number>;
  hubReach: number;
  loaded?: {
    entities: number;
    lineageEdges: number;
    aspectRows: number;
    expectedLineageEdges: number;
    storeMb: number;
    changeEvents?: number;
    changeBatches?: number;
    changeEventChars?: number;
  };
  ingest?: {
    raw?: IngestResult & { rows: { aspects: number; edges: number }; dropMs: number };
    api?: IngestResult & { earlierSegments?: IngestSegment[] };
  };
  query?: { cases: QueryCase[]; shapes?: ShapeCase[]; profile: unknown };
  restore?: { full?: RestoreRun; windows?: RestoreWindows };
  openlineage?: OpenLineageResult;
  memory: Record<string, WorkloadMemory>;
  targets?: TargetCheck[];
}

/** One target of bench/README.md, checked against a run (report.ts checkTargets). */
export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
  note?: string;
}
