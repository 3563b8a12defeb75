// Invite tokens as DataHub's InviteTokenService keeps them: one live token per role (or for no
// role), stored as an inviteToken entity whose `token` is encrypted, so getInviteToken can answer
// the same token again and createInviteToken replaces it. DataHub encrypts with its secret service;
// the catalog derives an AES-256-GCM key from the token signing key, the one secret every replica shares.
import { createHmac, randomBytes } from 'node:crypto';
import { seal, unseal } from '../auth/secret-box.ts';
import { assertCan, inviteTokenDenied, type Actor } from '../../model/privileges.ts';
import { parseUrn } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import { loadLatestOfAspect } from '../../store/access-rows.ts';
import { badRequest } from '../../model/errors.ts';
import type { TokenSecrets } from '../auth/access-tokens.ts';
import { latestValue, requestUrn, upsert, writeAs } from './principal-writes.ts';

const ASPECT = 'inviteToken';

/** The entity holding a role's token: keyed by a MAC of the role, so the urn reveals neither token nor role. */
function inviteTokenUrn(roleUrn: string | undefined, secrets: TokenSecrets) {
  const id = createHmac('sha256', secrets.signingKey)
    .update(`role\u0000${roleUrn ?? ''}`)
    .digest('hex');
  return parseUrn(`urn:li:inviteToken:${id}`);
}

async function issue(store: Store, actor: Actor, secrets: TokenSecrets, roleUrn: string | undefined): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const value: Record<string, unknown> = { token: seal(token, secrets.signingKey, ASPECT) };
  if (roleUrn) value.role = roleUrn;
  await writeAs(store, actor, [upsert(inviteTokenUrn(roleUrn, secrets), ASPECT, value)]);
  return token;
}

const roleOf = (roleUrn: string | null | undefined) => (roleUrn == null ? undefined : requestUrn(roleUrn, 'dataHubRole', 'roleUrn').text);

/** getInviteToken: the role's live invite token, issued on first use. */
export async function getInviteToken(
  store: Store,
  actor: Actor,
  secrets: TokenSecrets,
  input: { roleUrn?: string | null },
): Promise<string> {
  assertCan(actor, 'MANAGE_USER_CREDENTIALS', inviteTokenDenied('get'));
  const role = roleOf(input.roleUrn);
  const stored = await latestValue(store, inviteTokenUrn(role, secrets), ASPECT);
  const live = typeof stored?.token === 'string' ? unseal(stored.token, secrets.signingKey, ASPECT) : undefined;
  return live ?? issue(store, actor, secrets, role);
}

/** createInviteToken: a new token for the role; the previous one no longer signs anybody up. */
export async function createInviteToken(
  store: Store,
  actor: Actor,
  secrets: TokenSecrets,
  input: { roleUrn?: string | null },
): Promise<string> {
  assertCan(actor, 'MANAGE_USER_CREDENTIALS', inviteTokenDenied('create'));
  return issue(store, actor, secrets, roleOf(input.roleUrn));
}

/**
 * The role a presented invite token signs its holder up with (undefined: none), or a 400 when no
 * live token matches: each role's live token is read and opened (there are as many as roles).
 */
export async function inviteTokenRole(store: Store, secrets: TokenSecrets, presented: string): Promise<string | undefined> {
  for (const row of await loadLatestOfAspect(store, ASPECT)) {
    const value = JSON.parse(row.value) as { token?: unknown; role?: unknown };
    if (typeof value.token !== 'string' || unseal(value.token, secrets.signingKey, ASPECT) !== presented) continue;
    // The urn is the MAC of the role: a row copied onto another role's urn grants nothing.
    const role = typeof value.role === 'string' ? value.role : undefined;
    if (inviteTokenUrn(role, secrets).text === row.urn) return role;
  }
  throw badRequest('Invalid sign-up token');
}
