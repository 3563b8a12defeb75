// Groups, roles, users, invite tokens, token listing, domains and data products through the front
// door on a real Neo4j (schema/identity.graphql): what each stores, who may, and bad input.
import { startStack, type Stack } from './stack.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { getAspect, latestRowsNaming } from '../../catalog/src/read/aspect-reader.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';

let stack: Stack;
let admin: string, editor: string, reader: string;
const ns = namespace('idn');
const id = (name: string) => `${ns.platform}_${name}`;

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  editor = await tokenFor(stack.store, ns.user('editor'), 'Editor');
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
});
afterAll(async () => {
  await stack.close();
});

const seed = (urn: string, aspectName: string, value: Record<string, unknown>) =>
  writeAspects(stack.store, [{ urn: parseUrn(urn), aspectName, changeType: 'UPSERT', value }], {
    actor: 'urn:li:corpuser:datahub',
    existenceMode: 'relaxed',
  });
const stored = async (urn: string, aspect: string) => (await getAspect(stack.store, parseUrn(urn), aspect))?.value;
const gql = (query: string, token: string, variables?: Record<string, unknown>) =>
  stack.graphql(query, token, variables ? { variables } : {});
const firstError = (r: { body: any }) => r.body.errors?.[0] as { message: string; extensions: { code: number; type: string } } | undefined;

const CREATE_GROUP = 'mutation($input: CreateGroupInput!) { createGroup(input: $input) }';
const ADD_MEMBERS = 'mutation($g: String!, $u: [String!]!) { addGroupMembers(input: {groupUrn: $g, userUrns: $u}) }';
const REMOVE_MEMBERS = 'mutation($g: String!, $u: [String!]!) { removeGroupMembers(input: {groupUrn: $g, userUrns: $u}) }';

