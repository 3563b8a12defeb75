// Templates, as DataHub's AspectTemplateEngine has them: the lineage aspects (and tags, terms and
// owners) are patched through a map view of their keyed arrays (template-views.ts); everything else
// in them is plain JSON Patch (json-patch.ts).
//
// Decisions (beyond the spec):
// - Only the keyed arrays a patch touches are rebuilt; every other field is returned exactly as
//   stored, and an optional array the stored value lacks is not added unless the patch addresses it.
//   An absent aspect starts from the spec's default (which does carry every empty array).
import { validationFailed } from '../errors.ts';
import { applyPlainOp, isObject, pointerSegments, type Json, type JsonObject, type PatchOp } from './json-patch.ts';
import { FineGrainedView, KeyedView, type KeyedKind, type View } from './template-views.ts';

export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

export interface Template {
  fields: Record<string, KeyedKind>;
  defaultValue: (now: number) => JsonObject;
}

const EDGE: KeyedKind = { kind: 'edge' };
const URN: KeyedKind = { kind: 'urn' };
const FINE: KeyedKind = { kind: 'fineGrained' };

function infoDefault(now: number, arrays: readonly string[]): JsonObject {
  const stamp = () => ({ time: now, actor: SYSTEM_ACTOR });
  const value: JsonObject = { title: '', description: '', lastModified: { created: stamp(), lastModified: stamp() } };
  for (const a of arrays) value[a] = [];
  return value;
}

export const TEMPLATES: Record<string, Template | undefined> = {
  upstreamLineage: {
    fields: { upstreams: { kind: 'record', keyField: 'dataset' }, fineGrainedLineages: FINE },
    defaultValue: () => ({ upstreams: [], fineGrainedLineages: [] }),
  },
  dataJobInputOutput: {
    fields: {
      inputDatasetEdges: EDGE,
      outputDatasetEdges: EDGE,
      inputDatajobEdges: EDGE,
      inputDatasetFields: URN,
      outputDatasetFields: URN,
      fineGrainedLineages: FINE,
    },
    defaultValue: () => ({
      inputDatasets: [],
      outputDatasets: [],
      inputDatajobs: [],
      inputDatasetEdges: [],
      outputDatasetEdges: [],
      inputDatajobEdges: [],
      inputDatasetFields: [],
      outputDatasetFields: [],
      fineGrainedLineages: [],
    }),
  },
  chartInfo: {
    fields: { inputEdges: EDGE, inputs: { kind: 'chartInput' } },
    defaultValue: (now) => infoDefault(now, ['inputs', 'inputEdges']),
  },
  dashboardInfo: {
    // `dashboards` (dashboard → dashboard edges) is keyed too, as in DataHub's DashboardInfoTemplate.
    fields: { charts: URN, chartEdges: EDGE, datasets: URN, datasetEdges: EDGE, dashboards: EDGE },
    defaultValue: (now) => infoDefault(now, ['charts', 'chartEdges', 'datasets', 'datasetEdges']),
  },
  // Tags, terms and owners as the Python client's builders address them (/tags/<urn>,
  // /terms/<urn>, /owners/<urn>/<type>), with DataHub's template defaults.
  globalTags: {
    fields: { tags: { kind: 'record', keyField: 'tag' } },
    defaultValue: () => ({ tags: [] }),
  },
  glossaryTerms: {
    fields: { terms: { kind: 'record', keyField: 'urn' } },
    defaultValue: (now) => ({ terms: [], auditStamp: { time: now, actor: SYSTEM_ACTOR } }),
  },
  ownership: {
    fields: { owners: { kind: 'owner' } },
    defaultValue: (now) => ({ owners: [], ownerTypes: {}, lastModified: { time: now, actor: SYSTEM_ACTOR } }),
  },
};

export function applyTemplated(aspectName: string, template: Template, doc0: JsonObject, ops: readonly PatchOp[]): Json {
  let doc: Json = doc0;
  const views = new Map<string, View>();
  const flush = (field: string) => {
    const view = views.get(field);
    if (view === undefined) return;
    if (isObject(doc)) doc[field] = view.materialize();
    views.delete(field);
  };
  const flushAll = () => {
    for (const field of [...views.keys()]) flush(field);
  };

  for (const op of ops) {
    const segments = pointerSegments(op.path);
    const field = segments[0];
    const kind = field !== undefined && Object.hasOwn(template.fields, field) ? template.fields[field] : undefined;
    if (field === undefined || kind === undefined || segments.length === 1 || !isObject(doc)) {
      // Whole-document or whole-array operations, or untemplated fields: plain JSON Patch on the
      // current state, so the views it may read or overwrite are written back first.
      flushAll();
      // DataHub's map view always has every keyed field, so `replace /inputDatasetEdges` (what the
      // SDK's set_input_datasets sends) works even when the stored value lacks the array.
      const whole = kind !== undefined && segments.length === 1 && op.op === 'replace' ? { ...op, op: 'add' as const } : op;
      doc = applyPlainOp(aspectName, doc, whole);
      continue;
    }
    let view = views.get(field);
    if (view === undefined) {
      const stored = doc[field];
      if (stored !== undefined && stored !== null && !Array.isArray(stored)) {
        throw validationFailed(`PATCH on ${aspectName}: stored ${field} is not an array`);
      }
      view =
        kind.kind === 'fineGrained'
          ? FineGrainedView.from(aspectName, field, stored ?? [])
          : KeyedView.from(aspectName, field, kind, stored ?? []);
      views.set(field, view);
    }
    if (view instanceof FineGrainedView || view instanceof KeyedView) view.apply(op, segments.slice(1));
  }
  flushAll();
  return doc;
}

