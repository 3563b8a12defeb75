// Lists of entities that name another one in an aspect — a domain's entities, a data product's
// assets, a dataset's queries, an entity's related documents — found through the latest rows of the
// naming aspect (store: aspects/latest-naming), confirmed on the parsed value, paged like a search.
import { latestRowsNaming } from '@lineage/catalog/read';
import { badRequest, type JsonRecord } from '@lineage/catalog/model';
import { requireUnrestrictedRead, type RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import type { ListQueriesInput } from '../generated/schema-types.ts';
import { MAX_PAGE_SIZE, pageArgument } from '../paging.ts';
import { record, records, str, strings } from '../surface/values.ts';

/** Most rows one list reads; a longer list is cut there (the totals say so: they count what was read). */
const MAX_LISTED = 10_000;

interface PageInput {
  start?: number | null;
  count?: number | null;
}

function page<T>(items: T[], input: PageInput, defaultCount = 10) {
  const start = pageArgument('start', input.start, 0);
  const count = pageArgument('count', input.count, defaultCount, MAX_PAGE_SIZE);
  return { start, items: items.slice(start, start + count), total: items.length };
}

/** Urns of entities whose latest `aspect` names `urn` where `names` says, newest first. */
async function entitiesNaming(ctx: RequestContext, aspect: string, urn: string, names: (v: JsonRecord) => boolean): Promise<string[]> {
  requireUnrestrictedRead(ctx);
  const rows = await latestRowsNaming(ctx.store, aspect, urn === '' ? '' : JSON.stringify(urn), MAX_LISTED);
  return rows.filter((r) => names(r.value)).map((r) => r.urn);
}

/** A page of urns as DataHub's SearchResults (no facets: nothing was searched). */
export function searchPageOfUrns(urns: string[], input: PageInput) {
  const refs = urns.map((u) => storedRef(u)).filter((r): r is EntityRef => r !== null);
  const { start, items, total } = page(refs, input);
  const searchResults = items.map((entity) => ({ entity, insights: [], matchedFields: [], extraProperties: [] }));
  return { start, count: searchResults.length, total, searchResults, facets: [], suggestions: [] };
}

/** Domain.entities: the entities whose domains aspect names the domain. */
export async function domainEntities(ctx: RequestContext, domain: EntityRef, input: PageInput & { query?: string | null }) {
  const urns = await entitiesNaming(ctx, 'domains', domain.urn.text, (v) => strings(v.domains).includes(domain.urn.text));
  return searchPageOfUrns(urns, input);
}

/** Entity.relatedDocuments: documents whose documentInfo lists the entity among its related assets. */
export async function relatedDocuments(ctx: RequestContext, ref: EntityRef, input: PageInput | null) {
  const urns = await entitiesNaming(ctx, 'documentInfo', ref.urn.text, (v) =>
    records(v.relatedAssets).some((a) => str(a.asset) === ref.urn.text),
  );
  const { start, items, total } = page(
    urns.map((u) => storedRef(u)).filter((r): r is EntityRef => r !== null),
    input ?? {},
  );
  return { start, count: items.length, total, documents: items };
}

/** The datasets a listQueries names: datasetUrn, or an `entities` criterion (how DataHub's clients ask). */
function datasetsOf(input: ListQueriesInput): string[] {
  const fromFilters = (input.orFilters ?? [])
    .flatMap((f) => f.and ?? [])
    .filter((c) => c.field === 'entities' && c.negated !== true)
    .flatMap((c) => c.values ?? (c.value ? [c.value] : []));
  const datasets = [...(input.datasetUrn ? [input.datasetUrn] : []), ...fromFilters];
  for (const d of datasets) if (storedRef(d)?.urn.entityType !== 'dataset') throw badRequest(`Invalid dataset urn: ${d}`);
  return datasets;
}

/** Query.listQueries: query entities whose querySubjects name the dataset (or one of its columns). */
export async function listQueries(ctx: RequestContext, input: ListQueriesInput) {
  const datasets = datasetsOf(input);
  const names = (entity: string | null) =>
    entity !== null && datasets.some((d) => entity === d || entity.startsWith(`urn:li:schemaField:(${d},`));
  const urns = await entitiesNaming(
    ctx,
    'querySubjects',
    datasets.length === 1 ? datasets[0]! : '',
    (v) => datasets.length === 0 || records(v.subjects).some((s) => names(str(s.entity))),
  );
  const wanted = input.source ?? null;
  const sourced = wanted === null ? urns : await filterBySource(ctx, urns, wanted);
  const { start, items, total } = page(
    sourced.map((u) => storedRef(u)).filter((r): r is EntityRef => r !== null),
    input,
    20,
  );
  return { start, count: items.length, total, queries: items };
}

async function filterBySource(ctx: RequestContext, urns: string[], source: string): Promise<string[]> {
  const props = await Promise.all(urns.map(async (u) => (await ctx.aspects.load(u)).get('queryProperties')?.value));
  return urns.filter((_, i) => (str(record(props[i])?.source) ?? 'SYSTEM') === source);
}
