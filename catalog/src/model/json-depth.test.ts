import fc from 'fast-check';
import { jsonDepthProblem, MAX_JSON_DEPTH } from './json-depth.ts';

describe('jsonDepthProblem', () => {
  test('counts nesting of arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthProblem('[[[1]]]', 3)).toBeUndefined();
    expect(jsonDepthProblem('[[[[1]]]]', 3)).toBe('JSON nesting is deeper than 3 levels');
    expect(jsonDepthProblem('{"a":{"b":{"c":1}}}', 3)).toBeUndefined();
    expect(jsonDepthProblem(`["${'['.repeat(50)}"]`, 3)).toBeUndefined();
    expect(jsonDepthProblem(`["\\"${'['.repeat(50)}"]`, 3)).toBeUndefined();
    expect(jsonDepthProblem(`["\\\\", ${'['.repeat(5)}]`, 3)).toMatch(/deeper than 3/);
  });

  test('agrees with the real nesting of any JSON value', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as object).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (v, max) => {
        expect(jsonDepthProblem(JSON.stringify(v), max) === undefined).toBe(depthOf(v) <= max);
      }),
      { numRuns: 500 },
    );
  });

  test('the default is 1000 levels and a hostile 1e6-deep text is refused without recursion', () => {
    expect(MAX_JSON_DEPTH).toBe(1000);
    expect(jsonDepthProblem('['.repeat(1000) + ']'.repeat(1000))).toBeUndefined();
    expect(jsonDepthProblem('['.repeat(1_000_000))).toMatch(/deeper than 1000/);
  });
});
