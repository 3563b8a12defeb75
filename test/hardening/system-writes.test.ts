// Issue 30 item 1: authorization by what a write writes. Every write door (Rest.li ingestProposal
// with UPSERT, PATCH and DELETE, ingestProposalBatch, entities?action=ingest|batchIngest|delete,
// OpenAPI v3 POST, PATCH and DELETE) × every system entity type and aspect (privileges.ts
// SYSTEM_ENTITY_PRIVILEGES / SYSTEM_ASPECT_PRIVILEGES: roles, tokens, policies, credentials,
// secrets, group membership, suspension) × every role (Reader, Editor, Admin): a Reader and an
// Editor get 403 and nothing is written; an Admin writes, except a dataHubAccessToken, which only
// createAccessToken writes (422), so no write brings a revoked token back. GraphQL's one generic
// write (updateLineage) cannot reach these aspects at all. Then the two attacks the issue reports,
// end to end: an Editor making itself Admin, and a revoked token brought back by re-writing its key.
import { tokenId } from '../../catalog/src/operations/auth/tokens.ts';
import { descriptorOf } from '../../catalog/src/model/entity-registry.ts';
import { aspectFqcn } from '../../catalog/src/model/aspects/index.ts';
import { SYSTEM_ASPECT_PRIVILEGES, SYSTEM_ENTITY_PRIVILEGES } from '../../catalog/src/model/privileges.ts';
import { namespace } from '../support/context.ts';
import { TEST_SECRETS, tokenFor } from '../support/services.ts';
import { mcp } from './corpus/rest.ts';
import { graphql, send, snapshot, startHarness, type Harness, type Reply } from './corpus/harness.ts';

const ns = namespace('sysw');
type Role = 'Reader' | 'Editor' | 'Admin';
const ROLES: Role[] = ['Reader', 'Editor', 'Admin'];
const users: Record<Role, string> = { Reader: ns.user('reader'), Editor: ns.user('editor'), Admin: ns.user('admin') };
const tokens = {} as Record<Role, string>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const role of ROLES) tokens[role] = await tokenFor(h.store, users[role], role);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

// ---------------------------------------------------------------------------------------------
// What is written: one target per system aspect and per system entity type, each on its own urn
// (the namespace's marker is in every urn, so a snapshot sees all of them).

interface Target {
  name: string;
  urn: string;
  aspectName: string;
  value: Record<string, unknown>;
}

