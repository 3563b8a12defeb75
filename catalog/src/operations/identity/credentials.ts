// Native users and their sessions, as DataHub's frontend (AuthenticationController: /signUp,
// /logIn) and NativeUserService keep them: a user signs up with an invite token and gets
// corpUserInfo, corpUserStatus ACTIVE and corpUserCredentials; signing in answers a session token.
// The password's hash is scrypt over a random salt that is stored sealed (DataHub encrypts it with
// its secret service), so a reader of the aspect has nothing to test passwords against offline.
// The root user has no stored credentials: its password is configured (DATAHUB_ROOT_PASSWORD), as
// DataHub's is in the frontend's user.props.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { badRequest, conflict } from '../../model/errors.ts';
import { ROOT_USER_URN, SYSTEM_ACTOR_URN } from '../../model/privileges.ts';
import { parseUrn, type Urn } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import { loadPolicyActor } from '../../store/access-rows.ts';
import { writeAspects } from '../../write/aspect-writer.ts';
import type { TokenSecrets } from '../auth/access-tokens.ts';
import { sameSecret, seal, unseal } from '../auth/secret-box.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { inviteTokenRole } from './invite-tokens.ts';
import { exists, latestValue, requestUrn, upsert } from './principal-writes.ts';

const CREDENTIALS = 'corpUserCredentials';
const hashOf = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;
const HASH_BYTES = 32;
/** How long a session lasts (DataHub's frontend session cookie: 24 hours). */
export const SESSION_TTL_MS = 24 * 3_600_000;
/** DataHub's login and sign-up answer every credential failure alike: who exists is not told. */
const INVALID_CREDENTIALS = 'Invalid Credentials';

/** A blank field of a sign-up or login: 400 in DataHub's words. */
function required(value: unknown, message: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(message);
  return value;
}

export interface Session {
  userUrn: string;
  /** A stateless SESSION token (DataHub's generateSessionTokenForUser): the user's deletion or suspension ends it. */
  token: string;
  expiresAt: number;
}

async function sessionOf(secrets: TokenSecrets, user: Urn, now = Date.now()): Promise<Session> {
  const signed = await signAccessToken({
    signingKey: secrets.signingKey,
    actorId: user.parts[0]!,
    type: 'SESSION',
    version: '1',
    expiresInMs: SESSION_TTL_MS,
    now,
  });
  return { userUrn: user.text, token: signed.token, expiresAt: signed.expiresAt! };
}

async function credentialsOf(secrets: TokenSecrets, password: string): Promise<Record<string, string>> {
  const salt = randomBytes(16);
  return {
    salt: seal(salt.toString('base64'), secrets.signingKey, CREDENTIALS),
    hashedPassword: (await hashOf(password, salt, HASH_BYTES)).toString('base64'),
  };
}

async function passwordMatches(stored: Record<string, unknown> | undefined, secrets: TokenSecrets, password: string): Promise<boolean> {
  if (typeof stored?.salt !== 'string' || typeof stored.hashedPassword !== 'string') return false;
  const salt = unseal(stored.salt, secrets.signingKey, CREDENTIALS);
  if (salt === undefined) return false;
  const expected = Buffer.from(stored.hashedPassword, 'base64');
  const actual = await hashOf(password, Buffer.from(salt, 'base64'), HASH_BYTES);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export interface SignUpInput {
  fullName?: unknown;
  email?: unknown;
  title?: unknown;
  password?: unknown;
  inviteToken?: unknown;
}

/** /signUp: a new native user named by its email, with the invite token's role; answers its session. */
export async function signUp(store: Store, secrets: TokenSecrets, input: SignUpInput, now = Date.now()): Promise<Session> {
  const fullName = required(input.fullName, 'Full name must not be empty.');
  const email = required(input.email, 'Email must not be empty.');
  const password = required(input.password, 'Password must not be empty.');
  const inviteToken = required(input.inviteToken, 'Invite token must not be empty.');
  const role = await inviteTokenRole(store, secrets, inviteToken);
  const user = requestUrn(`urn:li:corpuser:${email}`, 'corpuser', 'email');
  if (user.text === ROOT_USER_URN || user.text === SYSTEM_ACTOR_URN || (await exists(store, user)))
    throw conflict('This user already exists! Cannot create a new user.');
  const info: Record<string, unknown> = { active: true, displayName: fullName, fullName, email };
  if (typeof input.title === 'string' && input.title.trim() !== '') info.title = input.title;
  const changes = [
    upsert(user, 'corpUserInfo', info),
    upsert(user, 'corpUserStatus', { status: 'ACTIVE', lastModified: { time: now, actor: SYSTEM_ACTOR_URN } }),
    upsert(user, CREDENTIALS, await credentialsOf(secrets, password)),
    ...(role ? [upsert(user, 'roleMembership', { roles: [role] })] : []),
  ];
  await writeAspects(store, changes, { actor: SYSTEM_ACTOR_URN, existenceMode: 'relaxed', now });
  return sessionOf(secrets, user, now);
}

/** /logIn: the root user against its configured password, a native user against its stored credentials. */
export async function logIn(
  store: Store,
  secrets: TokenSecrets & { rootPassword?: string | undefined },
  input: { username?: unknown; password?: unknown },
): Promise<Session> {
  const username = required(input.username, 'User name must not be empty.');
  const password = typeof input.password === 'string' ? input.password : '';
  let user: Urn;
  try {
    user = parseUrn(`urn:li:corpuser:${username}`);
  } catch {
    throw badRequest(INVALID_CREDENTIALS);
  }
  const matches =
    user.text === ROOT_USER_URN
      ? secrets.rootPassword !== undefined && sameSecret(password, secrets.rootPassword)
      : await passwordMatches(await latestValue(store, user, CREDENTIALS), secrets, password);
  // A deleted or suspended user could not use the session: it is not given one.
  if (!matches || !(await loadPolicyActor(store, user.text)).active) throw badRequest(INVALID_CREDENTIALS);
  return sessionOf(secrets, user);
}
