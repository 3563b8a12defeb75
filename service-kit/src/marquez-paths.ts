// Marquez 0.51's read API (docs/marquez-compatibility.md): its paths under /api/v1, which the ingestion service
// serves and the front door relays, and their route templates for metric labels. GET /api/v1/lineage
// is Marquez's lineage read; POST to the same path is the OpenLineage door (openlineage-paths.ts).
const TEMPLATES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/v1\/namespaces$/, '/api/v1/namespaces'],
  [/^\/api\/v1\/namespaces\/[^/]+$/, '/api/v1/namespaces/{namespace}'],
  [/^\/api\/v1\/namespaces\/[^/]+\/datasets$/, '/api/v1/namespaces/{namespace}/datasets'],
  [/^\/api\/v1\/namespaces\/[^/]+\/datasets\/[^/]+$/, '/api/v1/namespaces/{namespace}/datasets/{dataset}'],
  [/^\/api\/v1\/namespaces\/[^/]+\/jobs$/, '/api/v1/namespaces/{namespace}/jobs'],
  [/^\/api\/v1\/namespaces\/[^/]+\/jobs\/[^/]+$/, '/api/v1/namespaces/{namespace}/jobs/{job}'],
  [/^\/api\/v1\/namespaces\/[^/]+\/jobs\/[^/]+\/runs$/, '/api/v1/namespaces/{namespace}/jobs/{job}/runs'],
  [/^\/api\/v1\/jobs$/, '/api/v1/jobs'],
  [/^\/api\/v1\/jobs\/runs\/[^/]+$/, '/api/v1/jobs/runs/{id}'],
  [/^\/api\/v1\/column-lineage$/, '/api/v1/column-lineage'],
  [/^\/api\/v1\/search$/, '/api/v1/search'],
  [/^\/api\/v1\/tags$/, '/api/v1/tags'],
  [/^\/api\/v1\/sources$/, '/api/v1/sources'],
  [/^\/api\/v1\/sources\/[^/]+$/, '/api/v1/sources/{source}'],
  [/^\/api\/v1\/jobs\/runs\/[^/]+\/facets$/, '/api/v1/jobs/runs/{id}/facets'],
  [/^\/api\/v1\/namespaces\/[^/]+\/datasets\/[^/]+\/tags\/[^/]+$/, '/api/v1/namespaces/{namespace}/datasets/{dataset}/tags/{tag}'],
  [/^\/api\/v1\/namespaces\/[^/]+\/jobs\/[^/]+\/tags\/[^/]+$/, '/api/v1/namespaces/{namespace}/jobs/{job}/tags/{tag}'],
  [
    /^\/api\/v1\/namespaces\/[^/]+\/datasets\/[^/]+\/fields\/[^/]+\/tags\/[^/]+$/,
    '/api/v1/namespaces/{namespace}/datasets/{dataset}/fields/{field}/tags/{tag}',
  ],
];

/** Whether a path (no query string) is under Marquez's namespaces, jobs, column-lineage, search, tags or sources resources. */
export function isMarquezApiPath(path: string): boolean {
  return /^\/api\/v1\/(namespaces|jobs|column-lineage|search|tags|sources)(\/|$)/.test(path);
}

/** Whether a request is a Marquez read, answered with Marquez's error body `{code, message}`. */
export function isMarquezRead(method: string, path: string): boolean {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return isMarquezApiPath(p) || (p === '/api/v1/lineage' && (method === 'GET' || method === 'HEAD'));
}

/** A Marquez route's template, or undefined when the path is none of them. */
export function marquezRouteTemplate(path: string): string | undefined {
  return TEMPLATES.find(([re]) => re.test(path))?.[1];
}
