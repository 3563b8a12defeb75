// A structured query tree (structured-query.ts) as the parameters of one fixed Cypher statement
// (cypher/search/entities.cypher), pure.
//
// Why a program rather than Lucene text for the full-text index: the index holds one analysed
// property (searchText), so fields, tags, owners and domains are not in it, and ranges over a
// whitespace analyser's terms are not DataHub's. So the tree becomes a postfix program — a list of
// steps, each a field test (a regular expression, a range, or presence) or a boolean operator — that
// the statement runs with `reduce` over a stack of booleans, node by node. The statement's text never
// changes; what the user wrote reaches Neo4j only as parameter values, and every piece of user text in
// a pattern is escaped here (escapeLiteral), so a query can neither change the Cypher nor the meaning
// of a regular expression.
//
// How a value matches (docs/wire-contract.md §Structured queries), always ignoring case:
// - text fields (name, qualifiedName, description): the whole value, or a run of its words (the
//   text between non-alphanumeric characters): `name:orders` finds `fct_orders`, `name:fct_ord*` too;
// - urn fields (urn, platform, tags, glossaryTerms, domains, owners): the whole urn, its id after
//   `urn:li:<type>:`, or a run of its words, so `platform:snowflake`, `tags:pii` and `owners:jdoe`
//   find what DataHub's urn analyser finds;
// - keyword fields (origin, typeNames, removed, entityType): the whole value (entity types without `_`);
// - a term without a field: any of name, qualifiedName, description (as text) or urn.
// Ranges compare the whole value as lower-case text; `*` leaves a side open.
import { parseStructuredQuery, structuredTextOf, type QueryNode, type StructuredField, type TermPart } from './structured-query.ts';

type Kind = 'text' | 'urn' | 'keyword' | 'entityType';

const KIND: Readonly<Record<StructuredField, Kind>> = {
  name: 'text',
  qualifiedName: 'text',
  description: 'text',
  urn: 'urn',
  platform: 'urn',
  tags: 'urn',
  glossaryTerms: 'urn',
  domains: 'urn',
  owners: 'urn',
  origin: 'keyword',
  typeNames: 'keyword',
  removed: 'keyword',
  entityType: 'entityType',
};

/** Where a term without a field looks. */
const DEFAULT_FIELDS: readonly StructuredField[] = ['name', 'qualifiedName', 'description', 'urn'];

/** One step of the program; every key present, so the statement reads them without guards. */
export interface ProgramStep {
  op: 'all' | 'and' | 'or' | 'not' | 'match' | 'range' | 'exists';
  field: StructuredField | null;
  /** A Java regular expression the whole value must match (op 'match'). */
  pattern: string | null;
  /** Lower-case bounds (op 'range'); null = open. */
  lower: string | null;
  upper: string | null;
  lowerInclusive: boolean;
  upperInclusive: boolean;
}

export interface StructuredProgram {
  steps: ProgramStep[];
  /** The fields the program reads (the statement computes the list-valued ones only when named). */
  fields: StructuredField[];
}

/** Every ASCII punctuation character, backslash-escaped: literal in a Java pattern whatever it is. */
function escapeLiteral(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const WORD = '[\\p{L}\\p{N}]';
const NON_WORD = '[^\\p{L}\\p{N}]';
const FLAGS = '(?isu)';

function partsPattern(parts: readonly TermPart[], any: string, fold: (t: string) => string): string {
  return parts.map((p) => ('text' in p ? escapeLiteral(fold(p.text)) : p.wildcard === 'many' ? `${any}*` : any)).join('');
}

const entityTypeKey = (t: string) => t.replaceAll('_', '').toLowerCase();

function termPattern(kind: Kind, parts: readonly TermPart[]): string {
  switch (kind) {
    case 'text':
    case 'urn': {
      const whole = partsPattern(parts, '.', (t) => t);
      const word = partsPattern(parts, WORD, (t) => t);
      const id = kind === 'urn' ? '(?:urn:li:[^:]+:)?' : '';
      return `${FLAGS}(?:${id}${whole}|(?:.*${NON_WORD})?${word}(?:${NON_WORD}.*)?)`;
    }
    case 'keyword':
      return `${FLAGS}${partsPattern(parts, '.', (t) => t)}`;
    case 'entityType':
      return `${FLAGS}${partsPattern(parts, '.', entityTypeKey)}`;
  }
}

function phrasePattern(kind: Kind, text: string): string {
  if (kind === 'text') {
    const words = text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
    if (words.length === 0) return `${FLAGS}${escapeLiteral(text)}`;
    return `${FLAGS}(?:.*${NON_WORD})?${words.map(escapeLiteral).join(`${NON_WORD}+`)}(?:${NON_WORD}.*)?`;
  }
  return termPattern(kind, [{ text }]);
}

const step = (op: ProgramStep['op'], rest: Partial<ProgramStep> = {}): ProgramStep => ({
  op,
  field: null,
  pattern: null,
  lower: null,
  upper: null,
  lowerInclusive: false,
  upperInclusive: false,
  ...rest,
});

/** Steps of `op` joining n operands already on the stack. */
function join(out: ProgramStep[], op: 'and' | 'or', n: number): void {
  for (let i = 1; i < n; i++) out.push(step(op));
}

function emitMatch(out: ProgramStep[], fields: Set<StructuredField>, field: StructuredField | null, pattern: (k: Kind) => string): void {
  const targets = field === null ? DEFAULT_FIELDS : [field];
  for (const f of targets) {
    fields.add(f);
    out.push(step('match', { field: f, pattern: pattern(KIND[f]) }));
  }
  join(out, 'or', targets.length);
}

function emit(node: QueryNode, out: ProgramStep[], fields: Set<StructuredField>): void {
  switch (node.kind) {
    case 'all':
      out.push(step('all'));
      return;
    case 'and':
    case 'or':
      for (const c of node.children) emit(c, out, fields);
      join(out, node.kind, node.children.length);
      return;
    case 'not':
      emit(node.child, out, fields);
      out.push(step('not'));
      return;
    case 'term':
      emitMatch(out, fields, node.field, (k) => termPattern(k, node.parts));
      return;
    case 'phrase':
      emitMatch(out, fields, node.field, (k) => phrasePattern(k, node.text));
      return;
    case 'exists':
      fields.add(node.field);
      out.push(step('exists', { field: node.field }));
      return;
    case 'range': {
      fields.add(node.field);
      const fold = KIND[node.field] === 'entityType' ? entityTypeKey : (t: string) => t.toLowerCase();
      out.push(
        step('range', {
          field: node.field,
          lower: node.lower === null ? null : fold(node.lower),
          upper: node.upper === null ? null : fold(node.upper),
          lowerInclusive: node.lowerInclusive,
          upperInclusive: node.upperInclusive,
        }),
      );
      return;
    }
  }
}

/** The postfix program of a query tree: run on a stack, it leaves exactly one boolean. */
export function programOf(tree: QueryNode): StructuredProgram {
  const steps: ProgramStep[] = [];
  const fields = new Set<StructuredField>();
  emit(tree, steps, fields);
  return { steps, fields: [...fields] };
}

/**
 * The program of a search query when it is structured — it starts with `/q `, or `always` (the
 * OpenAPI v3 scroll reads every query so) — else null; a malformed one is a badRequest.
 */
export function structuredProgramOf(query: string | null | undefined, always = false): StructuredProgram | null {
  if (query === null || query === undefined) return null;
  const text = structuredTextOf(query) ?? (always ? query : undefined);
  return text === undefined ? null : programOf(parseStructuredQuery(text));
}
