import { createHmac } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { isCatalogError, type CatalogError } from '../../model/errors.ts';
import {
  accessTokenDurationMs,
  accessTokenUrn,
  signAccessToken,
  tokenId,
  verifyAccessToken,
  TOKEN_EXPIRED_MESSAGE,
  TOKEN_INVALID_MESSAGE,
  TOKEN_MISSING_ACTOR_MESSAGE,
} from './tokens.ts';
import { parseUrn } from '../../model/urn.ts';

// Looks like base64 on purpose: it must be used as UTF-8 bytes, never decoded.
const KEY = 'WnVuZGVyLXNpZ25pbmcta2V5LXRoYXQtaXMtbG9uZy1lbm91Z2gtZm9yLWhzNTEy';
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** Signs header.payload with HS256 by hand, independent of jose. */
function handSigned(header: object, payload: object, key: Uint8Array): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

function datahubClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    actorType: 'USER',
    actorId: 'jdoe',
    type: 'PERSONAL',
    version: '2',
    sub: 'jdoe',
    jti: '0b5a2f4e-1c1d-4a55-9d51-3c1d1f0e9a11',
    iss: 'datahub-metadata-service',
    exp: Math.floor(NOW / 1000) + 3600,
    ...overrides,
  };
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

async function expectUnauthenticated(token: string, message: string, now = NOW) {
  const e = await rejection(verifyAccessToken(token, { signingKey: KEY, now }));
  expect(e.kind).toBe('unauthenticated');
  expect(e.message).toBe(message);
  expect(e.message).not.toContain(token);
  for (const segment of token.split('.').filter((s) => s.length > 8)) expect(e.message).not.toContain(segment);
  expect(e.message).not.toContain(KEY);
}

