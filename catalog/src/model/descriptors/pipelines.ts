// Pipelines: jobs and the flows they belong to, their runs, and the legacy process.
import { down, EDGE, edge, editable, type EntityTypeDescriptor, fabric, FINE, OWN, str, up, URN, urnPart } from '../entity-types.ts';

const DPI = 'dataProcessInstance';

export const DATA_JOB: EntityTypeDescriptor = {
  name: 'dataJob',
  keyAspect: 'dataJobKey',
  graphqlType: 'DATA_JOB',
  graphqlTypename: 'DataJob',
  snapshot: 'DataJobSnapshot',
  key: [urnPart('flow', ['dataFlow'], 'dataFlow'), str('jobId', 'jobId')],
  modelled: {
    label: 'DataJob',
    displayLabel: 'Data job',
    colour: '#c2410c',
    namePart: 'jobId',
    platformPart: 'flow',
    relationships: true,
    descriptive: { aspect: 'dataJobInfo', name: ['name'], description: ['description'], editable: 'editableDataJobProperties' },
    graphqlDescriptive: 'properties',
    // "datJob" (sic) is DataHub's text.
    updateLineageRejection: "Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: {urn}",
  },
  aspects: {
    dataJobKey: { edges: [edge('flow', 'urn', 'IsPartOf', ['dataFlow'])] },
    dataJobInfo: OWN,
    dataJobInputOutput: {
      edges: [
        edge('inputDatasets', 'urnList', 'Consumes', ['dataset'], up),
        editable(edge('inputDatasetEdges', 'edges', 'Consumes', ['dataset'], up), 'inputDatasets'),
        edge('outputDatasets', 'urnList', 'Produces', ['dataset'], down),
        editable(edge('outputDatasetEdges', 'edges', 'Produces', ['dataset'], down), 'outputDatasets'),
        edge('inputDatajobs', 'urnList', 'DownstreamOf', ['dataJob'], up),
        editable(edge('inputDatajobEdges', 'edges', 'DownstreamOf', ['dataJob'], up), 'inputDatajobs'),
        edge('inputDatasetFields', 'urnList', 'Consumes', ['schemaField']),
        edge('outputDatasetFields', 'urnList', 'Produces', ['schemaField']),
      ],
      fineGrained: 'owner',
      updateLineageStart: ['inputDatasets', 'outputDatasets'],
      patch: {
        fields: {
          inputDatasetEdges: EDGE,
          outputDatasetEdges: EDGE,
          inputDatajobEdges: EDGE,
          inputDatasetFields: URN,
          outputDatasetFields: URN,
          fineGrainedLineages: FINE,
        },
        defaultValue: () => ({
          inputDatasets: [],
          outputDatasets: [],
          inputDatajobs: [],
          inputDatasetEdges: [],
          outputDatasetEdges: [],
          inputDatajobEdges: [],
          inputDatasetFields: [],
          outputDatasetFields: [],
          fineGrainedLineages: [],
        }),
      },
    },
  },
};

export const DATA_FLOW: EntityTypeDescriptor = {
  name: 'dataFlow',
  keyAspect: 'dataFlowKey',
  graphqlType: 'DATA_FLOW',
  graphqlTypename: 'DataFlow',
  snapshot: 'DataFlowSnapshot',
  key: [str('orchestrator', 'orchestrator'), str('flowId', 'flowId'), str('cluster', 'cluster')],
  modelled: {
    label: 'DataFlow',
    displayLabel: 'Data flow',
    colour: '#9a3412',
    namePart: 'flowId',
    platformPart: 'orchestrator',
    relationships: true,
    descriptive: { aspect: 'dataFlowInfo', name: ['name'], description: ['description'], editable: 'editableDataFlowProperties' },
    graphqlDescriptive: 'properties',
  },
  aspects: { dataFlowInfo: OWN },
};

export const DATA_PROCESS_INSTANCE: EntityTypeDescriptor = {
  name: DPI,
  keyAspect: 'dataProcessInstanceKey',
  graphqlType: 'DATA_PROCESS_INSTANCE',
  graphqlTypename: 'DataProcessInstance',
  key: [str('id')],
  modelled: { label: 'DataProcessInstance', displayLabel: 'Process run', namePart: 'id', relationships: true },
  aspects: {
    dataProcessInstanceInput: {
      edges: [
        edge('inputs', 'urnList', 'Consumes', ['dataset', 'mlModel']),
        edge('inputEdges', 'edges', 'DataProcessInstanceConsumes', ['dataset', 'mlModel', DPI], up),
      ],
    },
    dataProcessInstanceOutput: {
      edges: [
        edge('outputs', 'urnList', 'Produces', ['dataset', 'mlModel']),
        edge('outputEdges', 'edges', 'DataProcessInstanceProduces', ['dataset', 'mlModel', DPI], down),
      ],
    },
    dataProcessInstanceRelationships: {
      shared: true,
      edges: [
        edge('parentTemplate', 'urn', 'InstanceOf', ['dataJob', 'dataFlow', 'dataset']),
        edge('parentInstance', 'urn', 'ChildOf', [DPI]),
        edge('upstreamInstances', 'urnList', 'UpstreamOf', [DPI]),
      ],
    },
  },
};

export const DATA_PROCESS: EntityTypeDescriptor = {
  // The legacy process: outputs are modelled as Consumes too, so they read as upstream.
  name: 'dataProcess',
  keyAspect: 'dataProcessKey',
  graphqlType: 'OTHER',
  snapshot: 'DataProcessSnapshot',
  key: [str('name'), str('orchestrator'), fabric('origin')],
  modelled: { label: 'DataProcess', displayLabel: 'Process', namePart: 'name', platformPart: 'orchestrator', originPart: 'origin' },
  aspects: {
    dataProcessInfo: {
      edges: [edge('inputs', 'urnList', 'Consumes', ['dataset'], up), edge('outputs', 'urnList', 'Consumes', ['dataset'], up)],
    },
  },
};
