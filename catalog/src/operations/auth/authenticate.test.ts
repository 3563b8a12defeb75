import { DEFAULT_POLICIES } from '../../model/policies/defaults.ts';
import { unconditionalPrivileges } from '../../model/policies/engine.ts';
import { isCatalogError, type CatalogError } from '../../model/errors.ts';
import { authenticate, type AuthConfig, type TokenStore } from './authenticate.ts';
import { can, privilegesOf, PRIVILEGES, ROLE_URNS } from '../../model/privileges.ts';
import { signAccessToken, tokenId, TOKEN_INVALID_MESSAGE, TOKEN_REVOKED_MESSAGE } from './tokens.ts';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const config: AuthConfig = {
  enabled: true,
  signingKey: 'test-signing-key-0123456789abcdef',
  salt: 'test-salt',
  systemClientId: '__datahub_system',
  systemClientSecret: 'JohnSnowKnowsNothing',
};

/** Test double of our TokenStore interface: active token ids and role memberships in maps. */
class FixedTokenStore implements TokenStore {
  readonly active = new Set<string>();
  readonly roles = new Map<string, string[]>();
  readonly rolesAsked: string[] = [];
  readonly inactive = new Set<string>();
  async isActive(id: string): Promise<boolean> {
    return this.active.has(id);
  }
  async rolesOf(actorUrn: string): Promise<string[]> {
    this.rolesAsked.push(actorUrn);
    return this.roles.get(actorUrn) ?? [];
  }
  async accessOf(actorUrn: string) {
    const context = { urn: actorUrn, groups: [], roles: await this.rolesOf(actorUrn) };
    return {
      access: { context, policies: DEFAULT_POLICIES },
      privileges: unconditionalPrivileges(DEFAULT_POLICIES, context),
      active: !this.inactive.has(actorUrn),
    };
  }
}

