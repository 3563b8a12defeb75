// Issue 53: policies enforced on every write door, on real Neo4j. Doors (Rest.li ingestProposal,
// OpenAPI v3, GraphQL updateLineage through the gateway, OpenLineage) × privileges (EDIT_LINEAGE
// lets lineage be written, not other metadata) × actor kinds (a user named by the policy, a member
// of a named group, a holder of a named role — its own or its group's —, an owner through the
// default asset-owners policy) × resource filters (type, urn, domain, tag). Policies are created
// through GraphQL createPolicy; each names only this file's actors, so files sharing the database
// are unaffected. Also: policy management itself (MANAGE_POLICIES, 422/400, listPolicies,
// getGrantedPrivileges answering as enforcement does, deletePolicy).
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { mcp } from '../hardening/corpus/rest.ts';
import { graphql, send, startHarness, type Harness, type Reply } from '../hardening/corpus/harness.ts';

const ns = namespace('polm');
const SYSTEM = 'urn:li:corpuser:__datahub_system';
const KINDS = ['user', 'group', 'role', 'groupRole'] as const;
const FILTERS = ['type', 'urn', 'domain', 'tag'] as const;
type Kind = (typeof KINDS)[number] | 'owner';
type Filter = (typeof FILTERS)[number];
const DOORS = ['restli', 'openapi', 'graphql'] as const;
type Door = (typeof DOORS)[number];

const domain = `urn:li:domain:${ns.platform}_sales`;
const tag = `urn:li:tag:${ns.platform}_pii`;
const group = (k: string) => `urn:li:corpGroup:${ns.platform}_${k}`;
const role = (k: string) => `urn:li:dataHubRole:${ns.platform}_${k}`;
const upstreamOf = (c: Filter) => ns.dataset(`${c}.up`);
const allowedOf = (c: Filter) => ns.dataset(`${c}.allowed`);
/** The resource the filter leaves out: another dataset, or for the type filter a job. */
const deniedOf = (c: Filter) => (c === 'type' ? ns.job(ns.flow('f'), `${c}.denied`) : ns.dataset(`${c}.denied`));

let h: Harness;
let adminToken: string;
const tokens = new Map<string, string>();
const actorOf = (kind: Kind, filter: Filter) => ns.user(`${kind}_${filter}`);

function lineageValue(target: string, upstream: string): [string, unknown] {
  return target.includes(':dataJob:')
    ? ['dataJobInputOutput', { inputDatasets: [upstream], outputDatasets: [] }]
    : ['upstreamLineage', { upstreams: [{ auditStamp: { time: 0, actor: SYSTEM }, dataset: upstream, type: 'TRANSFORMED' }] }];
}

async function write(door: Door, token: string, target: string, upstream: string, aspect?: [string, unknown]): Promise<Reply> {
  const [name, value] = aspect ?? lineageValue(target, upstream);
  if (door === 'restli')
    return send(`${h.ingestionUrl}/aspects?action=ingestProposal`, { token, body: { proposal: mcp(target, name, value) } });
  if (door === 'openapi') {
    const type = parseUrn(target).entityType;
    return send(`${h.ingestionUrl}/openapi/v3/entity/${type}?async=false`, { token, body: [{ urn: target, [name]: { value } }] });
  }
  return graphql(`${h.gatewayUrl}/api/graphql`, token, {
    query:
      'mutation u($d: String!, $u: String!) { updateLineage(input: {edgesToAdd: [{downstreamUrn: $d, upstreamUrn: $u}], edgesToRemove: []}) }',
    variables: { d: target, u: upstream },
  });
}

const allowed = (door: Door, r: Reply) =>
  door === 'graphql' ? r.status === 200 && r.json?.data?.updateLineage === true : r.status === 200;
const denied = (door: Door, r: Reply) =>
  door === 'graphql'
    ? /Unauthorized to edit (dataset|dataJob) lineage/.test(JSON.stringify(r.json?.errors ?? null)) && r.json?.data?.updateLineage == null
    : r.status === 403;

