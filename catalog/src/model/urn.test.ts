import fc from 'fast-check';
import { parseUrn, formatUrn, tryParseUrn, InvalidUrnError, parseUrnOrThrow, MAX_URN_BYTES, utf8Length } from './urn.ts';
import { CatalogError } from './errors.ts';

describe('parseUrn: accepted forms', () => {
  test.each([
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)', 'dataset', ['urn:li:dataPlatform:hive', 'db.table', 'PROD']],
    ['urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)', 'dataJob', ['urn:li:dataFlow:(airflow,dag_abc,PROD)', 'task_123']],
    [
      'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),user_id)',
      'schemaField',
      ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', 'user_id'],
    ],
    ['urn:li:corpuser:datahub', 'corpuser', ['datahub']],
    ['urn:li:foo', 'foo', ['']],
    ['urn:li:x:(foo,bar(zoo,moo))', 'x', ['foo', 'bar(zoo,moo)']],
    ['urn:li:x:a,b', 'x', ['a,b']],
    ['urn:li:x:name%2Cwith%28parens%29', 'x', ['name%2Cwith%28parens%29']],
    ['urn:my-ns:x:y', 'x', ['y']],
    ['urn:li:dataHubAccessToken:ab+c/d=', 'dataHubAccessToken', ['ab+c/d=']],
  ])('%s', (text, entityType, parts) => {
    const u = parseUrn(text);
    expect(u.entityType).toBe(entityType);
    expect(u.parts).toEqual(parts);
  });

  test('a single-part tuple is canonicalised without parentheses', () => {
    expect(parseUrn('urn:li:y:(urn:li:z:1)').text).toBe('urn:li:y:urn:li:z:1');
    expect(parseUrn('urn:li:y:(urn:li:z:1)').text).toBe(parseUrn('urn:li:y:urn:li:z:1').text);
  });

  test('percent-encoded names are never decoded', () => {
    expect(parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb,PROD)').parts[1]).toBe('a%2Cb');
  });
});

describe('parseUrn: rejected forms quote the input and name the rule', () => {
  test.each([
    ['no urn prefix', 'li:dataset:x', "doesn't start with 'urn:'"],
    ['missing entity type', 'urn:li', 'missing namespace or entity type'],
    ['bad namespace', 'urn:Li:dataset:x', 'invalid namespace'],
    ['bad entity type', 'urn:li:9dataset:x', 'invalid entity type'],
    ['empty key', 'urn:li:foo:', 'empty entityKey'],
    ['empty part first', 'urn:li:x:(,x)', 'empty part disallowed'],
    ['empty part middle', 'urn:li:x:(a,,b)', 'empty part disallowed'],
    ['empty part last', 'urn:li:x:(a,)', 'empty part disallowed'],
    ['unclosed tuple', 'urn:li:x:(a,b', 'mismatched paren nesting'],
    ['extra closing', 'urn:li:x:(a,b))', 'mismatched paren nesting'],
    ['unbalanced plain key', 'urn:li:x:a(b', 'mismatched paren nesting'],
    ['close before open', 'urn:li:x:a)b(', 'mismatched paren nesting'],
    ['tuple followed by text', 'urn:li:x:(a)(b)', 'mismatched paren nesting'],
    ['control character', 'urn:li:dataset:(urn:li:dataPlatform:file,a\u0007b,PROD)', 'control character'],
    ['unpaired surrogate', 'urn:li:dataset:(urn:li:dataPlatform:file,a\udc00,PROD)', 'unpaired surrogate'],
    ['slash-only name', 'urn:li:dataset:(urn:li:dataPlatform:file,/,PROD)', "only '/'"],
    ['slashes-only name', 'urn:li:corpuser:///', "only '/'"],
  ])('%s', (_name, text, reason) => {
    let err: unknown;
    try {
      parseUrn(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidUrnError);
    expect((err as Error).message).toContain(text);
    expect((err as Error).message).toContain(reason);
  });

  test(`a urn over ${MAX_URN_BYTES} UTF-8 bytes is refused, and the message quotes only its head`, () => {
    const head = 'urn:li:dataset:(urn:li:dataPlatform:file,';
    const fits = `${head}${'a'.repeat(MAX_URN_BYTES - head.length - ',PROD)'.length)},PROD)`;
    expect(utf8Length(fits)).toBe(MAX_URN_BYTES);
    expect(parseUrn(fits).text).toBe(fits);
    for (const long of [`${head}${'a'.repeat(MAX_URN_BYTES)},PROD)`, `${head}${'a'.repeat(1 << 20)},PROD)`]) {
      let err: unknown;
      try {
        parseUrn(long);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidUrnError);
      expect((err as Error).message).toContain(`longer than ${MAX_URN_BYTES} bytes`);
      expect((err as Error).message.length).toBeLessThan(400);
    }
    // Counted in UTF-8, not in UTF-16 units: 1,400 three-byte characters are 4,200 bytes.
    expect(() => parseUrn(`urn:li:corpuser:${'€'.repeat(1400)}`)).toThrow(/longer than/);
    expect(utf8Length('a€😀')).toBe(1 + 3 + 4);
  });

  test('an invalid urn is a validation error of the taxonomy, so no door can answer it with a 500', () => {
    let err: unknown;
    try {
      parseUrn('urn:li:x:(a,,b)');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatalogError);
    expect((err as CatalogError).kind).toBe('validation');
  });

  test('parseUrnOrThrow turns grammar failures into a 422 validation error', () => {
    expect(() => parseUrnOrThrow('urn:li:x:(a,,b)')).toThrow(CatalogError);
    try {
      parseUrnOrThrow('urn:li:x:(a,,b)');
    } catch (e) {
      expect((e as CatalogError).kind).toBe('validation');
    }
  });
});

describe('property-based', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9_.%-]{1,12}$/);
  const part: fc.Arbitrary<string> = fc.letrec((tie) => ({
    part: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      name,
      fc.tuple(name, fc.array(tie('part'), { minLength: 1, maxLength: 3 })).map(([n, inner]) => `${n}(${(inner as string[]).join(',')})`),
    ),
  })).part as fc.Arbitrary<string>;
  const entityType = fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,10}$/);

  test('format then parse returns the same parts and an idempotent canonical text', () => {
    fc.assert(
      fc.property(entityType, fc.array(part, { minLength: 1, maxLength: 4 }), (t, parts) => {
        const text = formatUrn(t, parts);
        const u = parseUrn(text);
        expect(u.entityType).toBe(t);
        expect(u.parts).toEqual(parts);
        expect(parseUrn(u.text).text).toBe(u.text);
      }),
      { numRuns: 500 },
    );
  });

  test('arbitrary strings never crash the parser: they parse or raise InvalidUrnError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `urn:li:${s}`),
          fc.string().map((s) => `urn:li:x:(${s})`),
        ),
        (s) => {
          try {
            const u = parseUrn(s);
            expect(tryParseUrn(u.text)?.text).toBe(u.text);
          } catch (e) {
            expect(e).toBeInstanceOf(InvalidUrnError);
            expect((e as Error).message).toContain(s);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
