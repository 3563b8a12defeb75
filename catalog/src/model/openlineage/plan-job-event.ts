// The plan of a job or run event (README.md), in named steps: what it names and reads, then its
// writes in the order the write path must see them — entities before the lineage that names them
// (the write path's existence rule), the job's and run's own state last.
import { asRecord, type JsonRecord } from '../json.ts';
import { columnLineageJson, columnLineageOf, nextColumnLineage, withdrawColumnLineage, type ColumnLineage } from './column-lineage.ts';
import { ensureDataset, writeDataset } from './dataset-writes.ts';
import {
  entityState,
  isNewest,
  keptFacets,
  nextEntityState,
  OPENLINEAGE_ASPECT,
  stateKey,
  type EntityState,
  type StoredAspects,
} from './entity-state.ts';
import { facetOf } from './events.ts';
import { isDescribed, jobEventDatasetsOf, type JobEventDatasets } from './event-datasets.ts';
import { eventKeyOf } from './event-keys.ts';
import type { AspectWrite, EventPlan } from './event-plan.ts';
import { lineageModeOf, runOf, type JobEventStep, type JobOrRunEvent, type LineageMode } from './job-event-step.ts';
import { jobInputOutput, jobLineageJson, jobLineageOf, nextJobLineage, type JobLineage } from './job-lineage.ts';
import { fieldUrnOf, jobEventNamesOf, type JobEventNames } from './naming.ts';
import { failedKeyOf, writeRun } from './run-writes.ts';
import { outputUpstreamLineage } from './upstream-lineage.ts';

