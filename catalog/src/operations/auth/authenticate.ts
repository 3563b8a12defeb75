// Request authentication shared by the Rest.li service and the GraphQL gateway (docs/wire-contract.md §Auth).
// Mirrors DataHub's authenticator chain: DataHubSystemAuthenticator (Basic) then
// DataHubTokenAuthenticator (Bearer), both accepting the lowercase scheme too.
import { unauthenticated } from '../../model/errors.ts';
import type { AuthenticationConfig } from '../../runtime/config.ts';
import { privilegesOf, ROOT_USER_URN, SYSTEM_ACTOR_URN, type Actor, type ActorAccess, type Privilege } from '../../model/privileges.ts';
import { tokenId, verifyAccessToken, TOKEN_REVOKED_MESSAGE } from './tokens.ts';
import { sameSecret } from './secret-box.ts';

export interface TokenStore {
  /** Whether a dataHubAccessToken entity with this stored id exists (revocation deletes it). */
  isActive(tokenId: string): Promise<boolean>;
  /** Role urns from the actor's roleMembership aspect; [] when it has none. */
  rolesOf(actorUrn: string): Promise<string[]>;
  /**
   * The actor's groups, roles and the policies in force, with the privileges they grant on every
   * resource; `active` false for a user who is hard- or soft-deleted or suspended.
   */
  accessOf(actorUrn: string): Promise<{ access: ActorAccess; privileges: ReadonlySet<Privilege>; active: boolean }>;
}

export interface AuthConfig {
  enabled: boolean;
  signingKey: string;
  salt: string;
  systemClientId?: string;
  systemClientSecret?: string;
}

const MISSING_CREDENTIALS_MESSAGE = 'Unauthorized to perform this action.';
const INACTIVE_ACTOR_MESSAGE = 'Failed to validate DataHub token: Actor is not active';

/** The authentication settings of a process's validated configuration. */
export function authConfigOf(config: AuthenticationConfig): AuthConfig {
  return {
    enabled: config.METADATA_SERVICE_AUTH_ENABLED,
    signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY,
    salt: config.DATAHUB_TOKEN_SERVICE_SALT,
    ...(config.DATAHUB_SYSTEM_CLIENT_ID ? { systemClientId: config.DATAHUB_SYSTEM_CLIENT_ID } : {}),
    ...(config.DATAHUB_SYSTEM_CLIENT_SECRET ? { systemClientSecret: config.DATAHUB_SYSTEM_CLIENT_SECRET } : {}),
  };
}

function schemeCredentials(header: string, scheme: 'Bearer' | 'Basic'): string | undefined {
  const prefix = `${scheme} `;
  const lower = prefix.toLowerCase();
  if (header.startsWith(prefix) || header.startsWith(lower)) return header.slice(prefix.length).trim();
  return undefined;
}

export async function authenticate(
  authorizationHeader: string | undefined,
  config: AuthConfig,
  store: TokenStore,
  now?: number,
): Promise<Actor> {
  if (!config.enabled) return { urn: ROOT_USER_URN, privileges: privilegesOf([], ROOT_USER_URN) };

  const header = authorizationHeader?.trim();
  if (!header) throw unauthenticated(MISSING_CREDENTIALS_MESSAGE);

  const basic = schemeCredentials(header, 'Basic');
  if (basic !== undefined) {
    const { systemClientId, systemClientSecret } = config;
    // DataHub sends the credentials literally (`Basic id:secret`), not base64 as RFC 7617 would.
    if (systemClientId && systemClientSecret && sameSecret(basic, `${systemClientId}:${systemClientSecret}`)) {
      return { urn: SYSTEM_ACTOR_URN, privileges: privilegesOf([], SYSTEM_ACTOR_URN) };
    }
    throw unauthenticated(MISSING_CREDENTIALS_MESSAGE);
  }

  const bearer = schemeCredentials(header, 'Bearer');
  if (bearer === undefined) throw unauthenticated(MISSING_CREDENTIALS_MESSAGE);

  const verified = await verifyAccessToken(bearer, { signingKey: config.signingKey, now });
  let storedId: string | undefined;
  // Version-1 tokens are stateless: nothing stored, so nothing to revoke.
  if (verified.version === '2') {
    storedId = tokenId(bearer, config.salt);
    if (!(await store.isActive(storedId))) throw unauthenticated(TOKEN_REVOKED_MESSAGE);
  }
  // As DataHub's token validation: a deleted or suspended user's tokens, sessions included, stop
  // working at once; restoring the user restores them.
  const { access, privileges, active } = await store.accessOf(verified.actorUrn);
  if (!active) throw unauthenticated(INACTIVE_ACTOR_MESSAGE);
  const actor: Actor = { urn: verified.actorUrn, privileges, access };
  if (storedId !== undefined) actor.tokenId = storedId;
  return actor;
}
