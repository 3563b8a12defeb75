// RFC 6902 JSON Patch (fast-json-patch) with DataHub's leniencies: missing parents are created,
// removing something absent is a no-op and replacing a missing object member adds it, because the
// Python client retries writes and must get the same state back. The other engines (templates.ts,
// keyed-patch.ts) fall back on it for whatever they do not key.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { CatalogError, validationFailed } from '../errors.ts';
import { isJsonRecord, type JsonValue } from '../json.ts';

export type Json = JsonValue;
export type JsonObject = { [key: string]: JsonValue };

export const OPS = ['add', 'remove', 'replace', 'test', 'move', 'copy'] as const;
export type OpName = (typeof OPS)[number];

export interface PatchOp {
  op: OpName;
  path: string;
  value?: Json;
  from?: string;
  /** 0-based position in the patch, for messages. */
  index: number;
}

/** Splits a JSON pointer into decoded reference tokens. */
export function pointerSegments(path: string): string[] {
  if (path === '') return [];
  // RFC 6901: "~" only as "~0" or "~1"; anything else is not a pointer (it would address a made-up key).
  if (/~(?![01])/.test(path)) throw validationFailed(`Invalid JSON pointer '${path}': '~' must be followed by 0 or 1`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toPointer(segments: readonly string[]): string {
  return segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function applyPlainOp(aspectName: string, doc: Json, op: PatchOp): Json {
  const segments = pointerSegments(op.path);
  if (op.op === 'remove' && !pointerExists(doc, segments)) return doc; // idempotent under retries
  if (op.op === 'add' || op.op === 'replace') ensureParents(doc, segments);
  // Replacing a missing object member adds it: DataHub's templates pre-populate such fields (e.g.
  // customProperties), so the SDK's `replace` succeeds there.
  const parent = pointerExists(doc, segments.slice(0, -1)) ? valueAt(doc, segments.slice(0, -1)) : undefined;
  const opName = op.op === 'replace' && isJsonRecord(parent) && !Object.hasOwn(parent, segments.at(-1) ?? '') ? 'add' : op.op;
  const operation = { op: opName, path: op.path } as Record<string, unknown>;
  if (op.value !== undefined) operation.value = structuredClone(op.value);
  if (op.from !== undefined) operation.from = op.from;
  try {
    return jsonpatch.applyOperation(doc, operation as unknown as Operation, true, true, true, op.index).newDocument as Json;
  } catch (e) {
    throw cannotApply(aspectName, op, e);
  }
}

function cannotApply(aspectName: string, op: PatchOp, e: unknown): CatalogError {
  if (e instanceof CatalogError) return e;
  const name = e instanceof Error && typeof (e as { name?: unknown }).name === 'string' ? (e as Error).name : '';
  const reason =
    name === 'TEST_OPERATION_FAILED'
      ? 'the test failed'
      : name === 'OPERATION_PATH_UNRESOLVABLE' || name === 'OPERATION_FROM_UNRESOLVABLE'
        ? 'the path does not exist in the aspect'
        : e instanceof Error
          ? e.message.split('\n')[0]
          : String(e);
  return validationFailed(`PATCH on ${aspectName}: cannot apply operation ${op.index} (${op.op} ${op.path}): ${reason}`);
}

function pointerExists(doc: Json, segments: readonly string[]): boolean {
  let node: Json | undefined = doc;
  for (const s of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(s) || Number(s) >= node.length) return false;
      node = node[Number(s)];
    } else if (isJsonRecord(node)) {
      if (!Object.hasOwn(node, s)) return false;
      node = node[s];
    } else {
      return false;
    }
  }
  return true;
}

function valueAt(doc: Json, segments: readonly string[]): Json | undefined {
  let node: Json | undefined = doc;
  for (const s of segments) node = Array.isArray(node) ? node[Number(s)] : isJsonRecord(node) ? node[s] : undefined;
  return node;
}

/** Creates missing intermediate objects, as DataHub's TemplateUtil.populateTopLevelKeys does. */
function ensureParents(doc: Json, segments: readonly string[]): void {
  let node: Json | undefined = doc;
  for (const s of segments.slice(0, -1)) {
    if (Array.isArray(node)) {
      node = /^(0|[1-9][0-9]*)$/.test(s) ? node[Number(s)] : undefined;
    } else if (isJsonRecord(node)) {
      if (s === '__proto__') return; // fast-json-patch rejects it with a clear error
      if (!Object.hasOwn(node, s)) node[s] = {};
      node = node[s];
    } else {
      return; // fast-json-patch reports the unresolvable path
    }
  }
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isJsonRecord(a) && isJsonRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
