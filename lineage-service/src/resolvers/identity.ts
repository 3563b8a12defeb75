// The identity, role, token-listing and domain operations (schema/identity.graphql): arguments in,
// one catalog call, the result as DataHub renders it. Privileges are checked by the catalog.
import {
  accessTokenMetadata,
  addGroupMembers,
  batchAssignRole,
  createDataProduct,
  createDomain,
  createGroup,
  createInviteToken,
  getInviteToken,
  listAccessTokens,
  removeGroupMembers,
  removeGroup,
  removeUser,
  setDomain,
  unsetDomain,
  type AccessTokenMetadata,
} from '@lineage/catalog/operations';
import { searchEntities } from '@lineage/catalog/read';
import { requireRead } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import type { MutationResolvers, QueryResolvers } from '../generated/schema-types.ts';

const rendered = (t: AccessTokenMetadata) => ({ ...t, type: 'ACCESS_TOKEN' });

export const identityResolvers = {
  Query: {
    // A search of users, as DataHub's resolver runs it: every signed-in reader may list, and view
    // authorization hides whom the reader may not see.
    listUsers: async (_, { input }, ctx) => {
      requireRead(ctx);
      const found = await searchEntities(ctx.store, {
        query: input.query ?? '*',
        types: ['CORP_USER'],
        sort: 'urn',
        start: input.start ?? 0,
        count: input.count ?? 20,
        facets: false,
        viewer: ctx.viewer,
      });
      const users = found.hits.map((h) => storedRef(h.urn)).filter((r): r is EntityRef => r !== null);
      return { start: found.start, count: users.length, total: found.total, users };
    },
    getInviteToken: async (_, { input }, ctx) => ({
      inviteToken: await getInviteToken(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    }),
    listAccessTokens: async (_, { input }, ctx) => {
      const page = await listAccessTokens(ctx.store, ctx.actor, input);
      return { ...page, tokens: page.tokens.map(rendered) };
    },
    getAccessTokenMetadata: async (_, { token }, ctx) => rendered(await accessTokenMetadata(ctx.store, ctx.actor, ctx.tokenSecrets, token)),
  } satisfies QueryResolvers,
  Mutation: {
    createGroup: (_, { input }, ctx) => createGroup(ctx.store, ctx.actor, input),
    addGroupMembers: (_, { input }, ctx) => addGroupMembers(ctx.store, ctx.actor, input),
    removeGroupMembers: (_, { input }, ctx) => removeGroupMembers(ctx.store, ctx.actor, input),
    batchAssignRole: (_, { input }, ctx) => batchAssignRole(ctx.store, ctx.actor, input),
    removeUser: (_, { urn }, ctx) => removeUser(ctx.store, ctx.actor, urn),
    removeGroup: (_, { urn }, ctx) => removeGroup(ctx.store, ctx.actor, urn),
    createInviteToken: async (_, { input }, ctx) => ({
      inviteToken: await createInviteToken(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    }),
    createDomain: (_, { input }, ctx) => createDomain(ctx.store, ctx.actor, input),
    createDataProduct: async (_, { input }, ctx) => storedRef(await createDataProduct(ctx.store, ctx.actor, input)),
    setDomain: (_, a, ctx) => setDomain(ctx.store, ctx.actor, a.entityUrn, a.domainUrn),
    unsetDomain: (_, a, ctx) => unsetDomain(ctx.store, ctx.actor, a.entityUrn),
  } satisfies MutationResolvers,
};
