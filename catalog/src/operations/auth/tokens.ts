// DataHub-compatible access tokens (docs/wire-contract.md §Auth). Checked against DataHub's
// StatelessTokenService / StatefulTokenService (metadata-service/auth-impl, com.datahub.authentication.token).
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthenticated } from '../../model/errors.ts';

const TOKEN_ISSUER = 'datahub-metadata-service';
const ALGORITHM = 'HS256';

type TokenType = 'PERSONAL' | 'SESSION';
type TokenVersion = '2' | '1';

const TOKEN_TYPES: ReadonlySet<string> = new Set<TokenType>(['PERSONAL', 'SESSION']);
const TOKEN_VERSIONS: ReadonlySet<string> = new Set<TokenVersion>(['2', '1']);
// DataHub's ActorType enum has USER only; ActorType.valueOf on anything else fails validation.
const ACTOR_TYPE = 'USER';

// DataHub's own wording (StatelessTokenService.validateAccessToken / StatefulTokenService). None of
// them carries token text, key material or header values chosen by the caller.
export const TOKEN_INVALID_MESSAGE = 'Failed to validate DataHub token';
export const TOKEN_EXPIRED_MESSAGE = 'Failed to validate DataHub token. Token has expired.';
export const TOKEN_MISSING_ACTOR_MESSAGE = "Failed to validate DataHub token: Found malformed or missing 'actor' claim.";
export const TOKEN_REVOKED_MESSAGE = 'Failed to validate DataHub token: Token has been revoked';

export interface SignAccessTokenInput {
  signingKey: string;
  actorId: string;
  type: TokenType;
  version: TokenVersion;
  /** null or undefined = no expiry (AccessTokenDuration.NO_EXPIRY): the token has no `exp` claim. */
  expiresInMs?: number | null;
  /** Epoch ms; defaults to Date.now(). */
  now?: number;
}

export interface SignedAccessToken {
  token: string;
  jti: string;
  /** Epoch ms, createdAt + expiresInMs like DataHub's dataHubAccessTokenInfo.expiresAt; null = never. */
  expiresAt: number | null;
}

export interface VerifiedToken {
  actorUrn: string;
  actorId: string;
  type: TokenType;
  version: TokenVersion;
  /** DataHub always sets jti, but its validator does not require it, so neither do we. */
  jti: string | null;
  /** Epoch ms of `exp`, null when the token never expires. */
  expiresAt: number | null;
}

// The HMAC key is the UTF-8 bytes of the configured string. DataHub signs with exactly these
// bytes; its validator hands jjwt the base64 of the same bytes, which jjwt decodes back, so both
// sides use the raw string bytes. Base64-decoding the configured value would break interop.
function hmacKey(signingKey: string): Uint8Array {
  if (signingKey.length === 0) throw new Error('token signing key is not configured');
  return new TextEncoder().encode(signingKey);
}

export async function signAccessToken(input: SignAccessTokenInput): Promise<SignedAccessToken> {
  const now = input.now ?? Date.now();
  const expiresInMs = input.expiresInMs ?? null;
  const jti = randomUUID();
  // Claim set as DataHub's StatelessTokenService builds it (version, type, actorType, actorId,
  // jti, sub, exp, iss). DataHub does not set iat; it is added here on request and is ignored by
  // DataHub's validator, so tokens stay interchangeable.
  const jwt = new SignJWT({
    actorType: ACTOR_TYPE,
    actorId: input.actorId,
    type: input.type,
    version: input.version,
  })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(input.actorId)
    .setJti(jti)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(Math.floor(now / 1000));
  let expiresAt: number | null = null;
  if (expiresInMs !== null) {
    expiresAt = now + expiresInMs;
    // jjwt stores Date expirations truncated to whole seconds; so do we.
    jwt.setExpirationTime(Math.floor(expiresAt / 1000));
  }
  const token = await jwt.sign(hmacKey(input.signingKey));
  return { token, jti, expiresAt };
}

