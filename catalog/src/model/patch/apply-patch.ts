// PATCH proposals (docs/wire-contract.md §Rest.li): the MCP's aspect value is an RFC 6902 operation array, or
// DataHub's GenericJsonPatch wrapper {arrayPrimaryKeys, patch, forceGenericPatch}. This file parses
// it, takes the value every engine starts from (the current one, or the aspect's default), and
// picks the engine: the generic keyed patch (keyed-patch.ts), the aspect's template (templates.ts),
// or plain JSON Patch with DataHub's leniencies (json-patch.ts).
//
// Decision (beyond the spec):
// - The wrapper goes through arrayPrimaryKeys keying when forceGenericPatch is true OR
//   arrayPrimaryKeys is non-empty: that is what DataHub's PatchItemImpl does, and a key list is
//   meaningless otherwise. An empty wrapper without forceGenericPatch uses the templates.
import type { PatchTemplate } from '../entity-types.ts';
import { patchTemplateOf } from '../entity-registry.ts';
import { validationFailed } from '../errors.ts';
import { isJsonRecord } from '../json.ts';
import { jsonDepthProblem } from '../json-depth.ts';
import { SYSTEM_ACTOR_URN } from '../privileges.ts';
import { applyPlainOp, OPS, type Json, type JsonObject, type OpName, type PatchOp } from './json-patch.ts';
import { applyKeyedGeneric } from './keyed-patch.ts';
import { applyTemplated } from './templates.ts';

export interface PatchInput {
  aspectName: string;
  /** Latest stored value, or undefined when absent. */
  current: Record<string, unknown> | undefined;
  /** aspect.value of the MCP: a JSON string. */
  patchText: string;
  /** Milliseconds, for default audit stamps. */
  now: number;
}

interface ParsedPatch {
  ops: PatchOp[];
  arrayPrimaryKeys: Record<string, string[]>;
  forceGenericPatch: boolean;
}

/** Applies a PATCH proposal's aspect value to the current latest value of the aspect. Pure. */
export function applyPatch(input: PatchInput): Record<string, unknown> {
  const { aspectName } = input;
  const parsed = parsePatchText(aspectName, input.patchText);
  const { template, base } = patchStart(aspectName, input.current, input.now);

  let result: Json;
  if (parsed.forceGenericPatch || Object.keys(parsed.arrayPrimaryKeys).length > 0) {
    result = applyKeyedGeneric(aspectName, base, parsed.arrayPrimaryKeys, parsed.ops);
  } else if (template !== undefined) {
    result = applyTemplated(aspectName, template, base, parsed.ops);
  } else {
    let doc: Json = base;
    for (const op of parsed.ops) doc = applyPlainOp(aspectName, doc, op);
    result = doc;
  }
  if (!isJsonRecord(result)) throw validationFailed(`PATCH on ${aspectName} leaves a value that is not a JSON object`);
  return result;
}

/**
 * The aspect's template (undefined = none) and the value a PATCH starts from: a copy of the current
 * value, or for an absent aspect the template's default stamped now by the system actor ({} without one).
 */
function patchStart(
  aspectName: string,
  current: Record<string, unknown> | undefined,
  now: number,
): { template: PatchTemplate | undefined; base: JsonObject } {
  const template = patchTemplateOf(aspectName);
  if (current !== undefined) return { template, base: structuredClone(current) as JsonObject };
  return { template, base: template ? (template.defaultValue(() => ({ time: now, actor: SYSTEM_ACTOR_URN })) as JsonObject) : {} };
}

function parsePatchText(aspectName: string, patchText: string): ParsedPatch {
  const tooDeep = jsonDepthProblem(patchText);
  if (tooDeep) throw validationFailed(`PATCH value for ${aspectName} is not acceptable: ${tooDeep}`);
  let raw: unknown;
  try {
    raw = JSON.parse(patchText);
  } catch (e) {
    throw validationFailed(`PATCH value for ${aspectName} is not valid JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(raw)) return { ops: parseOps(aspectName, raw), arrayPrimaryKeys: {}, forceGenericPatch: false };
  if (!isJsonRecord(raw)) {
    throw validationFailed(`PATCH value for ${aspectName} must be a JSON Patch array or a {"patch": [...]} object`);
  }
  const wrapper = raw as JsonObject;
  if (!Array.isArray(wrapper.patch)) {
    throw validationFailed(`PATCH value for ${aspectName} has no "patch" array of operations`);
  }
  const force = wrapper.forceGenericPatch ?? false;
  if (typeof force !== 'boolean') throw validationFailed(`PATCH value for ${aspectName}: forceGenericPatch must be a boolean`);
  const keys = wrapper.arrayPrimaryKeys ?? {};
  if (!isJsonRecord(keys)) throw validationFailed(`PATCH value for ${aspectName}: arrayPrimaryKeys must be an object`);
  const arrayPrimaryKeys: Record<string, string[]> = {};
  for (const [field, keyFields] of Object.entries(keys)) {
    if (!Array.isArray(keyFields) || !keyFields.every((k) => typeof k === 'string')) {
      throw validationFailed(`PATCH value for ${aspectName}: arrayPrimaryKeys.${field} must be an array of field names`);
    }
    if (field === '' || field === '__proto__') {
      throw validationFailed(`PATCH value for ${aspectName}: arrayPrimaryKeys has an invalid field name "${field}"`);
    }
    arrayPrimaryKeys[field] = keyFields as string[];
  }
  return { ops: parseOps(aspectName, wrapper.patch), arrayPrimaryKeys, forceGenericPatch: force };
}

function parseOps(aspectName: string, raw: Json[]): PatchOp[] {
  return raw.map((item, index) => {
    const where = `PATCH on ${aspectName}: operation ${index}`;
    if (!isJsonRecord(item)) throw validationFailed(`${where} is not an object`);
    const { op, path } = item;
    if (typeof op !== 'string') throw validationFailed(`${where} has no "op"`);
    if (!(OPS as readonly string[]).includes(op)) {
      throw validationFailed(`${where} has unsupported op "${op}" (expected one of ${OPS.join(', ')})`);
    }
    if (typeof path !== 'string') throw validationFailed(`${where} has no "path"`);
    if (path !== '' && !path.startsWith('/')) throw validationFailed(`${where} has path "${path}" that does not start with "/"`);
    const parsed: PatchOp = { op: op as OpName, path, index };
    if (op === 'add' || op === 'replace' || op === 'test') {
      if (!Object.hasOwn(item, 'value')) throw validationFailed(`${where} (${op} ${path}) has no "value"`);
      parsed.value = item.value as Json;
    }
    if (op === 'move' || op === 'copy') {
      if (typeof item.from !== 'string') throw validationFailed(`${where} (${op} ${path}) has no "from"`);
      parsed.from = item.from;
    }
    return parsed;
  });
}
