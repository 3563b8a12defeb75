// DataHub clients reach GMS under /gms and /api/gms as well as at the root (docs/wire-contract.md
// §Conventions): the front door relays both prefixes, the ingestion service serves them. One rule.

/** `/gms` or `/api/gms`, alone or followed by `/` or `?`. */
export const GMS_PREFIX = /^\/(?:api\/)?gms(?=\/|\?|$)/;

/** A path without its GMS prefix ('/' when nothing is left), and whether it had one. */
export function withoutGmsPrefix(path: string): { path: string; prefixed: boolean } {
  const m = GMS_PREFIX.exec(path);
  if (!m) return { path, prefixed: false };
  const rest = path.slice(m[0].length);
  return { path: rest === '' || rest.startsWith('?') ? `/${rest}` : rest, prefixed: true };
}

/** GMS's OpenAPI doors, /openapi/*: DataHub's frontend relays them to GMS unchanged, and so does the front door. */
export const isOpenApiPath = (path: string): boolean => /^\/openapi(?:\/|$)/.test(path);