function isTokenType(v: unknown): v is TokenType {
  return typeof v === 'string' && TOKEN_TYPES.has(v);
}
function isTokenVersion(v: unknown): v is TokenVersion {
  return typeof v === 'string' && TOKEN_VERSIONS.has(v);
}

export async function verifyAccessToken(token: string, options: { signingKey: string; now?: number }): Promise<VerifiedToken> {
  let payload: Record<string, unknown>;
  try {
    const verified = await jwtVerify(token, hmacKey(options.signingKey), {
      // Pinning the list is what rejects `none`, HS384/HS512 (even when signed with our key) and
      // every asymmetric alg; jose checks it before touching the signature.
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      currentDate: new Date(options.now ?? Date.now()),
    });
    payload = verified.payload as Record<string, unknown>;
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw unauthenticated(TOKEN_EXPIRED_MESSAGE);
    // jose's own messages can echo header or claim values; never pass them on.
    throw unauthenticated(TOKEN_INVALID_MESSAGE);
  }

  const { actorId, actorType, type, version, jti, exp } = payload;
  // DataHub reports the actor-claim message only when type, actorId or actorType is absent;
  // present-but-invalid values fail its enum parsing and get the generic message.
  if (type == null || actorId == null || actorType == null || actorId === '') {
    throw unauthenticated(TOKEN_MISSING_ACTOR_MESSAGE);
  }
  if (typeof actorId !== 'string' || actorType !== ACTOR_TYPE || !isTokenType(type) || !isTokenVersion(version)) {
    throw unauthenticated(TOKEN_INVALID_MESSAGE);
  }
  if (jti !== undefined && typeof jti !== 'string') throw unauthenticated(TOKEN_INVALID_MESSAGE);
  return {
    actorUrn: `urn:li:corpuser:${actorId}`,
    actorId,
    type,
    version,
    jti: jti ?? null,
    expiresAt: typeof exp === 'number' ? exp * 1000 : null,
  };
}

/**
 * The stored id of a token: the key of its `urn:li:dataHubAccessToken:<id>` entity.
 *
 * Verified in DataHub's StatefulTokenService.hash: SHA-256 over (token bytes ‖ salt bytes), then
 * `Base64.getEncoder().encodeToString(...)` — the STANDARD alphabet (`+`, `/`) with `=` padding,
 * not the URL-safe one. Java's `String.getBytes()` uses the platform charset (UTF-8 on current
 * JVMs); tokens are ASCII, so only a non-ASCII salt could differ.
 *
 * The id therefore may contain `/`, `+` and always ends in `=`. DataHub builds the urn with
 * Urn.createFromTuple without escaping, and our urn parser accepts those characters in a
 * single-part key, so `urn:li:dataHubAccessToken:<id>` is used verbatim. Callers putting the id
 * or urn into a URL path or query must percent-encode it.
 */
export function tokenId(token: string, salt: string): string {
  return createHash('sha256').update(token, 'utf8').update(salt, 'utf8').digest('base64');
}

export function accessTokenUrn(id: string): string {
  return `urn:li:dataHubAccessToken:${id}`;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * GraphQL AccessTokenDuration → milliseconds (null = no expiry). DataHub's
 * AccessTokenUtil.mapDurationToMs counts months and years as 30/90/180/365 days, not calendar units.
 */
export const accessTokenDurationMs = {
  ONE_HOUR: HOUR_MS,
  ONE_DAY: DAY_MS,
  ONE_WEEK: 7 * DAY_MS,
  ONE_MONTH: 30 * DAY_MS,
  THREE_MONTHS: 90 * DAY_MS,
  SIX_MONTHS: 180 * DAY_MS,
  ONE_YEAR: 365 * DAY_MS,
  NO_EXPIRY: null,
} as const satisfies Record<string, number | null>;

export type AccessTokenDuration = keyof typeof accessTokenDurationMs;
