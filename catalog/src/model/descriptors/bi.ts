// BI: charts and the dashboards that hold them.
import {
  EDGE,
  edge,
  type EdgeRule,
  editable,
  type EntityTypeDescriptor,
  type KeyedKind,
  type Look,
  type Names,
  type OwnedAspect,
  type PatchStamp,
  str,
  up,
  URN,
} from '../entity-types.ts';

/** A chart's or dashboard's input fields: the columns it reads, and its own columns downstream of them. */
const INPUT_FIELDS: OwnedAspect = {
  shared: true,
  edges: [edge('fields', 'inputFields', 'consumesField', ['schemaField'])],
  inputFieldEdges: true,
};

/**
 * Charts and dashboards have the same shape: a (dashboardTool, <name>Id) key, a `<name>Info` aspect
 * that titles and describes them and names their inputs, and inputFields for their columns. PATCH
 * keys the info's input arrays (`keyed`); an absent info starts titled '' with `arrays` empty.
 */
function visualisation(
  names: Names,
  look: Look,
  inputs: readonly EdgeRule[],
  keyed: Readonly<Record<string, KeyedKind>>,
  arrays: readonly string[],
): EntityTypeDescriptor {
  const id = `${names.name}Id`;
  const info = `${names.name}Info`;
  const editable = `editable${names.name[0]!.toUpperCase()}${names.name.slice(1)}Properties`;
  const defaultValue = (stamp: () => PatchStamp) => ({
    title: '',
    description: '',
    lastModified: { created: stamp(), lastModified: stamp() },
    ...Object.fromEntries(arrays.map((a) => [a, []])),
  });
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [str('dashboardTool', 'tool'), str(id, id)],
    modelled: {
      ...look,
      namePart: id,
      platformPart: 'dashboardTool',
      graphqlDescriptive: 'properties',
      relationships: true,
      descriptive: { aspect: info, name: ['title'], description: ['description'], editable },
    },
    aspects: { [info]: { edges: inputs, patch: { fields: keyed, defaultValue } }, inputFields: INPUT_FIELDS },
  };
}

export const CHART: EntityTypeDescriptor = visualisation(
  { name: 'chart', graphqlType: 'CHART', graphqlTypename: 'Chart', snapshot: 'ChartSnapshot' },
  {
    label: 'Chart',
    displayLabel: 'Chart',
    colour: '#15803d',
    updateLineageRejection: "Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: {urn}",
  },
  [
    edge('inputs', 'unionList', 'Consumes', ['dataset'], up),
    editable(edge('inputEdges', 'edges', 'Consumes', ['dataset', 'chart'], up), 'inputs'),
  ],
  { inputEdges: EDGE, inputs: { kind: 'chartInput' } },
  ['inputs', 'inputEdges'],
);

export const DASHBOARD: EntityTypeDescriptor = visualisation(
  { name: 'dashboard', graphqlType: 'DASHBOARD', graphqlTypename: 'Dashboard', snapshot: 'DashboardSnapshot' },
  {
    label: 'Dashboard',
    displayLabel: 'Dashboard',
    colour: '#0f766e',
    updateLineageRejection: "Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: {urn}",
  },
  [
    edge('charts', 'urnList', 'Contains', ['chart'], up),
    editable(edge('chartEdges', 'edges', 'Contains', ['chart'], up), 'charts'),
    edge('datasets', 'urnList', 'Consumes', ['dataset'], up),
    editable(edge('datasetEdges', 'edges', 'Consumes', ['dataset'], up), 'datasets'),
    edge('dashboards', 'edges', 'DashboardContainsDashboard', ['dashboard'], up),
  ],
  // `dashboards` (dashboard → dashboard edges) is keyed too, as in DataHub's DashboardInfoTemplate.
  { charts: URN, chartEdges: EDGE, datasets: URN, datasetEdges: EDGE, dashboards: EDGE },
  ['charts', 'chartEdges', 'datasets', 'datasetEdges'],
);
