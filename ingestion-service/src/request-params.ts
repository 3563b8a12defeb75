// Request parameters and bodies of the JSON doors (OpenAPI, Rest.li GET reads, OpenLineage), read
// the way DataHub's Spring controllers bind them: a urn's grammar failure, a malformed integer or
// boolean, an oversized, too deep or non-JSON body are each a 400 naming the parameter.
import type { Context } from 'koa';
import { badRequest, CatalogError, InvalidUrnError, jsonDepthProblem, parseUrn, type Urn } from '@lineage/catalog/model';
import { rawBody } from './restli.ts';

/** A urn from a request: grammar failures are 400 here, as DataHub's OpenAPI answers InvalidUrnException. */
export function requestUrn(text: unknown, where: string): Urn {
  if (typeof text !== 'string' || text.length === 0) throw badRequest(`Missing \`urn\` field${where ? ` in ${where}` : ''}`);
  try {
    return parseUrn(text);
  } catch (e) {
    if (e instanceof InvalidUrnError) throw badRequest(where ? `${where}: ${e.message}` : e.message);
    throw e;
  }
}

/** One query parameter; repeated, the first one counts (as Spring binds a scalar). */
export function queryParam(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}

export function booleanParam(ctx: Context, name: string, fallback: boolean): boolean {
  const v = queryParam(ctx, name);
  if (v === undefined || v === '') return fallback;
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  throw badRequest(`Query parameter '${name}' must be true or false, got '${v}'`);
}

/** DataHub's integer parameters are Java ints: a larger value is a 400, as its parameter binding answers. */
const MAX_INTEGER_PARAM = 2_147_483_647;

/** A non-negative integer parameter (at most a Java int); values above `max` are clamped (the page just gets shorter). */
export function integerParam(ctx: Context, name: string, fallback: number, max = MAX_INTEGER_PARAM): number {
  const v = queryParam(ctx, name);
  if (v === undefined || v === '') return fallback;
  const quoted = v.length > 40 ? `${v.slice(0, 40)}…` : v;
  if (!/^\d+$/.test(v)) throw badRequest(`Query parameter '${name}' must be a non-negative integer, got '${quoted}'`);
  const n = Number(v);
  if (n > MAX_INTEGER_PARAM) throw badRequest(`Query parameter '${name}' must be at most ${MAX_INTEGER_PARAM}, got '${quoted}'`);
  return Math.min(n, max);
}

/** A list parameter, repeated (`a=X&a=Y`, what Python's requests sends) or comma-separated. */
export function listParam(ctx: Context, name: string): string[] {
  const v = ctx.query[name];
  const values = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return values
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads and parses a JSON body of any shape, with the configured size and depth caps. */
export async function jsonValueBody(
  ctx: Context,
  limitBytes: number,
  expected: string,
  options: { emptyAs?: unknown } = {},
): Promise<unknown> {
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) throw new CatalogError('badRequest', `Unsupported content type '${type}': send application/json`);
  const text = await rawBody(ctx, limitBytes);
  if (text.trim() === '') {
    if ('emptyAs' in options) return options.emptyAs;
    throw badRequest(`Request body is empty: expected ${expected}`);
  }
  const tooDeep = jsonDepthProblem(text);
  if (tooDeep) throw badRequest(`Request body is not acceptable: ${tooDeep}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`Request body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * sliceId / sliceMax: both or neither, 0 ≤ sliceId < sliceMax (DataHub passes them to Elasticsearch's
 * sliced scroll, which refuses an id outside the slices).
 */
export function sliceOf(ctx: Context): { id: number; max: number } | undefined {
  const given = (name: string) => (queryParam(ctx, name) ?? '') !== '';
  if (!given('sliceId') && !given('sliceMax')) return undefined;
  if (!given('sliceId') || !given('sliceMax'))
    throw badRequest(
      `Query parameter '${given('sliceId') ? 'sliceMax' : 'sliceId'}' is required with '${given('sliceId') ? 'sliceId' : 'sliceMax'}'`,
    );
  const id = integerParam(ctx, 'sliceId', 0);
  const max = integerParam(ctx, 'sliceMax', 0);
  if (max === 0) throw badRequest("Query parameter 'sliceMax' must be at least 1");
  if (id >= max) throw badRequest(`Query parameter 'sliceId' must be less than 'sliceMax' (${max}), got ${id}`);
  return { id, max };
}
