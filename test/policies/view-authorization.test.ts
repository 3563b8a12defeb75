// Issue 53, reads: view authorization (VIEW_AUTHORIZATION_ENABLED) on real Neo4j. A chain
// up → secret → mid → down, where `secret` (and a lone `hidden` dataset) are left out of DataHub's
// "All Users - View Entity Page" policy (overridden here: every user views every urn except those
// two, so other files sharing the database keep their grants) and `secret` is viewable through a
// domain-scoped policy by one insider. Lineage walks through the restricted node (reach, degrees
// and totals stay true) and answers it as a Restricted entity under an opaque urn; search counts
// hidden entities in no total and no facet; entity and aspect reads of them are 403. With view
// authorization off (the default) the same policies change nothing on reads.
import { createHash } from 'node:crypto';
import { writeAspects, hardDeleteEntity } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { graphql, send, startHarness, type Harness } from '../hardening/corpus/harness.ts';

const ns = namespace('vauth');
const SYSTEM = 'urn:li:corpuser:__datahub_system';
const VIEW_ALL = 'urn:li:dataHubPolicy:view-entity-page-all';
const up = ns.dataset('up');
const secret = ns.dataset('secret_table');
const mid = ns.dataset('mid');
const down = ns.dataset('down');
const hidden = ns.dataset('hidden_table');
const secretDomain = `urn:li:domain:${ns.platform}_secret`;

let on: Harness;
let off: Harness;
const token: Record<'outsider' | 'insider' | 'admin', string> = { outsider: '', insider: '', admin: '' };
let insiderPolicy = '';

const policyInput = (name: string, actors: Record<string, unknown>, criteria: unknown[]) => ({
  type: 'METADATA',
  name,
  state: 'ACTIVE',
  description: 'view authorization test',
  privileges: ['VIEW_ENTITY_PAGE', 'SEARCH_PRIVILEGE'],
  actors: { resourceOwners: false, allUsers: false, allGroups: false, ...actors },
  resources: { filter: { criteria } },
});

async function gql(h: Harness, who: keyof typeof token, query: string, variables?: unknown) {
  const r = await graphql(`${h.gatewayUrl}/api/graphql`, token[who], { query, ...(variables ? { variables } : {}) });
  expect(r.status).toBe(200);
  return r.json;
}

beforeAll(async () => {
  on = await startHarness({ VIEW_AUTHORIZATION_ENABLED: 'true' });
  off = await startHarness();
  const upstream = (u: string) => ({ upstreams: [{ auditStamp: { time: 0, actor: SYSTEM }, dataset: u, type: 'TRANSFORMED' }] });
  const changes = [
    ...[up, secret, mid, down, hidden].map((u) => ({ urn: u, aspectName: 'status', value: { removed: false } })),
    { urn: secret, aspectName: 'upstreamLineage', value: upstream(up) },
    { urn: mid, aspectName: 'upstreamLineage', value: upstream(secret) },
    { urn: down, aspectName: 'upstreamLineage', value: upstream(mid) },
    { urn: secret, aspectName: 'domains', value: { domains: [secretDomain] } },
  ];
  await writeAspects(
    on.store,
    changes.map((c) => ({ urn: parseUrn(c.urn), aspectName: c.aspectName, changeType: 'UPSERT', value: c.value })),
    { actor: SYSTEM, existenceMode: 'relaxed' },
  );
  token.admin = await tokenFor(on.store, ns.user('admin'), 'Admin');
  token.outsider = await tokenFor(on.store, ns.user('outsider'));
  token.insider = await tokenFor(on.store, ns.user('insider'));
  const save = async (mutation: string, variables: unknown) => {
    const r = await gql(on, 'admin', mutation, variables);
    expect(r.errors).toBeUndefined();
    return r.data;
  };
  await save('mutation u($u: String!, $i: PolicyUpdateInput!) { updatePolicy(urn: $u, input: $i) }', {
    u: VIEW_ALL,
    i: policyInput('All Users - View Entity Page', { allUsers: true }, [
      { field: 'URN', values: [secret, hidden], condition: 'NOT_EQUALS' },
    ]),
  });
  insiderPolicy = (
    await save('mutation c($i: PolicyUpdateInput!) { createPolicy(input: $i) }', {
      i: policyInput(`${ns.platform} insider`, { users: [ns.user('insider')] }, [
        { field: 'DOMAIN', values: [secretDomain], condition: 'EQUALS' },
      ]),
    })
  ).createPolicy;
}, 120_000);

