// Machine learning: features, primary keys, feature tables, models and model groups.
import { down, edge, type EdgeRule, type EntityTypeDescriptor, fabric, type Look, type Names, str, up, urnPart } from '../entity-types.ts';

/** The jobs (or runs) that train a model or group, and those that use it. */
const ML_JOBS = ['dataJob', 'dataProcessInstance'] as const;
const TRAINED_BY = edge('trainingJobs', 'urnList', 'TrainedBy', ML_JOBS, up);
const USED_BY = edge('downstreamJobs', 'urnList', 'UsedBy', ML_JOBS, down);

/**
 * ML models and model groups have the same shape: a (platform, name, origin) key, and a
 * `<name>Properties` aspect that names and describes them and lists the jobs around them.
 */
function modelLike(names: Names, look: Look, edges: readonly EdgeRule[]): EntityTypeDescriptor {
  const properties = `${names.name}Properties`;
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [urnPart('platform', ['dataPlatform']), str('name', 'name'), fabric('origin', 'origin')],
    modelled: {
      ...look,
      namePart: 'name',
      platformPart: 'platform',
      originPart: 'origin',
      graphqlDescriptive: 'description',
      relationships: true,
      descriptive: { aspect: properties, name: ['name'], description: ['description'] },
    },
    aspects: { [properties]: { edges } },
  };
}

/**
 * ML features and primary keys have the same shape: a (featureNamespace, name) key, and a
 * `<name>Properties` aspect that describes them and whose `sources` are the datasets they derive from.
 */
function featureLike(names: Names, look: Look): EntityTypeDescriptor {
  const properties = `${names.name}Properties`;
  return {
    ...names,
    keyAspect: `${names.name}Key`,
    key: [str('featureNamespace', 'featureNamespace'), str('name', 'name')],
    modelled: {
      ...look,
      namePart: 'name',
      graphqlDescriptive: 'description',
      relationships: true,
      descriptive: { aspect: properties, name: [], description: ['description'] },
    },
    aspects: { [properties]: { edges: [edge('sources', 'urnList', 'DerivedFrom', ['dataset'], up)] } },
  };
}

export const ML_PRIMARY_KEY: EntityTypeDescriptor = featureLike(
  { name: 'mlPrimaryKey', graphqlType: 'MLPRIMARY_KEY', graphqlTypename: 'MLPrimaryKey', snapshot: 'MLPrimaryKeySnapshot' },
  { label: 'MlPrimaryKey', displayLabel: 'ML primary key', colour: '#6d28d9' },
);

export const ML_FEATURE: EntityTypeDescriptor = featureLike(
  { name: 'mlFeature', graphqlType: 'MLFEATURE', graphqlTypename: 'MLFeature', snapshot: 'MLFeatureSnapshot' },
  { label: 'MlFeature', displayLabel: 'ML feature', colour: '#7e22ce' },
);

export const ML_FEATURE_TABLE: EntityTypeDescriptor = {
  name: 'mlFeatureTable',
  keyAspect: 'mlFeatureTableKey',
  graphqlType: 'MLFEATURE_TABLE',
  graphqlTypename: 'MLFeatureTable',
  snapshot: 'MLFeatureTableSnapshot',
  key: [urnPart('platform', ['dataPlatform']), str('name', 'name')],
  modelled: {
    label: 'MlFeatureTable',
    displayLabel: 'ML feature table',
    colour: '#a21caf',
    namePart: 'name',
    platformPart: 'platform',
    relationships: true,
    descriptive: { aspect: 'mlFeatureTableProperties', name: [], description: ['description'] },
    graphqlDescriptive: 'description',
  },
  aspects: {
    mlFeatureTableProperties: {
      edges: [edge('mlFeatures', 'urnList', 'Contains', ['mlFeature']), edge('mlPrimaryKeys', 'urnList', 'KeyedBy', ['mlPrimaryKey'])],
    },
  },
};

export const ML_MODEL: EntityTypeDescriptor = modelLike(
  { name: 'mlModel', graphqlType: 'MLMODEL', graphqlTypename: 'MLModel', snapshot: 'MLModelSnapshot' },
  { label: 'MlModel', displayLabel: 'ML model', colour: '#be185d' },
  [
    edge('mlFeatures', 'urnList', 'Consumes', ['mlFeature'], up),
    TRAINED_BY,
    USED_BY,
    edge('groups', 'urnList', 'MemberOf', ['mlModelGroup'], down),
    edge('deployments', 'urnList', 'DeployedTo', ['mlModelDeployment']),
  ],
);

export const ML_MODEL_GROUP: EntityTypeDescriptor = modelLike(
  { name: 'mlModelGroup', graphqlType: 'MLMODEL_GROUP', graphqlTypename: 'MLModelGroup', snapshot: 'MLModelGroupSnapshot' },
  { label: 'MlModelGroup', displayLabel: 'ML model group', colour: '#9d174d' },
  [TRAINED_BY, USED_BY],
);