const id = (what: string) => `${ns.platform}_${what}`;
const ASPECT_TARGETS: Target[] = [
  {
    name: 'corpuser roleMembership',
    urn: ns.user('victim_role'),
    aspectName: 'roleMembership',
    value: { roles: ['urn:li:dataHubRole:Admin'] },
  },
  {
    name: 'corpuser corpUserCredentials',
    urn: ns.user('victim_cred'),
    aspectName: 'corpUserCredentials',
    value: { salt: 's', hashedPassword: 'h' },
  },
  {
    name: 'corpuser groupMembership',
    urn: ns.user('victim_group'),
    aspectName: 'groupMembership',
    value: { groups: [`urn:li:corpGroup:${id('admins')}`] },
  },
  {
    name: 'corpuser nativeGroupMembership',
    urn: ns.user('victim_native'),
    aspectName: 'nativeGroupMembership',
    value: { nativeGroups: [`urn:li:corpGroup:${id('admins')}`] },
  },
  {
    name: 'corpuser corpUserStatus',
    urn: ns.user('victim_status'),
    aspectName: 'corpUserStatus',
    value: { status: 'ACTIVE', lastModified: { time: 1, actor: 'urn:li:corpuser:x' } },
  },
  {
    name: 'corpGroup roleMembership',
    urn: `urn:li:corpGroup:${id('group_role')}`,
    aspectName: 'roleMembership',
    value: { roles: ['urn:li:dataHubRole:Admin'] },
  },
];
const ENTITY_TARGETS: Target[] = [
  {
    name: 'dataHubAccessToken key',
    urn: `urn:li:dataHubAccessToken:${id('tok_key')}`,
    aspectName: 'dataHubAccessTokenKey',
    value: { id: id('tok_key') },
  },
  {
    name: 'dataHubAccessToken info',
    urn: `urn:li:dataHubAccessToken:${id('tok_info')}`,
    aspectName: 'dataHubAccessTokenInfo',
    value: { name: 'n', actorUrn: ns.user('editor'), ownerUrn: ns.user('editor'), createdAt: 1 },
  },
  {
    name: 'dataHubPolicy info',
    urn: `urn:li:dataHubPolicy:${id('policy')}`,
    aspectName: 'dataHubPolicyInfo',
    value: {
      displayName: 'all',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ['MANAGE_POLICIES'],
      editable: true,
      actors: { users: [ns.user('editor')] },
    },
  },
  {
    name: 'dataHubRole info',
    urn: `urn:li:dataHubRole:${id('role')}`,
    aspectName: 'dataHubRoleInfo',
    value: { name: 'r', description: 'd', editable: true },
  },
  {
    name: 'dataHubSecret value',
    urn: `urn:li:dataHubSecret:${id('secret')}`,
    aspectName: 'dataHubSecretValue',
    value: { name: 's', value: 'v' },
  },
  { name: 'inviteToken', urn: `urn:li:inviteToken:${id('invite')}`, aspectName: 'inviteToken', value: { token: 't' } },
  {
    name: 'dataHubIngestionSource info',
    urn: `urn:li:dataHubIngestionSource:${id('source')}`,
    aspectName: 'dataHubIngestionSourceInfo',
    value: { name: 'n', type: 'snowflake', config: { recipe: '{}', executorId: 'default' } },
  },
];
const TARGETS = [...ASPECT_TARGETS, ...ENTITY_TARGETS];

test('the targets cover every system aspect and entity type privileges.ts names', () => {
  expect(new Set(ASPECT_TARGETS.map((t) => t.aspectName))).toEqual(new Set(Object.keys(SYSTEM_ASPECT_PRIVILEGES)));
  expect(new Set(ENTITY_TARGETS.map((t) => t.urn.split(':')[2]))).toEqual(new Set(Object.keys(SYSTEM_ENTITY_PRIVILEGES)));
});

// ---------------------------------------------------------------------------------------------
// The doors: each turns a target into one request, or says it cannot express it.

interface Door {
  name: string;
  /** A write (or delete) of the target; undefined when the door has no form for it (no MCE snapshot class). */
  request(t: Target): { method: 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown } | undefined;
  openapi?: true;
  /** A delete (Editors lack DELETE_ENTITY); Admin may delete any system entity or aspect (a token delete is a revocation). */
  deletes?: true;
}

const typeOf = (urn: string) => urn.split(':')[2]!;
const snapshotOf = (t: Target) => {
  const snapshot = descriptorOf(typeOf(t.urn))?.snapshot;
  const fqcn = aspectFqcn(t.aspectName);
  return snapshot && fqcn
    ? { value: { [`com.linkedin.metadata.snapshot.${snapshot}`]: { urn: t.urn, aspects: [{ [fqcn]: t.value }] } } }
    : undefined;
};
const patchOf = (t: Target) => Object.entries(t.value).map(([k, v]) => ({ op: 'add', path: `/${k}`, value: v }));
const enc = encodeURIComponent;

