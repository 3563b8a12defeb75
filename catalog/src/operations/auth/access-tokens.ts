// Personal access tokens: minted as version-2 JWTs and stored as dataHubAccessToken entities keyed
// by the salted hash of the token, so revocation is a hard delete of that entity (docs/wire-contract.md §Auth).
import { signAccessToken, tokenId, accessTokenUrn, accessTokenDurationMs, type AccessTokenDuration } from './tokens.ts';
import { writeAspects, hardDeleteEntity } from '../../write/aspect-writer.ts';
import { getAspect } from '../../read/aspect-reader.ts';
import { parseUrn } from '../../model/urn.ts';
import { keyAspectNameOf } from '../../model/entity-type-spec.ts';
import { validationFailed } from '../../model/errors.ts';
import type { Store } from '../../store/store.ts';
import { rowKey } from '../../store/rows.ts';
import type { TokenStore } from './authenticate.ts';
import { createPolicyStore } from './policy-store.ts';

export interface TokenSecrets {
  signingKey: string;
  salt: string;
}

/** A token's stored facts, as DataHub's AccessTokenMetadata answers them. */
export interface AccessTokenMetadata {
  urn: string;
  id: string;
  name: string;
  description: string | null;
  actorUrn: string;
  ownerUrn: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface IssuedToken extends AccessTokenMetadata {
  accessToken: string;
}

export async function issueAccessToken(
  store: Store,
  secrets: TokenSecrets,
  input: { actorUrn: string; ownerUrn: string; name: string; description?: string | null; duration: AccessTokenDuration; now?: number },
): Promise<IssuedToken> {
  const actor = parseUrn(input.actorUrn);
  if (actor.entityType !== 'corpuser') throw validationFailed(`actorUrn must be a corpuser urn: ${input.actorUrn}`);
  const now = input.now ?? Date.now();
  const signed = await signAccessToken({
    signingKey: secrets.signingKey,
    actorId: actor.parts[0]!,
    type: 'PERSONAL',
    version: '2',
    expiresInMs: accessTokenDurationMs[input.duration],
    now,
  });
  const id = tokenId(signed.token, secrets.salt);
  const urn = parseUrn(accessTokenUrn(id));
  const info: Record<string, unknown> = { name: input.name, actorUrn: input.actorUrn, ownerUrn: input.ownerUrn, createdAt: now };
  if (input.description) info.description = input.description;
  if (signed.expiresAt !== null) info.expiresAt = signed.expiresAt;
  // Authentication refuses a user that does not exist (as DataHub does), so the user a token is for
  // exists from then on: its key row, written with the token (an existing user is left as it is).
  const user = { urn: actor, aspectName: keyAspectNameOf(actor.entityType), changeType: 'UPSERT' as const, value: {} };
  await writeAspects(store, [{ urn, aspectName: 'dataHubAccessTokenInfo', changeType: 'UPSERT', value: info }, user], {
    actor: input.ownerUrn,
    existenceMode: 'relaxed',
    now,
  });
  return {
    accessToken: signed.token,
    id,
    urn: urn.text,
    name: input.name,
    description: input.description ?? null,
    actorUrn: input.actorUrn,
    ownerUrn: input.ownerUrn,
    createdAt: now,
    expiresAt: signed.expiresAt,
  };
}

/** The stored info of a token id, or undefined when it does not exist (never issued or revoked). */
export async function accessTokenInfo(store: Store, id: string): Promise<Record<string, unknown> | undefined> {
  return (await getAspect(store, parseUrn(accessTokenUrn(id)), 'dataHubAccessTokenInfo'))?.value;
}

/** Revocation deletes the stored token; revoking an unknown or revoked id is a no-op. */
export async function revokeAccessToken(store: Store, id: string, actor: string): Promise<void> {
  await hardDeleteEntity(store, parseUrn(accessTokenUrn(id)), { actor, existenceMode: 'relaxed' });
}

/** The token store of authentication, on the stored aspect rows. */
export function createTokenStore(store: Store): TokenStore {
  const policies = createPolicyStore(store);
  return {
    accessOf: (actorUrn) => policies.accessOf(actorUrn),
    async isActive(id) {
      const rows = await store.read((tx) =>
        tx.run<{ active: boolean }>('auth/token-active', {
          keyRow: rowKey(accessTokenUrn(id), 'dataHubAccessTokenKey'),
        }),
      );
      return rows[0]?.active === true;
    },
    async rolesOf(actorUrn) {
      const rows = await store.read((tx) => tx.run<{ value: string }>('auth/roles-of', { key: rowKey(actorUrn, 'roleMembership') }));
      const v = rows[0] ? (JSON.parse(rows[0].value) as { roles?: unknown }) : undefined;
      return Array.isArray(v?.roles) ? v.roles.filter((r): r is string => typeof r === 'string') : [];
    },
  };
}
