// Rest.li wire conventions (docs/wire-contract.md §Conventions and §Errors): JSON bodies with a size cap,
// the error body and headers, the /gms and /api/gms prefixes, and authentication of every route but
// /config and /health.
import type { Context, Next } from 'koa';
import {
  BOOKMARK_HEADER,
  formatBookmarkHeader,
  LINEAGE_PLAN_HEADER,
  isMarquezRead,
  isOpenApiPath,
  isOpenLineagePath,
  parseBookmarkHeader,
  readBodyText,
  restStatusOf,
  UNKNOWN_ERROR_MESSAGE,
  withoutGmsPrefix,
} from '@lineage/service-kit';
import { authenticate, type AuthConfig, type TokenStore } from '@lineage/catalog/operations';
import { CatalogError, badRequest, isCatalogError, notFound, jsonDepthProblem, type Actor } from '@lineage/catalog/model';
import { REQUEST_ID_HEADER, requestIdFrom, runCausally, type Logger } from '@lineage/catalog/runtime';

export interface RestState {
  actor: Actor;
  requestId: string;
}

/** The authenticated caller (authMiddleware set it). */
export const actorOf = (ctx: Context): Actor => (ctx.state as RestState).actor;

/** The request id, answered as X-Request-Id. */
export function requestIdMiddleware() {
  return async (ctx: Context, next: Next) => {
    // Behind service-runtime the header already holds the vetted id; a bare app (tests) vets it here.
    (ctx.state as Partial<RestState>).requestId = requestIdFrom(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.set('X-Request-Id', (ctx.state as RestState).requestId);
    await next();
  };
}

/**
 * Read-your-writes (docs/wire-contract.md §Read-your-writes): every read of the request, the
 * token check included, waits for the bookmarks presented; a request that committed a write
 * answers its bookmark — also when it then fails, since what committed stays committed.
 */
export function readYourWritesMiddleware() {
  return async (ctx: Context, next: Next) => {
    const presented = parseBookmarkHeader(ctx.req.headers[BOOKMARK_HEADER]);
    if ('problem' in presented) throw badRequest(presented.problem);
    await runCausally(presented.bookmarks, async (chain) => {
      try {
        await next();
      } finally {
        if (chain.wrote) ctx.set(BOOKMARK_HEADER, formatBookmarkHeader(chain.bookmarks));
      }
    });
  };
}

/** Unknown routes: a Rest.li 404 rather than Koa's plain text. */
export function unknownRouteMiddleware() {
  return async (ctx: Context) => {
    if (ctx.status === 404 && ctx.body === undefined) throw notFound(`No resource at ${ctx.method} ${ctx.path}`);
  };
}

const RESTLI_EXCEPTION = 'com.linkedin.restli.server.RestLiServiceException';

function renderRestliError(ctx: Context, status: number, message: string, retryAfter?: number): void {
  ctx.status = status;
  ctx.set('X-RestLi-Error-Response', 'true');
  if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
  ctx.body = { exceptionClass: RESTLI_EXCEPTION, stackTrace: '', message, status };
}

/** DataHub's OpenAPI controllers (GlobalControllerExceptionHandler) answer errors as {"error": message}. */
function renderOpenApiError(ctx: Context, status: number, message: string, retryAfter?: number): void {
  ctx.status = status;
  if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
  ctx.body = { error: message };
}

/** Marquez's API answers errors as Dropwizard's ErrorMessage: `{code, message}` (docs/marquez-compatibility.md §Errors). */
function renderMarquezError(ctx: Context, status: number, message: string, retryAfter?: number): void {
  ctx.status = status;
  if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
  ctx.body = { code: status, message };
}

/**
 * Whether a request came through an OpenAPI door. prefixMiddleware has normally stripped /gms or
 * /api/gms by the time an error is rendered; stripping here too keeps the choice right either way.
 */
/** OpenAPI doors and the OpenLineage routes answer errors as `{"error": message}`, as DataHub's servlet does. */
function answersOpenApiErrors(path: string): boolean {
  const unprefixed = withoutGmsPrefix(path).path;
  return isOpenApiPath(unprefixed) || isOpenLineagePath(unprefixed);
}

/** 405 with a Rest.li error body (the taxonomy has no kind for it: it is a routing answer). */
export function methodNotAllowed(allowed: string[]) {
  return (ctx: Context) => {
    ctx.set('Allow', allowed.join(', '));
    renderRestliError(ctx, 405, `${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(' or ')}`);
  };
}

/**
 * Renders CatalogErrors with the status of the one taxonomy, in the body format of the door the
 * request came through (OpenAPI under /openapi/, Rest.li elsewhere); anything else is logged and
 * masked as a 500.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    ctx.set('X-RestLi-Protocol-Version', '2.0.0');
    try {
      await next();
    } catch (e) {
      const renderError = isMarquezRead(ctx.method, withoutGmsPrefix(ctx.path).path)
        ? renderMarquezError
        : answersOpenApiErrors(ctx.path)
          ? renderOpenApiError
          : renderRestliError;
      if (isCatalogError(e)) {
        renderError(ctx, restStatusOf[e.kind], e.message, e.retryAfterSeconds);
        if (e.kind === 'unavailable') logger.warn({ err: e.cause, path: ctx.path }, 'store unavailable');
        return;
      }
      const status = (e as { status?: number; expose?: boolean }).status;
      if (status === 413 || (e as { type?: string }).type === 'entity.too.large') {
        renderError(ctx, 413, 'Request body is larger than the limit');
        return;
      }
      if (typeof status === 'number' && status >= 400 && status < 500 && (e as { expose?: boolean }).expose) {
        renderError(ctx, status, (e as Error).message);
        return;
      }
      logger.error({ err: e, method: ctx.method, path: ctx.path }, 'unexpected error');
      renderError(ctx, 500, UNKNOWN_ERROR_MESSAGE);
    }
  };
}

/** Serves every route under /gms and /api/gms too, and accepts `/aspects/?action=…`. */
export function prefixMiddleware() {
  return async (ctx: Context, next: Next) => {
    let path = withoutGmsPrefix(ctx.path).path;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path !== ctx.path) ctx.path = path;
    await next();
  };
}

