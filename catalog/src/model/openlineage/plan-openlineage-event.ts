// What one OpenLineage event writes, as a plan (README.md): a job or run event's (plan-job-event.ts)
// or a DatasetEvent's, which describes one dataset and no lineage.
import { writeDataset } from './dataset-writes.ts';
import { OPENLINEAGE_ASPECT } from './entity-state.ts';
import type { OpenLineageEvent } from './events.ts';
import { datasetFacts, resolverOf } from './event-datasets.ts';
import { eventKeyOf } from './event-keys.ts';
import type { AspectWrite, EventPlan } from './event-plan.ts';
import { planJobEvent } from './plan-job-event.ts';

export function planOpenLineageEvent(e: OpenLineageEvent): EventPlan {
  return e.kind === 'dataset' ? planDatasetEvent(e) : planJobEvent(e);
}

function planDatasetEvent(e: Extract<OpenLineageEvent, { kind: 'dataset' }>): EventPlan {
  const d = datasetFacts(e.dataset, resolverOf([e.dataset]));
  const key = eventKeyOf(e);
  return {
    urns: [d.urn],
    locks: [d.urn],
    reads: [
      { urn: d.urn, aspect: OPENLINEAGE_ASPECT },
      { urn: d.urn, aspect: 'datasetKey' },
      ...(d.description !== undefined ? [{ urn: d.urn, aspect: 'datasetProperties' }] : []),
    ],
    writes(state) {
      const out: AspectWrite[] = [];
      writeDataset(state, d, key, e.eventTime, (urn, aspectName, value) => out.push({ urn, aspectName, value }));
      return out;
    },
  };
}
