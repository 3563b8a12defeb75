// What a run event writes of its run: its properties (name, type, creation, nominal time, error),
// its relationships and state when it is the run's newest event, and its openLineage aspect.
import { asRecord } from '../json.ts';
import { parseEventTime, type OpenLineageEvent, type RunEventType } from './events.ts';
import {
  entityState,
  isNewest,
  keptFacets,
  legacyRunKey,
  nextEntityState,
  OPENLINEAGE_ASPECT,
  stateKey,
  type StoredAspects,
} from './entity-state.ts';
import type { JobEventStep } from './job-event-step.ts';
import { num, str } from './stored-values.ts';

const RUN_STATUS: Readonly<Record<RunEventType, { status: string; result?: string }>> = {
  START: { status: 'STARTED' },
  RUNNING: { status: 'STARTED' },
  OTHER: { status: 'STARTED' },
  COMPLETE: { status: 'COMPLETE', result: 'SUCCESS' },
  FAIL: { status: 'COMPLETE', result: 'FAILURE' },
  ABORT: { status: 'COMPLETE', result: 'FAILURE' },
};

/** Run facets the mapping reads from the run's kept facets (newest of each), not from one event. */
const RUN_PROPERTY_FACETS = ['nominalTime', 'errorMessage'] as const;

/** The key of the run's (first) FAIL or ABORT stored so far; undefined while it has not failed. */
export function failedKeyOf(state: StoredAspects, runUrn: string | undefined): string | undefined {
  return runUrn ? str(entityState(state, runUrn).stored.failed) : undefined;
}

export function writeRun(
  s: JobEventStep,
  e: Extract<OpenLineageEvent, { kind: 'run' }>,
  runUrn: string,
  runFailed: string | undefined,
): void {
  const { state, write, key, mode } = s;
  const { jobUrn, parentUrn } = s.names;
  const t = e.eventTime;
  const actor = s.seen.actor;
  const eventType = e.eventType ?? 'OTHER';
  const runState = entityState(state, runUrn);
  const runKey = str(runState.stored.eventKey) ?? legacyRunKey(state, runUrn);
  // The key of the run's (first) FAIL or ABORT: the run failed, whatever order its events come in.
  const failed = mode === 'withdraw' && (runFailed === undefined || key < runFailed) ? key : runFailed;
  const runAspect = nextEntityState(
    runState,
    key,
    t,
    keptFacets(e.runFacets, e.runUnread, RUN_PROPERTY_FACETS),
    [],
    failed !== undefined ? { failed } : {},
  );
  const merged = asRecord(runAspect.facets) ?? {};
  const props = state.get(stateKey(runUrn, 'dataProcessInstanceProperties'));
  const createdBefore = num(asRecord(props?.created)?.time);
  // The newest nominalTime kept may be one that failed its schema (kept verbatim, not read).
  const nominalText = str(asRecord(merged.nominalTime)?.nominalStartTime);
  const nominal = nominalText !== undefined && !('error' in parseEventTime(nominalText)) ? nominalText : undefined;
  const errorMessage = str(asRecord(merged.errorMessage)?.message);
  const { nominalStartTime: _n, errorMessage: _m, ...otherProperties } = asRecord(props?.customProperties) ?? {};
  write(runUrn, 'dataProcessInstanceProperties', {
    name: e.runId,
    type: nominal !== undefined ? 'BATCH_SCHEDULED' : 'BATCH_AD_HOC',
    created:
      createdBefore !== undefined && createdBefore <= t ? (asRecord(props?.created) ?? { time: createdBefore, actor }) : { time: t, actor },
    customProperties: {
      ...otherProperties,
      ...(nominal !== undefined ? { nominalStartTime: nominal } : {}),
      ...(errorMessage !== undefined ? { errorMessage } : {}),
    },
  });
  if (isNewest(runKey, key)) {
    write(runUrn, 'dataProcessInstanceRelationships', {
      parentTemplate: jobUrn,
      upstreamInstances: [],
      ...(parentUrn ? { parentInstance: parentUrn } : {}),
    });
    const { status, result } = RUN_STATUS[eventType];
    write(runUrn, 'dataProcessInstanceRunEvent', {
      timestampMillis: t,
      status,
      ...(result ? { result: { type: result, nativeResultType: eventType } } : {}),
    });
  }
  write(runUrn, OPENLINEAGE_ASPECT, runAspect);
}