describe('groups', () => {
  test('createGroup stores a native group with its info; the same id again is a 409', async () => {
    const r = await gql(CREATE_GROUP, admin, { input: { id: id('eng'), name: 'Engineering', description: 'builders' } });
    expect(r.body.errors).toBeUndefined();
    const urn = `urn:li:corpGroup:${id('eng')}`;
    expect(r.body.data.createGroup).toBe(urn);
    expect(await stored(urn, 'corpGroupInfo')).toMatchObject({ displayName: 'Engineering', description: 'builders', members: [] });
    expect(await stored(urn, 'origin')).toEqual({ type: 'NATIVE' });
    const again = await gql(CREATE_GROUP, admin, { input: { id: id('eng'), name: 'Other' } });
    expect(firstError(again)).toMatchObject({ message: 'This Group already exists!', extensions: { code: 409 } });
    expect(await stored(urn, 'corpGroupInfo')).toMatchObject({ displayName: 'Engineering' });
  });

  test('without an id the group gets a random one', async () => {
    const r = await gql(CREATE_GROUP, admin, { input: { name: 'Anonymous' } });
    expect(r.body.data.createGroup).toMatch(/^urn:li:corpGroup:[0-9a-f-]{36}$/);
  });

  test('createGroup needs MANAGE_USERS_AND_GROUPS (403) and a name (400 naming it)', async () => {
    const denied = await gql(CREATE_GROUP, editor, { input: { id: id('nope'), name: 'Nope' } });
    expect(denied.body.data).toEqual({ createGroup: null });
    expect(firstError(denied)).toMatchObject({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      extensions: { code: 403, type: 'UNAUTHORIZED' },
    });
    expect(await stored(`urn:li:corpGroup:${id('nope')}`, 'corpGroupInfo')).toBeUndefined();
    const blank = await gql(CREATE_GROUP, admin, { input: { id: id('blank'), name: ' ' } });
    expect(firstError(blank)?.extensions.code).toBe(400);
    expect(firstError(blank)?.message).toContain('name');
  });

  test('addGroupMembers writes each user its nativeGroupMembership; removeGroupMembers takes it away', async () => {
    const group = (await gql(CREATE_GROUP, admin, { input: { id: id('data'), name: 'Data' } })).body.data.createGroup as string;
    const other = (await gql(CREATE_GROUP, admin, { input: { id: id('ops'), name: 'Ops' } })).body.data.createGroup as string;
    const [a, b] = [ns.user('a'), ns.user('b')];
    expect((await gql(ADD_MEMBERS, admin, { g: other, u: [a] })).body.data).toEqual({ addGroupMembers: true });
    expect((await gql(ADD_MEMBERS, admin, { g: group, u: [a, b, a] })).body.data).toEqual({ addGroupMembers: true });
    expect(await stored(a, 'nativeGroupMembership')).toEqual({ nativeGroups: [other, group] });
    expect(await stored(b, 'nativeGroupMembership')).toEqual({ nativeGroups: [group] });
    // Adding again changes nothing.
    await gql(ADD_MEMBERS, admin, { g: group, u: [b] });
    expect(await stored(b, 'nativeGroupMembership')).toEqual({ nativeGroups: [group] });
    expect((await gql(REMOVE_MEMBERS, admin, { g: group, u: [a] })).body.data).toEqual({ removeGroupMembers: true });
    expect(await stored(a, 'nativeGroupMembership')).toEqual({ nativeGroups: [other] });
  });

  test('members of an unknown group: 404; of a group from an external provider: 400; bad urns: 400; an Editor: 403', async () => {
    const unknown = await gql(ADD_MEMBERS, admin, { g: `urn:li:corpGroup:${id('ghost')}`, u: [ns.user('c')] });
    expect(firstError(unknown)).toMatchObject({
      message: `Failed to add members to group urn:li:corpGroup:${id('ghost')}. Group does not exist.`,
      extensions: { code: 404 },
    });
    const external = `urn:li:corpGroup:${id('ldap')}`;
    await seed(external, 'origin', { type: 'EXTERNAL', externalType: 'ldap' });
    const fromLdap = await gql(ADD_MEMBERS, admin, { g: external, u: [ns.user('c')] });
    expect(firstError(fromLdap)).toMatchObject({ extensions: { code: 400 } });
    expect(firstError(fromLdap)?.message).toContain('external provider');
    const badUser = await gql(ADD_MEMBERS, admin, { g: `urn:li:corpGroup:${id('eng')}`, u: [ns.dataset('t')] });
    expect(firstError(badUser)).toMatchObject({ extensions: { code: 400 } });
    expect(firstError(badUser)?.message).toContain('userUrns[0]');
    const denied = await gql(ADD_MEMBERS, editor, { g: `urn:li:corpGroup:${id('eng')}`, u: [ns.user('editor')] });
    expect(firstError(denied)?.extensions.code).toBe(403);
    expect(await stored(ns.user('editor'), 'nativeGroupMembership')).toBeUndefined();
  });
});

const ASSIGN = 'mutation($input: BatchAssignRoleInput!) { batchAssignRole(input: $input) }';

