// The page's only way to the catalog: POST /api/graphql on the same origin (the gateway's front
// door), with the pasted personal access token as a Bearer header. Failures become ApiError with a
// kind the UI can word for people: a 401 is a plain HTTP status (docs/wire-contract.md §Auth), GraphQL
// errors carry DataHub's integer `extensions.code` (§Errors).

const GRAPHQL_ENDPOINT = 'api/graphql';
const TOKEN_KEY = 'lineage-explorer.token';

export type ApiErrorKind =
  'unauthenticated' | 'expired' | 'forbidden' | 'bad-request' | 'not-found' | 'unavailable' | 'network' | 'timeout' | 'server';

/** A request the catalog has not answered in this long is reported as a timeout, never as an empty answer. */
const REQUEST_TIMEOUT_MS = 60_000;

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  constructor(kind: ApiErrorKind, message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

interface GraphqlError {
  message: string;
  extensions?: { code?: number; type?: string; classification?: string };
}

/** sessionStorage only: the token dies with the tab, never lands in localStorage or a cookie. */
export const tokenStore = {
  get(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** People paste "Bearer eyJ…" or the token with a trailing newline; both mean the token. */
export function normaliseToken(pasted: string): string {
  return pasted
    .trim()
    .replace(/^bearer\s+/i, '')
    .trim();
}

function kindOfCode(code: number | undefined): ApiErrorKind {
  switch (code) {
    case 400:
      return 'bad-request';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 503:
    case 504:
      return 'unavailable';
    default:
      return 'server';
  }
}

export async function graphql<T>(query: string, variables: Record<string, unknown> = {}, token = tokenStore.get()): Promise<T> {
  if (!token) throw new ApiError('unauthenticated', 'Sign in with a personal access token first.');
  let res: Response;
  try {
    res = await fetch(GRAPHQL_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (e) {
    if ((e as Error).name === 'TimeoutError')
      throw new ApiError('timeout', `The catalog did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    throw new ApiError('network', `Cannot reach the catalog at /${GRAPHQL_ENDPOINT} (${(e as Error).message}). Is the gateway running?`);
  }
  if (res.status === 401) {
    // The gateway words an expired token as DataHub does ("… Token has expired."): say so plainly.
    const text = await res.text().catch(() => '');
    if (/expired/i.test(text))
      throw new ApiError(
        'expired',
        'Your token has expired. Sign in again with a current personal access token; the view you were on reloads.',
        401,
      );
    throw new ApiError(
      'unauthenticated',
      'The catalog rejected your token (HTTP 401): it is invalid or revoked. Paste a current personal access token.',
      401,
    );
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new ApiError(
      res.status === 503 || res.status === 504 ? 'unavailable' : 'server',
      `The catalog answered HTTP ${res.status}${text ? `: ${text}` : ''}`,
      res.status,
    );
  }
  let body: { data?: T; errors?: GraphqlError[] };
  try {
    body = (await res.json()) as { data?: T; errors?: GraphqlError[] };
  } catch {
    throw new ApiError('server', 'The catalog sent a response that is not JSON.');
  }
  if (body.errors?.length) {
    const first = body.errors[0]!;
    throw new ApiError(kindOfCode(first.extensions?.code), first.message, first.extensions?.code);
  }
  if (body.data === undefined || body.data === null) throw new ApiError('server', 'The catalog sent no data.');
  return body.data;
}

/** A request that only authenticates: the gateway checks the token before executing anything. */
export async function checkToken(token: string): Promise<void> {
  await graphql<{ __typename: string }>('query explorerSignIn { __typename }', {}, token);
}
