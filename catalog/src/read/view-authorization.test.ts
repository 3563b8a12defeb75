// The viewer's decisions that need no resource: view authorization off, an actor viewing
// everything, an actor with no grant anywhere; and the opaque urns.
import type { Actor, Privilege } from '../model/privileges.ts';
import type { Store } from '../store/store.ts';
import { assertViewable, maskUrns, viewerOf, viewSettingsFromConfig } from './view-authorization.ts';

// Never touched: none of these cases needs a resource's fields.
const store = {} as Store;
const actor = (privileges: Privilege[]): Actor => ({ urn: 'urn:li:corpuser:u', privileges: new Set(privileges) });
const settings = (on: boolean, key = 'k'.repeat(16)) =>
  viewSettingsFromConfig({ VIEW_AUTHORIZATION_ENABLED: on, DATAHUB_TOKEN_SERVICE_SIGNING_KEY: key });
const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)';

test('off, or VIEW_ENTITY_PAGE everywhere: nothing is restricted', async () => {
  for (const viewer of [viewerOf(store, actor([]), settings(false)), viewerOf(store, actor(['VIEW_ENTITY_PAGE']), settings(true))]) {
    expect(viewer.restricts).toBe(false);
    expect(await viewer.visible([a, b])).toEqual(new Set([a, b]));
    expect((await maskUrns(viewer, [a]))(a)).toBe(a);
    await expect(assertViewable(viewer, [a], () => 'no')).resolves.toBeUndefined();
  }
});

test('no grant anywhere: every urn is restricted, under a stable opaque urn per key', async () => {
  const viewer = viewerOf(store, actor([]), settings(true));
  expect(await viewer.visible([a, b])).toEqual(new Set());
  const as = await maskUrns(viewer, [a, b]);
  expect(as(a)).toMatch(/^urn:li:restricted:[A-Za-z0-9_-]{43}$/);
  expect(as(a)).not.toBe(as(b));
  expect(viewer.restrictedUrn(a)).toBe(as(a));
  expect(viewerOf(store, actor([]), settings(true, 'other-key-of-16ch')).restrictedUrn(a)).not.toBe(as(a));
  await expect(assertViewable(viewer, [a], (u) => `denied ${u}`)).rejects.toMatchObject({ kind: 'forbidden', message: `denied ${a}` });
});