describe('roles and users', () => {
  test('batchAssignRole gives users and groups exactly that role; no role takes it away; the role takes effect', async () => {
    const [u, g] = [ns.user('promoted'), `urn:li:corpGroup:${id('readers')}`];
    const before = await tokenFor(stack.store, u);
    // Every user may read (DataHub's "All Users" policies); managing domains is the Editor role's.
    const manages = async () => (await gql('{ me { platformPrivileges { manageDomains } } }', before)).body.data.me.platformPrivileges;
    expect(await manages()).toEqual({ manageDomains: false });
    const r = await gql(ASSIGN, admin, { input: { roleUrn: 'urn:li:dataHubRole:Editor', actors: [u, g] } });
    expect(r.body).toEqual({ data: { batchAssignRole: true }, extensions: {} });
    expect(await stored(u, 'roleMembership')).toEqual({ roles: ['urn:li:dataHubRole:Editor'] });
    expect(await stored(g, 'roleMembership')).toEqual({ roles: ['urn:li:dataHubRole:Editor'] });
    expect(await manages()).toEqual({ manageDomains: true });
    await gql(ASSIGN, admin, { input: { roleUrn: null, actors: [u] } });
    expect(await stored(u, 'roleMembership')).toEqual({ roles: [] });
  });

  test('batchAssignRole: DataHub asks MANAGE_POLICIES (403 with its message); unknown role 404; a dataset as actor 400', async () => {
    const denied = await gql(ASSIGN, editor, { input: { roleUrn: 'urn:li:dataHubRole:Admin', actors: [ns.user('editor')] } });
    expect(firstError(denied)).toMatchObject({
      message: 'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.',
      extensions: { code: 403 },
    });
    expect(await stored(ns.user('editor'), 'roleMembership')).toEqual({ roles: ['urn:li:dataHubRole:Editor'] });
    const unknown = await gql(ASSIGN, admin, { input: { roleUrn: 'urn:li:dataHubRole:Wizard', actors: [ns.user('w')] } });
    expect(firstError(unknown)).toMatchObject({ message: 'Role urn:li:dataHubRole:Wizard does not exist', extensions: { code: 404 } });
    const bad = await gql(ASSIGN, admin, { input: { roleUrn: 'urn:li:dataHubRole:Reader', actors: [ns.user('ok'), ns.dataset('t')] } });
    expect(firstError(bad)?.message).toContain('actors[1]');
    // All or nothing: the valid actor got nothing either.
    expect(await stored(ns.user('ok'), 'roleMembership')).toBeUndefined();
  });

  test('removeUser deletes the user; removing an absent user succeeds; an Editor may not', async () => {
    const u = ns.user('leaving');
    await seed(u, 'corpUserInfo', { active: true, displayName: 'Leaving' });
    const denied = await gql(`mutation { removeUser(urn: "${u}") }`, editor);
    expect(firstError(denied)?.extensions.code).toBe(403);
    expect(await stored(u, 'corpUserInfo')).toBeDefined();
    expect((await gql(`mutation { removeUser(urn: "${u}") }`, admin)).body.data).toEqual({ removeUser: true });
    expect(await stored(u, 'corpUserInfo')).toBeUndefined();
    expect((await gql(`mutation { removeUser(urn: "${u}") }`, admin)).body.data).toEqual({ removeUser: true });
    const notUser = await gql(`mutation { removeUser(urn: "${ns.dataset('t')}") }`, admin);
    expect(firstError(notUser)?.extensions.code).toBe(400);
  });

  test("removeGroup deletes the group, and its members lose the group's role at once; an Editor may not", async () => {
    const group = (await gql(CREATE_GROUP, admin, { input: { id: id('admins'), name: 'Admins' } })).body.data.createGroup as string;
    const member = ns.user('member');
    await gql(ADD_MEMBERS, admin, { g: group, u: [member] });
    await gql('mutation($r: String, $a: [String!]!) { batchAssignRole(input: {roleUrn: $r, actors: $a}) }', admin, {
      r: 'urn:li:dataHubRole:Admin',
      a: [group],
    });
    const memberToken = await tokenFor(stack.store, member);
    const asMember = () => gql(CREATE_GROUP, memberToken, { input: { name: 'made by a member' } });
    expect(firstError(await asMember())).toBeUndefined();
    expect(firstError(await gql('mutation($u: String!) { removeGroup(urn: $u) }', editor, { u: group }))?.extensions.code).toBe(403);
    expect((await gql('mutation($u: String!) { removeGroup(urn: $u) }', admin, { u: group })).body.data).toEqual({ removeGroup: true });
    expect(await stored(group, 'corpGroupInfo')).toBeUndefined();
    expect(firstError(await asMember())?.extensions.code).toBe(403);
  });
});

