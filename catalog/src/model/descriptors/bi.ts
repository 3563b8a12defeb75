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
 * keys the info's input arrays (`keyed`); an absent info starts titled '' with `arrays` empty. Their
 * names in GraphQL, MCEs and the explorer are the type's name capitalised, as DataHub's are.
 */
function visualisation(
  name: 'chart' | 'dashboard',
  colour: string,
  inputs: readonly EdgeRule[],
  keyed: Readonly<Record<string, KeyedKind>>,
  arrays: readonly string[],
): EntityTypeDescriptor {
  const title = `${name[0]!.toUpperCase()}${name.slice(1)}`;
  const names: Names = {
    name,
    graphqlType: name === 'chart' ? 'CHART' : 'DASHBOARD',
    graphqlTypename: title,
    snapshot: `${title}Snapshot`,
  };
  const look: Look = {
    label: title,
    displayLabel: title,
    colour,
    updateLineageRejection: `Tried to add an upstream to a ${name} that isn't a chart or dataset. Upstream urn: {urn}`,
  };
  const id = `${name}Id`;
  const info = `${name}Info`;
  const editable = `editable${title}Properties`;
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
  'chart',
  '#15803d',
  [
    edge('inputs', 'unionList', 'Consumes', ['dataset'], up),
    editable(edge('inputEdges', 'edges', 'Consumes', ['dataset', 'chart'], up), 'inputs'),
  ],
  { inputEdges: EDGE, inputs: { kind: 'chartInput' } },
  ['inputs', 'inputEdges'],
);

export const DASHBOARD: EntityTypeDescriptor = visualisation(
  'dashboard',
  '#0f766e',
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
