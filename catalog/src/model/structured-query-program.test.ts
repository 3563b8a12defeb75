import fc from 'fast-check';
import { parseStructuredQuery, type QueryNode } from './structured-query.ts';
import { programOf, type ProgramStep } from './structured-query-program.ts';

/** Runs a program with a given answer per field test, as the statement's stack does. */
function run(steps: ProgramStep[], answer: (s: ProgramStep) => boolean): boolean[] {
  const stack: boolean[] = [];
  for (const s of steps) {
    if (s.op === 'and' || s.op === 'or') {
      const b = stack.pop()!,
        a = stack.pop()!;
      stack.push(s.op === 'and' ? a && b : a || b);
    } else if (s.op === 'not') stack.push(!stack.pop()!);
    else if (s.op === 'all') stack.push(true);
    else stack.push(answer(s));
  }
  return stack;
}

/** The tree's meaning, with each field term answered by `answer`. */
function meaning(node: QueryNode, answer: (field: string | null, text: string) => boolean): boolean {
  switch (node.kind) {
    case 'all':
      return true;
    case 'and':
      return node.children.every((c) => meaning(c, answer));
    case 'or':
      return node.children.some((c) => meaning(c, answer));
    case 'not':
      return !meaning(node.child, answer);
    case 'term':
      return answer(node.field, node.parts.map((p) => ('text' in p ? p.text : '*')).join(''));
    default:
      return false;
  }
}

test('user text reaches a pattern escaped: punctuation is literal', () => {
  const [step] = programOf(parseStructuredQuery('qualifiedName:x\\.y*')).steps;
  expect(step).toMatchObject({ op: 'match', field: 'qualifiedName' });
  expect(step!.pattern).toBe('(?isu)(?:x\\.y.*|(?:.*[^\\p{L}\\p{N}])?x\\.y[\\p{L}\\p{N}]*(?:[^\\p{L}\\p{N}].*)?)');
  expect(programOf(parseStructuredQuery('urn:a\\(b\\)\\|c')).steps[0]!.pattern).toBe(
    '(?isu)(?:(?:urn:li:[^:]+:)?a\\(b\\)\\|c|(?:.*[^\\p{L}\\p{N}])?a\\(b\\)\\|c(?:[^\\p{L}\\p{N}].*)?)',
  );
  expect(programOf(parseStructuredQuery('_entityType:DATA_JOB')).steps[0]!.pattern).toBe('(?isu)datajob');
});

test('a term without a field looks in name, qualifiedName, description and urn', () => {
  const { steps, fields } = programOf(parseStructuredQuery('orders'));
  expect(steps.map((s) => s.op)).toEqual(['match', 'match', 'match', 'match', 'or', 'or', 'or']);
  expect(fields).toEqual(['name', 'qualifiedName', 'description', 'urn']);
});

test('ranges are lower-cased; the fields read are reported', () => {
  const { steps, fields } = programOf(parseStructuredQuery('name:[A TO M} AND tags:pii AND _exists_:owners'));
  expect(steps[0]).toEqual({
    op: 'range',
    field: 'name',
    pattern: null,
    lower: 'a',
    upper: 'm',
    lowerInclusive: true,
    upperInclusive: false,
  });
  expect(fields).toEqual(['name', 'tags', 'owners']);
});

// Random trees of and/or/not over fielded terms: the program leaves one boolean, the tree's meaning.
const tree: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('name:a', 'tags:b', 'platform:c', 'd', '*'),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a} AND ${b})`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a} OR ${b})`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a} ${b})`),
    tie('q').map((a) => `NOT ${a}`),
    tie('q').map((a) => `-(${a})`),
  ),
})).q;

test('property: a program leaves exactly one boolean, the meaning of its tree', () => {
  fc.assert(
    fc.property(tree, fc.func(fc.boolean()), (q, truth) => {
      const node = parseStructuredQuery(q);
      const answerOf = (field: string | null, text: string) => truth(`${field}:${text}`);
      // A field test answers by the pattern's field and text (the last pattern piece), the same key as the tree's.
      const stack = run(programOf(node).steps, (s) => {
        const text = /^\(\?isu\)\(\?:(?:\(\?:urn:li:\[\^:\]\+:\)\?)?([a-z])/.exec(s.pattern!)![1]!;
        return answerOf(s.field, text);
      });
      const unfielded = (field: string | null, text: string) =>
        field === null ? ['name', 'qualifiedName', 'description', 'urn'].some((f) => answerOf(f, text)) : answerOf(field, text);
      expect(stack).toEqual([meaning(node, unfielded)]);
    }),
    { numRuns: 500 },
  );
});