describe('invite tokens', () => {
  const GET = 'query($r: String) { getInviteToken(input: {roleUrn: $r}) { inviteToken } }';
  const CREATE = 'mutation($r: String) { createInviteToken(input: {roleUrn: $r}) { inviteToken } }';

  test('getInviteToken answers the same token until createInviteToken replaces it; stored encrypted', async () => {
    const role = 'urn:li:dataHubRole:Reader';
    const first = (await gql(GET, admin, { r: role })).body.data.getInviteToken.inviteToken as string;
    expect(first).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await gql(GET, admin, { r: role })).body.data.getInviteToken.inviteToken).toBe(first);
    const replaced = (await gql(CREATE, admin, { r: role })).body.data.createInviteToken.inviteToken as string;
    expect(replaced).not.toBe(first);
    expect((await gql(GET, admin, { r: role })).body.data.getInviteToken.inviteToken).toBe(replaced);
    const noRole = (await gql(GET, admin, {})).body.data.getInviteToken.inviteToken as string;
    expect(noRole).not.toBe(replaced);
    const rows = await latestRowsNaming(stack.store, 'inviteToken', '', 1000);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(JSON.stringify(r.value)).not.toContain(replaced);
  });

  test('invite tokens need MANAGE_USER_CREDENTIALS; a role must be a dataHubRole urn', async () => {
    const denied = await gql(GET, editor, {});
    expect(firstError(denied)).toMatchObject({
      message: 'Unauthorized to get invite tokens. Please contact your DataHub administrator if this needs corrective action.',
      extensions: { code: 403 },
    });
    const bad = await gql(GET, admin, { r: 'urn:li:corpuser:x' });
    expect(firstError(bad)?.message).toContain('roleUrn');
  });
});

describe('listing access tokens', () => {
  const LIST = `query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) {
    start count total tokens { urn type id name actorUrn ownerUrn createdAt expiresAt } } }`;
  const MINT = `mutation($a: String!, $n: String!, $d: AccessTokenDuration!) {
    createAccessToken(input: {type: PERSONAL, actorUrn: $a, duration: $d, name: $n}) { accessToken metadata { id } } }`;
  const owned = (owner: string, extra: Record<string, unknown>[] = []) => ({
    input: { start: 0, count: 10, filters: [{ field: 'ownerUrn', values: [owner] }, ...extra] },
  });

  test('an Editor lists its own tokens, newest expiry first; a negated name filter leaves some out; paging', async () => {
    const me = ns.user('editor');
    for (const [n, d] of [
      ['hour', 'ONE_HOUR'],
      ['week', 'ONE_WEEK'],
      ['skip', 'ONE_DAY'],
    ] as const) {
      expect((await gql(MINT, editor, { a: me, n, d })).body.errors).toBeUndefined();
    }
    const r = await gql(LIST, editor, owned(me, [{ field: 'name', values: ['skip', 'test'], negated: true }]));
    expect(r.body.errors).toBeUndefined();
    const page = r.body.data.listAccessTokens;
    expect(page).toMatchObject({ start: 0, count: 2, total: 2 });
    expect(page.tokens.map((t: { name: string }) => t.name)).toEqual(['week', 'hour']);
    expect(page.tokens[0]).toMatchObject({ type: 'ACCESS_TOKEN', actorUrn: me, ownerUrn: me });
    expect(page.tokens[0].urn).toBe(`urn:li:dataHubAccessToken:${page.tokens[0].id}`);
    const second = await gql(LIST, editor, { input: { ...owned(me).input, start: 1, count: 1 } });
    expect(second.body.data.listAccessTokens).toMatchObject({ start: 1, count: 1, total: 4 });
  });

  test("listing anyone else's, or without the owner filter, needs MANAGE_ACCESS_TOKENS; a Reader lists its own (the All Users policy)", async () => {
    const all = await gql(LIST, editor, { input: { start: 0, count: 10 } });
    expect(firstError(all)).toMatchObject({ extensions: { code: 403, type: 'UNAUTHORIZED' } });
    const others = await gql(LIST, editor, owned('urn:li:corpuser:datahub'));
    expect(firstError(others)?.extensions.code).toBe(403);
    expect(firstError(await gql(LIST, reader, owned(ns.user('reader'))))).toBeUndefined();
    const byAdmin = await gql(LIST, admin, owned(ns.user('editor')));
    expect(byAdmin.body.data.listAccessTokens.total).toBeGreaterThanOrEqual(4);
  });

  test('an unknown filter field or condition is a 400 naming it', async () => {
    const field = await gql(LIST, admin, { input: { filters: [{ field: 'secret', values: ['x'] }] } });
    expect(firstError(field)).toMatchObject({ extensions: { code: 400 } });
    expect(firstError(field)?.message).toContain("filters[0].field: unknown field 'secret'");
    const cond = await gql(LIST, admin, { input: { filters: [{ field: 'name', values: ['x'], condition: 'CONTAIN' }] } });
    expect(firstError(cond)?.message).toContain('filters[0].condition');
  });

  test('getAccessTokenMetadata describes a presented token to a token manager; revoked: 404; others: 403', async () => {
    const minted = (await gql(MINT, admin, { a: ns.user('editor'), n: 'for-editor', d: 'ONE_HOUR' })).body.data.createAccessToken;
    const META = 'query($t: String!) { getAccessTokenMetadata(token: $t) { id name ownerUrn actorUrn } }';
    const r = await gql(META, admin, { t: minted.accessToken });
    expect(r.body.data.getAccessTokenMetadata).toEqual({
      id: minted.metadata.id,
      name: 'for-editor',
      ownerUrn: 'urn:li:corpuser:datahub',
      actorUrn: ns.user('editor'),
    });
    expect(firstError(await gql(META, editor, { t: minted.accessToken }))?.extensions.code).toBe(403);
    await gql(`mutation { revokeAccessToken(tokenId: "${minted.metadata.id}") }`, admin);
    expect(firstError(await gql(META, admin, { t: minted.accessToken }))?.extensions.code).toBe(404);
  });
});

