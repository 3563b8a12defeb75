// Browser sessions at the front door, as DataHub's frontend keeps them: POST /logIn and /signUp set
// the PLAY_SESSION cookie (here: the session token itself, signed like every token) and the `actor`
// cookie DataHub's UI and clients read; /logOut clears both. A request that brings the cookie and
// no Authorization header is authenticated with the cookie's token, on GraphQL and on every relayed
// path alike, so a session loses access exactly when its token does (a deleted or suspended user).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCatalogError } from '@lineage/catalog/model';
import { logIn, signUp, SESSION_TTL_MS, type Session, type TokenSecrets } from '@lineage/catalog/operations';
import type { Store } from '@lineage/catalog/store';
import { readBodyText, restStatusOf } from '@lineage/service-kit';

const SESSION_COOKIE = 'PLAY_SESSION';
const ACTOR_COOKIE = 'actor';
export const SESSION_PATHS: ReadonlySet<string> = new Set(['/logIn', '/signUp', '/logOut']);

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** A request with a session cookie and no Authorization header carries the session's token from here on. */
export function adoptSessionCookie(req: IncomingMessage): void {
  if (req.headers.authorization) return;
  const token = cookieOf(req, SESSION_COOKIE);
  if (token) req.headers.authorization = `Bearer ${token}`;
}

/** The cookies of a session; without one, the cookies that clear them. */
function cookies(session: Session | undefined): string[] {
  const maxAge = session ? Math.floor(SESSION_TTL_MS / 1000) : 0;
  // Written as is (a urn's colons are cookie-safe, and DataHub's clients read the actor cookie raw);
  // only what RFC 6265 forbids in a cookie value is percent-encoded.
  const value = (v: string) => (session ? v : '').replace(/[^\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]|%/g, encodeURIComponent);
  return [
    `${SESSION_COOKIE}=${value(session?.token ?? '')}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax`,
    `${ACTOR_COOKIE}=${value(session?.userUrn ?? '')}; Max-Age=${maxAge}; Path=/; SameSite=Lax`,
  ];
}

function answer(res: ServerResponse, status: number, body: unknown, setCookies?: string[]): void {
  const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
  if (setCookies) headers['set-cookie'] = setCookies;
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

export interface SessionDoorDeps {
  store: Store;
  secrets: TokenSecrets & { rootPassword?: string | undefined };
  maxBodyBytes: number;
}

/** POST /logIn, /signUp, /logOut (any method logs out): 200 with the cookies, or DataHub's `{message}` and no cookie. */
export function sessionHandler(deps: SessionDoorDeps) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (path === '/logOut') return answer(res, 200, {}, cookies(undefined));
    if (req.method !== 'POST') return answer(res, 405, { message: `${path} takes POST` });
    try {
      const text = await readBodyText(req, deps.maxBodyBytes);
      let body: Record<string, unknown>;
      try {
        const parsed = JSON.parse(text) as unknown;
        body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
      } catch {
        return answer(res, 400, { message: 'The body must be a JSON object.' });
      }
      const session = path === '/logIn' ? await logIn(deps.store, deps.secrets, body) : await signUp(deps.store, deps.secrets, body);
      answer(res, 200, {}, cookies(session));
    } catch (e) {
      if (!isCatalogError(e)) throw e;
      answer(res, restStatusOf[e.kind], { message: e.message });
    }
  };
}
