// Secrets and ingestion sources (schema/ingestion.graphql): arguments in, one catalog call, the
// result as DataHub renders it. Privileges are checked by the catalog.
import {
  createIngestionSource,
  createSecret,
  deleteIngestionSource,
  deleteSecret,
  getSecretValues,
  ingestionSource,
  listIngestionSources,
  listSecrets,
  updateIngestionSource,
  updateSecret,
} from '@lineage/catalog/operations';
import type { MutationResolvers, QueryResolvers } from '../generated/schema-types.ts';

export const ingestionResolvers = {
  Query: {
    listSecrets: (_, { input }, ctx) => listSecrets(ctx.store, ctx.actor, input),
    getSecretValues: (_, { input }, ctx) => getSecretValues(ctx.store, ctx.actor, ctx.tokenSecrets, input.secrets),
    listIngestionSources: (_, { input }, ctx) => listIngestionSources(ctx.store, ctx.actor, input),
    ingestionSource: (_, { urn }, ctx) => ingestionSource(ctx.store, ctx.actor, urn),
  } satisfies QueryResolvers,
  Mutation: {
    createSecret: (_, { input }, ctx) => createSecret(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    updateSecret: (_, { input }, ctx) => updateSecret(ctx.store, ctx.actor, ctx.tokenSecrets, input),
    deleteSecret: (_, { urn }, ctx) => deleteSecret(ctx.store, ctx.actor, urn),
    createIngestionSource: (_, { input }, ctx) => createIngestionSource(ctx.store, ctx.actor, input),
    updateIngestionSource: (_, { urn, input }, ctx) => updateIngestionSource(ctx.store, ctx.actor, urn, input),
    deleteIngestionSource: (_, { urn }, ctx) => deleteIngestionSource(ctx.store, ctx.actor, urn),
  } satisfies MutationResolvers,
};
