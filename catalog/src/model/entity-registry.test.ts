import { buildEntityRegistry } from './build-entity-registry.ts';
import { descriptorOf, entityRegistry, entityTypeToGraphql, graphqlToEntityType, installEntityRegistry } from './entity-registry.ts';
import { entityLabels, entityTypeSpec, isModelledEntityType, modelledEntityTypes } from './entity-type-spec.ts';
import { nameOf, originOf, parentOf, platformOf } from './key-search-fields.ts';
import { keyAspectOf } from './urn-key.ts';
import { BUILT_IN_ENTITY_TYPES } from './descriptors/built-in-entity-types.ts';
import { type EntityTypeDescriptor, FABRIC_TYPES, GRAPHQL_ENTITY_TYPES } from './entity-types.ts';
import { CatalogError } from './errors.ts';
import { parseUrn } from './urn.ts';

const key = (text: string) => keyAspectOf(parseUrn(text));

function rejection(text: string): CatalogError {
  try {
    key(text);
  } catch (e) {
    if (e instanceof CatalogError) return e;
    throw e;
  }
  throw new Error(`expected ${text} to be rejected`);
}

describe('keyAspectOf: the key aspects of docs/lineage-model.md §Entity types', () => {
  const examples: Array<[string, string, Record<string, string>]> = [
    [
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)',
      'datasetKey',
      { platform: 'urn:li:dataPlatform:hive', name: 'db.table', origin: 'PROD' },
    ],
    [
      'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)',
      'dataJobKey',
      { flow: 'urn:li:dataFlow:(airflow,dag_abc,PROD)', jobId: 'task_123' },
    ],
    ['urn:li:dataFlow:(airflow,dag_abc,PROD)', 'dataFlowKey', { orchestrator: 'airflow', flowId: 'dag_abc', cluster: 'PROD' }],
    ['urn:li:chart:(looker,look_1)', 'chartKey', { dashboardTool: 'looker', chartId: 'look_1' }],
    ['urn:li:dashboard:(looker,dash_1)', 'dashboardKey', { dashboardTool: 'looker', dashboardId: 'dash_1' }],
    [
      'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),user_id)',
      'schemaFieldKey',
      { parent: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', fieldPath: 'user_id' },
    ],
    ['urn:li:mlFeature:(user_features,age)', 'mlFeatureKey', { featureNamespace: 'user_features', name: 'age' }],
    ['urn:li:mlPrimaryKey:(user_analytics,user_name)', 'mlPrimaryKeyKey', { featureNamespace: 'user_analytics', name: 'user_name' }],
    [
      'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)',
      'mlFeatureTableKey',
      { platform: 'urn:li:dataPlatform:feast', name: 'users' },
    ],
    [
      'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)',
      'mlModelKey',
      { platform: 'urn:li:dataPlatform:sagemaker', name: 'churn', origin: 'PROD' },
    ],
    [
      'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,PROD)',
      'mlModelGroupKey',
      { platform: 'urn:li:dataPlatform:sagemaker', name: 'churn', origin: 'PROD' },
    ],
    ['urn:li:dataProcessInstance:a1b2c3', 'dataProcessInstanceKey', { id: 'a1b2c3' }],
    ['urn:li:dataProcess:(etl,azkaban,PROD)', 'dataProcessKey', { name: 'etl', orchestrator: 'azkaban', origin: 'PROD' }],
    ['urn:li:corpuser:datahub', 'corpUserKey', { username: 'datahub' }],
    ['urn:li:corpGroup:eng', 'corpGroupKey', { name: 'eng' }],
    ['urn:li:dataPlatform:hive', 'dataPlatformKey', { platformName: 'hive' }],
    ['urn:li:dataHubAccessToken:tok-1', 'dataHubAccessTokenKey', { id: 'tok-1' }],
    ['urn:li:dataHubRole:Admin', 'dataHubRoleKey', { id: 'Admin' }],
    ['urn:li:telemetry:clientId', 'telemetryKey', { name: 'clientId' }],
    ['urn:li:query:q-42', 'queryKey', { id: 'q-42' }],
  ];

  test('covers every modelled entity type', () => {
    const covered = new Set(examples.map(([text]) => parseUrn(text).entityType));
    expect([...covered].sort()).toEqual([...modelledEntityTypes()].sort());
  });

  test.each(examples)('%s → %s', (text, aspectName, value) => {
    expect(key(text)).toEqual({ aspectName, value });
  });

  test('a nested tuple part with its own parentheses stays one part', () => {
    expect(key('urn:li:dataset:(urn:li:dataPlatform:hive,db.fn(a%2Cb),PROD)').value).toEqual({
      platform: 'urn:li:dataPlatform:hive',
      name: 'db.fn(a%2Cb)',
      origin: 'PROD',
    });
  });
});

