// The explorer's start page and details sheet reads (schema/details.graphql): parse, call the
// catalog read, render. Entities are refs resolved like every other Entity field.
import { columnLineageCounts, jobRuns, mostConnectedEntities, recentLineageChanges, recentlyChangedEntities } from '@lineage/catalog/read';
import { requireUnrestrictedRead } from '../context.ts';
import { parseRequestUrn, storedRef } from '../entity-ref.ts';
import type { QueryResolvers } from '../generated/schema-types.ts';

export const detailsResolvers = {
  Query: {
    mostConnectedEntities: async (_, { count }, ctx) => {
      requireUnrestrictedRead(ctx);
      const rows = await mostConnectedEntities(ctx.store, count);
      return rows.flatMap((r) => {
        const entity = storedRef(r.urn);
        return entity ? [{ entity, links: r.links }] : [];
      });
    },
    recentlyChangedEntities: async (_, { count }, ctx) => {
      requireUnrestrictedRead(ctx);
      const rows = await recentlyChangedEntities(ctx.store, count);
      return rows.flatMap((r) => {
        const entity = storedRef(r.urn);
        return entity ? [{ entity, changedAt: r.changedOn }] : [];
      });
    },
    dataJobRuns: async (_, { urn, count }, ctx) => {
      requireUnrestrictedRead(ctx);
      parseRequestUrn(urn);
      return jobRuns(ctx.store, urn, count);
    },
    columnLineageCounts: async (_, { urn }, ctx) => {
      requireUnrestrictedRead(ctx);
      parseRequestUrn(urn);
      const rows = await columnLineageCounts(ctx.store, urn);
      return rows.map((r) => ({ schemaFieldUrn: r.urn, fieldPath: r.fieldPath, upstream: r.upstream, downstream: r.downstream }));
    },
    recentLineageChanges: async (_, { urn, count }, ctx) => {
      requireUnrestrictedRead(ctx);
      parseRequestUrn(urn);
      const r = await recentLineageChanges(ctx.store, urn, count, ctx.changeLogTopics);
      if (!r.recorded) return { recorded: false, reason: r.reason, changes: null, more: false };
      return { recorded: true, reason: null, more: r.more, changes: r.changes.map((c) => ({ ...c, otherEntity: storedRef(c.other) })) };
    },
  } satisfies QueryResolvers,
};
