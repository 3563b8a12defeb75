// Templates, as DataHub's AspectTemplateEngine has them: the lineage aspects (and tags, terms and
// owners) are patched through a map view of their keyed arrays; everything else in them is plain
// JSON Patch (json-patch.ts). Which arrays are keyed, and an absent aspect's default, are declared on
// the aspect in its descriptor (entity-types.ts `patch`). A view sees a keyed array as a map from key
// to entry, so that a client addresses an upstream by its urn instead of by a positional index, and
// the fine-grained lineage groups as <operation>/<downstream>/<query>/<upstream>.
//
// Decisions (beyond the spec):
// - Only the keyed arrays a patch touches are rebuilt; every other field is returned exactly as
//   stored, and an optional array the stored value lacks is not added unless the patch addresses it.
//   An absent aspect starts from the spec's default (which does carry every empty array).
// - Fine-grained groups (operation, downstream, query) the patch does not change are returned as the
//   stored entries, verbatim; changed groups are rebuilt from the map per the spec.
// - Keys are read leniently because released SDKs are inconsistent: the 0.13 line percent-encodes
//   some keys (chart inputEdges, dataJob edges: `urn%3Ali%3A…`) and sends remove paths, dashboard
//   charts/datasets and tag paths without `~1` escaping, so a urn containing `/` arrives split into
//   several segments. A key segment starting with `urn:` whose parentheses are unbalanced is
//   re-joined with the following segments (urns percent-encode literal parentheses, so balance is
//   reliable), and a key starting `urn%3A` is percent-decoded.
// - Values are normalised to the array's element shape: a bare urn string added to an Edge array
//   becomes {destinationUrn}, to chart `inputs` becomes {string: urn}. An added record without its
//   key field gets it from the path; with one, the record's own field is the key (that is what the
//   next patch will key it by).
// - Duplicate keys in a stored keyed array collapse to one entry (the last one, at the first one's
//   position) once that array is patched — DataHub merges them the same way.
import type { KeyedKind, PatchTemplate } from '../entity-types.ts';
import { validationFailed } from '../errors.ts';
import { isJsonRecord } from '../json.ts';
import { applyPlainOp, deepEqual, pointerSegments, toPointer, type Json, type JsonObject, type PatchOp } from './json-patch.ts';