describe('domains and data products', () => {
  const CREATE_DOMAIN = 'mutation($input: CreateDomainInput!) { createDomain(input: $input) }';
  const CREATE_PRODUCT = 'mutation($input: CreateDataProductInput!) { createDataProduct(input: $input) { urn type } }';
  const SET = 'mutation($e: String!, $d: String!) { setDomain(entityUrn: $e, domainUrn: $d) }';

  test('createDomain stores domainProperties (with its parent); the same name under the same parent is a 409', async () => {
    const parent = (await gql(CREATE_DOMAIN, editor, { input: { id: id('finance'), name: `Finance ${ns.platform}` } })).body.data
      .createDomain as string;
    expect(parent).toBe(`urn:li:domain:${id('finance')}`);
    const child = await gql(CREATE_DOMAIN, editor, { input: { id: id('tax'), name: 'Tax', description: 'taxes', parentDomain: parent } });
    expect(child.body.errors).toBeUndefined();
    expect(await stored(`urn:li:domain:${id('tax')}`, 'domainProperties')).toMatchObject({
      name: 'Tax',
      description: 'taxes',
      parentDomain: parent,
      created: { actor: ns.user('editor') },
    });
    const sameName = await gql(CREATE_DOMAIN, editor, { input: { id: id('tax2'), name: 'Tax', parentDomain: parent } });
    expect(firstError(sameName)).toMatchObject({
      message: '"Tax" already exists in this domain. Please pick a unique name.',
      extensions: { code: 409 },
    });
    const sameId = await gql(CREATE_DOMAIN, editor, { input: { id: id('tax'), name: 'Other' } });
    expect(firstError(sameId)).toMatchObject({ message: 'This Domain already exists!', extensions: { code: 409 } });
    const noParent = await gql(CREATE_DOMAIN, editor, {
      input: { id: id('orphan'), name: 'Orphan', parentDomain: `urn:li:domain:${id('nowhere')}` },
    });
    expect(firstError(noParent)).toMatchObject({ message: 'Parent Domain does not exist!', extensions: { code: 400 } });
  });

  test('createDomain needs MANAGE_DOMAINS or CREATE_DOMAINS: a Reader gets 403', async () => {
    const denied = await gql(CREATE_DOMAIN, reader, { input: { id: id('readers'), name: 'Readers' } });
    expect(firstError(denied)?.extensions.code).toBe(403);
    expect(await stored(`urn:li:domain:${id('readers')}`, 'domainProperties')).toBeUndefined();
  });

  test('createDataProduct puts the product in its domain, owned by its creator; setDomain and unsetDomain move an entity', async () => {
    const domain = (await gql(CREATE_DOMAIN, admin, { input: { id: id('sales'), name: `Sales ${ns.platform}` } })).body.data.createDomain;
    const r = await gql(CREATE_PRODUCT, editor, {
      input: { id: id('orders'), domainUrn: domain, properties: { name: 'Orders', description: 'o' } },
    });
    expect(r.body.errors).toBeUndefined();
    const product = `urn:li:dataProduct:${id('orders')}`;
    expect(r.body.data.createDataProduct).toEqual({ urn: product, type: 'DATA_PRODUCT' });
    expect(await stored(product, 'dataProductProperties')).toEqual({ name: 'Orders', description: 'o' });
    expect(await stored(product, 'domains')).toEqual({ domains: [domain] });
    expect(await stored(product, 'ownership')).toMatchObject({ owners: [{ owner: ns.user('editor'), type: 'TECHNICAL_OWNER' }] });

    const table = ns.dataset('orders');
    await seed(table, 'datasetProperties', { name: 'orders' });
    expect((await gql(SET, editor, { e: table, d: domain })).body.data).toEqual({ setDomain: true });
    expect(await stored(table, 'domains')).toEqual({ domains: [domain] });
    expect((await gql(`mutation { unsetDomain(entityUrn: "${table}") }`, editor)).body.data).toEqual({ unsetDomain: true });
    expect(await stored(table, 'domains')).toEqual({ domains: [] });
  });

  test('setDomain: unknown domain or entity 400 naming it; a Reader 403; createDataProduct in an unknown domain 400', async () => {
    const domain = (await gql(CREATE_DOMAIN, admin, { input: { id: id('hr'), name: `HR ${ns.platform}` } })).body.data.createDomain;
    const ghost = ns.dataset('ghost');
    const noEntity = await gql(SET, admin, { e: ghost, d: domain });
    expect(firstError(noEntity)).toMatchObject({
      message: `Failed to add Entity ${ghost} to Domain ${domain}. Entity does not exist.`,
      extensions: { code: 400 },
    });
    const noDomain = await gql(SET, admin, { e: ghost, d: `urn:li:domain:${id('none')}` });
    expect(firstError(noDomain)?.message).toContain('Domain does not exist.');
    const notDomain = await gql(SET, admin, { e: ghost, d: ns.dataset('x') });
    expect(firstError(notDomain)?.message).toContain('domainUrn');
    const table = ns.dataset('hr_table');
    await seed(table, 'datasetProperties', { name: 'hr' });
    expect(firstError(await gql(SET, reader, { e: table, d: domain }))?.extensions.code).toBe(403);
    expect(await stored(table, 'domains')).toBeUndefined();
    const product = await gql(CREATE_PRODUCT, admin, { input: { domainUrn: `urn:li:domain:${id('none')}`, properties: { name: 'P' } } });
    expect(firstError(product)).toMatchObject({ message: 'The Domain provided dos not exist', extensions: { code: 400 } });
  });
});

describe('me', () => {
  const ME =
    '{ me { corpUser { urn } platformPrivileges { manageIdentities manageDomains createDomains manageTokens generatePersonalAccessTokens } } }';

  test("answers the caller and its platform privileges: an Editor manages domains (DataHub's editor policy), not identities", async () => {
    const r = await gql(ME, editor);
    expect(r.body.data.me).toEqual({
      corpUser: { urn: ns.user('editor') },
      platformPrivileges: {
        manageIdentities: false,
        manageDomains: true,
        createDomains: true,
        manageTokens: false,
        generatePersonalAccessTokens: true,
      },
    });
    const byReader = (await gql(ME, reader)).body.data.me.platformPrivileges;
    expect(byReader).toMatchObject({ manageDomains: false, createDomains: false, generatePersonalAccessTokens: true });
    expect((await gql(ME, admin)).body.data.me.platformPrivileges).toMatchObject({ manageIdentities: true, manageDomains: true });
  });
});
