// Templates, as DataHub's AspectTemplateEngine has them: the lineage aspects (and tags, terms and
// owners) are patched through a map view of their keyed arrays (template-views.ts); everything else
// in them is plain JSON Patch (json-patch.ts). Which arrays are keyed, and an absent aspect's
// default, are declared on the aspect in its descriptor (entity-types.ts `patch`).
//
// Decisions (beyond the spec):
// - Only the keyed arrays a patch touches are rebuilt; every other field is returned exactly as
//   stored, and an optional array the stored value lacks is not added unless the patch addresses it.
//   An absent aspect starts from the spec's default (which does carry every empty array).
import { COMMON_ASPECTS, type PatchTemplate } from '../entity-types.ts';
import { entityTypeDescriptors } from '../entity-registry.ts';
import { validationFailed } from '../errors.ts';
import { applyPlainOp, isObject, pointerSegments, type Json, type JsonObject, type PatchOp } from './json-patch.ts';
import { FineGrainedView, KeyedView, type View } from './template-views.ts';

export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/**
 * The PATCH template of an aspect: declared on the aspect where its descriptor owns it
 * (entity-types.ts `patch`), or on COMMON_ASPECTS for tags, terms and owners; undefined = none.
 */
export function templateOf(aspectName: string): PatchTemplate | undefined {
  if (Object.hasOwn(COMMON_ASPECTS, aspectName)) return COMMON_ASPECTS[aspectName]?.patch;
  for (const d of entityTypeDescriptors()) {
    const owned = d.aspects && Object.hasOwn(d.aspects, aspectName) ? d.aspects[aspectName] : undefined;
    if (owned?.patch) return owned.patch;
  }
  return undefined;
}

/**
 * The aspect's template (undefined = none) and the value a PATCH starts from: a copy of the current
 * value, or for an absent aspect the template's default stamped now by the system actor ({} without one).
 */
export function patchStart(aspectName: string, current: Record<string, unknown> | undefined, now: number): { template: PatchTemplate | undefined; base: JsonObject } {
  const template = templateOf(aspectName);
  if (current !== undefined) return { template, base: structuredClone(current) as JsonObject };
  return { template, base: template ? (template.defaultValue(() => ({ time: now, actor: SYSTEM_ACTOR })) as JsonObject) : {} };
}

export function applyTemplated(aspectName: string, template: PatchTemplate, doc0: JsonObject, ops: readonly PatchOp[]): Json {
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

