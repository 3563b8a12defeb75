// Entity.relationships (and DataFlow.childJobs): one page of an entity's typed relationship edges.
import type { Urn } from '@lineage/catalog/model';
import { maskUrns, relatedEntities } from '@lineage/catalog/read';
import type { RequestContext } from '../context.ts';
import { storedRef } from '../entity-ref.ts';
import type { RelationshipsInput } from '../generated/schema-types.ts';
import { MAX_PAGE_SIZE, pageArgument } from '../paging.ts';

const DEFAULT_RELATIONSHIP_COUNT = 100;

export async function relationshipsOf(ctx: RequestContext, urn: Urn, input: RelationshipsInput) {
  const start = pageArgument('start', input.start, 0);
  const count = pageArgument('count', input.count, DEFAULT_RELATIONSHIP_COUNT, MAX_PAGE_SIZE);
  const { total, rows } = await relatedEntities(ctx.store, urn, {
    direction: input.direction,
    types: input.types,
    includeRemoved: input.includeSoftDelete !== false,
    start,
    count,
  });
  // A related entity the caller may not view is a Restricted one (view authorization on).
  const as = await maskUrns(
    ctx.viewer,
    rows.map((r) => r.urn),
  );
  return {
    start,
    count: rows.length,
    total,
    relationships: rows.map((r) => ({
      type: r.type,
      direction: input.direction,
      entity: storedRef(as(r.urn)),
      created: r.createdOn ? { time: r.createdOn, actor: r.createdActor } : null,
    })),
  };
}
