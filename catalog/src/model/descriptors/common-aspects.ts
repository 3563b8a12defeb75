// Aspects any entity type may hold that derive edges (tags, terms, owners): what they derive and
// how PATCH addresses them, wherever they are held.
import { edge, type OwnedAspect } from '../entity-types.ts';

/**
 * Aspects any entity type may hold that derive edges: tags, terms, owners (not lineage). Their PATCH
 * templates address them as the Python client's builders do (/tags/<urn>, /terms/<urn>,
 * /owners/<urn>/<type>), with DataHub's template defaults.
 */
export const COMMON_ASPECTS: Readonly<Record<string, OwnedAspect>> = {
  globalTags: {
    edges: [edge('tags/*/tag', 'path', 'TaggedWith', ['tag'])],
    patch: { fields: { tags: { kind: 'record', keyField: 'tag' } }, defaultValue: () => ({ tags: [] }) },
  },
  glossaryTerms: {
    edges: [edge('terms/*/urn', 'path', 'TermedWith', ['glossaryTerm'])],
    patch: { fields: { terms: { kind: 'record', keyField: 'urn' } }, defaultValue: (stamp) => ({ terms: [], auditStamp: stamp() }) },
  },
  ownership: {
    edges: [edge('owners/*/owner', 'path', 'OwnedBy', ['corpuser', 'corpGroup'])],
    patch: { fields: { owners: { kind: 'owner' } }, defaultValue: (stamp) => ({ owners: [], ownerTypes: {}, lastModified: stamp() }) },
  },
};