function resourcesOf(filter: Filter) {
  switch (filter) {
    case 'type':
      return { filter: { criteria: [{ field: 'TYPE', values: ['dataset'], condition: 'EQUALS' }] } };
    case 'urn':
      return { filter: { criteria: [{ field: 'URN', values: [allowedOf('urn'), upstreamOf('urn')], condition: 'EQUALS' }] } };
    case 'domain':
      return { filter: { criteria: [{ field: 'DOMAIN', values: [domain], condition: 'EQUALS' }] } };
    case 'tag':
      return { filter: { criteria: [{ field: 'TAG', values: [tag], condition: 'EQUALS' }] } };
  }
}

function actorsOf(kind: (typeof KINDS)[number], filter: Filter) {
  const base = { resourceOwners: false, allUsers: false, allGroups: false };
  if (kind === 'user') return { ...base, users: [actorOf(kind, filter)] };
  if (kind === 'group') return { ...base, groups: [group(`${kind}_${filter}`)] };
  return { ...base, roles: [role(`${kind}_${filter}`)] };
}

async function gql(token: string, query: string, variables?: unknown) {
  return graphql(`${h.gatewayUrl}/api/graphql`, token, { query, ...(variables ? { variables } : {}) });
}

const CREATE = 'mutation c($i: PolicyUpdateInput!) { createPolicy(input: $i) }';
const policyInput = (name: string, privileges: string[], actors: unknown, resources?: unknown) => ({
  type: 'METADATA',
  name,
  state: 'ACTIVE',
  description: 'policy matrix',
  privileges,
  actors,
  ...(resources ? { resources } : {}),
});