describe('keyAspectOf rejects keys that do not fit', () => {
  test.each([
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db.table)', 'expected 3 key parts (platform, name, origin), got 2'],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,a,b,PROD)', 'expected 3 key parts'],
    ['urn:li:dataset:db.table', 'got 1'],
    ['urn:li:corpuser:(a,b)', 'expected 1 key part (username), got 2'],
    ['urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),a,b)', 'expected 2 key parts (flow, jobId), got 3'],
    ['urn:li:chart:looker', 'expected 2 key parts (dashboardTool, chartId), got 1'],
  ])('wrong part count: %s', (text, problem) => {
    const e = rejection(text);
    expect(e.kind).toBe('validation');
    expect(e.message).toContain(text);
    expect(e.message).toContain(problem);
  });

  test.each([
    'urn:li:dataset:(urn:li:dataPlatform:hive,t,PRODUCTION)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,t,prod)',
    'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,LIVE)',
    'urn:li:dataProcess:(etl,azkaban,nope)',
  ])('bad FabricType: %s', (text) => {
    const e = rejection(text);
    expect(e.kind).toBe('validation');
    expect(e.message).toMatch(/origin '[^']+' is not a FabricType \(DEV\|TEST\|/);
  });

  test('every FabricType is accepted as origin', () => {
    for (const origin of FABRIC_TYPES) {
      expect(key(`urn:li:dataset:(urn:li:dataPlatform:hive,t,${origin})`).value.origin).toBe(origin);
    }
  });

  test.each([
    ['urn:li:dataset:(urn:li:chart:(looker,a),t,PROD)', "platform 'urn:li:chart:(looker,a)' is not a dataPlatform urn"],
    ['urn:li:dataset:(hive,t,PROD)', "platform 'hive' is not a valid urn"],
    ['urn:li:dataJob:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),task)', 'is not a dataFlow urn'],
    ['urn:li:dataJob:(urn:li:dataFlow:(airflow,dag),task)', "flow 'urn:li:dataFlow:(airflow,dag)': expected 3 key parts"],
    [
      'urn:li:schemaField:(urn:li:dataFlow:(airflow,a,PROD),f)',
      "parent 'urn:li:dataFlow:(airflow,a,PROD)' is not a dataset or chart or dashboard urn",
    ],
    ['urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,BAD),f)', "origin 'BAD' is not a FabricType"],
    ['urn:li:mlFeatureTable:(urn:li:corpuser:x,users)', 'is not a dataPlatform urn'],
  ])('wrong-typed urn part: %s', (text, problem) => {
    const e = rejection(text);
    expect(e.kind).toBe('validation');
    expect(e.message).toContain(`Invalid urn ${text}`);
    expect(e.message).toContain(problem);
  });

  test('a modelled type without a key is rejected', () => {
    expect(rejection('urn:li:corpuser').message).toContain('username is empty');
  });
});

describe('generic entity types', () => {
  test('an unknown type keys on the whole key text', () => {
    expect(key('urn:li:fooBar:(a,b(c,d))')).toEqual({ aspectName: 'fooBarKey', value: { id: '(a,b(c,d))' } });
    expect(key('urn:li:fooBar:plain')).toEqual({ aspectName: 'fooBarKey', value: { id: 'plain' } });
    expect(key('urn:li:fooBar')).toEqual({ aspectName: 'fooBarKey', value: { id: '' } });
    const spec = entityTypeSpec('fooBar');
    expect(spec).toMatchObject({ tier: 'generic', label: 'Generic', graphqlType: 'OTHER', keyAspect: 'fooBarKey' });
    expect(isModelledEntityType('fooBar')).toBe(false);
  });

  test("a type DataHub knows keys on DataHub's field names", () => {
    expect(key('urn:li:tag:pii')).toEqual({ aspectName: 'tagKey', value: { name: 'pii' } });
    expect(key('urn:li:container:abc123')).toEqual({ aspectName: 'containerKey', value: { guid: 'abc123' } });
    expect(key('urn:li:dataPlatformInstance:(urn:li:dataPlatform:mysql,prod_db)')).toEqual({
      aspectName: 'dataPlatformInstanceKey',
      value: { platform: 'urn:li:dataPlatform:mysql', instance: 'prod_db' },
    });
    expect(entityTypeSpec('tag')).toMatchObject({ tier: 'knownGeneric', label: 'Generic', graphqlType: 'TAG' });
    expect(isModelledEntityType('tag')).toBe(false);
  });

  test('a type DataHub knows still rejects a wrong part count', () => {
    expect(rejection('urn:li:container:(a,b)').message).toContain('expected 1 key part (guid), got 2');
  });

  test('an invalid entity type name is rejected', () => {
    expect(() => entityTypeSpec('Bad-Type')).toThrow(CatalogError);
  });
});

