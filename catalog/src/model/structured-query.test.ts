import fc from 'fast-check';
import { isCatalogError } from './errors.ts';
import { parseStructuredQuery, structuredTextOf, type QueryNode, type TermPart } from './structured-query.ts';

const t = (field: string | null, text: string): QueryNode => ({ kind: 'term', field, parts: [{ text }] }) as QueryNode;

/** The message of the error a query is refused with ('' when it parses). */
function refusal(q: string): string {
  try {
    parseStructuredQuery(q);
    return '';
  } catch (e) {
    if (!isCatalogError(e) || e.kind !== 'badRequest') throw e;
    return e.message;
  }
}

test('the /q prefix marks a structured query; anything else is free text', () => {
  expect(structuredTextOf('/q name:foo')).toBe('name:foo');
  expect(structuredTextOf('  /q a')).toBe('a');
  expect(structuredTextOf('/q')).toBe('');
  expect(structuredTextOf('name:foo')).toBeUndefined();
  expect(structuredTextOf('/query')).toBeUndefined();
});

test("fields take DataHub's names, .keyword sub-fields included", () => {
  expect(parseStructuredQuery('name:foo')).toEqual(t('name', 'foo'));
  expect(parseStructuredQuery('platform:snowflake')).toEqual(t('platform', 'snowflake'));
  expect(parseStructuredQuery('_entityType:DATASET')).toEqual(t('entityType', 'DATASET'));
  expect(parseStructuredQuery('env:PROD')).toEqual(t('origin', 'PROD'));
  expect(parseStructuredQuery('name.keyword:Foo')).toEqual(t('name', 'Foo'));
  expect(parseStructuredQuery('glossaryTerms:urn\\:li\\:glossaryTerm\\:x')).toEqual(t('glossaryTerms', 'urn:li:glossaryTerm:x'));
});

test('wildcards and escapes become parts; a lone * is everything, field:* presence', () => {
  expect(parseStructuredQuery('qualifiedName:x\\.y*')).toEqual({
    kind: 'term',
    field: 'qualifiedName',
    parts: [{ text: 'x.y' }, { wildcard: 'many' }],
  });
  expect(parseStructuredQuery('fo?o')).toEqual({ kind: 'term', field: null, parts: [{ text: 'fo' }, { wildcard: 'one' }, { text: 'o' }] });
  expect(parseStructuredQuery('a\\*b')).toEqual(t(null, 'a*b'));
  expect(parseStructuredQuery('*')).toEqual({ kind: 'all' });
  expect(parseStructuredQuery('*:*')).toEqual({ kind: 'all' });
  expect(parseStructuredQuery('')).toEqual({ kind: 'all' });
  expect(parseStructuredQuery('tags:*')).toEqual({ kind: 'exists', field: 'tags' });
  expect(parseStructuredQuery('_exists_:domains')).toEqual({ kind: 'exists', field: 'domains' });
});

test('side by side is AND; OR binds loosest; NOT, !, - negate; + requires', () => {
  expect(parseStructuredQuery('a b')).toEqual({ kind: 'and', children: [t(null, 'a'), t(null, 'b')] });
  expect(parseStructuredQuery('a OR b c')).toEqual({
    kind: 'or',
    children: [t(null, 'a'), { kind: 'and', children: [t(null, 'b'), t(null, 'c')] }],
  });
  expect(parseStructuredQuery('a || b && c')).toEqual(parseStructuredQuery('a OR b AND c'));
  for (const neg of ['NOT a', '!a', '-a']) expect(parseStructuredQuery(neg)).toEqual({ kind: 'not', child: t(null, 'a') });
  expect(parseStructuredQuery('+a -b')).toEqual({ kind: 'and', children: [t(null, 'a'), { kind: 'not', child: t(null, 'b') }] });
  // Lower-case keywords are words; a hyphen inside a term is literal.
  expect(parseStructuredQuery('a or b')).toEqual({ kind: 'and', children: [t(null, 'a'), t(null, 'or'), t(null, 'b')] });
  expect(parseStructuredQuery('fct-orders')).toEqual(t(null, 'fct-orders'));
});

test('groups, fields over groups, phrases, boosts', () => {
  expect(parseStructuredQuery('(a OR b) AND NOT platform:hive')).toEqual({
    kind: 'and',
    children: [
      { kind: 'or', children: [t(null, 'a'), t(null, 'b')] },
      { kind: 'not', child: t('platform', 'hive') },
    ],
  });
  expect(parseStructuredQuery('tags:(pii OR gdpr)')).toEqual({ kind: 'or', children: [t('tags', 'pii'), t('tags', 'gdpr')] });
  expect(parseStructuredQuery('description:"daily \\"revenue\\""')).toEqual({
    kind: 'phrase',
    field: 'description',
    text: 'daily "revenue"',
  });
  expect(parseStructuredQuery('name:orders^2 b^0.5')).toEqual({ kind: 'and', children: [t('name', 'orders'), t(null, 'b')] });
});

