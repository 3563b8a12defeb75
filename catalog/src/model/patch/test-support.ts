// Helpers the PATCH engines' tests share: a patch applied as the Python SDK sends it, and the
// 422 a malformed one must give.
import { CatalogError } from '../errors.ts';
import { applyPatch } from './apply-patch.ts';

export const NOW = 1_700_000_000_000;
export const HIVE_A = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';
export const HIVE_B = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)';

export const upstream = (dataset: string, type = 'TRANSFORMED') => ({
  auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' },
  dataset,
  type,
});

/** What json.dumps produces for the Python SDK's patch list. */
const text = (ops: unknown) => JSON.stringify(ops);

export function patch(aspectName: string, current: Record<string, unknown> | undefined, ops: unknown) {
  return applyPatch({ aspectName, current, patchText: typeof ops === 'string' ? ops : text(ops), now: NOW });
}

export function rejects(run: () => unknown, message: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(CatalogError);
  expect((caught as CatalogError).kind).toBe('validation');
  expect((caught as CatalogError).message).toMatch(message);
  expect((caught as CatalogError).message).not.toMatch(/unrecognized field found but not allowed/);
}