async function rejection(p: Promise<unknown>): Promise<CatalogError> {
  try {
    await p;
  } catch (e) {
    if (isCatalogError(e)) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

async function storedToken(store: FixedTokenStore, actorId: string) {
  const signed = await signAccessToken({
    signingKey: config.signingKey,
    actorId,
    type: 'PERSONAL',
    version: '2',
    expiresInMs: 3_600_000,
    now: NOW,
  });
  const id = tokenId(signed.token, config.salt);
  store.active.add(id);
  return { token: signed.token, id };
}

test('Bearer v2 token that is stored authenticates with role privileges', async () => {
  const store = new FixedTokenStore();
  store.roles.set('urn:li:corpuser:jdoe', [ROLE_URNS.Editor]);
  const { token, id } = await storedToken(store, 'jdoe');
  for (const header of [`Bearer ${token}`, `bearer ${token}`]) {
    const actor = await authenticate(header, config, store, NOW);
    expect(actor.urn).toBe('urn:li:corpuser:jdoe');
    expect(actor.tokenId).toBe(id);
    expect(can(actor, 'INGEST')).toBe(true);
    expect(can(actor, 'DELETE')).toBe(false);
  }
  expect(store.rolesAsked).toEqual(['urn:li:corpuser:jdoe', 'urn:li:corpuser:jdoe']);
});

test('revoked (unstored) v2 token → 401 revoked', async () => {
  const store = new FixedTokenStore();
  const { token, id } = await storedToken(store, 'jdoe');
  store.active.delete(id);
  const e = await rejection(authenticate(`Bearer ${token}`, config, store, NOW));
  expect(e.kind).toBe('unauthenticated');
  expect(e.message).toBe(TOKEN_REVOKED_MESSAGE);
  expect(e.message).not.toContain(token);
});

test('v1 tokens are stateless: no store lookup for activity, no tokenId', async () => {
  const store = new FixedTokenStore();
  const { token } = await signAccessToken({ signingKey: config.signingKey, actorId: 'jdoe', type: 'SESSION', version: '1', now: NOW });
  const actor = await authenticate(`Bearer ${token}`, config, store, NOW);
  expect(actor.urn).toBe('urn:li:corpuser:jdoe');
  expect(actor.tokenId).toBeUndefined();
  // No role: what the default All Users policies grant, nothing more.
  expect(new Set(actor.privileges)).toEqual(privilegesOf([], 'urn:li:corpuser:jdoe'));
  expect(actor.privileges.has('EDIT_ENTITY')).toBe(false);
});

test('root user token is Admin without roleMembership', async () => {
  const store = new FixedTokenStore();
  const { token } = await storedToken(store, 'datahub');
  const actor = await authenticate(`Bearer ${token}`, config, store, NOW);
  expect(actor.urn).toBe('urn:li:corpuser:datahub');
  expect(new Set(actor.privileges)).toEqual(new Set(PRIVILEGES));
});

test('bad Bearer token → 401 without echoing the token', async () => {
  const store = new FixedTokenStore();
  const { token } = await storedToken(store, 'jdoe');
  const tampered = `${token.slice(0, -2)}xx`;
  const e = await rejection(authenticate(`Bearer ${tampered}`, config, store, NOW));
  expect(e.kind).toBe('unauthenticated');
  expect(e.message).toBe(TOKEN_INVALID_MESSAGE);
  expect(e.message).not.toContain(tampered);
  expect(e.message).not.toContain(config.signingKey);
});

test('missing header → 401 Unauthorized to perform this action.', async () => {
  for (const header of [undefined, '', '   ']) {
    const e = await rejection(authenticate(header, config, new FixedTokenStore(), NOW));
    expect(e.kind).toBe('unauthenticated');
    expect(e.message).toBe('Unauthorized to perform this action.');
  }
});

test('unknown scheme → 401', async () => {
  const store = new FixedTokenStore();
  const { token } = await storedToken(store, 'jdoe');
  for (const header of [token, `Token ${token}`, `BEARER ${token}`, `Bearer${token}`]) {
    const e = await rejection(authenticate(header, config, store, NOW));
    expect(e.kind).toBe('unauthenticated');
    expect(e.message).not.toContain(token);
  }
});

test('Basic literal system client credentials → system actor with all privileges', async () => {
  const store = new FixedTokenStore();
  for (const scheme of ['Basic', 'basic']) {
    const actor = await authenticate(`${scheme} __datahub_system:JohnSnowKnowsNothing`, config, store, NOW);
    expect(actor.urn).toBe('urn:li:corpuser:__datahub_system');
    expect(new Set(actor.privileges)).toEqual(new Set(PRIVILEGES));
  }
  expect(store.rolesAsked).toEqual([]);
});

test('Basic with wrong, base64-encoded or unconfigured credentials → 401', async () => {
  const store = new FixedTokenStore();
  const b64 = Buffer.from('__datahub_system:JohnSnowKnowsNothing').toString('base64');
  for (const creds of ['__datahub_system:wrong', 'other:JohnSnowKnowsNothing', '__datahub_system', b64, '']) {
    const e = await rejection(authenticate(`Basic ${creds}`, config, store, NOW));
    expect(e.kind).toBe('unauthenticated');
    expect(e.message).not.toContain('JohnSnowKnowsNothing');
  }
  const unconfigured: AuthConfig = { enabled: true, signingKey: config.signingKey, salt: config.salt };
  const e = await rejection(authenticate('Basic :', unconfigured, store, NOW));
  expect(e.kind).toBe('unauthenticated');
  const halfConfigured: AuthConfig = { ...unconfigured, systemClientId: '__datahub_system' };
  const e2 = await rejection(authenticate('Basic __datahub_system:', halfConfigured, store, NOW));
  expect(e2.kind).toBe('unauthenticated');
});

test('auth disabled → root user as Admin, whatever the header', async () => {
  const store = new FixedTokenStore();
  for (const header of [undefined, 'Bearer garbage']) {
    const actor = await authenticate(header, { ...config, enabled: false }, store, NOW);
    expect(actor.urn).toBe('urn:li:corpuser:datahub');
    expect(can(actor, 'RESTORE_INDICES')).toBe(true);
  }
});

test('store failures propagate instead of authenticating', async () => {
  const store = new FixedTokenStore();
  const { token } = await storedToken(store, 'jdoe');
  store.isActive = async () => {
    throw new Error('store down');
  };
  await expect(authenticate(`Bearer ${token}`, config, store, NOW)).rejects.toThrow('store down');
});

test('a valid token of a deleted or suspended user is refused with 401, and works again once the user is restored', async () => {
  const store = new FixedTokenStore();
  const { token } = await storedToken(store, 'carol');
  store.inactive.add('urn:li:corpuser:carol');
  const refused = await rejection(authenticate(`Bearer ${token}`, config, store, NOW));
  expect(refused.kind).toBe('unauthenticated');
  expect(refused.message).toMatch(/not active/);
  store.inactive.clear();
  await expect(authenticate(`Bearer ${token}`, config, store, NOW)).resolves.toMatchObject({ urn: 'urn:li:corpuser:carol' });
});