export function applyTemplated(aspectName: string, template: PatchTemplate, doc0: JsonObject, ops: readonly PatchOp[]): Json {
  let doc: Json = doc0;
  const views = new Map<string, View>();
  const flush = (field: string) => {
    const view = views.get(field);
    if (view === undefined) return;
    if (isJsonRecord(doc)) doc[field] = view.materialize();
    views.delete(field);
  };
  const flushAll = () => {
    for (const field of [...views.keys()]) flush(field);
  };

  for (const op of ops) {
    const segments = pointerSegments(op.path);
    const field = segments[0];
    const kind = field !== undefined && Object.hasOwn(template.fields, field) ? template.fields[field] : undefined;
    if (field === undefined || kind === undefined || segments.length === 1 || !isJsonRecord(doc)) {
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

// The views.

interface View {
  materialize(): Json[];
}

/** Re-joins a urn that arrived split on its unescaped `/`, and percent-decodes `urn%3A…` keys. */
function takeKey(aspectName: string, op: PatchOp, segments: readonly string[]): { key: string; rest: string[] } {
  let key = segments[0] ?? '';
  let used = 1;
  if (key.startsWith('urn:') && depth(key) > 0) {
    let joined = key;
    let n = 1;
    while (n < segments.length && depth(joined) > 0) joined += '/' + segments[n++];
    if (depth(joined) === 0) {
      key = joined;
      used = n;
    }
  } else if (/^urn%3A/i.test(key)) {
    try {
      key = decodeURIComponent(key);
    } catch {
      throw validationFailed(`PATCH on ${aspectName}: operation ${op.index} has a malformed percent-encoded key in ${op.path}`);
    }
  }
  if (key === '') throw validationFailed(`PATCH on ${aspectName}: operation ${op.index} has an empty key in ${op.path}`);
  return { key, rest: segments.slice(used) };
}

function depth(s: string): number {
  let d = 0;
  for (const c of s) {
    if (c === '(') d++;
    else if (c === ')') d--;
  }
  return d;
}

class KeyedView implements View {
  readonly aspectName: string;
  readonly field: string;
  readonly kind: KeyedKind;
  readonly entries: Map<string, Json>;

  private constructor(aspectName: string, field: string, kind: KeyedKind, entries: Map<string, Json>) {
    this.aspectName = aspectName;
    this.field = field;
    this.kind = kind;
    this.entries = entries;
  }

  static from(aspectName: string, field: string, kind: KeyedKind, stored: Json[]): KeyedView {
    const view = new KeyedView(aspectName, field, kind, new Map());
    for (const entry of stored) view.entries.set(view.keyOf(entry), entry);
    return view;
  }

  keyOf(entry: Json): string {
    let key: Json | undefined = entry;
    if (isJsonRecord(entry)) {
      switch (this.kind.kind) {
        case 'record':
          key = entry[this.kind.keyField];
          break;
        case 'edge':
          key = entry.destinationUrn;
          break;
        case 'chartInput': {
          // {"string": urn}; any other single-member union is keyed by its member's value.
          const members = Object.values(entry);
          key = typeof entry.string === 'string' ? entry.string : members.length === 1 ? members[0] : undefined;
          break;
        }
        case 'owner':
          key = typeof entry.owner === 'string' ? ownerKey(entry.owner, entry.type) : undefined;
          break;
        default:
          key = undefined;
      }
    }
    return typeof key === 'string' ? key : JSON.stringify(entry);
  }

  /** Shapes an added value as this array's element. */
  normalize(op: PatchOp, key: string, value: Json | undefined): Json {
    const where = `PATCH on ${this.aspectName}: operation ${op.index} (${op.op} ${op.path})`;
    switch (this.kind.kind) {
      case 'urn':
        // The 0.13 SDK sends an Edge as the value of /inputDatasetFields/<urn>.
        if (typeof value === 'string') return value;
        return isJsonRecord(value) && typeof value.destinationUrn === 'string' ? value.destinationUrn : key;
      case 'chartInput':
        if (typeof value === 'string') return { string: value };
        if (isJsonRecord(value) && Object.keys(value).length > 0) return value;
        return { string: key };
      case 'edge':
        if (typeof value === 'string') return { destinationUrn: value };
        if (!isJsonRecord(value)) throw validationFailed(`${where}: the value must be an Edge object or a urn`);
        return Object.hasOwn(value, 'destinationUrn') ? value : { destinationUrn: key, ...value };
      case 'record': {
        const keyField = this.kind.keyField;
        if (!isJsonRecord(value)) throw validationFailed(`${where}: the value must be an object`);
        return Object.hasOwn(value, keyField) ? value : { [keyField]: key, ...value };
      }
      default:
        throw validationFailed(`${where}: unsupported`);
    }
  }

  apply(op: PatchOp, segments: readonly string[]): void {
    if (this.kind.kind === 'owner') {
      this.applyOwner(op, segments);
      return;
    }
    const { key, rest } = takeKey(this.aspectName, op, segments);
    const where = `PATCH on ${this.aspectName}: operation ${op.index} (${op.op} ${op.path})`;
    if (rest.length === 0) {
      switch (op.op) {
        case 'add':
        case 'replace': {
          const entry = this.normalize(op, key, structuredClone(op.value));
          // Map.set keeps an existing key's position: a re-add replaces the entry in place.
          this.entries.set(this.keyOf(entry), entry);
          return;
        }
        case 'remove':
          this.entries.delete(key);
          return;
        case 'test': {
          const entry = this.entries.get(key);
          if (entry === undefined || !deepEqual(entry, this.normalize(op, key, op.value))) {
            throw validationFailed(`${where}: the test failed`);
          }
          return;
        }
        default:
          throw validationFailed(`${where}: ${op.op} is not supported on a keyed ${this.field} entry`);
      }
    }
    // A field inside an entry, e.g. /upstreams/<urn>/type.
    const entry = this.entries.get(key);
    if (entry === undefined) {
      if (op.op === 'remove') return;
      throw validationFailed(`${where}: ${this.field} has no entry ${key}`);
    }
    if (op.from !== undefined) throw validationFailed(`${where}: ${op.op} is not supported inside a keyed ${this.field} entry`);
    const patched = applyPlainOp(this.aspectName, entry, { ...op, path: toPointer(rest) });
    this.entries.set(key, patched);
  }

  /**
   * /owners/<owner>[/<type>[/<field>…]]: an owner is one entry per ownership type, as in DataHub's
   * OwnershipTemplate; removing /owners/<owner> removes every type of that owner.
   */
  private applyOwner(op: PatchOp, segments: readonly string[]): void {
    const where = `PATCH on ${this.aspectName}: operation ${op.index} (${op.op} ${op.path})`;
    const { key: owner, rest } = takeKey(this.aspectName, op, segments);
    const [type, ...inside] = rest;
    if (op.op === 'remove' && type === undefined) {
      for (const k of [...this.entries.keys()]) if (k.startsWith(owner + OWNER_SEP)) this.entries.delete(k);
      return;
    }
    const value = structuredClone(op.value);
    if (inside.length === 0 && (op.op === 'add' || op.op === 'replace')) {
      if (value !== undefined && !isJsonRecord(value)) throw validationFailed(`${where}: the value must be an Owner object`);
      const entry: JsonObject = { owner, ...(type === undefined ? {} : { type }), ...(value ?? {}) };
      this.entries.set(this.keyOf(entry), entry);
      return;
    }
    const key = ownerKey(owner, type);
    if (inside.length === 0 && op.op === 'remove') {
      this.entries.delete(key);
      return;
    }
    const entry = this.entries.get(key);
    if (entry === undefined) {
      if (op.op === 'remove') return;
      throw validationFailed(`${where}: ${this.field} has no entry ${owner} of type ${type ?? 'NONE'}`);
    }
    this.entries.set(key, applyPlainOp(this.aspectName, entry, { ...op, path: toPointer(inside) }));
  }

  materialize(): Json[] {
    return [...this.entries.values()];
  }
}

/** An owner entry's key: the owner urn, then its ownership type (DataHub's default when absent). */
function ownerKey(owner: string, type: Json | undefined): string {
  return `${owner}${OWNER_SEP}${typeof type === 'string' && type !== '' ? type : 'NONE'}`;
}
const OWNER_SEP = '\u0000';

interface FineGroup {
  operation: string;
  downstream: string;
  query: string;
  /** upstream urn → {confidenceScore?, upstreamType?, downstreamType?} */
  upstreams: Map<string, JsonObject>;
  /** The stored entries this group came from, returned verbatim while the group is unchanged. */
  sources: Json[];
  changed: boolean;
}

const NONE = 'NONE';

class FineGrainedView implements View {
  readonly aspectName: string;
  readonly field: string;
  readonly groups = new Map<string, FineGroup>();

  private constructor(aspectName: string, field: string) {
    this.aspectName = aspectName;
    this.field = field;
  }

  static from(aspectName: string, field: string, stored: Json[]): FineGrainedView {
    const view = new FineGrainedView(aspectName, field);
    stored.forEach((entry, i) => {
      if (!isJsonRecord(entry)) throw validationFailed(`PATCH on ${aspectName}: stored ${field}[${i}] is not an object`);
      const downstreams = entry.downstreams;
      if (!Array.isArray(downstreams) || downstreams.length !== 1 || typeof downstreams[0] !== 'string') {
        throw validationFailed(
          `PATCH on ${aspectName}: cannot patch ${field}: stored entry ${i} has ${Array.isArray(downstreams) ? downstreams.length : 0} downstreams; patching needs exactly one`,
        );
      }
      const operation = typeof entry.transformOperation === 'string' ? entry.transformOperation : NONE;
      const query = typeof entry.query === 'string' ? entry.query : NONE;
      const group = view.group(operation, downstreams[0], query);
      group.sources.push(entry);
      const node: JsonObject = { confidenceScore: typeof entry.confidenceScore === 'number' ? entry.confidenceScore : 1.0 };
      if (typeof entry.upstreamType === 'string') node.upstreamType = entry.upstreamType;
      if (typeof entry.downstreamType === 'string') node.downstreamType = entry.downstreamType;
      for (const upstream of Array.isArray(entry.upstreams) ? entry.upstreams : []) {
        if (typeof upstream === 'string') group.upstreams.set(upstream, { ...node });
      }
    });
    return view;
  }

  group(operation: string, downstream: string, query: string): FineGroup {
    const id = JSON.stringify([operation, downstream, query]);
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { operation, downstream, query, upstreams: new Map(), sources: [], changed: false };
      this.groups.set(id, group);
    }
    return group;
  }

  /** segments: <operation>/<downstream>/<query>/<upstream>; shorter prefixes are allowed for remove. */
  apply(op: PatchOp, segments: readonly string[]): void {
    const where = `PATCH on ${this.aspectName}: operation ${op.index} (${op.op} ${op.path})`;
    const keys: string[] = [];
    let rest = segments;
    while (rest.length > 0 && keys.length < 4) {
      const taken = takeKey(this.aspectName, op, rest);
      keys.push(taken.key);
      rest = taken.rest;
    }
    if (rest.length > 0) throw validationFailed(`${where}: ${this.field} paths end at the upstream urn`);
    const [operation, downstream, query, upstream] = keys;

    if (op.op === 'remove') {
      for (const group of this.groups.values()) {
        if (group.operation !== operation) continue;
        if (downstream !== undefined && group.downstream !== downstream) continue;
        if (query !== undefined && group.query !== query) continue;
        if (upstream === undefined) {
          if (group.upstreams.size > 0 || group.sources.length > 0) group.changed = true;
          group.upstreams.clear();
        } else if (group.upstreams.delete(upstream)) {
          group.changed = true;
        }
      }
      return;
    }
    if (op.op !== 'add' && op.op !== 'replace') {
      throw validationFailed(`${where}: ${op.op} is not supported on ${this.field}`);
    }
    if (operation === undefined || downstream === undefined || query === undefined || upstream === undefined) {
      throw validationFailed(`${where}: expected /${this.field}/<transformOperation>/<downstream urn>/<query urn or NONE>/<upstream urn>`);
    }
    const value = op.value;
    if (!isJsonRecord(value)) throw validationFailed(`${where}: the value must be an object such as {"confidenceScore": 1.0}`);
    if (value.confidenceScore !== undefined && typeof value.confidenceScore !== 'number') {
      throw validationFailed(`${where}: confidenceScore must be a number`);
    }
    const group = this.group(operation, downstream, query);
    group.upstreams.set(upstream, structuredClone(value));
    group.changed = true;
  }

  materialize(): Json[] {
    const out: Json[] = [];
    for (const group of this.groups.values()) {
      if (!group.changed) {
        out.push(...group.sources);
        continue;
      }
      if (group.upstreams.size === 0) continue;
      const upstreams = [...group.upstreams.keys()];
      let upstreamType: string | undefined;
      let downstreamType: string | undefined;
      let confidenceScore = 1.0;
      for (const node of group.upstreams.values()) {
        if (typeof node.upstreamType === 'string') upstreamType = node.upstreamType;
        if (typeof node.downstreamType === 'string') downstreamType = node.downstreamType;
        if (typeof node.confidenceScore === 'number') confidenceScore = Math.min(confidenceScore, node.confidenceScore);
      }
      const entry: JsonObject = {
        upstreamType: upstreamType ?? (upstreams[0]?.startsWith('urn:li:dataset:') ? 'DATASET' : 'FIELD_SET'),
        upstreams,
        downstreamType: downstreamType ?? 'FIELD',
        downstreams: [group.downstream],
        transformOperation: group.operation,
        confidenceScore,
      };
      if (group.query !== NONE) entry.query = group.query;
      out.push(entry);
    }
    return out;
  }
}
