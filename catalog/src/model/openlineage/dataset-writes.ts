// What an event writes of one dataset it names.
import { keyAspectOf } from '../urn-key.ts';
import { parseUrn } from '../urn.ts';
import { columnLineageJson, type ColumnLineage } from './column-lineage.ts';
import { entityState, isNewest, nextEntityState, OPENLINEAGE_ASPECT, stateKey, type StoredAspects } from './entity-state.ts';
import { isDescribed, type DatasetFacts } from './event-datasets.ts';
import type { WriteAspect } from './event-plan.ts';
import { schemaMetadataOf } from './schema-metadata.ts';

/**
 * A dataset of an event: its schema and documentation when this event is the newest to give them,
 * its kept facets and column state in its openLineage aspect; else only made to exist.
 */
export function writeDataset(
  state: StoredAspects,
  d: DatasetFacts,
  key: string,
  t: number,
  write: WriteAspect,
  columns?: ColumnLineage,
): void {
  const s = entityState(state, d.urn);
  if (d.schema && isNewest(s.facetKeys.schema, key)) write(d.urn, 'schemaMetadata', schemaMetadataOf(d.urn, d.schema));
  else ensureDataset(state, d.urn, write);
  if (d.description !== undefined && isNewest(s.facetKeys.documentation, key)) {
    write(d.urn, 'datasetProperties', { ...(state.get(stateKey(d.urn, 'datasetProperties')) ?? {}), description: d.description });
  }
  // Only what the event says of it needs a key to be kept against older events.
  if (isDescribed(d) || columns) {
    const marks = [...(d.schema ? ['schema'] : []), ...(d.description !== undefined ? ['documentation'] : [])];
    write(
      d.urn,
      OPENLINEAGE_ASPECT,
      nextEntityState(s, key, t, d.kept, marks, columns ? { columnLineage: columnLineageJson(columns) } : {}),
    );
  }
}

/** A dataset an event names exists: its key aspect, written alone, creates it when it is missing. */
export function ensureDataset(state: StoredAspects, urn: string, write: WriteAspect): void {
  if (!state.has(stateKey(urn, 'datasetKey'))) write(urn, 'datasetKey', keyAspectOf(parseUrn(urn)).value);
}
