// Where OpenLineage producers post (docs/wire-contract.md §OpenLineage): Marquez's path, which the
// openlineage-python client's HTTP transport uses by default, the spec's batch route beside it, and
// DataHub's path. The ingestion service serves them; the front door relays them.
export const OPENLINEAGE_EVENT_PATHS: readonly string[] = ['/api/v1/lineage', '/openapi/openlineage/api/v1/lineage'];
export const OPENLINEAGE_BATCH_PATHS: readonly string[] = OPENLINEAGE_EVENT_PATHS.map((p) => `${p}/batch`);

const ALL: ReadonlySet<string> = new Set([...OPENLINEAGE_EVENT_PATHS, ...OPENLINEAGE_BATCH_PATHS]);

/** Whether a path (query string and one trailing slash ignored) is an OpenLineage route. */
export function isOpenLineagePath(path: string): boolean {
  const p = path.split('?', 1)[0]!;
  return ALL.has(p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
}