describe('labels and GraphQL types of modelled entities', () => {
  test.each([
    ['dataset', 'Dataset', 'DATASET', 'datasetKey'],
    ['dataJob', 'DataJob', 'DATA_JOB', 'dataJobKey'],
    ['schemaField', 'SchemaField', 'SCHEMA_FIELD', 'schemaFieldKey'],
    ['corpuser', 'Corpuser', 'CORP_USER', 'corpUserKey'],
    ['mlPrimaryKey', 'MlPrimaryKey', 'MLPRIMARY_KEY', 'mlPrimaryKeyKey'],
    ['mlModelGroup', 'MlModelGroup', 'MLMODEL_GROUP', 'mlModelGroupKey'],
    ['dataHubAccessToken', 'DataHubAccessToken', 'ACCESS_TOKEN', 'dataHubAccessTokenKey'],
    ['dataHubRole', 'DataHubRole', 'DATAHUB_ROLE', 'dataHubRoleKey'],
    ['telemetry', 'Telemetry', 'OTHER', 'telemetryKey'],
    ['dataProcess', 'DataProcess', 'OTHER', 'dataProcessKey'],
  ])('%s', (type, label, graphqlType, keyAspect) => {
    expect(entityTypeSpec(type)).toMatchObject({ tier: 'modelled', label, graphqlType, keyAspect });
    expect(isModelledEntityType(type)).toBe(true);
  });

  test('labels are distinct and Generic is among them', () => {
    expect(new Set(entityLabels()).size).toBe(entityLabels().length);
    expect(entityLabels()).toContain('Generic');
    expect(entityLabels()).toHaveLength(modelledEntityTypes().length + 1);
  });
});

describe('EntityType enum ↔ entity name', () => {
  test('enum values are unique and include the newer ones', () => {
    expect(new Set(GRAPHQL_ENTITY_TYPES).size).toBe(GRAPHQL_ENTITY_TYPES.length);
    for (const v of ['VERSION_SET', 'APPLICATION', 'DATAHUB_PAGE_TEMPLATE', 'DATAHUB_PAGE_MODULE', 'DOCUMENT']) {
      expect(GRAPHQL_ENTITY_TYPES).toContain(v);
    }
    expect(GRAPHQL_ENTITY_TYPES.slice(0, 3)).toEqual(['DOMAIN', 'DATASET', 'CORP_USER']);
  });

  test.each([
    ['corpuser', 'CORP_USER'],
    ['corpGroup', 'CORP_GROUP'],
    ['mlModel', 'MLMODEL'],
    ['mlModelGroup', 'MLMODEL_GROUP'],
    ['mlFeatureTable', 'MLFEATURE_TABLE'],
    ['mlFeature', 'MLFEATURE'],
    ['mlPrimaryKey', 'MLPRIMARY_KEY'],
    ['dataHubPolicy', 'DATAHUB_POLICY'],
    ['dataHubRole', 'DATAHUB_ROLE'],
    ['dataHubView', 'DATAHUB_VIEW'],
    ['dataHubAccessToken', 'ACCESS_TOKEN'],
    ['dataJob', 'DATA_JOB'],
    ['schemaField', 'SCHEMA_FIELD'],
    ['dataProcessInstance', 'DATA_PROCESS_INSTANCE'],
    ['dataFlow', 'DATA_FLOW'],
    ['ownershipType', 'CUSTOM_OWNERSHIP_TYPE'],
    ['dataHubIngestionSource', 'INGESTION_SOURCE'],
  ])('%s ↔ %s', (name, value) => {
    expect(entityTypeToGraphql(name)).toBe(value);
    expect(graphqlToEntityType(value)).toBe(name);
  });

  test('every enum value but OTHER round trips through an entity name', () => {
    for (const value of GRAPHQL_ENTITY_TYPES) {
      const name = graphqlToEntityType(value);
      if (value === 'OTHER') {
        expect(name).toBeUndefined();
        continue;
      }
      expect(name).toBeDefined();
      expect(entityTypeToGraphql(name!)).toBe(value);
    }
  });

  test('unknown names and values', () => {
    expect(entityTypeToGraphql('somethingNew')).toBe('OTHER');
    expect(graphqlToEntityType('NOT_A_TYPE')).toBeUndefined();
  });
});

