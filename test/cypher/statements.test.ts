// Cypher is data with its own tests: every statement file compiles on the real server (EXPLAIN),
// every name the code runs has a file, and the owned-edge lookup covers every relationship type
// the derivation registry can emit.
import { loadCypher, splitStatements, statementNames } from '../../catalog/src/store/cypher.ts';
import { RELATIONSHIP_TYPES } from '../../catalog/src/model/entity-types.ts';
import { testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';

let store: Store;
beforeAll(() => { store = testStore(); });
afterAll(async () => { await store.close(); });

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

test('edges/owned-by and the owner indexes cover every derived relationship type', () => {
  const owned = statements.all.get('edges/owned-by')!;
  const schema = statements.all.get('schema/schema')!;
  for (const t of [...RELATIONSHIP_TYPES, 'LINEAGE']) {
    expect(owned).toContain(`[r:${t} {owner: row.owner}]`);
    expect(schema).toContain(`rel_owner_${t} `);
  }
});