afterAll(async () => {
  // Back to DataHub's default policies: the stored override and the test's policy removed.
  if (on) {
    for (const urn of [VIEW_ALL, insiderPolicy].filter(Boolean))
      await hardDeleteEntity(on.store, parseUrn(urn), { actor: SYSTEM, existenceMode: 'relaxed' });
    await on.close();
  }
  await off?.close();
});

const SCROLL = `query($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {
  total searchResults { entity { urn type } degree paths { path { urn type } } }
  facets { field aggregations { value count } } } }`;
const SEARCH_LINEAGE = `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) {
  total searchResults { entity { urn type } degree } } }`;

type Node = { urn: string; type: string };
type Hit = { entity: Node; degree: number; paths: Array<{ path: Node[] }> };

async function downstreamOfUp(h: Harness, who: keyof typeof token) {
  const r = await gql(h, who, SCROLL, { input: { urn: up, direction: 'DOWNSTREAM', count: 10 } });
  expect(r.errors).toBeUndefined();
  const page = r.data.scrollAcrossLineage;
  const hits = [...(page.searchResults as Hit[])].sort((a, b) => a.degree - b.degree);
  return { total: page.total as number, hits, facets: page.facets as Array<{ field: string; aggregations: Array<{ value: string }> }> };
}

describe('lineage', () => {
  test('the walk passes through a restricted node: reach, degrees and total stay true, the node is Restricted', async () => {
    const { total, hits } = await downstreamOfUp(on, 'outsider');
    expect(total).toBe(3);
    expect(hits.map((h) => [h.entity.type, h.degree])).toEqual([
      ['RESTRICTED', 1],
      ['DATASET', 2],
      ['DATASET', 3],
    ]);
    const restricted = hits[0]!.entity.urn;
    expect(restricted).toMatch(/^urn:li:restricted:[A-Za-z0-9_-]+$/);
    expect(hits.slice(1).map((h) => h.entity.urn)).toEqual([mid, down]);
    // Paths show the restricted node where the secret one is, under the same opaque urn.
    expect(hits[1]!.paths.map((p) => p.path.map((n) => [n.type, n.urn]))).toEqual([
      [
        ['DATASET', up],
        ['RESTRICTED', restricted],
        ['DATASET', mid],
      ],
    ]);
  });

  test('the opaque urn names nothing of the real one and is the same on every request', async () => {
    const first = (await downstreamOfUp(on, 'outsider')).hits[0]!.entity.urn;
    const again = (await downstreamOfUp(on, 'outsider')).hits[0]!.entity.urn;
    expect(again).toBe(first);
    const opaque = first.slice('urn:li:restricted:'.length);
    for (const piece of [secret, 'secret_table', ns.platform, Buffer.from(secret).toString('base64url')])
      expect(first).not.toContain(piece);
    // Not a plain hash of the urn either: it is keyed.
    expect(opaque).not.toBe(createHash('sha256').update(secret).digest('base64url'));
  });

  test('facets name no restricted node, nor what it holds (its domain)', async () => {
    const valuesOf = (facets: Array<{ aggregations: Array<{ value: string }> }>) =>
      facets.flatMap((f) => f.aggregations.map((a) => a.value));
    const outsider = valuesOf((await downstreamOfUp(on, 'outsider')).facets);
    expect(outsider).not.toContain(secret);
    expect(outsider).not.toContain(secretDomain);
    // Whoever views everything gets the domains facet, which names it.
    expect(valuesOf((await downstreamOfUp(on, 'admin')).facets)).toContain(secretDomain);
    // Under a filter on it too: the restricted hit is counted, its domain is in no facet.
    const filtered = await gql(on, 'outsider', SCROLL, {
      input: { urn: up, direction: 'DOWNSTREAM', count: 10, orFilters: [{ and: [{ field: 'domains', values: [secretDomain] }] }] },
    });
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data.scrollAcrossLineage.total).toBe(1);
    expect(valuesOf(filtered.data.scrollAcrossLineage.facets)).not.toContain(secretDomain);
  });

  test('searchAcrossLineage and the one-hop lineage field answer it the same way', async () => {
    const r = await gql(on, 'outsider', SEARCH_LINEAGE, { input: { urn: mid, direction: 'UPSTREAM', count: 10 } });
    const hits = [...r.data.searchAcrossLineage.searchResults].sort((a: Hit, b: Hit) => a.degree - b.degree);
    expect(r.data.searchAcrossLineage.total).toBe(2);
    expect(hits.map((h: Hit) => [h.entity.type, h.degree])).toEqual([
      ['RESTRICTED', 1],
      ['DATASET', 2],
    ]);
    expect(hits[1].entity.urn).toBe(up);
    const one = await gql(
      on,
      'outsider',
      `{ dataset(urn: "${mid}") { lineage(input: {direction: UPSTREAM}) { total relationships { entity { urn type } } } } }`,
    );
    expect(one.data.dataset.lineage.total).toBe(1);
    expect(one.data.dataset.lineage.relationships).toEqual([{ entity: { urn: hits[0].entity.urn, type: 'RESTRICTED' } }]);
  });

  test('whoever may view it sees the real node: the insider by its domain, an admin', async () => {
    for (const who of ['insider', 'admin'] as const) {
      const { total, hits } = await downstreamOfUp(on, who);
      expect([who, total, hits.map((h) => h.entity.urn)]).toEqual([who, 3, [secret, mid, down]]);
    }
  });

  test('with view authorization off the same policies hide nothing', async () => {
    const { hits } = await downstreamOfUp(off, 'outsider');
    expect(hits.map((h) => h.entity.urn)).toEqual([secret, mid, down]);
  });
});