describe('search fields from the key', () => {
  const u = parseUrn;
  test('platformOf', () => {
    expect(platformOf(u('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'))).toBe('urn:li:dataPlatform:hive');
    expect(platformOf(u('urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)'))).toBe('urn:li:dataPlatform:sagemaker');
    expect(platformOf(u('urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,g,PROD)'))).toBe('urn:li:dataPlatform:sagemaker');
    expect(platformOf(u('urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)'))).toBe('urn:li:dataPlatform:feast');
    expect(platformOf(u('urn:li:dataFlow:(airflow,dag,PROD)'))).toBe('urn:li:dataPlatform:airflow');
    expect(platformOf(u('urn:li:dataJob:(urn:li:dataFlow:(spark,app,PROD),task)'))).toBe('urn:li:dataPlatform:spark');
    expect(platformOf(u('urn:li:chart:(looker,look_1)'))).toBe('urn:li:dataPlatform:looker');
    expect(platformOf(u('urn:li:dashboard:(tableau,d)'))).toBe('urn:li:dataPlatform:tableau');
    expect(platformOf(u('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD),f)'))).toBe('urn:li:dataPlatform:kafka');
    expect(platformOf(u('urn:li:schemaField:(urn:li:dashboard:(looker,d),f)'))).toBe('urn:li:dataPlatform:looker');
    expect(platformOf(u('urn:li:corpuser:x'))).toBeUndefined();
    expect(platformOf(u('urn:li:dataset:broken'))).toBeUndefined();
  });

  test('nameOf', () => {
    expect(nameOf(u('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'))).toBe('db.t');
    expect(nameOf(u('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task_1)'))).toBe('task_1');
    expect(nameOf(u('urn:li:dataFlow:(airflow,dag,PROD)'))).toBe('dag');
    expect(nameOf(u('urn:li:chart:(looker,look_1)'))).toBe('look_1');
    expect(nameOf(u('urn:li:dashboard:(looker,dash_1)'))).toBe('dash_1');
    expect(nameOf(u('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),a.b)'))).toBe('a.b');
    expect(nameOf(u('urn:li:mlFeature:(ns,age)'))).toBe('age');
    expect(nameOf(u('urn:li:corpuser:jdoe'))).toBe('jdoe');
    expect(nameOf(u('urn:li:tag:pii'))).toBe('pii');
  });

  test('originOf', () => {
    expect(originOf(u('urn:li:dataset:(urn:li:dataPlatform:hive,t,DEV)'))).toBe('DEV');
    expect(originOf(u('urn:li:mlModel:(urn:li:dataPlatform:s,m,QA)'))).toBe('QA');
    expect(originOf(u('urn:li:dataProcess:(etl,azkaban,PROD)'))).toBe('PROD');
    expect(originOf(u('urn:li:dataFlow:(airflow,dag,PROD)'))).toBeUndefined();
    expect(originOf(u('urn:li:dataset:(urn:li:dataPlatform:hive,t,WRONG)'))).toBeUndefined();
  });

  test('parentOf', () => {
    expect(parentOf(u('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),f)'))?.text).toBe(
      'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
    );
    expect(parentOf(u('urn:li:schemaField:(urn:li:chart:(looker,c1),revenue)'))?.text).toBe('urn:li:chart:(looker,c1)');
    expect(parentOf(u('urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)'))).toBeUndefined();
  });
});

