// DataHub URN grammar (docs/lineage-model.md §Entity types): urn:<namespace>:<entityType>:<key>, where a key that
// starts with "(" is a tuple split on commas at nesting depth 1. There is no escape syntax:
// producers percent-encode , ( ) inside names, and we never decode them.
import { CatalogError, validationFailed } from './errors.ts';

/**
 * DataHub's separator of composite keys (U+241F): aspect row keys, nested key paths of patches,
 * column keys. It is not a urn grammar character.
 */
export const UNIT_SEPARATOR = '\u241f';

export interface Urn {
  readonly namespace: string;
  readonly entityType: string;
  /** Key parts, positionally mapped to the key aspect's fields. */
  readonly parts: readonly string[];
  /** Canonical text: one part without parentheses, several as (p1,p2,…). Equality = equality of this. */
  readonly text: string;
}

const NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/;
const ENTITY_TYPE = /^[a-z][A-Za-z0-9_]*$/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Longest urn accepted, in UTF-8 bytes (docs/lineage-model.md §Urns). DataHub refuses urns over 512
 * bytes; we accept 8× that, because OpenLineage names (object-store paths with partitions, query
 * texts hashed into job names) run longer, while every indexed key built from a urn (the urn itself,
 * the aspect row key `<urn>␟<aspect>␟<version>`, edge owners) stays well under Neo4j's 8 KB index
 * key limit, past which Neo4j refuses the write.
 */
export const MAX_URN_BYTES = 4096;
/** How much of a refused urn an error message quotes: a 1 MiB urn must not become a 1 MiB answer. */
const QUOTED_URN_CHARS = 200;

/** UTF-8 length of a well-formed string, without Node's Buffer (this module also runs in the page). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The input as an error message quotes it: whole when short, else its head and its length. */
function quoteUrn(input: string): string {
  if (input.length <= QUOTED_URN_CHARS) return input;
  // Cut on a code point boundary so the quote itself stays well-formed.
  let cut = QUOTED_URN_CHARS;
  const c = input.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${input.slice(0, cut)}… (${input.length} characters)`;
}

/**
 * A urn the grammar refuses. It is a validation error of the one taxonomy, so a urn that slips past a
 * door's own check still answers 4xx (422 Rest.li, 400 GraphQL/OpenAPI), never 500.
 */
export class InvalidUrnError extends CatalogError {
  readonly input: string;
  readonly reason: string;
  constructor(input: string, reason: string) {
    super('validation', `Invalid urn: ${quoteUrn(input)} (${reason})`);
    this.name = 'InvalidUrnError';
    this.input = input;
    this.reason = reason;
  }
}

function fail(input: string, reason: string): never {
  throw new InvalidUrnError(input, reason);
}

/** Splits a tuple body (without its outer parentheses) on depth-1 commas. */
function splitTuple(input: string, body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) fail(input, 'mismatched paren nesting');
    } else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) fail(input, 'mismatched paren nesting');
  parts.push(body.slice(start));
  if (parts.some((p) => p.length === 0)) fail(input, 'empty part disallowed');
  return parts;
}

// A name of slashes only (`file://` + `/` from OpenLineage) names no object: it would merge every
// producer's root into one entity.
const SLASHES_ONLY = /^\/+$/;

function checkBalanced(input: string, s: string): void {
  let depth = 0;
  for (const c of s) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) fail(input, 'mismatched paren nesting');
  }
  if (depth !== 0) fail(input, 'mismatched paren nesting');
}

/**
 * Parses DataHub's urn grammar. Not memoised: a write parses the same urns several times, but the
 * ingest bench measured no difference with a cache (docs/CONTRIBUTING.md §Caches).
 */
export function parseUrn(input: string): Urn {
  if (typeof input !== 'string') fail(String(input), 'not a string');
  if (!input.startsWith('urn:')) fail(input, "Urn doesn't start with 'urn:'");
  // Checked first: every UTF-16 unit is at least one UTF-8 byte, so a 1 MiB urn is refused by its
  // length alone, before any scan of it.
  if (input.length > MAX_URN_BYTES || utf8Length(input) > MAX_URN_BYTES) {
    fail(input, `longer than ${MAX_URN_BYTES} bytes in UTF-8`);
  }
  // Neo4j stores UTF-8: an unpaired surrogate would be stored as U+FFFD, i.e. as another urn.
  if (!input.isWellFormed()) fail(input, 'contains an unpaired surrogate');
  // Control characters (NUL, newlines, …) are never part of a name and break logs and exports.
  if (CONTROL_CHARACTER.test(input)) fail(input, 'contains a control character');
  const rest = input.slice(4);
  const c1 = rest.indexOf(':');
  if (c1 < 0) fail(input, 'missing namespace or entity type');
  const namespace = rest.slice(0, c1);
  if (!NAMESPACE.test(namespace)) fail(input, `invalid namespace '${namespace}'`);
  const afterNs = rest.slice(c1 + 1);
  const c2 = afterNs.indexOf(':');
  const entityType = c2 < 0 ? afterNs : afterNs.slice(0, c2);
  if (!ENTITY_TYPE.test(entityType)) fail(input, `invalid entity type '${entityType}'`);
  let parts: string[];
  if (c2 < 0) {
    // `urn:li:foo` has an empty key and is legal; `urn:li:foo:` is not.
    parts = [''];
  } else {
    const key = afterNs.slice(c2 + 1);
    if (key.length === 0) fail(input, 'Urns with empty entityKey are not allowed');
    if (key.startsWith('(')) {
      if (!key.endsWith(')')) fail(input, 'mismatched paren nesting');
      // The opening paren must close at the very end: "(a)(b)" is not a tuple.
      let depth = 0;
      for (let i = 0; i < key.length; i++) {
        if (key[i] === '(') depth++;
        else if (key[i] === ')') {
          depth--;
          if (depth < 0) fail(input, 'mismatched paren nesting');
          if (depth === 0 && i !== key.length - 1) fail(input, 'mismatched paren nesting');
        }
      }
      if (depth !== 0) fail(input, 'mismatched paren nesting');
      parts = splitTuple(input, key.slice(1, -1));
    } else {
      checkBalanced(input, key);
      parts = [key];
    }
    if (parts.some((p) => SLASHES_ONLY.test(p))) fail(input, "a name of only '/' is not allowed");
  }
  return Object.freeze({ namespace, entityType, parts: Object.freeze(parts), text: formatUrn(entityType, parts, namespace) });
}

/** Canonical urn text for a type and its key parts. */
export function formatUrn(entityType: string, parts: readonly string[], namespace = 'li'): string {
  if (parts.length === 1 && parts[0] === '') return `urn:${namespace}:${entityType}`;
  // A lone part that itself starts with "(" keeps its wrapper, or re-parsing would unwrap it again.
  const key = parts.length === 1 && !parts[0]!.startsWith('(') ? parts[0] : `(${parts.join(',')})`;
  return `urn:${namespace}:${entityType}:${key}`;
}

export function tryParseUrn(input: string): Urn | undefined {
  try {
    return parseUrn(input);
  } catch {
    return undefined;
  }
}

/** Parses, turning a grammar failure into a Rest.li 422 validation error naming the input. */
export function parseUrnOrThrow(input: string, what = 'urn'): Urn {
  try {
    return parseUrn(input);
  } catch (e) {
    if (e instanceof InvalidUrnError) {
      const err: CatalogError = validationFailed(what === 'urn' ? e.message : `${what}: ${e.message}`);
      throw err;
    }
    throw e;
  }
}
