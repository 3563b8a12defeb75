// Datasets and their columns (docs/lineage-model.md §Columns).
import { edge, editable, type EntityTypeDescriptor, fabric, FINE, OWN, str, up, urnPart } from '../entity-types.ts';

/** Entity types whose columns can be schemaFields (docs/lineage-model.md §Columns). */
export const FIELD_PARENT_TYPES = ['dataset', 'chart', 'dashboard'] as const;

export const DATASET: EntityTypeDescriptor = {
  name: 'dataset',
  keyAspect: 'datasetKey',
  graphqlType: 'DATASET',
  graphqlTypename: 'Dataset',
  snapshot: 'DatasetSnapshot',
  key: [urnPart('platform', ['dataPlatform']), str('name', 'name'), fabric('origin', 'origin')],
  modelled: {
    label: 'Dataset',
    displayLabel: 'Dataset',
    colour: '#2563eb',
    namePart: 'name',
    platformPart: 'platform',
    originPart: 'origin',
    relationships: true,
    descriptive: { aspect: 'datasetProperties', name: ['name'], description: ['description'], editable: 'editableDatasetProperties' },
    graphqlDescriptive: 'properties',
    updateLineageRejection: 'Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: {urn}',
  },
  aspects: {
    upstreamLineage: {
      edges: [editable(edge('upstreams', 'upstreams', 'DownstreamOf', ['dataset'], up))],
      fineGrained: 'query',
      updateLineageStart: ['upstreams'],
      patch: {
        fields: { upstreams: { kind: 'record', keyField: 'dataset' }, fineGrainedLineages: FINE },
        defaultValue: () => ({ upstreams: [], fineGrainedLineages: [] }),
      },
    },
    datasetProperties: OWN,
    schemaMetadata: {
      shared: true,
      edges: [
        edge('fields/*/globalTags/tags/*/tag', 'path', 'SchemaFieldTaggedWith', ['tag']),
        edge('fields/*/glossaryTerms/terms/*/urn', 'path', 'SchemaFieldWithGlossaryTerm', ['glossaryTerm']),
      ],
    },
  },
};

export const SCHEMA_FIELD: EntityTypeDescriptor = {
  name: 'schemaField',
  keyAspect: 'schemaFieldKey',
  graphqlType: 'SCHEMA_FIELD',
  graphqlTypename: 'SchemaFieldEntity',
  snapshot: 'SchemaFieldSnapshot',
  key: [urnPart('parent', FIELD_PARENT_TYPES, 'parent'), str('fieldPath', 'fieldPath')],
  modelled: {
    label: 'SchemaField',
    displayLabel: 'Column',
    namePart: 'fieldPath',
    platformPart: 'parent',
    parentPart: 'parent',
    relationships: true,
  },
};