test('ranges, open bounds and comparisons', () => {
  const range = (lower: string | null, upper: string | null, li: boolean, ui: boolean) => ({
    kind: 'range',
    field: 'name',
    lower,
    upper,
    lowerInclusive: li,
    upperInclusive: ui,
  });
  expect(parseStructuredQuery('name:[a TO m]')).toEqual(range('a', 'm', true, true));
  expect(parseStructuredQuery('name:{a TO m}')).toEqual(range('a', 'm', false, false));
  expect(parseStructuredQuery('name:[a TO *}')).toEqual(range('a', null, true, false));
  expect(parseStructuredQuery('name:["a b" TO "c"]')).toEqual(range('a b', 'c', true, true));
  expect(parseStructuredQuery('name:>m')).toEqual(range('m', null, false, false));
  expect(parseStructuredQuery('name:<=m')).toEqual(range(null, 'm', false, true));
});

test('a malformed query is a badRequest naming the position', () => {
  expect(refusal('(a OR b')).toBe("Invalid structured query (/q) at position 1: '(' is never closed");
  expect(refusal('a)')).toBe("Invalid structured query (/q) at position 2: ')' without a matching '('");
  expect(refusal('a AND')).toBe('Invalid structured query (/q) at position 6: a clause is missing at the end of the query');
  expect(refusal('OR a')).toBe("Invalid structured query (/q) at position 1: 'OR' needs a clause on both sides");
  expect(refusal('name:"abc')).toBe('Invalid structured query (/q) at position 6: a quoted phrase is never closed');
  expect(refusal('colour:red')).toMatch(/^Invalid structured query \(\/q\) at position 1: unknown field 'colour': search on urn, name, /);
  expect(refusal('name:[a TO b')).toBe("Invalid structured query (/q) at position 6: a range is never closed (']' or '}')");
  expect(refusal('name:[a b]')).toBe("Invalid structured query (/q) at position 9: a range is written [from TO to]: 'TO' is missing");
  expect(refusal('[a TO b]')).toBe('Invalid structured query (/q) at position 1: a range needs a field (name:[a TO b])');
  expect(refusal('name: foo')).toBe("Invalid structured query (/q) at position 6: 'name:' must be followed by a value");
  expect(refusal('foo~2')).toBe("Invalid structured query (/q) at position 4: fuzzy and proximity searches ('~') are not supported");
  expect(refusal('name:/fo+/')).toMatch(/at position 6: regular expressions/);
  expect(refusal('foo\\')).toBe("Invalid structured query (/q) at position 4: '\\' at the end of the query escapes nothing");
  expect(refusal('()')).toBe("Invalid structured query (/q) at position 1: empty '()'");
  expect(refusal('a^x')).toBe("Invalid structured query (/q) at position 2: '^' must be followed by a number (a boost)");
  expect(refusal('('.repeat(100) + 'a' + ')'.repeat(100))).toMatch(/nested more than 64 deep/);
});

// Escapes every character the grammar gives a meaning, so the text reads back literally.
const escapeQueryText = (s: string) => s.replace(/[\s+\-!():^[\]"{}~*?\\/&|<>]/g, '\\$&');
const literalOf = (parts: TermPart[]) => parts.map((p) => ('text' in p ? p.text : '<wild>')).join('');

test('property: any text, escaped, reads back as that literal term (in a field or not)', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, unit: 'binary' }), fc.boolean(), (text, fielded) => {
      fc.pre(!['AND', 'OR', 'NOT', 'TO'].includes(text));
      const node = parseStructuredQuery(`${fielded ? 'name:' : ''}${escapeQueryText(text)}`);
      expect(node).toMatchObject({ kind: 'term', field: fielded ? 'name' : null });
      expect(literalOf((node as { parts: TermPart[] }).parts)).toBe(text);
    }),
  );
});

test('property: any input either parses or is refused as a badRequest, never another error', () => {
  const pieces = fc.constantFrom(
    'a',
    'name:',
    'tags:',
    '(',
    ')',
    '"',
    ' ',
    'AND ',
    'OR ',
    'NOT ',
    '-',
    '+',
    '!',
    '*',
    '?',
    '\\',
    '[',
    ']',
    '{',
    '}',
    ' TO ',
    '^2',
    '~',
    '/',
    ':',
    '&&',
    '||',
    '>',
    '<=',
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.array(pieces, { maxLength: 30 }).map((a) => a.join('')),
      ),
      (q) => {
        refusal(q); // throws (failing the property) on anything but a badRequest
      },
    ),
    { numRuns: 2000 },
  );
});
