// Invite tokens as DataHub's InviteTokenService keeps them: one live token per role (or for no
// role), stored as an inviteToken entity whose `token` is encrypted, so getInviteToken can answer
// the same token again and createInviteToken replaces it. DataHub encrypts with its secret service;
// the catalog derives an AES-256-GCM key from the token signing key, the one secret every replica shares.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { assertCan, inviteTokenDenied, type Actor } from '../../model/privileges.ts';
import { parseUrn } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import type { TokenSecrets } from '../auth/access-tokens.ts';
import { latestValue, requestUrn, upsert, writeAs } from './principal-writes.ts';

const ASPECT = 'inviteToken';

function encryptionKey(secrets: TokenSecrets): Buffer {
  return createHash('sha256').update(`inviteToken\u0000${secrets.signingKey}`).digest();
}

function encrypt(plain: string, secrets: TokenSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secrets), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plain token, or undefined when it was encrypted under another key (the signing key was rotated). */
function decrypt(stored: string, secrets: TokenSecrets): string | undefined {
  try {
    const raw = Buffer.from(stored, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secrets), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The entity holding a role's token: keyed by a MAC of the role, so the urn reveals neither token nor role. */
function inviteTokenUrn(roleUrn: string | undefined, secrets: TokenSecrets) {
  const id = createHmac('sha256', secrets.signingKey)
    .update(`role\u0000${roleUrn ?? ''}`)
    .digest('hex');
  return parseUrn(`urn:li:inviteToken:${id}`);
}

async function issue(store: Store, actor: Actor, secrets: TokenSecrets, roleUrn: string | undefined): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const value: Record<string, unknown> = { token: encrypt(token, secrets) };
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
  const live = typeof stored?.token === 'string' ? decrypt(stored.token, secrets) : undefined;
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