const OPEN_PATHS = new Set(['/config', '/health']);

export function authMiddleware(config: AuthConfig, tokens: TokenStore) {
  return async (ctx: Context, next: Next) => {
    if (OPEN_PATHS.has(ctx.path)) return next();
    (ctx.state as RestState).actor = await authenticate(ctx.get('authorization') || undefined, config, tokens);
    await next();
  };
}

/** Reads the body as text, with the configured size cap (413 beyond it). */
export function rawBody(ctx: Context, limitBytes: number): Promise<string> {
  return readBodyText(ctx.req, limitBytes);
}

/** Reads and parses a JSON object body, with the configured size cap (413 beyond it). */
export async function jsonBody(ctx: Context, limitBytes: number): Promise<Record<string, unknown>> {
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) {
    throw new CatalogError('badRequest', `Unsupported content type '${type}': send application/json`);
  }
  const text = await rawBody(ctx, limitBytes);
  if (text.trim() === '') throw badRequest('Request body is empty: expected a JSON object');
  const tooDeep = jsonDepthProblem(text);
  if (tooDeep) throw badRequest(`Request body is not acceptable: ${tooDeep}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw badRequest(`Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * DataHub GMS answers GraphQL itself, so the Python client's `execute_graphql` posts to
 * `<gms>/api/graphql`. This service owns no schema: relay the request unchanged to the front
 * door and hand its answer back (status, content type, body) — the GraphQL envelope stays the
 * front door's. The caller was already authenticated here; the front door checks the token again.
 */
export function graphqlRelay(targetUrl: string, limitBytes: number, timeoutMs: number) {
  return async (ctx: Context) => {
    const body = await rawBody(ctx, limitBytes);
    const headers: Record<string, string> = { 'content-type': ctx.get('content-type') || 'application/json' };
    for (const h of ['authorization', 'accept', 'x-request-id', BOOKMARK_HEADER, LINEAGE_PLAN_HEADER])
      if (ctx.get(h)) headers[h] = ctx.get(h);
    if (!headers['x-request-id']) headers['x-request-id'] = (ctx.state as RestState).requestId;
    let res: Response;
    try {
      res = await fetch(targetUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      throw new CatalogError('unavailable', `GraphQL is served by the front door, which is unreachable at ${targetUrl}`, {
        cause: e,
        retryAfterSeconds: 5,
      });
    }
    ctx.status = res.status;
    ctx.type = res.headers.get('content-type') ?? 'application/json';
    // A mutation's bookmark, from the subgraph through the front door.
    const bookmarks = res.headers.get(BOOKMARK_HEADER);
    if (bookmarks) ctx.set(BOOKMARK_HEADER, bookmarks);
    ctx.body = Buffer.from(await res.arrayBuffer());
  };
}

/** Path keys arrive percent-encoded (Python quotes the whole urn); tolerate a second encoding. */
// Decode exactly once: a urn may legitimately contain %2C/%28/%29 that producers encoded in names.
export function decodePathUrn(raw: string): string {
  const s = safeDecode(raw);
  return /^urn%3a/i.test(s) ? safeDecode(s) : s;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw badRequest(`Invalid percent-encoding in path: ${s}`);
  }
}
