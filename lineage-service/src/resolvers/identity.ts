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
  removeUser,
  setDomain,
  unsetDomain,
  type AccessTokenMetadata,
} from '@lineage/catalog/operations';
import type { RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';

type Args<T> = { input: T };
type In<F extends (...a: never[]) => unknown> = Parameters<F>[2];

const rendered = (t: AccessTokenMetadata) => ({ ...t, type: 'ACCESS_TOKEN' });

export const identityResolvers = {
  Query: {
    getInviteToken: async (_: unknown, { input }: Args<{ roleUrn?: string | null }>, ctx: RequestContext) => ({
      inviteToken: await getInviteToken(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    }),
    listAccessTokens: async (_: unknown, { input }: Args<In<typeof listAccessTokens>>, ctx: RequestContext) => {
      const page = await listAccessTokens(ctx.store, ctx.actor, input);
      return { ...page, tokens: page.tokens.map(rendered) };
    },
    getAccessTokenMetadata: async (_: unknown, { token }: { token: string }, ctx: RequestContext) =>
      rendered(await accessTokenMetadata(ctx.store, ctx.actor, ctx.tokenSecrets, token)),
  },
  Mutation: {
    createGroup: (_: unknown, { input }: Args<In<typeof createGroup>>, ctx: RequestContext) => createGroup(ctx.store, ctx.actor, input),
    addGroupMembers: (_: unknown, { input }: Args<In<typeof addGroupMembers>>, ctx: RequestContext) =>
      addGroupMembers(ctx.store, ctx.actor, input),
    removeGroupMembers: (_: unknown, { input }: Args<In<typeof removeGroupMembers>>, ctx: RequestContext) =>
      removeGroupMembers(ctx.store, ctx.actor, input),
    batchAssignRole: (_: unknown, { input }: Args<In<typeof batchAssignRole>>, ctx: RequestContext) =>
      batchAssignRole(ctx.store, ctx.actor, input),
    removeUser: (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => removeUser(ctx.store, ctx.actor, urn),
    createInviteToken: async (_: unknown, { input }: Args<{ roleUrn?: string | null }>, ctx: RequestContext) => ({
      inviteToken: await createInviteToken(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    }),
    createDomain: (_: unknown, { input }: Args<In<typeof createDomain>>, ctx: RequestContext) => createDomain(ctx.store, ctx.actor, input),
    createDataProduct: async (_: unknown, { input }: Args<In<typeof createDataProduct>>, ctx: RequestContext) =>
      storedRef(await createDataProduct(ctx.store, ctx.actor, input)),
    setDomain: (_: unknown, a: { entityUrn: string; domainUrn: string }, ctx: RequestContext) =>
      setDomain(ctx.store, ctx.actor, a.entityUrn, a.domainUrn),
    unsetDomain: (_: unknown, a: { entityUrn: string }, ctx: RequestContext) => unsetDomain(ctx.store, ctx.actor, a.entityUrn),
  },
};