const DOORS: Door[] = [
  {
    name: 'Rest.li ingestProposal UPSERT',
    request: (t) => ({ method: 'POST', path: '/aspects?action=ingestProposal', body: { proposal: mcp(t.urn, t.aspectName, t.value) } }),
  },
  {
    name: 'Rest.li ingestProposal PATCH',
    request: (t) => ({
      method: 'POST',
      path: '/aspects?action=ingestProposal',
      body: { proposal: mcp(t.urn, t.aspectName, patchOf(t), 'PATCH') },
    }),
  },
  {
    name: 'Rest.li ingestProposal DELETE',
    deletes: true,
    request: (t) => ({
      method: 'POST',
      path: '/aspects?action=ingestProposal',
      body: { proposal: { ...mcp(t.urn, t.aspectName, {}, 'DELETE'), aspect: undefined } },
    }),
  },
  {
    name: 'Rest.li ingestProposalBatch',
    request: (t) => ({
      method: 'POST',
      path: '/aspects?action=ingestProposalBatch',
      body: { proposals: [mcp(t.urn, t.aspectName, t.value)] },
    }),
  },
  {
    name: 'Rest.li entities.ingest (MCE)',
    request: (t) => {
      const e = snapshotOf(t);
      return e && { method: 'POST', path: '/entities?action=ingest', body: { entity: e } };
    },
  },
  {
    name: 'Rest.li entities.batchIngest (MCE)',
    request: (t) => {
      const e = snapshotOf(t);
      return e && { method: 'POST', path: '/entities?action=batchIngest', body: { entities: [e] } };
    },
  },
  {
    name: 'Rest.li entities.delete',
    deletes: true,
    request: (t) => ({ method: 'POST', path: '/entities?action=delete', body: { urn: t.urn } }),
  },
  {
    name: 'OpenAPI v3 POST',
    openapi: true,
    request: (t) => ({
      method: 'POST',
      path: `/openapi/v3/entity/${typeOf(t.urn)}?async=false`,
      body: [{ urn: t.urn, [t.aspectName]: { value: t.value } }],
    }),
  },
  {
    name: 'OpenAPI v3 PATCH',
    openapi: true,
    request: (t) => ({
      method: 'PATCH',
      path: `/openapi/v3/entity/${typeOf(t.urn)}?async=false`,
      body: [{ urn: t.urn, [t.aspectName]: { value: { patch: patchOf(t) } } }],
    }),
  },
  {
    name: 'OpenAPI v3 DELETE aspect',
    openapi: true,
    deletes: true,
    request: (t) => ({ method: 'DELETE', path: `/openapi/v3/entity/${typeOf(t.urn)}/${enc(t.urn)}?aspects=${t.aspectName}` }),
  },
  {
    name: 'OpenAPI v3 DELETE entity',
    openapi: true,
    deletes: true,
    request: (t) => ({ method: 'DELETE', path: `/openapi/v3/entity/${typeOf(t.urn)}/${enc(t.urn)}` }),
  },
];

const messageOf = (r: Reply) => String(r.json?.message ?? r.json?.error ?? r.text);

async function call(role: Role, door: Door, t: Target, via: 'direct' | 'front door'): Promise<Reply | undefined> {
  const req = door.request(t);
  if (!req) return undefined;
  const base = via === 'direct' ? h.ingestionUrl : `${h.gatewayUrl}/api/gms`;
  return send(`${base}${req.path}`, { method: req.method, body: req.body, token: tokens[role] });
}

describe.each(['Reader', 'Editor'] as const)('%s: every door × every system target is 403 and writes nothing', (role) => {
  test.each(DOORS.map((d) => [d.name, d] as const))('%s', async (_name, door) => {
    const before = await snapshot(h.store, ns.platform, [users[role]]);
    const outcomes: string[] = [];
    for (const t of TARGETS) {
      // Every second target through the front door: its relay must not change the answer.
      const r = await call(role, door, t, TARGETS.indexOf(t) % 2 ? 'front door' : 'direct');
      if (!r) continue;
      // A Reader lacks EDIT_ENTITY and an Editor DELETE_ENTITY, denied first; an Editor's write is
      // denied for the platform privilege, which the message names.
      const expected =
        role === 'Reader' || door.deletes
          ? /is unauthorized to modify entity/
          : /is unauthorized to modify entity.*needs the MANAGE_\w+ privilege/;
      outcomes.push(`${t.name}: ${r.status} ${expected.test(messageOf(r)) ? 'names the privilege' : messageOf(r)}`);
    }
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => !/: 403 names the privilege$/.test(o))).toEqual([]);
    const after = await snapshot(h.store, ns.platform, [users[role]]);
    expect(after).toEqual(before);
  });
});