beforeAll(async () => {
  h = await startHarness();
  adminToken = await tokenFor(h.store, ns.user('admin'), 'Admin');
  const seed: Parameters<typeof writeAspects>[1] = [];
  const put = (urn: string, aspectName: string, value: unknown) =>
    seed.push({ urn: parseUrn(urn), aspectName, changeType: 'UPSERT', value });
  for (const f of FILTERS) for (const u of [upstreamOf(f), allowedOf(f), deniedOf(f)]) put(u, 'status', { removed: false });
  for (const u of [upstreamOf('domain'), allowedOf('domain')]) put(u, 'domains', { domains: [domain] });
  for (const u of [upstreamOf('tag'), allowedOf('tag')]) put(u, 'globalTags', { tags: [{ tag }] });
  // Owners: the owner kind owns the allowed end of each filter's pair (the default asset-owners policy).
  for (const f of FILTERS) {
    const owner = actorOf('owner', f);
    for (const u of [upstreamOf(f), allowedOf(f)])
      put(u, 'ownership', { owners: [{ owner, type: 'TECHNICAL_OWNER' }], lastModified: { time: 0, actor: SYSTEM } });
  }
  for (const kind of KINDS)
    for (const f of FILTERS) {
      const actor = actorOf(kind, f);
      if (kind === 'group') put(actor, 'groupMembership', { groups: [group(`${kind}_${f}`)] });
      if (kind === 'role') put(actor, 'roleMembership', { roles: [role(`${kind}_${f}`)] });
      if (kind === 'groupRole') {
        put(actor, 'nativeGroupMembership', { nativeGroups: [group(`${kind}_${f}`)] });
        put(group(`${kind}_${f}`), 'roleMembership', { roles: [role(`${kind}_${f}`)] });
      }
    }
  await writeAspects(h.store, seed, { actor: SYSTEM, existenceMode: 'relaxed' });
  for (const kind of [...KINDS, 'owner' as const])
    for (const f of FILTERS) tokens.set(actorOf(kind, f), await tokenFor(h.store, actorOf(kind, f)));
  for (const kind of KINDS)
    for (const f of FILTERS) {
      const r = await gql(adminToken, CREATE, {
        i: policyInput(`${ns.platform} ${kind} ${f}`, ['EDIT_LINEAGE'], actorsOf(kind, f), resourcesOf(f)),
      });
      expect([r.status, r.json.errors]).toEqual([200, undefined]);
      expect(r.json.data.createPolicy).toMatch(/^urn:li:dataHubPolicy:/);
    }
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const cases = DOORS.flatMap((door) =>
  [...KINDS, 'owner' as const].flatMap((kind) => FILTERS.map((filter) => [door, kind, filter] as const)),
);

test.each(cases)('%s × %s × %s filter: lineage on the selected entity is allowed, elsewhere refused', async (door, kind, filter) => {
  const token = tokens.get(actorOf(kind, filter))!;
  const ok = await write(door, token, allowedOf(filter), upstreamOf(filter));
  expect([ok.status, ok.text.slice(0, 300), allowed(door, ok)]).toEqual([200, expect.any(String), true]);
  const no = await write(door, token, deniedOf(filter), upstreamOf(filter));
  expect([no.text.slice(0, 300), denied(door, no)]).toEqual([expect.any(String), true]);
});

test.each(DOORS.filter((d) => d !== 'graphql'))('%s: EDIT_LINEAGE does not let other metadata be written', async (door) => {
  const token = tokens.get(actorOf('user', 'urn'))!;
  const r = await write(door, token, allowedOf('urn'), upstreamOf('urn'), ['datasetProperties', { name: 'renamed' }]);
  expect(r.status).toBe(403);
  expect(r.text).toContain('is unauthorized to modify entity');
});

describe('OpenLineage: every entity an event writes', () => {
  const event = () => ({
    eventTime: '2026-11-01T10:00:00Z',
    producer: 'https://example.com/policy-matrix',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
    job: { namespace: ns.platform, name: 'ol.job' },
    outputs: [{ namespace: `postgres://${ns.platform}:5432`, name: 'db.t' }],
  });
  test('a policy on datasets only is refused (the job is written too); on every written type it passes', async () => {
    const datasetsOnly = ns.user('ol_datasets');
    const everything = ns.user('ol_all');
    for (const [u, types] of [
      [datasetsOnly, ['dataset']],
      [everything, ['dataset', 'dataFlow', 'dataJob', 'dataProcessInstance']],
    ] as const) {
      const r = await gql(adminToken, CREATE, {
        i: policyInput(
          `${ns.platform} ol ${u}`,
          ['EDIT_LINEAGE'],
          { users: [u], resourceOwners: false, allUsers: false, allGroups: false },
          {
            filter: { criteria: [{ field: 'TYPE', values: types, condition: 'EQUALS' }] },
          },
        ),
      });
      expect(r.json.errors).toBeUndefined();
    }
    const refused = await send(`${h.ingestionUrl}/api/v1/lineage`, { token: await tokenFor(h.store, datasetsOnly), body: event() });
    expect([refused.status, refused.text]).toEqual([403, expect.stringContaining('is unauthorized to ingest OpenLineage events')]);
    const passed = await send(`${h.ingestionUrl}/api/v1/lineage`, { token: await tokenFor(h.store, everything), body: event() });
    expect([passed.status, passed.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  });
});

describe('policy management', () => {
  test('needs MANAGE_POLICIES; malformed is 422, unknown privilege or field 400; nothing half-written', async () => {
    const reader = await tokenFor(h.store, ns.user('reader'), 'Reader');
    const input = policyInput(`${ns.platform} mgmt`, ['EDIT_LINEAGE'], {
      users: [ns.user('x')],
      resourceOwners: false,
      allUsers: false,
      allGroups: false,
    });
    const refused = await gql(reader, CREATE, { i: input });
    expect(refused.json.errors[0].extensions.code).toBe(403);
    const unknown = await gql(adminToken, CREATE, { i: { ...input, privileges: ['EDIT_LINEAGE', 'FLY'] } });
    expect([unknown.json.errors[0].extensions.code, unknown.json.errors[0].message]).toEqual([400, expect.stringContaining("'FLY'")]);
    const field = await gql(adminToken, CREATE, {
      i: { ...input, resources: { filter: { criteria: [{ field: 'COLOUR', values: ['red'], condition: 'EQUALS' }] } } },
    });
    expect(field.json.errors[0].message).toContain("'COLOUR'");
    // Through the Rest.li door the same value is checked: a missing field is a 422 naming it.
    const malformed = await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
      token: adminToken,
      body: {
        proposal: mcp(`urn:li:dataHubPolicy:${ns.platform}_bad`, 'dataHubPolicyInfo', {
          displayName: 'x',
          type: 'METADATA',
          state: 'ACTIVE',
          privileges: [],
        }),
      },
    });
    expect([malformed.status, malformed.text]).toEqual([422, expect.stringContaining('actors')]);
    const listed = await gql(adminToken, '{ listPolicies(input: {start: 0, count: 100, query: "mgmt"}) { total policies { name } } }');
    expect(listed.json.data.listPolicies.policies.filter((p: { name: string }) => p.name.startsWith(ns.platform))).toEqual([]);
  });

  test('listPolicies shows defaults and stored ones; getGrantedPrivileges answers as enforcement; deletePolicy revokes', async () => {
    const listed = await gql(
      adminToken,
      `{ listPolicies(input: {start: 0, count: 1000, query: "${ns.platform} user"}) { total policies { urn name state privileges actors { users } resources { filter { criteria { field values { value } } } } } } }`,
    );
    expect(listed.json.data.listPolicies.total).toBe(FILTERS.length);
    const defaults = await gql(
      adminToken,
      '{ listPolicies(input: {count: 1000, orFilters: [{and: [{field: "editable", values: ["false"]}]}]}) { policies { urn } } }',
    );
    expect(defaults.json.data.listPolicies.policies.map((p: { urn: string }) => p.urn)).toContain(
      'urn:li:dataHubPolicy:admin-metadata-policy',
    );

    const actor = actorOf('group', 'domain');
    const granted = async (resourceUrn: string) =>
      (
        await gql(
          adminToken,
          'query g($a: String!, $r: String!) { getGrantedPrivileges(input: {actorUrn: $a, resourceSpec: {resourceType: DATASET, resourceUrn: $r}}) { privileges } }',
          { a: actor, r: resourceUrn },
        )
      ).json.data.getGrantedPrivileges.privileges as string[];
    expect(await granted(allowedOf('domain'))).toContain('EDIT_LINEAGE');
    expect(await granted(deniedOf('domain'))).not.toContain('EDIT_LINEAGE');
    // One may ask about oneself, not about others.
    const self = await gql(tokens.get(actor)!, `{ getGrantedPrivileges(input: {actorUrn: "${actor}"}) { privileges } }`);
    expect(self.json.data.getGrantedPrivileges.privileges).toEqual(
      expect.arrayContaining(['GENERATE_PERSONAL_ACCESS_TOKENS', 'VIEW_ENTITY_PAGE']),
    );
    const other = await gql(tokens.get(actor)!, `{ getGrantedPrivileges(input: {actorUrn: "${ns.user('admin')}"}) { privileges } }`);
    expect(other.json.errors[0].extensions.code).toBe(403);

    const policy = listed.json.data.listPolicies.policies.find((p: { name: string }) => p.name === `${ns.platform} user domain`);
    const del = await gql(adminToken, 'mutation d($u: String!) { deletePolicy(urn: $u) }', { u: policy.urn });
    expect(del.json.data.deletePolicy).toBe(policy.urn);
    const after = await write('restli', tokens.get(actorOf('user', 'domain'))!, allowedOf('domain'), upstreamOf('domain'));
    expect(after.status).toBe(403);
  });
});
