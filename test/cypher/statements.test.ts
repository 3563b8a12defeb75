// Cypher is data with its own tests: every statement file compiles on the real server (EXPLAIN),
// every name the code runs has a file, and the owned-edge lookup covers every relationship type
// the derivation registry can emit.
import { loadCypher, splitStatements, statementNames } from '../../catalog/src/store/cypher.ts';
import { RELATIONSHIP_TYPES } from '../../catalog/src/model/entity-types.ts';
import { testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

let store: Store;
beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const statements = loadCypher();

test('every statement name used by the code has a file with a header comment', () => {
  for (const name of statementNames) {
    expect(statements.all.get(name)).toMatch(/^\/\/ Purpose: /);
  }
});

test.each([...statements.all.keys()].filter((n) => !n.startsWith('schema/')))('%s compiles (EXPLAIN)', async (name) => {
  const text = statements.all.get(name)!;
  await expect(store.driver.executeQuery(`EXPLAIN ${text}`, {}, { database: store.database })).resolves.toBeDefined();
});

test('schema statements are idempotent', async () => {
  expect(splitStatements(statements.all.get('schema/schema')!).length).toBeGreaterThan(10);
  await store.applySchema();
  await store.applySchema();
});

// Both lists are expanded from RELATIONSHIP_TYPES (listing templates): what is checked is that the
// expansion yields exactly one branch and one owner index per type, no more, and that the indexes exist.
const sorted = (xs: Iterable<string>) => [...xs].sort();
const everyOwnedType = sorted([...RELATIONSHIP_TYPES, 'LINEAGE']);

test('edges/owned-by has exactly one branch per derived relationship type, and LINEAGE', () => {
  const owned = statements.all.get('edges/owned-by')!;
  expect(sorted([...owned.matchAll(/\[r:(\w+) \{owner: row\.owner\}\]/g)].map((m) => m[1]!))).toEqual(everyOwnedType);
  expect(owned.match(/UNION ALL/g)).toHaveLength(RELATIONSHIP_TYPES.length);
});

test("the schema creates exactly one owner index per derived relationship type, and LINEAGE's, and they exist", async () => {
  const indexes = splitStatements(statements.all.get('schema/schema')!).flatMap((s) => {
    const m = /^CREATE INDEX rel_owner_(\w+) IF NOT EXISTS FOR \(\)-\[r:(\w+)\]-\(\) ON \(r\.owner\)$/.exec(s);
    return m ? [[m[1]!, m[2]!] as const] : [];
  });
  expect(indexes.every(([name, type]) => name === type)).toBe(true);
  expect(sorted(indexes.map(([, type]) => type))).toEqual(everyOwnedType);
  await store.applySchema();
  const { records } = await store.driver.executeQuery(
    "SHOW INDEXES YIELD name, labelsOrTypes, properties WHERE name STARTS WITH 'rel_owner_' RETURN name, labelsOrTypes, properties",
    {},
    { database: store.database },
  );
  const live = new Map(records.map((r) => [r.get('name') as string, [r.get('labelsOrTypes'), r.get('properties')]]));
  for (const t of everyOwnedType) expect(live.get(`rel_owner_${t}`)).toEqual([[t], ['owner']]);
});
