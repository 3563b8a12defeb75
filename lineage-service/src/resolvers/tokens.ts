// createAccessToken / revokeAccessToken (docs/wire-contract.md §Auth) on the token store of the domain.
import { accessTokenInfo, issueAccessToken, revokeAccessToken, type IssuedToken } from '@lineage/catalog/operations';
import { badRequest, forbidden, assertCan, can, graphqlDenied } from '@lineage/catalog/model';
import type { RequestContext } from '../context.ts';
import { parseRequestUrn, storedRef } from '../entity-ref.ts';
import type { MutationResolvers, QueryResolvers } from '../generated/schema-types.ts';

const TOKEN_ID = /^[A-Za-z0-9+/=_-]{1,128}$/;

function renderToken(t: IssuedToken) {
  return {
    accessToken: t.accessToken,
    metadata: {
      urn: t.urn,
      type: 'ACCESS_TOKEN',
      id: t.id,
      name: t.name,
      description: t.description,
      actorUrn: t.actorUrn,
      ownerUrn: t.ownerUrn,
      createdAt: t.createdAt,
      expiresAt: t.expiresAt,
    },
  };
}

/** DataHub's PlatformPrivileges from the caller's privileges: each flag true when its privilege is held. */
function platformPrivileges(ctx: RequestContext) {
  const has = (p: Parameters<typeof ctx.actor.privileges.has>[0]) => ctx.actor.privileges.has(p);
  const manageTokens = has('MANAGE_ACCESS_TOKENS');
  const flags = {
    managePolicies: has('MANAGE_POLICIES'),
    manageIdentities: has('MANAGE_USERS_AND_GROUPS'),
    manageUserCredentials: has('MANAGE_USER_CREDENTIALS'),
    generatePersonalAccessTokens: manageTokens || has('GENERATE_PERSONAL_ACCESS_TOKENS'),
    manageTokens,
    manageSecrets: has('MANAGE_SECRETS'),
    manageDomains: has('MANAGE_DOMAINS'),
    createDomains: has('MANAGE_DOMAINS') || has('CREATE_DOMAINS'),
  };
  const absent = [
    'viewAnalytics',
    'manageIngestion',
    'manageGlossaries',
    'manageTags',
    'createTags',
    'manageGlobalViews',
    'manageOwnershipTypes',
    'manageStructuredProperties',
    'viewStructuredPropertiesPage',
    'viewTests',
    'manageTests',
    'viewManageTags',
    'manageDocumentationForms',
    'viewMetadataProposals',
    'manageGlobalAnnouncements',
    'manageBusinessAttributes',
    'manageConnections',
    'manageGlobalSettings',
  ];
  return { ...Object.fromEntries(absent.map((f) => [f, false])), ...flags };
}

export const tokenResolvers = {
  Query: {
    // DataHub's `me` checks no privilege: any signed-in actor learns who they are and what they may do.
    me: (_, __, ctx) => {
      return { corpUser: storedRef(ctx.actor.urn), platformPrivileges: platformPrivileges(ctx) };
    },
  } satisfies QueryResolvers,
  Mutation: {
    createAccessToken: async (_, { input }, ctx) => {
      const actorUrn = parseRequestUrn(input.actorUrn).text;
      // DataHub: a token for oneself needs GENERATE_PERSONAL_ACCESS_TOKENS (or MANAGE); for anyone else MANAGE.
      assertCan(ctx.actor, actorUrn === ctx.actor.urn ? 'GENERATE_PERSONAL_ACCESS_TOKEN' : 'MANAGE_ACCESS_TOKENS', graphqlDenied());
      const issued = await issueAccessToken(ctx.store, ctx.tokenSecrets, {
        actorUrn,
        ownerUrn: ctx.actor.urn,
        name: input.name,
        description: input.description ?? null,
        duration: input.duration,
      });
      return renderToken(issued);
    },
    revokeAccessToken: async (_, { tokenId }, ctx) => {
      // Stored ids are base64 SHA-256 digests; anything else cannot name a token (and is no urn key).
      if (!TOKEN_ID.test(tokenId)) throw badRequest(`Invalid token id: ${tokenId}`);
      const info = await accessTokenInfo(ctx.store, tokenId);
      // Revoking an unknown or already revoked id is a no-op that succeeds: nothing to protect.
      if (!info) return true;
      if (info.ownerUrn !== ctx.actor.urn && !can(ctx.actor, 'MANAGE_ACCESS_TOKENS')) throw forbidden(graphqlDenied());
      await revokeAccessToken(ctx.store, tokenId, ctx.actor.urn);
      return true;
    },
  } satisfies MutationResolvers,
  AccessTokenMetadata: {
    relationships: () => ({ start: 0, count: 0, total: 0, relationships: [] }),
  },
};