describe('Admin: every door × every system target is written, except access tokens', () => {
  test.each(DOORS.map((d) => [d.name, d] as const))('%s', async (_name, door) => {
    const outcomes: string[] = [];
    for (const t of TARGETS) {
      const r = await call('Admin', door, t, 'direct');
      if (!r) continue;
      const token = typeOf(t.urn) === 'dataHubAccessToken';
      let verdict: string;
      if (token && !door.deletes) {
        verdict = r.status === 422 && /written only by createAccessToken/.test(messageOf(r)) ? 'refused' : `${r.status} ${messageOf(r)}`;
      } else {
        // A PATCH may be refused by the aspect's own schema (422/400), never for want of a privilege.
        verdict =
          r.status < 300 || (/PATCH/.test(door.name) && r.status !== 403 && r.status < 500) ? 'written' : `${r.status} ${messageOf(r)}`;
      }
      outcomes.push(`${t.name}: ${verdict}`);
    }
    const expected = TARGETS.filter((t) => door.request(t)).map(
      (t) => `${t.name}: ${typeOf(t.urn) === 'dataHubAccessToken' && !door.deletes ? 'refused' : 'written'}`,
    );
    expect(outcomes).toEqual(expected);
  });
});

test('GraphQL updateLineage cannot write to users, tokens, roles or policies (4xx, nothing written)', async () => {
  const before = await snapshot(h.store, ns.platform, [users.Admin, users.Editor]);
  for (const role of ['Editor', 'Admin'] as const) {
    for (const t of TARGETS) {
      const r = await graphql(`${h.gatewayUrl}/api/graphql`, tokens[role], {
        query: 'mutation u($e: [LineageEdge]!) { updateLineage(input: {edgesToAdd: $e, edgesToRemove: []}) }',
        variables: { e: [{ downstreamUrn: t.urn, upstreamUrn: ns.dataset('up') }] },
      });
      expect(r.status).toBeLessThan(500);
      expect(r.json.errors?.[0]?.extensions?.code).toBeGreaterThanOrEqual(400);
      expect(r.json.errors[0].extensions.code).toBeLessThan(500);
    }
  }
  expect(await snapshot(h.store, ns.platform, [users.Admin, users.Editor])).toEqual(before);
});

// ---------------------------------------------------------------------------------------------
// The two attacks of the issue, end to end.

test('an Editor cannot make itself Admin, on any door, and stays unable to delete', async () => {
  const editor = users.Editor;
  const attempts: Reply[] = [
    await send(`${h.ingestionUrl}/openapi/v3/entity/corpuser?async=false`, {
      body: [{ urn: editor, roleMembership: { value: { roles: ['urn:li:dataHubRole:Admin'] } } }],
      token: tokens.Editor,
    }),
    await send(`${h.ingestionUrl}/openapi/v3/entity/corpuser?async=false`, {
      method: 'PATCH',
      body: [{ urn: editor, roleMembership: { value: { patch: [{ op: 'add', path: '/roles/-', value: 'urn:li:dataHubRole:Admin' }] } } }],
      token: tokens.Editor,
    }),
    await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
      body: { proposal: mcp(editor, 'roleMembership', { roles: ['urn:li:dataHubRole:Admin'] }) },
      token: tokens.Editor,
    }),
    await send(`${h.gatewayUrl}/api/gms/aspects?action=ingestProposalBatch`, {
      body: {
        proposals: [
          mcp(ns.dataset('ok'), 'status', { removed: false }),
          mcp(editor, 'roleMembership', { roles: ['urn:li:dataHubRole:Admin'] }),
        ],
      },
      token: tokens.Editor,
    }),
    await send(`${h.ingestionUrl}/entities?action=ingest`, {
      body: {
        entity: {
          value: {
            'com.linkedin.metadata.snapshot.CorpUserSnapshot': {
              urn: editor,
              aspects: [{ 'com.linkedin.identity.RoleMembership': { roles: ['urn:li:dataHubRole:Admin'] } }],
            },
          },
        },
      },
      token: tokens.Editor,
    }),
  ];
  expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
  for (const r of attempts) expect(messageOf(r)).toMatch(/writing roleMembership needs the MANAGE_USERS_AND_GROUPS privilege/);
  // The mixed batch was refused whole: its good proposal was not written either.
  const ok = await send(`${h.ingestionUrl}/aspects/${enc(ns.dataset('ok'))}?aspect=status`, { token: tokens.Admin });
  expect(ok.status).toBe(404);
  const del = await send(`${h.ingestionUrl}/openapi/v3/entity/dataset/${enc(ns.dataset('victim'))}`, {
    method: 'DELETE',
    token: tokens.Editor,
  });
  expect(del.status).toBe(403);
  // An Admin may grant the role (DataHub's MANAGE_USERS_AND_GROUPS), and then the Editor can delete.
  const grant = await send(`${h.ingestionUrl}/openapi/v3/entity/corpuser?async=false`, {
    body: [{ urn: ns.user('promoted'), roleMembership: { value: { roles: ['urn:li:dataHubRole:Admin'] } } }],
    token: tokens.Admin,
  });
  expect(grant.status).toBe(200);
  const promoted = await tokenFor(h.store, ns.user('promoted'));
  expect(
    (await send(`${h.ingestionUrl}/openapi/v3/entity/dataset/${enc(ns.dataset('victim'))}`, { method: 'DELETE', token: promoted })).status,
  ).toBe(200);
});