test('sign → verify round trip carries DataHub claims', async () => {
  const signed = await signAccessToken({
    signingKey: KEY,
    actorId: 'jdoe',
    type: 'PERSONAL',
    version: '2',
    expiresInMs: 3_600_000,
    now: NOW,
  });
  expect(decodeProtectedHeader(signed.token)).toEqual({ alg: 'HS256' });
  expect(decodeJwt(signed.token)).toEqual({
    actorType: 'USER',
    actorId: 'jdoe',
    type: 'PERSONAL',
    version: '2',
    sub: 'jdoe',
    jti: signed.jti,
    iss: 'datahub-metadata-service',
    iat: NOW / 1000,
    exp: NOW / 1000 + 3600,
  });
  expect(signed.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(signed.expiresAt).toBe(NOW + 3_600_000);

  const verified = await verifyAccessToken(signed.token, { signingKey: KEY, now: NOW + 1000 });
  expect(verified).toEqual({
    actorUrn: 'urn:li:corpuser:jdoe',
    actorId: 'jdoe',
    type: 'PERSONAL',
    version: '2',
    jti: signed.jti,
    expiresAt: NOW + 3_600_000,
  });
});

test('NO_EXPIRY tokens have no exp claim and never expire', async () => {
  const signed = await signAccessToken({ signingKey: KEY, actorId: 'jdoe', type: 'SESSION', version: '1', expiresInMs: null, now: NOW });
  expect(signed.expiresAt).toBeNull();
  expect('exp' in decodeJwt(signed.token)).toBe(false);
  const verified = await verifyAccessToken(signed.token, { signingKey: KEY, now: NOW + 50 * 365 * 86_400_000 });
  expect(verified.expiresAt).toBeNull();
  expect(verified.type).toBe('SESSION');
  expect(verified.version).toBe('1');
});

test('jti is unique per token', async () => {
  const a = await signAccessToken({ signingKey: KEY, actorId: 'jdoe', type: 'PERSONAL', version: '2', now: NOW });
  const b = await signAccessToken({ signingKey: KEY, actorId: 'jdoe', type: 'PERSONAL', version: '2', now: NOW });
  expect(a.jti).not.toBe(b.jti);
  expect(a.token).not.toBe(b.token);
});

test('HMAC key is the UTF-8 bytes of the signing key, not its base64 decoding', async () => {
  const claims = datahubClaims();
  const raw = handSigned({ alg: 'HS256' }, claims, Buffer.from(KEY, 'utf8'));
  await expect(verifyAccessToken(raw, { signingKey: KEY, now: NOW })).resolves.toMatchObject({ actorId: 'jdoe' });
  const decodedKey = handSigned({ alg: 'HS256' }, claims, Buffer.from(KEY, 'base64'));
  await expectUnauthenticated(decodedKey, TOKEN_INVALID_MESSAGE);
});

test("a token in DataHub's exact shape (typ-less header, no iat) verifies", async () => {
  const token = handSigned({ alg: 'HS256' }, datahubClaims({ actorId: 'datahub', sub: 'datahub' }), Buffer.from(KEY, 'utf8'));
  const v = await verifyAccessToken(token, { signingKey: KEY, now: NOW });
  expect(v.actorUrn).toBe('urn:li:corpuser:datahub');
});

test('tampered signature is rejected', async () => {
  const { token } = await signAccessToken({ signingKey: KEY, actorId: 'jdoe', type: 'PERSONAL', version: '2', now: NOW });
  const [h, p, s] = token.split('.') as [string, string, string];
  const flipped = `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
  await expectUnauthenticated(flipped, TOKEN_INVALID_MESSAGE);
  // Payload swapped for another actor's, signature kept.
  const forged = `${h}.${b64url({ ...decodeJwt(token), actorId: 'admin', sub: 'admin' })}.${s}`;
  await expectUnauthenticated(forged, TOKEN_INVALID_MESSAGE);
  // Signed with another key.
  const other = await signAccessToken({ signingKey: `${KEY}x`, actorId: 'jdoe', type: 'PERSONAL', version: '2', now: NOW });
  await expectUnauthenticated(other.token, TOKEN_INVALID_MESSAGE);
});

test('alg "none" is rejected', async () => {
  const unsigned = `${b64url({ alg: 'none' })}.${b64url(datahubClaims())}.`;
  await expectUnauthenticated(unsigned, TOKEN_INVALID_MESSAGE);
  const unsignedTyp = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(datahubClaims())}.`;
  await expectUnauthenticated(unsignedTyp, TOKEN_INVALID_MESSAGE);
});

test('HS512 / HS384 tokens signed with the same key are rejected', async () => {
  const key = new TextEncoder().encode(KEY);
  for (const alg of ['HS512', 'HS384']) {
    const token = await new SignJWT(datahubClaims()).setProtectedHeader({ alg }).sign(key);
    await expectUnauthenticated(token, TOKEN_INVALID_MESSAGE);
  }
  // Header claims HS512 but the MAC is HS256 over that header: still rejected on alg alone.
  const lying = handSigned({ alg: 'HS512' }, datahubClaims(), key);
  await expectUnauthenticated(lying, TOKEN_INVALID_MESSAGE);
});

test('malformed tokens are rejected', async () => {
  for (const junk of ['', 'abc', 'a.b', 'a.b.c', `${b64url({ alg: 'HS256' })}.not-json.sig`, 'Bearer x.y.z']) {
    const e = await rejection(verifyAccessToken(junk, { signingKey: KEY, now: NOW }));
    expect(e.kind).toBe('unauthenticated');
    expect(e.message).toBe(TOKEN_INVALID_MESSAGE);
  }
});

test("expired token is rejected with DataHub's expiry message", async () => {
  const { token } = await signAccessToken({
    signingKey: KEY,
    actorId: 'jdoe',
    type: 'PERSONAL',
    version: '2',
    expiresInMs: 60_000,
    now: NOW,
  });
  await expect(verifyAccessToken(token, { signingKey: KEY, now: NOW + 59_000 })).resolves.toMatchObject({ actorId: 'jdoe' });
  await expectUnauthenticated(token, TOKEN_EXPIRED_MESSAGE, NOW + 61_000);
});

test("missing actor claims → DataHub's actor-claim message", async () => {
  const key = Buffer.from(KEY, 'utf8');
  for (const missing of ['actorId', 'actorType', 'type']) {
    const claims = datahubClaims();
    delete claims[missing];
    await expectUnauthenticated(handSigned({ alg: 'HS256' }, claims, key), TOKEN_MISSING_ACTOR_MESSAGE);
  }
  expect(TOKEN_MISSING_ACTOR_MESSAGE).toContain("Found malformed or missing 'actor' claim");
  await expectUnauthenticated(handSigned({ alg: 'HS256' }, datahubClaims({ actorId: '' }), key), TOKEN_MISSING_ACTOR_MESSAGE);
});

test('invalid claim values are rejected', async () => {
  const key = Buffer.from(KEY, 'utf8');
  for (const bad of [{ actorType: 'SERVICE' }, { type: 'OTHER' }, { version: '3' }, { version: undefined }, { actorId: 42 }]) {
    await expectUnauthenticated(handSigned({ alg: 'HS256' }, datahubClaims(bad), key), TOKEN_INVALID_MESSAGE);
  }
});

test('wrong or missing issuer is rejected', async () => {
  const key = Buffer.from(KEY, 'utf8');
  await expectUnauthenticated(handSigned({ alg: 'HS256' }, datahubClaims({ iss: 'someone-else' }), key), TOKEN_INVALID_MESSAGE);
  await expectUnauthenticated(handSigned({ alg: 'HS256' }, datahubClaims({ iss: undefined }), key), TOKEN_INVALID_MESSAGE);
});

test('tokenId = standard base64 of SHA-256(token ‖ salt)', () => {
  // SHA-256("abc") is the FIPS 180-2 test vector; its standard base64 has both '+' and '/'.
  expect(tokenId('ab', 'c')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  expect(tokenId('a', 'bc')).toBe(tokenId('ab', 'c'));
  expect(tokenId('c', 'ab')).not.toBe(tokenId('ab', 'c'));
});

test('access token urn with a standard-base64 id parses as a single-part key', () => {
  const urn = accessTokenUrn(tokenId('ab', 'c'));
  expect(urn).toBe('urn:li:dataHubAccessToken:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  const parsed = parseUrn(urn);
  expect(parsed.entityType).toBe('dataHubAccessToken');
  expect(parsed.parts).toEqual(['ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=']);
});

test.each([
  ['ONE_HOUR', 3_600_000],
  ['ONE_DAY', 86_400_000],
  ['ONE_WEEK', 7 * 86_400_000],
  ['ONE_MONTH', 30 * 86_400_000],
  ['THREE_MONTHS', 90 * 86_400_000],
  ['SIX_MONTHS', 180 * 86_400_000],
  ['ONE_YEAR', 365 * 86_400_000],
  ['NO_EXPIRY', null],
] as const)('accessTokenDurationMs.%s = %p', (name, ms) => {
  expect(accessTokenDurationMs[name]).toBe(ms);
});
