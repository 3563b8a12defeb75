// Marquez's GET /search, GET /tags and GET /sources (docs/marquez-compatibility.md), from the graph
// the OpenLineage and DataHub doors write: datasets and OpenLineage jobs matched by name, the tag
// entities, and the data sources the datasets' dataSource facets name.
import { badRequest, notFound } from '../../model/errors.ts';
import { asRecord, type JsonRecord } from '../../model/json.ts';
import { datasetIdOfUrn, nodeIdOf } from '../../model/marquez/ids.ts';
import { UNIT_SEPARATOR } from '../../model/urn.ts';
import { int, type Store } from '../../store/store.ts';
import { getLatestAspectsOf } from '../aspect-reader.ts';
import { olJobs } from './jobs.ts';
import type { Page } from './reads.ts';

export interface SearchQuery {
  q: string | undefined;
  filter: string | undefined;
  sort: string | undefined;
  limit: number;
  namespace: string | undefined;
  before: string | undefined;
  after: string | undefined;
}

/** Marquez's search default page: 10 results. */
export const DEFAULT_SEARCH_LIMIT = 10;

const iso = (ms: number) => new Date(ms).toISOString();

/** An enum parameter as Marquez's enums read, in any case. */
function oneOf<T extends string>(name: string, value: string | undefined, values: readonly T[]): T | undefined {
  if (value === undefined || value === '') return undefined;
  const v = values.find((x) => x === value.toUpperCase());
  if (!v) throw badRequest(`Query parameter '${name}' must be one of ${values.join(', ')}, got '${value}'`);
  return v;
}

/** A YYYY-MM-DD parameter as the start of that day (UTC), as Marquez compares it. */
function dayParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const t = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(t)) throw badRequest(`Query parameter '${name}' must be a date YYYY-MM-DD, got '${value}'`);
  return t;
}

type Result = { type: 'DATASET' | 'JOB'; name: string; updatedOn: number; namespace: string };

/** GET /search: `{totalCount, results: [{type, name, updatedAt, namespace, nodeId}]}`, totalCount the results' count. */
export async function marquezSearch(store: Store, query: SearchQuery): Promise<JsonRecord> {
  const q = query.q?.trim();
  if (!q) throw badRequest("Query parameter 'q' must not be blank");
  const filter = oneOf('filter', query.filter, ['DATASET', 'JOB'] as const);
  const sort = oneOf('sort', query.sort, ['NAME', 'UPDATE_AT'] as const) ?? 'NAME';
  const before = dayParam('before', query.before);
  const after = dayParam('after', query.after);
  const needle = q.toLowerCase();
  const results: Result[] = [];
  if (filter !== 'JOB') {
    const rows = await store.read((tx) => tx.run<{ urn: string; updatedOn: number | null }>('marquez/search-datasets', { q: needle }));
    for (const r of rows) {
      const id = datasetIdOfUrn(r.urn);
      if (id && id.name.toLowerCase().includes(needle)) results.push({ type: 'DATASET', ...id, updatedOn: r.updatedOn ?? 0 });
    }
  }
  if (filter !== 'DATASET') {
    for (const j of await olJobs(store))
      if (j.id.name.toLowerCase().includes(needle)) results.push({ type: 'JOB', ...j.id, updatedOn: j.updatedOn });
  }
  const kept = results.filter(
    (r) =>
      (query.namespace === undefined || r.namespace === query.namespace) &&
      (before === undefined || r.updatedOn < before) &&
      (after === undefined || r.updatedOn > after),
  );
  const byName = (a: Result, b: Result) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.type < b.type ? -1 : 1;
  kept.sort(sort === 'NAME' ? byName : (a, b) => b.updatedOn - a.updatedOn || byName(a, b));
  const page = kept.slice(0, query.limit).map((r) => ({
    type: r.type,
    name: r.name,
    updatedAt: iso(r.updatedOn),
    namespace: r.namespace,
    nodeId: nodeIdOf(r.type, r),
  }));
  return { totalCount: page.length, results: page };
}

/** GET /tags: `{tags: [{name, description}]}` in name order. */
export async function marquezTags(store: Store, page: Page): Promise<JsonRecord> {
  const rows = await store.read((tx) => tx.run<{ urn: string }>('marquez/tags', { skip: int(page.offset), limit: int(page.limit) }));
  const aspects = await getLatestAspectsOf(
    store,
    rows.map((r) => r.urn),
  );
  const tags = rows.map(({ urn }) => {
    const props = aspects.get(urn)?.get('tagProperties')?.value;
    const description = props?.description;
    return { name: urn.replace(/^urn:li:tag:/, ''), description: typeof description === 'string' ? description : null };
  });
  return { tags };
}

/** Marquez's source for datasets that name none, and the type it gives every source. */
const DEFAULT_SOURCE = 'default';
const SOURCE_TYPE = 'POSTGRESQL';

type Source = { name: string; url: string; createdOn: number; updatedOn: number };

/** Every source, by name: one per dataSource facet name, and `default` for datasets that name none. */
async function sources(store: Store): Promise<Source[]> {
  const rows = await store.read((tx) =>
    tx.run<{ value: string; createdOn: number }>('marquez/dataset-sources', {
      suffix: `${UNIT_SEPARATOR}openLineage${UNIT_SEPARATOR}0`,
    }),
  );
  const byName = new Map<string, Source>();
  for (const r of rows) {
    const dataSource = asRecord(asRecord(asRecord(JSON.parse(r.value))?.facets)?.dataSource);
    const named = typeof dataSource?.name === 'string' && dataSource.name !== '';
    const name = named ? (dataSource.name as string) : DEFAULT_SOURCE;
    const url = named && typeof dataSource.uri === 'string' ? dataSource.uri : '';
    const seen = byName.get(name);
    byName.set(name, {
      name,
      url: seen?.url || url,
      createdOn: Math.min(seen?.createdOn ?? r.createdOn, r.createdOn),
      updatedOn: Math.max(seen?.updatedOn ?? r.createdOn, r.createdOn),
    });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const sourceJson = (s: Source) => ({
  type: SOURCE_TYPE,
  name: s.name,
  createdAt: iso(s.createdOn),
  updatedAt: iso(s.updatedOn),
  connectionUrl: s.url,
  description: null,
});

/** GET /sources: `{sources: [{type, name, createdAt, updatedAt, connectionUrl, description}]}` in name order. */
export async function marquezSources(store: Store, page: Page): Promise<JsonRecord> {
  return { sources: (await sources(store)).slice(page.offset, page.offset + page.limit).map(sourceJson) };
}

/** GET /sources/{source}. */
export async function marquezSource(store: Store, name: string): Promise<JsonRecord> {
  const found = (await sources(store)).find((s) => s.name === name);
  if (!found) throw notFound(`Source '${name}' not found.`);
  return sourceJson(found);
}
