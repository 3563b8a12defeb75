// Comparison filters are judged in Cypher (search, in-database lineage selection) and in filters.ts
// (streamed lineage rows): both must read the same values as numbers, or a page and its total could
// disagree between the two paths. filters.ts mirrors Neo4j's toFloatOrNull; this holds it to the engine.
import fc from 'fast-check';
import { testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { numberOf } from '../../catalog/src/model/filters.ts';

let store: Store;
beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

async function neo4jNumbers(values: string[]): Promise<Array<number | null>> {
  const r = await store.driver.executeQuery('UNWIND $values AS v RETURN toFloatOrNull(v) AS n', { values }, { database: store.database });
  return r.records.map((x) => x.get('n') as number | null);
}

const EDGES = [
  '1',
  ' 1.5 ',
  '\t7\n',
  '+3',
  '-2',
  '.5',
  '5.',
  '1e3',
  '1E-3',
  '1.5e',
  '1.5d',
  '1.5F',
  '0x10',
  '0x1p3',
  '-0X1.8P1',
  '0x.8p0',
  '0xp1',
  'Infinity',
  '-Infinity',
  'NaN',
  '1_000',
  '1,5',
  '12abc',
  '',
  ' ',
  '0b101',
  '0o7',
  '١٢',
  '1e400',
  '\u00a01',
  'd5',
  'k050',
  '00012',
  '-0',
  '1..2',
  'e5',
  '.',
  '+',
  '0x1p',
  '7 d',
];

test('filters.ts reads numbers exactly as Neo4j toFloatOrNull does, on the edge cases', async () => {
  expect(EDGES.map(numberOf)).toEqual(await neo4jNumbers(EDGES));
});

test('…and on generated number-like strings', async () => {
  const chars = fc.constantFrom(...'0123456789+-.eExXpPfFdDaAbB \t'.split(''));
  const samples = fc.sample(
    fc.array(chars, { minLength: 1, maxLength: 8 }).map((a) => a.join('')),
    { numRuns: 2_000, seed: 17 },
  );
  expect(samples.map(numberOf)).toEqual(await neo4jNumbers(samples));
});
