// GMS's routes (Rest.li and OpenAPI, served by the ingestion service and relayed by the front door)
// as templates, for metric labels (http_request_duration_seconds): path keys become {urn} /
// {entityType}, Rest.li actions are kept (they are the operation), and anything else is
// "unmatched", so odd URLs add no series.
import { withoutGmsPrefix } from './gms-prefix.ts';
import { marquezRouteTemplate } from './marquez-paths.ts';
import { OPENLINEAGE_BATCH_PATHS, OPENLINEAGE_EVENT_PATHS } from './openlineage-paths.ts';
import { opsRouteTemplate } from './service-runtime.ts';

const RESTLI_ACTIONS = new Set([
  'ingestProposal',
  'ingestProposalBatch',
  'getCount',
  'restoreIndices',
  'ingest',
  'batchIngest',
  'exists',
  'delete',
]);
const PATHS = new Set([
  '/operations/backup',
  '/',
  '/aspects',
  '/entities',
  '/operations',
  '/config',
  '/relationships',
  '/api/graphql',
  '/api/v2/graphql',
  '/openapi/relationships/v1',
  '/openapi/v1/events/poll',
  '/openapi/v1/system-info/properties/simple',
  '/openapi/v3/lineage/scroll',
  '/openapi/v3/relationship/scroll',
  ...OPENLINEAGE_EVENT_PATHS,
  ...OPENLINEAGE_BATCH_PATHS,
]);
const TEMPLATES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/aspects\/.+$/, '/aspects/{urn}'],
  [/^\/entitiesV2\/.+$/, '/entitiesV2/{urn}'],
  [/^\/openapi\/v3\/entity\/scroll$/, '/openapi/v3/entity/scroll'],
  [/^\/openapi\/v3\/entity\/generic$/, '/openapi/v3/entity/generic'],
  [/^\/openapi\/v3\/entity\/[^/]+\/batchGet$/, '/openapi/v3/entity/{entityType}/batchGet'],
  [/^\/openapi\/v3\/entity\/[^/]+\/urn.+\/[A-Za-z][A-Za-z0-9]*$/, '/openapi/v3/entity/{entityType}/{urn}/{aspect}'],
  [/^\/openapi\/v3\/entity\/[^/]+\/.+$/, '/openapi/v3/entity/{entityType}/{urn}'],
  [/^\/openapi\/v3\/entity\/[^/]+$/, '/openapi/v3/entity/{entityType}'],
];

export function gmsRouteTemplate(url: string): string {
  const [rawPath = '/', search = ''] = url.split('?', 2);
  const { path: unprefixed, prefixed } = withoutGmsPrefix(rawPath);
  const path = unprefixed.length > 1 && unprefixed.endsWith('/') ? unprefixed.slice(0, -1) : unprefixed;
  let route =
    TEMPLATES.find(([re]) => re.test(path))?.[1] ?? marquezRouteTemplate(path) ?? (PATHS.has(path) ? path : opsRouteTemplate(path));
  if (route === 'unmatched') return route;
  const action = new URLSearchParams(search).get('action');
  if (action !== null) route += `?action=${RESTLI_ACTIONS.has(action) ? action : 'other'}`;
  return prefixed ? `/gms${route}` : route;
}
