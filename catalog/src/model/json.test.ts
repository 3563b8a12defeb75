import fc from 'fast-check';
import { canonicalJson, sameJsonText } from './json.ts';

test('canonicalJson sorts keys at every level and keeps array order', () => {
  expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  expect(canonicalJson([2, 1])).toBe('[2,1]');
  expect(canonicalJson('x')).toBe('"x"');
});

test('sameJsonText: key order aside, texts of one value are the same; any other difference is not', () => {
  expect(sameJsonText('{"a":1,"b":[1,2]}', '{"b":[1,2],"a":1}')).toBe(true);
  expect(sameJsonText('{"a":1,"b":[1,2]}', '{"a":1,"b":[2,1]}')).toBe(false);
  expect(sameJsonText('{"a":1}', '{"a":2}')).toBe(false);
  expect(sameJsonText('{"a":"1"}', '{"a":1}')).toBe(false);
});

test('property: a value and any reordering of its keys are the same text; stringify length ignores key order', () => {
  const shuffleKeys = (v: unknown, seed: number): unknown => {
    if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, seed));
    if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      const rotated = [...entries.slice(seed % (entries.length || 1)), ...entries.slice(0, seed % (entries.length || 1))].reverse();
      return Object.fromEntries(rotated.map(([k, x]) => [k, shuffleKeys(x, seed + 1)]));
    }
    return v;
  };
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat(10), (v, seed) => {
      const a = JSON.stringify(v);
      const b = JSON.stringify(shuffleKeys(JSON.parse(a), seed));
      expect(b.length).toBe(a.length);
      expect(sameJsonText(a, b)).toBe(true);
    }),
    { numRuns: 300 },
  );
});
