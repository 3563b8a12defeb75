// Search fields on entity nodes (name, platform, origin, description, removed, exists, parentUrn):
// derived from the urn, the entity's status aspect and its one descriptive aspect. Together with
// the derived edges they are the "indices" restoreIndices rebuilds.
import { nameOf, originOf, parentOf, platformOf } from './entity-registry.ts';
import type { Urn } from './urn.ts';

/** The aspect whose name/description describe each entity type. */
const descriptiveAspect: Record<string, { aspect: string; name: string[]; description: string[] }> = {
  dataset: { aspect: 'datasetProperties', name: ['name'], description: ['description'] },
  dataJob: { aspect: 'dataJobInfo', name: ['name'], description: ['description'] },
  dataFlow: { aspect: 'dataFlowInfo', name: ['name'], description: ['description'] },
  chart: { aspect: 'chartInfo', name: ['title'], description: ['description'] },
  dashboard: { aspect: 'dashboardInfo', name: ['title'], description: ['description'] },
  mlFeature: { aspect: 'mlFeatureProperties', name: [], description: ['description'] },
  mlPrimaryKey: { aspect: 'mlPrimaryKeyProperties', name: [], description: ['description'] },
  mlModel: { aspect: 'mlModelProperties', name: ['name'], description: ['description'] },
  mlModelGroup: { aspect: 'mlModelGroupProperties', name: ['name'], description: ['description'] },
  mlFeatureTable: { aspect: 'mlFeatureTableProperties', name: [], description: ['description'] },
  corpuser: { aspect: 'corpUserInfo', name: ['displayName', 'fullName'], description: [] },
  dataPlatform: { aspect: 'dataPlatformInfo', name: ['displayName'], description: [] },
};

/** Aspects whose values feed the search fields of an entity of this type. */
export function searchAspectsOf(entityType: string): string[] {
  const d = descriptiveAspect[entityType];
  return d ? ['status', d.aspect] : ['status'];
}

export interface SearchFields {
  urn: string;
  exists: boolean;
  removed: boolean;
  platform: string | null;
  origin: string | null;
  name: string | null;
  description: string | null;
  parentUrn: string | null;
  /** The urn's words (colons and parentheses split), so "hive" or "logging_events" find it. */
  searchText: string;
}

function firstString(value: unknown, fields: string[]): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  for (const f of fields) {
    const v = (value as Record<string, unknown>)[f];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

/** Fields that follow from the urn alone (what a ghost node carries). */
export function urnFields(urn: Urn): Omit<SearchFields, 'exists' | 'removed' | 'description'> {
  return {
    urn: urn.text,
    platform: platformOf(urn) ?? null,
    origin: originOf(urn) ?? null,
    name: nameOf(urn) ?? null,
    parentUrn: parentOf(urn)?.text ?? null,
    searchText: urn.text.replace(/[^A-Za-z0-9_.%-]+/g, ' ').trim(),
  };
}

export function searchFieldsOf(
  urn: Urn,
  state: { exists: boolean; aspects: ReadonlyMap<string, unknown> },
): SearchFields {
  const d = descriptiveAspect[urn.entityType];
  const described = d ? state.aspects.get(d.aspect) : undefined;
  const status = state.aspects.get('status') as { removed?: unknown } | undefined;
  const base = urnFields(urn);
  return {
    ...base,
    exists: state.exists,
    removed: state.exists && status?.removed === true,
    name: (d && firstString(described, d.name)) ?? base.name,
    description: (d && firstString(described, d.description)) ?? null,
  };
}
