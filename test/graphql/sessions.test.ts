// Signing in at the front door (gateway/src/sessions.ts) on a real Neo4j: sign-up with an invite
// token, log-in, the session cookie on GraphQL and relayed paths, log-out, listUsers, and a user's
// deletion or suspension ending both its sessions and its tokens.
import { startStack, type Stack } from './stack.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { getAspect } from '../../catalog/src/read/aspect-reader.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';

let stack: Stack;
let admin: string;
const ns = namespace('ses');
const ROOT_PASSWORD = 'root-secret-for-tests';

beforeAll(async () => {
  stack = await startStack({ DATAHUB_ROOT_PASSWORD: ROOT_PASSWORD });
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
});
afterAll(async () => {
  await stack.close();
});

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(`${stack.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
const cookieHeader = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
const whoAmI = (cookie: string) => fetch(`${stack.gatewayUrl}/openapi/operations/identity/user/urn`, { headers: { cookie } });
const inviteToken = async () =>
  (await stack.graphql('{ getInviteToken(input: {}) { inviteToken } }', admin)).body.data.getInviteToken.inviteToken as string;

async function signUp(email: string, password: string) {
  return post('/signUp', { fullName: 'Test User', email, password, title: 'Engineer', inviteToken: await inviteToken() });
}

test('sign-up stores the user with its info and status, answers its session; the password is never stored as sent', async () => {
  const email = `${ns.platform}-new`;
  const res = await signUp(email, 'pw-1');
  expect(res.status).toBe(200);
  const cookie = cookieHeader(res);
  expect(cookie).toContain('PLAY_SESSION=');
  // Raw, as DataHub's clients read it (they send it back as a urn).
  expect(cookie).toContain(`actor=urn:li:corpuser:${email}`);
  const urn = parseUrn(`urn:li:corpuser:${email}`);
  expect((await getAspect(stack.store, urn, 'corpUserInfo'))?.value).toMatchObject({
    fullName: 'Test User',
    email,
    title: 'Engineer',
    active: true,
  });
  expect((await getAspect(stack.store, urn, 'corpUserStatus'))?.value).toMatchObject({ status: 'ACTIVE' });
  const credentials = JSON.stringify((await getAspect(stack.store, urn, 'corpUserCredentials'))?.value);
  expect(credentials).not.toContain('pw-1');
  // The session works on a relayed path and on GraphQL, without any Authorization header.
  expect(await (await whoAmI(cookie)).json()).toEqual({ urn: urn.text });
  const me = await fetch(`${stack.gatewayUrl}/api/v2/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
  });
  const answered = (await me.json()) as { data: { me: { corpUser: { urn: string } } } };
  expect(answered.data.me.corpUser.urn).toBe(urn.text);
  // Signing up the same user again is refused, and nothing changes.
  const again = await signUp(email, 'pw-2');
  expect(again.status).toBe(409);
  expect(again.headers.getSetCookie()).toEqual([]);
});

test('log-in checks the stored password, and the configured one for the root user', async () => {
  const email = `${ns.platform}-login`;
  await signUp(email, 'right');
  const good = await post('/logIn', { username: email, password: 'right' });
  expect(good.status).toBe(200);
  expect(await (await whoAmI(cookieHeader(good))).json()).toEqual({ urn: `urn:li:corpuser:${email}` });
  for (const [username, password] of [
    [email, 'wrong'],
    [`${ns.platform}-nobody`, 'right'],
    ['datahub', 'wrong'],
  ]) {
    const bad = await post('/logIn', { username, password });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'Invalid Credentials' });
    expect(bad.headers.getSetCookie()).toEqual([]);
  }
  const root = await post('/logIn', { username: 'datahub', password: ROOT_PASSWORD });
  expect(await (await whoAmI(cookieHeader(root))).json()).toEqual({ urn: 'urn:li:corpuser:datahub' });
});

test('bad sign-up and log-in input is a 400 naming what is wrong', async () => {
  expect(await (await post('/logIn', { password: 'x' })).json()).toEqual({ message: 'User name must not be empty.' });
  const noToken = await post('/signUp', { fullName: 'A', email: `${ns.platform}-x`, password: 'p' });
  expect(noToken.status).toBe(400);
  expect(await noToken.json()).toEqual({ message: 'Invite token must not be empty.' });
  const badToken = await post('/signUp', { fullName: 'A', email: `${ns.platform}-x`, password: 'p', inviteToken: 'forged' });
  expect(badToken.status).toBe(400);
  expect(await badToken.json()).toEqual({ message: 'Invalid sign-up token' });
  expect(await getAspect(stack.store, parseUrn(`urn:li:corpuser:${ns.platform}-x`), 'corpUserInfo')).toBeUndefined();
  const notJson = await fetch(`${stack.gatewayUrl}/logIn`, { method: 'POST', body: '{' });
  expect(notJson.status).toBe(400);
});

test('log-out clears the cookies', async () => {
  const res = await fetch(`${stack.gatewayUrl}/logOut`);
  expect(res.status).toBe(200);
  expect(res.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);
});

test('a soft-deleted, suspended or hard-deleted user loses its session and its tokens at once', async () => {
  const email = `${ns.platform}-gone`;
  const cookie = cookieHeader(await signUp(email, 'pw'));
  const urn = parseUrn(`urn:li:corpuser:${email}`);
  const token = await tokenFor(stack.store, urn.text);
  const write = (aspectName: string, value: Record<string, unknown>) =>
    writeAspects(stack.store, [{ urn, aspectName, changeType: 'UPSERT', value }], {
      actor: 'urn:li:corpuser:datahub',
      existenceMode: 'relaxed',
    });
  const bearer = () => fetch(`${stack.gatewayUrl}/openapi/operations/identity/user/urn`, { headers: { authorization: `Bearer ${token}` } });
  expect((await whoAmI(cookie)).status).toBe(200);
  await write('status', { removed: true });
  expect((await whoAmI(cookie)).status).toBe(401);
  expect((await bearer()).status).toBe(401);
  await write('status', { removed: false });
  expect((await whoAmI(cookie)).status).toBe(200);
  await write('corpUserStatus', { status: 'SUSPENDED' });
  expect((await whoAmI(cookie)).status).toBe(401);
  expect((await post('/logIn', { username: email, password: 'pw' })).status).toBe(400);
  await write('corpUserStatus', { status: 'ACTIVE' });
  expect((await bearer()).status).toBe(200);
  const removed = await stack.graphql('mutation($u: String!) { removeUser(urn: $u) }', admin, { variables: { u: urn.text } });
  expect(removed.body.data).toEqual({ removeUser: true });
  expect((await whoAmI(cookie)).status).toBe(401);
});

test('listUsers lists the users a search finds, signed-up ones included', async () => {
  const email = `${ns.platform}-listed`;
  await signUp(email, 'pw');
  const r = await stack.graphql('query($i: ListUsersInput!) { listUsers(input: $i) { start count total users { urn username } } }', admin, {
    variables: { i: { start: 0, count: 1000 } },
  });
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.listUsers.users).toContainEqual({ urn: `urn:li:corpuser:${email}`, username: email });
  expect(r.body.data.listUsers.total).toBeGreaterThanOrEqual(r.body.data.listUsers.count);
});
