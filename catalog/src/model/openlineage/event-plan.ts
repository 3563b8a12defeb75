// What a plan is (README.md): the contract between the mapping, which knows what an event means,
// and the write layer, which locks, reads and writes.
import type { JsonRecord } from '../json.ts';
import type { StoredAspects } from './entity-state.ts';

export interface AspectWrite {
  urn: string;
  aspectName: string;
  value: JsonRecord;
}

/** How a step of a plan adds one aspect to its writes. */
export type WriteAspect = (urn: string, aspectName: string, value: JsonRecord) => void;

export interface EventPlan {
  /** Every urn the event's writes may name: checked before anything is written. */
  urns: string[];
  /**
   * The entities whose stored aspects the writes merge with, to be locked before the reads. The
   * others (the flow, datasets only named) are only created when missing; the write path locks
   * whatever it writes.
   */
  locks: string[];
  /** The stored aspects `writes` merges with. */
  reads: Array<{ urn: string; aspect: string }>;
  /**
   * More entities to lock and aspects to read, named by what `reads` found: a run's FAIL withdraws
   * column lineage from the outputs its earlier events added to, which only the job's stored
   * state names. Read after `reads`, before `writes`.
   */
  followUp?(state: StoredAspects): { locks: string[]; reads: Array<{ urn: string; aspect: string }> };
  /** The aspects to write, given those stored values; in the order the write path must see them. */
  writes(state: StoredAspects, actor: string): AspectWrite[];
}
