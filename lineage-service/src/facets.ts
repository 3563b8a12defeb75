// DataHub's FacetMetadata from a domain facet: the same rendering for catalogue search and lineage
// search (a platform's value resolves to its dataPlatform entity, as DataHub's does).
import type { Facet } from '@lineage/catalog/read';
import { storedRef } from './entity-ref.ts';

export function renderFacet(f: Facet) {
  return {
    field: f.field,
    displayName: f.displayName,
    entity: null,
    aggregations: f.aggregations.map((a) => ({
      value: a.value,
      count: a.count,
      entity: f.field === 'platform' ? storedRef(a.value) : null,
      displayName: null,
    })),
  };
}