describe('the registry value', () => {
  // A fictional type whose lineage points from datasets: its own label, EntityType value, snapshot
  // class and entity-specific aspect, so every table built from the descriptors has a row of it.
  const GADGET: EntityTypeDescriptor = {
    name: 'gadget',
    keyAspect: 'gadgetKey',
    key: [{ name: 'id', kind: 'string' }],
    graphqlType: 'GADGET',
    snapshot: 'GadgetSnapshot',
    modelled: { label: 'Gadget', displayLabel: 'Gadget', namePart: 'id', colour: '#123456' },
    aspects: { gadgetInfo: { edges: [{ field: 'inputs', shape: 'urnList', type: 'DerivedFrom', to: ['dataset'], lineage: 'upstream' }] } },
  };
  const withGadget = buildEntityRegistry([...BUILT_IN_ENTITY_TYPES, GADGET]);

  test('a registry built with an extra type derives every table of it', () => {
    expect(withGadget.byName.get('gadget')).toBe(GADGET);
    expect(withGadget.graphqlTypes).toContain('GADGET');
    expect(withGadget.nameOfGraphql.get('GADGET')).toBe('gadget');
    expect(withGadget.specs.get('gadget')).toMatchObject({ tier: 'modelled', keyAspect: 'gadgetKey', label: 'Gadget' });
    expect(withGadget.entityLabels).toContain('Gadget');
    expect(withGadget.keyAspectOwner.get('gadgetKey')).toBe('gadget');
    expect(withGadget.aspectOwners.get('gadgetInfo')).toEqual(['gadget']);
    expect(withGadget.snapshotFqcns.get('gadget')).toBe('com.linkedin.metadata.snapshot.GadgetSnapshot');
    expect(withGadget.lineageTriples).toContainEqual({
      sourceType: 'gadget',
      type: 'DerivedFrom',
      destinationType: 'dataset',
      destinationIs: 'upstream',
    });
    expect(withGadget.lineageAspects.has('gadgetInfo')).toBe(true);
    expect(withGadget.pageLooks.get('GADGET')).toEqual({ label: 'Gadget', colour: '#123456' });
    expect(withGadget.defaultSearchTypes).toContain('GADGET');
  });

  test('a search naming no type lists the types taking part in lineage with an EntityType of their own, columns aside', () => {
    // The list read/entity-search.ts kept by hand before it was derived.
    expect([...entityRegistry().defaultSearchTypes].sort()).toEqual([
      'CHART',
      'DASHBOARD',
      'DATASET',
      'DATA_JOB',
      'DATA_PROCESS_INSTANCE',
      'MLFEATURE',
      'MLMODEL',
      'MLMODEL_GROUP',
      'MLPRIMARY_KEY',
    ]);
  });

  test('building one leaves the process registry as it was: the built-in types', () => {
    expect(descriptorOf('gadget')).toBeUndefined();
    expect(entityTypeToGraphql('gadget')).toBe('OTHER');
    expect(entityRegistry().descriptors).toEqual(BUILT_IN_ENTITY_TYPES);
  });

  test('it is frozen', () => {
    expect(Object.isFrozen(withGadget)).toBe(true);
    expect(Object.isFrozen(withGadget.descriptors)).toBe(true);
    expect(Object.isFrozen(withGadget.lineageTriples)).toBe(true);
    expect(Object.isFrozen(withGadget.specs.get('gadget'))).toBe(true);
  });

  test('two descriptors of one name, or edge rules disagreeing on a direction, are refused', () => {
    expect(() => buildEntityRegistry([...BUILT_IN_ENTITY_TYPES, GADGET, GADGET])).toThrow('Entity type gadget is described twice');
    const backwards: EntityTypeDescriptor = {
      ...GADGET,
      aspects: {
        ...GADGET.aspects,
        gadgetOutputs: { edges: [{ field: 'outputs', shape: 'urnList', type: 'DerivedFrom', to: ['dataset'], lineage: 'downstream' }] },
      },
    };
    expect(() => buildEntityRegistry([backwards])).toThrow(
      'Entity types disagree on the lineage direction of gadget -[DerivedFrom]-> dataset',
    );
  });

  test('installing a registry once the process has read one throws, naming the problem', () => {
    entityRegistry();
    expect(() => installEntityRegistry(withGadget)).toThrow(
      /already in use \(first read .*\); install one registry, once, at start-up before anything reads it/,
    );
    expect(descriptorOf('gadget')).toBeUndefined();
  });
});