test('a revoked token stays revoked whatever is written, by an Editor or an Admin, on any door', async () => {
  const revoked = await tokenFor(h.store, users.Admin);
  const tid = tokenId(revoked, TEST_SECRETS.salt);
  const urn = `urn:li:dataHubAccessToken:${tid}`;
  const probe = () => send(`${h.ingestionUrl}/entities?action=exists`, { body: { urn: ns.dataset('any') }, token: revoked });
  expect((await probe()).status).toBe(200);
  const r = await graphql(`${h.gatewayUrl}/api/graphql`, tokens.Admin, {
    query: 'mutation r($id: String!) { revokeAccessToken(tokenId: $id) }',
    variables: { id: tid },
  });
  expect(r.json.data).toEqual({ revokeAccessToken: true });
  expect((await probe()).status).toBe(401);

  const key = { id: tid };
  const info = { name: 'back', actorUrn: users.Admin, ownerUrn: users.Admin, createdAt: Date.now() };
  for (const role of ['Editor', 'Admin'] as const) {
    const replies = [
      await send(`${h.ingestionUrl}/openapi/v3/entity/dataHubAccessToken?async=false`, {
        body: [{ urn, dataHubAccessTokenKey: { value: key } }],
        token: tokens[role],
      }),
      await send(`${h.ingestionUrl}/openapi/v3/entity/dataHubAccessToken?async=false`, {
        body: [{ urn, dataHubAccessTokenInfo: { value: info } }],
        token: tokens[role],
      }),
      await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
        body: { proposal: mcp(urn, 'dataHubAccessTokenKey', key) },
        token: tokens[role],
      }),
      await send(`${h.ingestionUrl}/aspects?action=ingestProposal`, {
        body: { proposal: mcp(urn, 'dataHubAccessTokenInfo', info, 'CREATE_ENTITY') },
        token: tokens[role],
      }),
      await send(`${h.gatewayUrl}/api/gms/aspects?action=ingestProposalBatch`, {
        body: { proposals: [mcp(urn, 'dataHubAccessTokenKey', key), mcp(urn, 'dataHubAccessTokenInfo', info)] },
        token: tokens[role],
      }),
      await send(`${h.ingestionUrl}/openapi/v3/entity/dataHubAccessToken?async=false`, {
        method: 'PATCH',
        body: [{ urn, dataHubAccessTokenInfo: { value: { patch: [{ op: 'add', path: '/name', value: 'x' }] } } }],
        token: tokens[role],
      }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(role === 'Editor' ? 403 : 422);
    }
    expect((await probe()).status).toBe(401);
  }
});
