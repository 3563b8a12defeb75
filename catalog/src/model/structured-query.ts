// DataHub's structured search syntax, pure: a search query that starts with `/q ` is not free text
// but Elasticsearch query_string syntax, which DataHub runs over its entity index with AND as the
// default operator (SearchQueryBuilder; the OpenAPI v3 scroll's `query` is always read this way).
// This module parses that syntax into a query tree; structured-query-program.ts turns the tree into
// what Neo4j evaluates (docs/wire-contract.md §Structured queries). A query this grammar does not
// accept is a badRequest naming the position (1-based, counted in the text after `/q `).
//
// Grammar (the part of query_string agents and DataHub's docs use):
//   query   := or
//   or      := and (("OR" | "||") and)*
//   and     := unary (("AND" | "&&")? unary)*          two clauses side by side are ANDed
//   unary   := ("NOT" | "!" | "-") unary | "+" unary | primary
//   primary := "(" or ")" | field ":" (value | "(" or ")") | value          then an optional ^boost
//   value   := term | "phrase" | [a TO b] | {a TO b} (mixed brackets too) | >x | >=x | <x | <=x
// A term may hold `*` and `?` wildcards and `\`-escaped characters; `-` and `+` inside a term are
// literal. `*` alone (or `*:*`) matches everything; `_exists_:field` an entity holding the field.
// Fuzzy (`~`) and regular-expression (`/…/`) terms are refused rather than misread.
import { badRequest, type CatalogError } from './errors.ts';

/** The search fields a structured query may name (its own names; STRUCTURED_FIELDS maps DataHub's). */
export type StructuredField =
  | 'urn'
  | 'name'
  | 'qualifiedName'
  | 'description'
  | 'platform'
  | 'origin'
  | 'entityType'
  | 'typeNames'
  | 'tags'
  | 'glossaryTerms'
  | 'domains'
  | 'owners'
  | 'removed';

/**
 * DataHub's entity-index field names (as its query_string accepts them) → the catalog's search field.
 * `.keyword` sub-fields read as the field itself.
 */
const STRUCTURED_FIELDS: ReadonlyMap<string, StructuredField> = new Map<string, StructuredField>([
  ['urn', 'urn'],
  ['name', 'name'],
  ['qualifiedName', 'qualifiedName'],
  ['description', 'description'],
  ['platform', 'platform'],
  ['origin', 'origin'],
  ['env', 'origin'],
  ['_entityType', 'entityType'],
  ['entityType', 'entityType'],
  ['typeNames', 'typeNames'],
  ['tags', 'tags'],
  ['glossaryTerms', 'glossaryTerms'],
  ['domains', 'domains'],
  ['owners', 'owners'],
  ['removed', 'removed'],
]);

/** One piece of a term: literal text (escapes resolved) or a wildcard (`*` many, `?` one). */
export type TermPart = { text: string } | { wildcard: 'many' | 'one' };

export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'term'; field: StructuredField | null; parts: TermPart[] }
  | { kind: 'phrase'; field: StructuredField | null; text: string }
  | {
      kind: 'range';
      field: StructuredField;
      lower: string | null;
      upper: string | null;
      lowerInclusive: boolean;
      upperInclusive: boolean;
    }
  | { kind: 'exists'; field: StructuredField };

const PREFIX = '/q ';

/** The text after DataHub's structured-query prefix, or undefined for a free-text query. */
export function structuredTextOf(query: string): string | undefined {
  const q = query.trimStart();
  return q.startsWith(PREFIX) ? q.slice(PREFIX.length) : q === '/q' ? '' : undefined;
}

