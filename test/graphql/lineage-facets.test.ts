// Lineage searches through the front door with filters and facets on tags, glossaryTerms, owners
// and domains, in DataHub's field names and shapes (docs/wire-contract.md §Filters, §Lineage search):
// orFilters and the deprecated filters, on searchAcrossLineage and scrollAcrossLineage; facet
// values are urns whose `entity` resolves; an operation that does not select facets reads none of
// them; an unknown field is a 400.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let reader: string;
const ns = namespace('gqlf');
const p = ns.platform;
const [src, orders, customers, report] = ['src', 'orders', 'customers', 'report'].map((n) => ns.dataset(n)) as [
  string,
  string,
  string,
  string,
];
const tag = (n: string) => `urn:li:tag:${p}_${n}`;
const term = `urn:li:glossaryTerm:${p}.Revenue`;
const sales = `urn:li:domain:${p}_sales`;
const jdoe = ns.user('jdoe');
const stamp = { time: 0, actor: 'urn:li:corpuser:seeder' };
const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});

beforeAll(async () => {
  stack = await startStack();
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  const opts = { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' as const };
  await writeAspects(
    stack.store,
    [
      ...[src, orders, customers, report].map((u) => upsert(u, 'datasetProperties', { name: parseUrn(u).parts[1], customProperties: {} })),
      upsert(tag('pii'), 'tagProperties', { name: 'PII' }),
      upsert(orders, 'globalTags', { tags: [{ tag: tag('pii') }] }),
      upsert(orders, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: stamp }),
      upsert(orders, 'ownership', { owners: [{ owner: jdoe, type: 'DATAOWNER' }], lastModified: stamp }),
      upsert(orders, 'domains', { domains: [sales] }),
      upsert(report, 'globalTags', { tags: [{ tag: tag('pii') }] }),
    ],
    opts,
  );
  await writeAspects(
    stack.store,
    [
      upsert(orders, 'upstreamLineage', { upstreams: [{ dataset: src, type: 'TRANSFORMED' }] }),
      upsert(customers, 'upstreamLineage', { upstreams: [{ dataset: src, type: 'TRANSFORMED' }] }),
      upsert(report, 'upstreamLineage', { upstreams: [{ dataset: orders, type: 'TRANSFORMED' }] }),
    ],
    opts,
  );
});
afterAll(async () => {
  await stack.close();
});

const SEARCH = `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) {
  total searchResults { degree entity { urn } }
  facets { field displayName aggregations { value count entity { urn type } } } } }`;
const SCROLL = `query($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {
  nextScrollId total searchResults { degree entity { urn } } } }`;

const facetOf = (facets: Array<{ field: string; aggregations: unknown[] }>, field: string) => facets.find((f) => f.field === field);

test('searchAcrossLineage filters on a tag at every degree; the facets of tags, terms, owners and domains resolve their entities', async () => {
  const r = await stack.graphql(SEARCH, reader, {
    variables: {
      input: { urn: src, direction: 'DOWNSTREAM', count: 10, orFilters: [{ and: [{ field: 'tags', values: [tag('pii')] }] }] },
    },
  });
  expect(r.body.errors).toBeUndefined();
  const result = r.body.data.searchAcrossLineage;
  expect(result.total).toBe(2);
  expect(result.searchResults).toEqual([
    { degree: 1, entity: { urn: orders } },
    { degree: 2, entity: { urn: report } },
  ]);
  expect(result.facets.map((f: { field: string }) => f.field)).toEqual([
    'degree',
    '_entityType',
    'platform',
    'origin',
    'domains',
    'tags',
    'glossaryTerms',
    'owners',
  ]);
  expect(facetOf(result.facets, 'tags')).toEqual({
    field: 'tags',
    displayName: 'Tag',
    aggregations: [{ value: tag('pii'), count: 2, entity: { urn: tag('pii'), type: 'TAG' } }],
  });
  expect(facetOf(result.facets, 'glossaryTerms')?.aggregations).toEqual([
    { value: term, count: 1, entity: { urn: term, type: 'GLOSSARY_TERM' } },
  ]);
  expect(facetOf(result.facets, 'owners')?.aggregations).toEqual([{ value: jdoe, count: 1, entity: { urn: jdoe, type: 'CORP_USER' } }]);
  expect(facetOf(result.facets, 'domains')?.aggregations).toEqual([{ value: sales, count: 1, entity: { urn: sales, type: 'DOMAIN' } }]);
});

test('the deprecated filters, negation, and scrollAcrossLineage pages under a filter on owners', async () => {
  const negated = await stack.graphql(SEARCH, reader, {
    variables: { input: { urn: src, direction: 'DOWNSTREAM', filters: [{ field: 'tags', values: [tag('pii')], negated: true }] } },
  });
  expect(negated.body.data.searchAcrossLineage.searchResults).toEqual([{ degree: 1, entity: { urn: customers } }]);
  const scroll = async (scrollId: string | null) =>
    (
      await stack.graphql(SCROLL, reader, {
        variables: {
          input: {
            urn: src,
            direction: 'DOWNSTREAM',
            count: 1,
            scrollId,
            orFilters: [
              {
                and: [
                  { field: 'owners', values: [jdoe] },
                  { field: 'glossaryTerms.keyword', values: [term] },
                ],
              },
              { and: [{ field: 'tags', condition: 'START_WITH', values: [tag('p')] }] },
            ],
          },
        },
      })
    ).body.data.scrollAcrossLineage;
  const first = await scroll(null);
  expect(first).toMatchObject({ nextScrollId: expect.any(String), total: 2, searchResults: [{ degree: 1, entity: { urn: orders } }] });
  const second = await scroll(first.nextScrollId);
  expect(second).toEqual({ nextScrollId: null, total: 2, searchResults: [{ degree: 2, entity: { urn: report } }] });
});

test('an operation that does not select facets reads none of these; an unknown field is a 400 naming the fields', async () => {
  const ask = async (query: string) => {
    const res = await fetch(`${stack.gatewayUrl}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${reader}`, 'x-lineage-plan': 'true' },
      body: JSON.stringify({ query, variables: { input: { urn: src, direction: 'DOWNSTREAM' } } }),
    });
    return (await res.json()) as { extensions: { lineagePlans: Array<{ plan: { reasons: string[] } }> } };
  };
  expect((await ask(SCROLL)).extensions.lineagePlans[0]!.plan.reasons.join('\n')).not.toMatch(/tags/);
  expect((await ask(SEARCH)).extensions.lineagePlans[0]!.plan.reasons.join('\n')).toMatch(/facets on tags, terms, owners and domains/);
  const bad = await stack.graphql(SCROLL, reader, {
    variables: { input: { urn: src, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'colour', values: ['red'] }] }] } },
  });
  expect(bad.body.errors[0]).toMatchObject({
    message: expect.stringMatching(/^Unknown filter field 'colour': filter on _entityType, .*tags, glossaryTerms, owners, domains$/),
    extensions: { code: 400 },
  });
});
