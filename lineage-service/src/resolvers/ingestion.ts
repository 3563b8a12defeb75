// Secrets and ingestion sources (schema/ingestion.graphql): arguments in, one catalog call, the
// result as DataHub renders it. Privileges are checked by the catalog.
// One namespace: these are exactly the managed-ingestion operations, named as the SDL names them.
import * as operations from '@lineage/catalog/operations';
import type { MutationResolvers, QueryResolvers } from '../generated/schema-types.ts';

export const ingestionResolvers = {
  Query: {
    listSecrets: (_, { input }, ctx) => operations.listSecrets(ctx.store, ctx.actor, input),
    getSecretValues: (_, { input }, ctx) => operations.getSecretValues(ctx.store, ctx.actor, ctx.tokenSecrets, input.secrets),
    listIngestionSources: (_, { input }, ctx) => operations.listIngestionSources(ctx.store, ctx.actor, input),
    ingestionSource: (_, { urn }, ctx) => operations.ingestionSource(ctx.store, ctx.actor, urn),
  } satisfies QueryResolvers,
  Mutation: {
    createSecret: (_, { input }, ctx) => operations.createSecret(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    updateSecret: (_, { input }, ctx) => operations.updateSecret(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    deleteSecret: (_, { urn }, ctx) => operations.deleteSecret(ctx.store, ctx.actor, urn),
    createIngestionSource: (_, { input }, ctx) => operations.createIngestionSource(ctx.store, ctx.actor, input),
    updateIngestionSource: (_, { urn, input }, ctx) => operations.updateIngestionSource(ctx.store, ctx.actor, urn, input),
    deleteIngestionSource: (_, { urn }, ctx) => operations.deleteIngestionSource(ctx.store, ctx.actor, urn),
  } satisfies MutationResolvers,
};