// Characters that end a term unless escaped; `-`, `+` and `!` only at a term's start.
const TERM_END = new Set([' ', '\t', '\n', '\r', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '/']);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Deepest nesting of groups and negations accepted. */
const MAX_DEPTH = 64;

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  fail(message: string, at = this.pos): CatalogError {
    return badRequest(`Invalid structured query (/q) at position ${at + 1}: ${message}`);
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  private skipSpace(): void {
    while (isSpace(this.peek())) this.pos++;
  }

  private atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }

  /** A bare keyword (AND, OR, NOT, TO) at the position, followed by a space, `(` or `"`, or the end. */
  private keyword(word: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(word, this.pos)) return false;
    const next = this.text[this.pos + word.length];
    return next === undefined || isSpace(next) || next === '(' || next === '"';
  }

  private take(word: string): boolean {
    if (this.keyword(word)) {
      this.pos += word.length;
      return true;
    }
    return false;
  }

  private symbol(s: string): boolean {
    this.skipSpace();
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  parseQuery(): QueryNode {
    if (this.atEnd()) return { kind: 'all' };
    const node = this.parseOr(null);
    if (!this.atEnd()) {
      throw this.peek() === ')' ? this.fail("')' without a matching '('") : this.fail(`unexpected '${this.peek()}'`);
    }
    return node;
  }

  private parseOr(field: StructuredField | null): QueryNode {
    const children = [this.parseAnd(field)];
    while (this.take('OR') || this.symbol('||')) children.push(this.parseAnd(field));
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private startsClause(): boolean {
    if (this.atEnd()) return false;
    const c = this.peek();
    return c !== ')' && !this.keyword('OR') && !this.text.startsWith('||', this.pos);
  }

  private parseAnd(field: StructuredField | null): QueryNode {
    const children = [this.parseUnary(field)];
    for (;;) {
      if (this.take('AND') || this.symbol('&&')) {
        children.push(this.parseUnary(field));
      } else if (this.startsClause()) {
        children.push(this.parseUnary(field));
      } else break;
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  }

  private parseUnary(field: StructuredField | null): QueryNode {
    this.skipSpace();
    if (this.pos >= this.text.length) throw this.fail('a clause is missing at the end of the query');
    // Nesting is bounded so that no query can exhaust the stack (a 5xx) however it is written.
    if (++this.depth > MAX_DEPTH) throw this.fail(`clauses are nested more than ${MAX_DEPTH} deep`);
    try {
      if (this.take('NOT') || this.symbol('!') || this.symbol('-')) return { kind: 'not', child: this.parseUnary(field) };
      if (this.symbol('+')) return this.parseUnary(field);
      return this.parsePrimary(field);
    } finally {
      this.depth--;
    }
  }

  private parseGroup(field: StructuredField | null): QueryNode {
    const open = this.pos - 1;
    if (this.atEnd()) throw this.fail("'(' is never closed", open);
    if (this.peek() === ')') throw this.fail("empty '()'", open);
    const node = this.parseOr(field);
    this.skipSpace();
    if (this.peek() !== ')') throw this.fail("'(' is never closed", open);
    this.pos++;
    this.skipBoost();
    return node;
  }

  /** `^2`, `^0.5`: relevance only, which this catalog ranks by its own rules; accepted and ignored. */
  private skipBoost(): void {
    if (this.peek() !== '^') return;
    const at = this.pos++;
    const m = /^\d+(\.\d+)?/.exec(this.text.slice(this.pos));
    if (!m) throw this.fail("'^' must be followed by a number (a boost)", at);
    this.pos += m[0].length;
  }

  private refuseFuzzy(): void {
    if (this.peek() === '~') throw this.fail("fuzzy and proximity searches ('~') are not supported");
  }

  private parsePrimary(field: StructuredField | null): QueryNode {
    this.skipSpace();
    const c = this.peek();
    if (c === '(') {
      this.pos++;
      return this.parseGroup(field);
    }
    if (c === ')') throw this.fail("')' without a matching '('");
    if (c === ':' || c === '^' || c === '~' || c === ']' || c === '}') throw this.fail(`unexpected '${c}'`);
    for (const op of ['AND', 'OR']) if (this.keyword(op)) throw this.fail(`'${op}' needs a clause on both sides`);
    if (field === null) {
      const named = this.fieldPrefix();
      if (named !== undefined) return named;
    }
    return this.parseValue(field);
  }

  /** `field:…` at the position: the clause it starts; undefined when the position holds no field name. */
  private fieldPrefix(): QueryNode | undefined {
    const start = this.pos;
    const name = this.rawName();
    if (name === undefined || this.peek() !== ':') {
      this.pos = start;
      return undefined;
    }
    this.pos++;
    if (name === '*') {
      if (this.peek() === '*' && (this.pos + 1 >= this.text.length || TERM_END.has(this.text[this.pos + 1]!))) {
        this.pos++;
        return { kind: 'all' };
      }
      throw this.fail("a field wildcard ('*:') is only accepted as '*:*'", start);
    }
    if (name === '_exists_') {
      const fieldAt = this.pos;
      const target = this.rawName();
      if (target === undefined) throw this.fail("'_exists_:' must be followed by a field name", fieldAt);
      return { kind: 'exists', field: this.fieldOf(target, fieldAt) };
    }
    const field = this.fieldOf(name, start);
    if (isSpace(this.peek()) || this.pos >= this.text.length) throw this.fail(`'${name}:' must be followed by a value`);
    if (this.peek() === '(') {
      this.pos++;
      return this.parseGroup(field);
    }
    return this.parseValue(field);
  }

  /** A field name (letters, digits, `_`, `.`, `*`) ending right before `:`; undefined otherwise. */
  private rawName(): string | undefined {
    const m = /^[A-Za-z0-9_.*]+/.exec(this.text.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    return m[0];
  }

  private fieldOf(name: string, at: number): StructuredField {
    const bare = name.endsWith('.keyword') ? name.slice(0, -'.keyword'.length) : name;
    const field = STRUCTURED_FIELDS.get(bare) ?? (bare.toLowerCase() === '_entitytype' ? 'entityType' : undefined);
    if (!field) throw this.fail(`unknown field '${name}': search on ${[...STRUCTURED_FIELDS.keys()].join(', ')}`, at);
    return field;
  }

  private parseValue(field: StructuredField | null): QueryNode {
    this.skipSpace();
    const c = this.peek();
    if (c === '"') {
      const text = this.quoted();
      this.refuseFuzzy();
      this.skipBoost();
      return { kind: 'phrase', field, text };
    }
    if (c === '[' || c === '{') return this.parseRange(field);
    if (c === '>' || c === '<') return this.parseComparison(field);
    if (c === '/') throw this.fail("regular expressions ('/…/') are not supported; use wildcards * and ?");
    const at = this.pos;
    const parts = this.term();
    if (parts.length === 0) throw this.fail(c === undefined ? 'a value is missing' : `unexpected '${c}'`, at);
    this.refuseFuzzy();
    if (this.peek() === '/') throw this.fail("regular expressions ('/…/') are not supported; use wildcards * and ?");
    this.skipBoost();
    if (parts.length === 1 && 'wildcard' in parts[0]! && parts[0].wildcard === 'many')
      return field === null ? { kind: 'all' } : { kind: 'exists', field };
    return { kind: 'term', field, parts };
  }

  /** A "…" string, escapes resolved; the position is on its opening quote. */
  private quoted(): string {
    const open = this.pos++;
    let out = '';
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) throw this.fail('a quoted phrase is never closed', open);
      this.pos++;
      if (ch === '"') return out;
      if (ch === '\\') {
        const next = this.peek();
        if (next === undefined) throw this.fail("'\\' at the end of the query escapes nothing", this.pos - 1);
        out += next;
        this.pos++;
      } else out += ch;
    }
  }

  /** The character a `\` at the position escapes; the position moves past both. */
  private escaped(): string {
    const next = this.text[this.pos + 1];
    if (next === undefined) throw this.fail("'\\' at the end of the query escapes nothing");
    this.pos += 2;
    return next;
  }

  /** A term's parts up to the next unescaped term end. */
  private term(): TermPart[] {
    const parts: TermPart[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push({ text });
      text = '';
    };
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (TERM_END.has(ch)) break;
      if (ch === '\\') {
        text += this.escaped();
        continue;
      }
      if (ch === '*' || ch === '?') {
        flush();
        parts.push({ wildcard: ch === '*' ? 'many' : 'one' });
      } else text += ch;
      this.pos++;
    }
    flush();
    return parts;
  }

  /** One bound of a range: a quoted string, `*` (open) or a term without wildcards. */
  private bound(): string | null {
    this.skipSpace();
    if (this.peek() === '"') return this.quoted();
    const at = this.pos;
    let out = '';
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (isSpace(ch) || ch === ']' || ch === '}' || ch === '[' || ch === '{') break;
      if (ch === '\\') {
        out += this.escaped();
        continue;
      }
      out += ch;
      this.pos++;
    }
    if (out === '') throw this.fail('a range bound is missing', at);
    return this.text.slice(at, this.pos) === '*' ? null : out;
  }

  private parseRange(field: StructuredField | null): QueryNode {
    const open = this.pos;
    if (field === null) throw this.fail('a range needs a field (name:[a TO b])', open);
    const lowerInclusive = this.text[this.pos++] === '[';
    const lower = this.bound();
    if (!this.take('TO')) throw this.fail("a range is written [from TO to]: 'TO' is missing");
    const upper = this.bound();
    this.skipSpace();
    const close = this.peek();
    if (close !== ']' && close !== '}') throw this.fail("a range is never closed (']' or '}')", open);
    this.pos++;
    this.skipBoost();
    return { kind: 'range', field, lower, upper, lowerInclusive, upperInclusive: close === ']' };
  }

  private parseComparison(field: StructuredField | null): QueryNode {
    const at = this.pos;
    if (field === null) throw this.fail('a comparison needs a field (name:>m)', at);
    const op = this.text.startsWith('>=', at) || this.text.startsWith('<=', at) ? this.text.slice(at, at + 2) : this.text[at]!;
    this.pos += op.length;
    if (isSpace(this.peek()) || this.pos >= this.text.length) throw this.fail(`'${op}' must be followed by a value`);
    const value = this.peek() === '"' ? this.quoted() : this.termText();
    if (value === '') throw this.fail(`'${op}' must be followed by a value`);
    const inclusive = op.length === 2;
    return op.startsWith('>')
      ? { kind: 'range', field, lower: value, upper: null, lowerInclusive: inclusive, upperInclusive: false }
      : { kind: 'range', field, lower: null, upper: value, lowerInclusive: false, upperInclusive: inclusive };
  }

  /** A term's text with wildcards read literally (a comparison's value). */
  private termText(): string {
    return this.term()
      .map((p) => ('text' in p ? p.text : p.wildcard === 'many' ? '*' : '?'))
      .join('');
  }
}

/** The query tree of a structured query's text (after `/q `); a badRequest naming the position otherwise. */
export function parseStructuredQuery(text: string): QueryNode {
  return new Parser(text).parseQuery();
}