export function planJobEvent(e: JobOrRunEvent): EventPlan {
  const names = jobEventNamesOf(e);
  const datasets = jobEventDatasetsOf(e);
  const mode = lineageModeOf(e);
  const run = runOf(e);
  const key = eventKeyOf(e);
  return {
    urns: urnsNamed(names, datasets),
    locks: locksOf(names, datasets),
    reads: readsOf(names, datasets),
    ...(mode === 'withdraw'
      ? {
          followUp(state: StoredAspects) {
            const outputsOfRun = storedJobLineage(state, names.jobUrn).columnRuns[run] ?? [];
            return {
              locks: outputsOfRun,
              reads: outputsOfRun.flatMap((urn) => [
                { urn, aspect: OPENLINEAGE_ASPECT },
                { urn, aspect: 'upstreamLineage' },
              ]),
            };
          },
        }
      : {}),
    writes(state, actor) {
      const out: AspectWrite[] = [];
      const s: JobEventStep = {
        e,
        names,
        datasets,
        mode,
        run,
        key,
        seen: { key, actor },
        state,
        write: (urn, aspectName, value) => out.push({ urn, aspectName, value }),
      };
      writeFlow(s);
      const jobState = entityState(state, names.jobUrn);
      writeJobInfo(s, jobState);
      const runFailed = failedKeyOf(state, names.runUrn);
      const effective = effectiveModeOf(mode, runFailed);
      const jobLineageBefore = storedJobLineage(state, names.jobUrn);
      const columnStates = columnChangesOf(s, effective, jobLineageBefore);
      writeDatasets(s, columnStates);
      const lineage = writeJobLineage(s, jobState, effective, jobLineageBefore);
      writeOutputUpstreams(s, effective, columnStates);
      writeJobState(s, jobState, lineage);
      if (e.kind === 'run' && names.runUrn) writeRun(s, e, names.runUrn, runFailed);
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What the event names and reads

/** Every urn the event's writes may name. */
function urnsNamed(n: JobEventNames, ds: JobEventDatasets): string[] {
  return [
    n.flowUrn,
    n.jobUrn,
    ...(n.runUrn ? [n.runUrn] : []),
    ...(n.parentUrn ? [n.parentUrn] : []),
    ...ds.datasets.map((d) => d.urn),
    ...ds.columnOnly,
    ...ds.withColumns.flatMap((d) => [...d.columns!].flatMap(([column, ups]) => [fieldUrnOf(d.urn, column), ...ups.keys()])),
  ];
}

/** The job, the run, and the datasets the event describes: the entities whose stored aspects the writes merge with. */
function locksOf(n: JobEventNames, ds: JobEventDatasets): string[] {
  return [n.jobUrn, ...(n.runUrn ? [n.runUrn] : []), ...ds.datasets.filter(isDescribed).map((d) => d.urn)];
}

function readsOf(n: JobEventNames, ds: JobEventDatasets): Array<{ urn: string; aspect: string }> {
  return [
    ...[...ds.datasets.map((d) => d.urn), ...ds.columnOnly].map((urn) => ({ urn, aspect: 'datasetKey' })),
    ...[n.jobUrn, ...(n.runUrn ? [n.runUrn] : []), ...ds.datasets.map((d) => d.urn)].map((urn) => ({ urn, aspect: OPENLINEAGE_ASPECT })),
    { urn: n.flowUrn, aspect: 'dataFlowInfo' },
    { urn: n.jobUrn, aspect: 'dataJobInputOutput' },
    ...(n.runUrn
      ? [
          { urn: n.runUrn, aspect: 'dataProcessInstanceProperties' },
          { urn: n.runUrn, aspect: 'dataProcessInstanceRunEvent' },
        ]
      : []),
    ...ds.datasets.filter((d) => d.description !== undefined).map((d) => ({ urn: d.urn, aspect: 'datasetProperties' })),
    ...ds.withColumns.map((d) => ({ urn: d.urn, aspect: 'upstreamLineage' })),
  ];
}

const storedJobLineage = (state: StoredAspects, jobUrn: string) =>
  jobLineageOf(entityState(state, jobUrn).stored, state.get(stateKey(jobUrn, 'dataJobInputOutput')));

// ---------------------------------------------------------------------------------------------
// The writes, in order

/** A flow is named once; no event describes it further. */
function writeFlow({ e, names: { flowUrn }, state, write }: JobEventStep): void {
  if (!state.get(stateKey(flowUrn, 'dataFlowInfo')))
    write(flowUrn, 'dataFlowInfo', { name: /^urn:li:dataFlow:\([^,]*,([^,]*),/.exec(flowUrn)?.[1] ?? e.job.name });
}

/** The job's info, when this event is the newest to describe the job. */
function writeJobInfo({ e, names: { jobUrn, orchestrator }, key, write }: JobEventStep, jobState: EntityState): void {
  if (!isNewest(jobState.key, key)) return;
  const jobType = facetOf(e.job.facets, 'jobType');
  const description = facetOf(e.job.facets, 'documentation')?.description;
  const url = facetOf(e.job.facets, 'sourceCodeLocation')?.url;
  write(jobUrn, 'dataJobInfo', {
    name: e.job.name,
    type: jobType?.jobType ?? jobType?.processingType ?? 'COMMAND',
    ...(description !== undefined ? { description } : {}),
    ...(url ? { externalUrl: url } : {}),
    customProperties: { 'openlineage.namespace': e.job.namespace, 'openlineage.name': e.job.name, orchestrator },
  });
}

type EffectiveMode = LineageMode | 'seen';

/**
 * A run that failed changes no lineage: its FAIL took back what it had added, and an event of it
 * that arrives after the FAIL adds nothing (it is only stamped as seen).
 */
const effectiveModeOf = (mode: LineageMode, runFailed: string | undefined): EffectiveMode =>
  mode === 'add' && runFailed !== undefined ? 'seen' : mode;

type ColumnChanges = Map<string, { before: ColumnLineage; after: ColumnLineage }>;

/** The outputs whose column state this event changes, before and after. */
function columnChangesOf(
  { names: { jobUrn }, datasets: { withColumns }, state, key, seen, run }: JobEventStep,
  effective: EffectiveMode,
  jobLineageBefore: JobLineage,
): ColumnChanges {
  const columnStates: ColumnChanges = new Map();
  if (effective === 'add' || effective === 'set') {
    for (const d of withColumns) {
      const before = columnLineageOf(entityState(state, d.urn).stored);
      columnStates.set(d.urn, { before, after: nextColumnLineage(before, jobUrn, d.columns!, effective, { key, actor: seen.actor }, run) });
    }
  } else if (effective === 'withdraw') {
    // The outputs this run added column lineage to (followUp read them).
    for (const urn of jobLineageBefore.columnRuns[run] ?? []) {
      const stored = state.get(stateKey(urn, OPENLINEAGE_ASPECT));
      if (!stored) continue;
      const before = columnLineageOf(stored);
      const after = withdrawColumnLineage(before, jobUrn, run);
      if (JSON.stringify(columnLineageJson(after)) !== JSON.stringify(columnLineageJson(before))) columnStates.set(urn, { before, after });
    }
  }
  return columnStates;
}

/** The event's datasets, those only its column lineage names, and the column state of outputs it only withdraws from. */
function writeDatasets({ datasets: { datasets, columnOnly }, state, key, e, write }: JobEventStep, columnStates: ColumnChanges): void {
  for (const d of datasets) writeDataset(state, d, key, e.eventTime, write, columnStates.get(d.urn)?.after);
  for (const urn of columnOnly) ensureDataset(state, urn, write);
  for (const [urn, c] of columnStates) {
    if (datasets.some((d) => d.urn === urn)) continue;
    write(urn, OPENLINEAGE_ASPECT, { ...(state.get(stateKey(urn, OPENLINEAGE_ASPECT)) ?? {}), columnLineage: columnLineageJson(c.after) });
  }
}

/**
 * The job's dataJobInputOutput after this event; returns the lineage state its openLineage aspect
 * keeps. An event without inputs and outputs says nothing of them; an empty list says "none".
 */
function writeJobLineage(
  s: JobEventStep,
  jobState: EntityState,
  effective: EffectiveMode,
  jobLineageBefore: JobLineage,
): JsonRecord | undefined {
  const {
    e,
    names: { jobUrn },
    datasets: { inputs, outputs, withColumns },
    state,
    key,
    seen,
    run,
    write,
  } = s;
  let lineage: JsonRecord | undefined = asRecord(jobState.stored.lineage) ?? undefined;
  if (effective === 'withdraw') {
    const next = nextJobLineage(jobLineageBefore, { inputs: [], outputs: [] }, 'withdraw', key, seen, run);
    if (JSON.stringify(jobLineageJson(next)) !== JSON.stringify(jobLineageJson(jobLineageBefore))) {
      write(jobUrn, 'dataJobInputOutput', jobInputOutput(state.get(stateKey(jobUrn, 'dataJobInputOutput')), next));
      lineage = jobLineageJson(next);
    }
  } else if (effective !== 'none' && e.reportsDatasets) {
    const next = nextJobLineage(
      jobLineageBefore,
      { inputs: inputs.map((d) => d.urn), outputs: outputs.map((d) => d.urn) },
      effective,
      key,
      seen,
      run,
      effective === 'add' ? withColumns.map((d) => d.urn) : [],
    );
    write(jobUrn, 'dataJobInputOutput', jobInputOutput(state.get(stateKey(jobUrn, 'dataJobInputOutput')), next));
    lineage = jobLineageJson(next);
  }
  return lineage;
}

/** Each output's upstreamLineage, where its column state changed. */
function writeOutputUpstreams(
  { datasets: { withColumns }, state, write }: JobEventStep,
  effective: EffectiveMode,
  columnStates: ColumnChanges,
): void {
  for (const [urn, c] of columnStates) {
    const d = withColumns.find((x) => x.urn === urn);
    const legacy =
      effective === 'set' && d && entityState(state, urn).stored.columnLineage === undefined
        ? new Set([...d.columns!.keys()].map((column) => fieldUrnOf(urn, column)))
        : undefined;
    write(urn, 'upstreamLineage', outputUpstreamLineage(state.get(stateKey(urn, 'upstreamLineage')), urn, c.before, c.after, legacy));
  }
}

/** The job's openLineage aspect: its keys, kept facets and lineage state. */
function writeJobState({ e, names: { jobUrn }, key, write }: JobEventStep, jobState: EntityState, lineage: JsonRecord | undefined): void {
  const { lineageEventTime: _legacy, ...jobStored } = jobState.stored;
  write(
    jobUrn,
    OPENLINEAGE_ASPECT,
    nextEntityState(
      { ...jobState, stored: jobStored },
      key,
      e.eventTime,
      keptFacets(e.job.facets ?? {}, e.job.unread),
      [],
      lineage ? { lineage } : {},
    ),
  );
}