describe('search', () => {
  const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
    total searchResults { entity { urn } } facets { field aggregations { value count } } } }`;
  const SCROLL_ENTITIES = `query($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) {
    total searchResults { entity { urn } } } }`;
  const platformCount = (facets: Array<{ field: string; aggregations: Array<{ value: string; count: number }> }>) =>
    facets.find((f) => f.field === 'platform')!.aggregations.find((a) => a.value === `urn:li:dataPlatform:${ns.platform}`)?.count;

  async function searchAs(h: Harness, who: keyof typeof token) {
    const r = await gql(h, who, SEARCH, { input: { query: ns.platform, types: ['DATASET'], count: 2 } });
    expect(r.errors).toBeUndefined();
    return r.data.searchAcrossEntities;
  }

  test('hidden entities are counted in no total and no facet, and are on no page', async () => {
    const outsider = await searchAs(on, 'outsider');
    expect([outsider.total, platformCount(outsider.facets)]).toEqual([3, 3]);
    const all = await gql(on, 'outsider', SEARCH, { input: { query: ns.platform, types: ['DATASET'], count: 10 } });
    expect(all.data.searchAcrossEntities.searchResults.map((r: { entity: Node }) => r.entity.urn).sort()).toEqual([down, mid, up].sort());
    const insider = await searchAs(on, 'insider');
    expect([insider.total, platformCount(insider.facets)]).toEqual([4, 4]);
    const admin = await searchAs(on, 'admin');
    expect([admin.total, platformCount(admin.facets)]).toEqual([5, 5]);
    const offline = await searchAs(off, 'outsider');
    expect(offline.total).toBe(5);
  });

  test('a name match on a hidden entity finds nothing', async () => {
    const r = await gql(on, 'outsider', SEARCH, { input: { query: 'hidden_table', count: 10 } });
    expect(r.data.searchAcrossEntities.searchResults.map((x: { entity: Node }) => x.entity.urn)).not.toContain(hidden);
    const scroll = await gql(on, 'outsider', SCROLL_ENTITIES, { input: { query: ns.platform, types: ['DATASET'], count: 10 } });
    expect(scroll.data.scrollAcrossEntities.total).toBe(3);
  });

  test('the OpenAPI v3 scroll leaves them out of its page and total', async () => {
    const r = await send(`${on.ingestionUrl}/openapi/v3/entity/dataset?query=${ns.platform}&count=10`, { token: token.outsider });
    expect(r.status).toBe(200);
    expect([r.json.totalCount, r.json.entities.map((e: { urn: string }) => e.urn).sort()]).toEqual([3, [down, mid, up].sort()]);
  });
});

describe('entity and aspect reads', () => {
  const path = (urn: string) => encodeURIComponent(urn);

  test('GraphQL getters: 403 for an entity the caller may not view; entity(urn) answers it Restricted', async () => {
    const denied = await gql(on, 'outsider', `{ dataset(urn: "${secret}") { urn } }`);
    expect([denied.data?.dataset ?? null, denied.errors?.[0]?.extensions?.code]).toEqual([null, 403]);
    const fine = await gql(on, 'outsider', `{ dataset(urn: "${mid}") { urn } }`);
    expect([fine.errors, fine.data]).toEqual([undefined, { dataset: { urn: mid } }]);
    const entity = await gql(on, 'outsider', `{ entity(urn: "${secret}") { urn type } }`);
    expect(entity.data.entity).toEqual({ urn: expect.stringMatching(/^urn:li:restricted:/), type: 'RESTRICTED' });
    expect((await gql(on, 'insider', `{ dataset(urn: "${secret}") { urn } }`)).data.dataset).toEqual({ urn: secret });
  });

  test('relationships name it Restricted; reads not yet judged per entity are refused to a restricted caller', async () => {
    const rel = await gql(
      on,
      'outsider',
      `{ dataset(urn: "${mid}") { relationships(input: {types: ["DownstreamOf"], direction: OUTGOING}) { total relationships { entity { urn type } } } } }`,
    );
    expect(rel.data.dataset.relationships).toEqual({
      total: 1,
      relationships: [{ entity: { urn: expect.stringMatching(/^urn:li:restricted:/), type: 'RESTRICTED' } }],
    });
    const start = await gql(on, 'outsider', '{ mostConnectedEntities(count: 1) { links } }');
    expect(start.errors?.[0]?.extensions?.code).toBe(403);
    expect((await gql(on, 'admin', '{ mostConnectedEntities(count: 1) { links } }')).errors).toBeUndefined();
  });

  test('Rest.li and OpenAPI entity and aspect GETs: 403 for it, 200 for a viewable one', async () => {
    const reads = (urn: string) => [
      `${on.ingestionUrl}/aspects/${path(urn)}?aspect=status`,
      `${on.ingestionUrl}/entitiesV2/${path(urn)}`,
      `${on.ingestionUrl}/openapi/v3/entity/dataset/${path(urn)}`,
      `${on.ingestionUrl}/openapi/v3/entity/dataset/${path(urn)}/status`,
    ];
    for (const url of reads(secret)) {
      const r = await send(url, { token: token.outsider });
      expect([url, r.status, r.text]).toEqual([url, 403, expect.stringContaining('unauthorized')]);
    }
    for (const url of reads(mid)) expect([url, (await send(url, { token: token.outsider })).status]).toEqual([url, 200]);
    for (const url of reads(secret)) expect([url, (await send(url, { token: token.insider })).status]).toEqual([url, 200]);
    for (const url of reads(secret))
      expect([url, (await send(url.replace(on.ingestionUrl, off.ingestionUrl), { token: token.outsider })).status]).toEqual([url, 200]);
  });
});

describe('me', () => {
  // DataHub's `me` resolver checks no privilege: a user who may view only some entities (here the
  // outsider, whose view policy is scoped) still learns who they are and what they may do.
  test('answers a user without an unconditional view privilege', async () => {
    const r = await gql(on, 'outsider', '{ me { corpUser { urn } platformPrivileges { generatePersonalAccessTokens } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.me).toEqual({ corpUser: { urn: ns.user('outsider') }, platformPrivileges: { generatePersonalAccessTokens: true } });
  });
});
