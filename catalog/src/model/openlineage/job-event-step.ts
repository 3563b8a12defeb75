// What each step of a job or run event's writes reads (plan-job-event.ts, run-writes.ts): the
// event, what it names, how it changes lineage, and the stored state the writes merge with.
import type { OpenLineageEvent } from './events.ts';
import type { StoredAspects } from './entity-state.ts';
import type { JobEventDatasets } from './event-datasets.ts';
import type { Seen } from './event-keys.ts';
import type { WriteAspect } from './event-plan.ts';
import type { JobEventNames } from './naming.ts';

export type JobOrRunEvent = Extract<OpenLineageEvent, { kind: 'run' | 'job' }>;

/**
 * What an event does to lineage: a COMPLETE or JobEvent sets it, START/RUNNING/OTHER add to it on
 * behalf of their run, a FAIL or ABORT withdraws what its run added (docs/lineage-model.md
 * §OpenLineage, Lineage).
 */
export type LineageMode = 'add' | 'set' | 'withdraw' | 'none';

export function lineageModeOf(e: OpenLineageEvent): LineageMode {
  if (e.kind === 'job') return 'set';
  if (e.kind !== 'run') return 'none';
  switch (e.eventType) {
    case 'COMPLETE':
      return 'set';
    case 'FAIL':
    case 'ABORT':
      return 'withdraw';
    default:
      return 'add';
  }
}

/** The run an event's additions are kept under ('' for a JobEvent, which only sets). */
export const runOf = (e: OpenLineageEvent) => (e.kind === 'run' ? e.runId : '');

export interface JobEventStep {
  e: JobOrRunEvent;
  names: JobEventNames;
  datasets: JobEventDatasets;
  mode: LineageMode;
  run: string;
  key: string;
  /** This event as the reporter of what it reports: its key, and the actor writing it. */
  seen: Seen;
  state: StoredAspects;
  write: WriteAspect;
}
