// Restricted nodes in lineage answers (docs/wire-contract.md §Lineage search, "Restricted nodes"):
// the walk ran over the whole graph, so reach, degrees and totals stay true; what the actor may
// not view is only renamed on the way out — a hit, and every node of its paths, becomes DataHub's
// Restricted entity under its opaque urn, with nothing that names it (platform, origin) left.
// As DataHub's RestrictedService.encryptRestricted does for its lineage results.
import { RESTRICTED_ENTITY_TYPE, maskUrns, type Viewer } from '../view-authorization.ts';
import type { LineageHit } from './results.ts';

function restrictedHit(hit: LineageHit, as: (urn: string) => string): LineageHit {
  const masked: LineageHit = { ...hit, walkUrns: hit.walkUrns.map(as), viaParent: hit.viaParent === null ? null : as(hit.viaParent) };
  if (hit.paths) masked.paths = hit.paths.map((p) => p.map(as));
  if (as(hit.urn) === hit.urn) return masked;
  return { ...masked, urn: as(hit.urn), entityType: RESTRICTED_ENTITY_TYPE, graphqlType: 'RESTRICTED', platform: null, origin: null };
}

/** The hits as the viewer may see them: one batch decision over every urn they name. */
export async function restrictHits(viewer: Viewer, hits: readonly LineageHit[]): Promise<LineageHit[]> {
  if (!viewer.restricts || hits.length === 0) return [...hits];
  const named = hits.flatMap((h) => [h.urn, ...h.walkUrns, ...(h.viaParent === null ? [] : [h.viaParent]), ...(h.paths ?? []).flat()]);
  const as = await maskUrns(viewer, named);
  return hits.map((h) => restrictedHit(h, as));
}
