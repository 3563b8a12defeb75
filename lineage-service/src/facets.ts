// DataHub's FacetMetadata from a domain facet: the same rendering for catalogue search and lineage
// search (a value that is a urn — a platform, tag, term, owner, domain — resolves to its entity, as
// DataHub's does).
import type { Facet } from '@lineage/catalog/read';
import { storedRef } from './entity-ref.ts';

const URN_FACETS: ReadonlySet<string> = new Set(['platform', 'tags', 'glossaryTerms', 'owners', 'domains']);

export function renderFacet(f: Facet) {
  return {
    field: f.field,
    displayName: f.displayName,
    entity: null,
    aggregations: f.aggregations.map((a) => ({
      value: a.value,
      count: a.count,
      entity: URN_FACETS.has(f.field) ? storedRef(a.value) : null,
      displayName: null,
    })),
  };
}
