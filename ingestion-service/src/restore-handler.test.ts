import { handleRestoreIndices, restoreArgsOfBody } from './restore-handler.ts';
import { CatalogError, privilegesOf, ROLE_URNS, updateEntitiesDenied } from '@lineage/catalog/model';
import type { Store } from '@lineage/catalog/store';

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof CatalogError ? `${e.kind}: ${e.message}` : String(e);
  }
  return 'no error';
};

test("defaults are DataHub's window: start 0, batchSize 10, one batch; a urn is restored whole", () => {
  expect(restoreArgsOfBody({})).toMatchObject({ start: 0, batchSize: 10, limit: 10, requestedLimit: 0 });
  expect(restoreArgsOfBody(undefined)).toMatchObject({ start: 0, batchSize: 10, limit: 10 });
  expect(restoreArgsOfBody({ urnLike: 'urn:li:dataset:%', start: 20, batchSize: 5, limit: 12 })).toMatchObject({
    start: 20,
    batchSize: 5,
    limit: 12,
  });
  expect(restoreArgsOfBody({ urn: 'urn:li:corpuser:x' })).toMatchObject({ urn: 'urn:li:corpuser:x', limit: 0 });
});

test('numbers may arrive as strings; empty strings and nulls mean absent', () => {
  expect(restoreArgsOfBody({ start: '3', batchSize: '7', limit: null, urn: '', aspect: null })).toMatchObject({
    start: 3,
    batchSize: 7,
    limit: 7,
    urn: undefined,
    aspect: undefined,
  });
});

test('bad parameters are 400s naming the parameter', () => {
  expect(kindOf(() => restoreArgsOfBody({ start: -1 }))).toMatch(/^badRequest: Invalid parameter start/);
  expect(kindOf(() => restoreArgsOfBody({ batchSize: 0 }))).toMatch(/^badRequest: Invalid parameter batchSize/);
  expect(kindOf(() => restoreArgsOfBody({ batchSize: 'ten' }))).toMatch(/^badRequest: Invalid parameter batchSize/);
  expect(kindOf(() => restoreArgsOfBody({ limit: 1.5 }))).toMatch(/^badRequest: Invalid parameter limit/);
  expect(kindOf(() => restoreArgsOfBody({ urn: 'nope' }))).toMatch(/^badRequest: Invalid parameter urn/);
  expect(kindOf(() => restoreArgsOfBody({ aspect: 'Bad-Name' }))).toMatch(/^badRequest: Invalid parameter aspect/);
  expect(kindOf(() => restoreArgsOfBody({ urnLike: 5 }))).toMatch(/^badRequest: Invalid parameter urnLike/);
  expect(kindOf(() => restoreArgsOfBody([1]))).toMatch(/^badRequest/);
});

test('an actor without RESTORE_INDICES_PRIVILEGE is refused before anything runs', async () => {
  const editor = { urn: 'urn:li:corpuser:ed', privileges: privilegesOf([ROLE_URNS.Editor], 'urn:li:corpuser:ed') };
  const noStore = {} as Store; // never touched: authorization comes first
  await expect(handleRestoreIndices(noStore, {}, editor)).rejects.toMatchObject({
    kind: 'forbidden',
    message: 'User is unauthorized to restore indices.',
  });
  await expect(handleRestoreIndices(noStore, {}, editor, updateEntitiesDenied())).rejects.toMatchObject({
    kind: 'forbidden',
    message: 'User is unauthorized to update entities.',
  });
});
