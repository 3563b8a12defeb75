import fc from 'fast-check';
import { z } from 'zod';
import { CatalogError } from '../errors.ts';
import { parseUrn } from '../urn.ts';
import {
  aspectFqcn,
  aspectNameOfFqcn,
  aspectSchemas,
  canonicalAspectName,
  isModelledAspect,
  snapshotEntityType,
  snapshotFqcnOf,
  validateAspect,
} from './index.ts';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)';
const UPSTREAM = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)';
const CHART = 'urn:li:chart:(looker,look_1)';
const DASHBOARD = 'urn:li:dashboard:(looker,dash_1)';
const PRIMARY_KEY = 'urn:li:mlPrimaryKey:(user_analytics,user_name)';
const FORBIDDEN_PHRASE = 'unrecognized field found but not allowed';

function rejection(aspectName: string, value: unknown, urn: string): CatalogError {
  try {
    validateAspect(aspectName, value, parseUrn(urn));
  } catch (e) {
    if (e instanceof CatalogError) {
      expect(e.kind).toBe('validation');
      return e;
    }
    throw e;
  }
  throw new Error(`expected ${aspectName} to be rejected`);
}

const stamp = { time: 0, actor: 'urn:li:corpuser:unknown' };
const changeStamps = { created: stamp, lastModified: stamp };

// The lineage tutorial record, exactly as the Python client serialises it (docs/wire-contract.md §Rest.li).
const TUTORIAL_JSON =
  '{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, ' +
  '"dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)", "type": "TRANSFORMED"}], ' +
  '"fineGrainedLineages": [{"upstreamType": "FIELD_SET", ' +
  '"upstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD),user_id)"], ' +
  '"downstreamType": "FIELD", ' +
  '"downstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD),user_id)"], ' +
  '"confidenceScore": 1.0}]}';

describe('validateAspect: accepted values come back unchanged', () => {
  test('the tutorial upstreamLineage', () => {
    const value = JSON.parse(TUTORIAL_JSON);
    const before = structuredClone(value);
    expect(validateAspect('upstreamLineage', value, parseUrn(DATASET))).toBe(value);
    expect(value).toEqual(before);
  });

  test('zod defaults are not applied: an Upstream without auditStamp stays without one', () => {
    const value = { upstreams: [{ dataset: UPSTREAM, type: 'COPY' }] };
    const out = validateAspect('upstreamLineage', value, parseUrn(DATASET)) as typeof value;
    expect(out.upstreams[0]).toEqual({ dataset: UPSTREAM, type: 'COPY' });
  });

  test('unknown fields are kept', () => {
    const value = { upstreams: [{ dataset: UPSTREAM, type: 'VIEW', matchType: 'EXACT' }], extra: { a: 1 } };
    expect(validateAspect('upstreamLineage', value, parseUrn(DATASET))).toEqual(value);
  });

  test.each([
    [
      'dataJobInputOutput',
      JOB,
      {
        inputDatasets: [UPSTREAM],
        outputDatasets: [DATASET],
        inputDatajobs: [JOB],
        inputDatasetEdges: [{ destinationUrn: UPSTREAM, created: stamp, properties: { source: 'UI' } }],
      },
    ],
    [
      'chartInfo',
      CHART,
      {
        title: 't',
        description: 'd',
        lastModified: changeStamps,
        inputs: [{ string: UPSTREAM }],
        inputEdges: [{ destinationUrn: UPSTREAM }],
      },
    ],
    [
      'dashboardInfo',
      DASHBOARD,
      { title: 't', description: 'd', lastModified: changeStamps, charts: [CHART], datasets: [UPSTREAM], dashboards: [] },
    ],
    ['dataJobInfo', JOB, { name: 'task', type: { string: 'COMMAND' }, customProperties: {} }],
    ['mlPrimaryKeyProperties', PRIMARY_KEY, { sources: [UPSTREAM] }],
    ['status', CHART, { removed: true }],
    [
      'schemaMetadata',
      DATASET,
      {
        schemaName: 's',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: [{ fieldPath: 'user_id', type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'string' }],
      },
    ],
    ['corpUserInfo', 'urn:li:corpuser:jdoe', { active: true, displayName: 'J' }],
    ['datasetKey', DATASET, { platform: 'urn:li:dataPlatform:hive', name: 'logging_events', origin: 'PROD' }],
    ['tagKey', 'urn:li:tag:pii', { name: 'pii' }],
    ['fooKey', 'urn:li:foo:(a,b)', { id: '(a,b)' }],
    ['myCustomAspect', DATASET, { anything: [1, 'two', null] }],
    ['constructor', DATASET, { a: 1 }],
  ])('%s', (aspectName, urn, value) => {
    const before = structuredClone(value);
    expect(validateAspect(aspectName, value, parseUrn(urn))).toBe(value);
    expect(value).toEqual(before);
  });
});

describe('validateAspect: rejections name the aspect and the field', () => {
  test('an enum error names the field and the allowed values', () => {
    const value = { upstreams: [{ auditStamp: stamp, dataset: UPSTREAM, type: 'COPIED' }] };
    expect(rejection('upstreamLineage', value, DATASET).message).toBe(
      'Invalid upstreamLineage: upstreams[0].type: expected one of COPY|TRANSFORMED|VIEW',
    );
  });

  test('fine-grained enums too', () => {
    const value = { upstreams: [], fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'COLUMN' }] };
    expect(rejection('upstreamLineage', value, DATASET).message).toBe(
      'Invalid upstreamLineage: fineGrainedLineages[0].downstreamType: expected one of FIELD|FIELD_SET',
    );
  });

  test('a missing required field', () => {
    expect(rejection('dataJobInputOutput', { outputDatasets: [] }, JOB).message).toBe(
      'Invalid dataJobInputOutput: inputDatasets: required field missing (expected array)',
    );
  });

  test('a non-integer long', () => {
    const value = { upstreams: [{ auditStamp: { time: 1.5, actor: 'urn:li:corpuser:x' }, dataset: UPSTREAM, type: 'COPY' }] };
    expect(rejection('upstreamLineage', value, DATASET).message).toContain('upstreams[0].auditStamp.time: expected integer');
  });

  test('a malformed urn', () => {
    const value = { upstreams: [{ dataset: 'urn:li:dataset:(a,b', type: 'COPY' }] };
    expect(rejection('upstreamLineage', value, DATASET).message).toContain(
      "upstreams[0].dataset: 'urn:li:dataset:(a,b' is not a valid urn (mismatched paren nesting)",
    );
  });

  test('a dataset urn with a bad key', () => {
    const bad = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,NOPE)';
    const msg = rejection('upstreamLineage', { upstreams: [{ dataset: bad, type: 'COPY' }] }, DATASET).message;
    expect(msg).toContain('upstreams[0].dataset:');
    expect(msg).toContain("origin 'NOPE' is not a FabricType");
  });

  const wrongKinds: Array<[string, string, unknown, string, string]> = [
    ['upstreamLineage', DATASET, { upstreams: [{ dataset: CHART, type: 'COPY' }] }, 'upstreams[0].dataset', 'dataset'],
    ['dataJobInputOutput', JOB, { inputDatasets: [CHART], outputDatasets: [] }, 'inputDatasets[0]', 'dataset'],
    ['dataJobInputOutput', JOB, { inputDatasets: [], outputDatasets: [UPSTREAM, CHART] }, 'outputDatasets[1]', 'dataset'],
    ['dataJobInputOutput', JOB, { inputDatasets: [], outputDatasets: [], inputDatajobs: [UPSTREAM] }, 'inputDatajobs[0]', 'dataJob'],
    ['dashboardInfo', DASHBOARD, { title: '', description: '', lastModified: changeStamps, charts: [UPSTREAM] }, 'charts[0]', 'chart'],
    ['dashboardInfo', DASHBOARD, { title: '', description: '', lastModified: changeStamps, datasets: [CHART] }, 'datasets[0]', 'dataset'],
    [
      'chartInfo',
      CHART,
      { title: '', description: '', lastModified: changeStamps, inputs: [{ string: CHART }] },
      'inputs[0].string',
      'dataset',
    ],
    ['mlPrimaryKeyProperties', PRIMARY_KEY, { sources: [CHART] }, 'sources[0]', 'dataset'],
  ];
  test.each(wrongKinds)('%s rejects another urn kind in a typed field (%#)', (aspectName, urn, value, path, kind) => {
    const msg = rejection(aspectName, value, urn).message;
    expect(msg).toMatch(new RegExp(`^Invalid ${aspectName}: `));
    expect(msg).toContain(`${path}: expected a ${kind} urn, got '`);
  });

  test('chart inputs must be single-member unions', () => {
    const value = { title: '', description: '', lastModified: changeStamps, inputs: [UPSTREAM] };
    expect(rejection('chartInfo', value, CHART).message).toContain('inputs[0]: expected object, got string');
  });

  test('a key aspect must equal the one derived from the urn', () => {
    const wrong = { platform: 'urn:li:dataPlatform:hive', name: 'other', origin: 'PROD' };
    expect(rejection('datasetKey', wrong, DATASET).message).toContain(`does not match urn ${DATASET}`);
    expect(rejection('fooKey', { id: 'x' }, 'urn:li:foo:y').message).toContain('does not match urn urn:li:foo:y');
    expect(
      rejection('datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'logging_events', origin: 'PROD', x: 1 }, DATASET).message,
    ).toContain('Invalid datasetKey: unexpected field x');
  });

  test("another type's key aspect is rejected", () => {
    expect(rejection('chartKey', { dashboardTool: 'a', chartId: 'b' }, DATASET).message).toContain('key aspect of chart');
  });

  test('an entity-specific aspect on another entity type is rejected', () => {
    const msg = rejection('upstreamLineage', JSON.parse(TUTORIAL_JSON), CHART).message;
    expect(msg).toContain('upstreamLineage is not supported for entity type chart');
  });

  test('the urn itself must have a valid key', () => {
    expect(rejection('status', { removed: false }, 'urn:li:dataset:(urn:li:dataPlatform:hive,t)').message).toContain(
      'expected 3 key parts',
    );
  });

  test.each([
    ['Bad-Name', { a: 1 }, "Invalid aspect name 'Bad-Name'"],
    ['9lives', { a: 1 }, "Invalid aspect name '9lives'"],
    ['myCustomAspect', [1, 2], 'Invalid myCustomAspect: expected a JSON object, got array'],
    ['myCustomAspect', 'text', 'Invalid myCustomAspect: expected a JSON object, got string'],
    ['upstreamLineage', null, 'Invalid upstreamLineage: expected a JSON object, got null'],
  ])('name %s / non-object values', (aspectName, value, message) => {
    expect(rejection(aspectName, value, DATASET).message).toBe(message);
  });
});

describe('validateAspect on arbitrary JSON', () => {
  const urns = [
    DATASET,
    JOB,
    CHART,
    DASHBOARD,
    PRIMARY_KEY,
    'urn:li:dataFlow:(airflow,dag_abc,PROD)',
    'urn:li:mlFeature:(ns,f)',
    'urn:li:mlModel:(urn:li:dataPlatform:s,m,PROD)',
    'urn:li:corpuser:u',
    'urn:li:dataProcessInstance:p',
    'urn:li:tag:t',
    'urn:li:foo:bar',
  ].map(parseUrn);

  // Objects with the schema's own field names reach deep into the schema; plain JSON mostly
  // fails at the top.
  function arbitraryFor(schema: z.ZodType): fc.Arbitrary<unknown> {
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    const keyed = shape ? fc.dictionary(fc.constantFrom(...Object.keys(shape)), fc.jsonValue({ maxDepth: 4 })) : fc.constant({});
    return fc.oneof(fc.jsonValue({ maxDepth: 4 }), keyed);
  }

  test.each([...aspectSchemas().keys()])('%s: only validation errors, never the forbidden phrase', (aspectName) => {
    const schema = aspectSchemas().get(aspectName)!;
    fc.assert(
      fc.property(arbitraryFor(schema), fc.constantFrom(...urns), (value, urn) => {
        try {
          expect(validateAspect(aspectName, value, urn)).toBe(value);
        } catch (e) {
          if (!(e instanceof CatalogError) || e.kind !== 'validation') throw e;
          if (e.message.includes(FORBIDDEN_PHRASE)) throw e;
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('aspect names ↔ FQCN', () => {
  // Class names as in docs/wire-contract.md §Rest.li, verified against acryl-datahub 1.7.0.17.
  const table: Array<[string, string]> = [
    ['upstreamLineage', 'com.linkedin.dataset.UpstreamLineage'],
    ['datasetProperties', 'com.linkedin.dataset.DatasetProperties'],
    ['schemaMetadata', 'com.linkedin.schema.SchemaMetadata'],
    ['status', 'com.linkedin.common.Status'],
    ['subTypes', 'com.linkedin.common.SubTypes'],
    ['ownership', 'com.linkedin.common.Ownership'],
    ['globalTags', 'com.linkedin.common.GlobalTags'],
    ['glossaryTerms', 'com.linkedin.common.GlossaryTerms'],
    ['browsePathsV2', 'com.linkedin.common.BrowsePathsV2'],
    ['dataPlatformInstance', 'com.linkedin.common.DataPlatformInstance'],
    ['inputFields', 'com.linkedin.common.InputFields'],
    ['container', 'com.linkedin.container.Container'],
    ['dataJobInputOutput', 'com.linkedin.datajob.DataJobInputOutput'],
    ['dataJobInfo', 'com.linkedin.datajob.DataJobInfo'],
    ['dataFlowInfo', 'com.linkedin.datajob.DataFlowInfo'],
    ['chartInfo', 'com.linkedin.chart.ChartInfo'],
    ['dashboardInfo', 'com.linkedin.dashboard.DashboardInfo'],
    ['mlFeatureProperties', 'com.linkedin.ml.metadata.MLFeatureProperties'],
    ['mlPrimaryKeyProperties', 'com.linkedin.ml.metadata.MLPrimaryKeyProperties'],
    ['mlModelProperties', 'com.linkedin.ml.metadata.MLModelProperties'],
    ['mlModelGroupProperties', 'com.linkedin.ml.metadata.MLModelGroupProperties'],
    ['mlFeatureTableProperties', 'com.linkedin.ml.metadata.MLFeatureTableProperties'],
    ['dataProcessInstanceInput', 'com.linkedin.dataprocess.DataProcessInstanceInput'],
    ['dataProcessInstanceOutput', 'com.linkedin.dataprocess.DataProcessInstanceOutput'],
    ['corpUserInfo', 'com.linkedin.identity.CorpUserInfo'],
    ['roleMembership', 'com.linkedin.identity.RoleMembership'],
    ['dataPlatformInfo', 'com.linkedin.dataplatform.DataPlatformInfo'],
    ['telemetryClientId', 'com.linkedin.telemetry.TelemetryClientId'],
    ['datasetKey', 'com.linkedin.metadata.key.DatasetKey'],
    ['dataJobKey', 'com.linkedin.metadata.key.DataJobKey'],
    ['dataFlowKey', 'com.linkedin.metadata.key.DataFlowKey'],
    ['schemaFieldKey', 'com.linkedin.metadata.key.SchemaFieldKey'],
    ['mlPrimaryKeyKey', 'com.linkedin.metadata.key.MLPrimaryKeyKey'],
    ['mlFeatureKey', 'com.linkedin.metadata.key.MLFeatureKey'],
    ['mlModelKey', 'com.linkedin.metadata.key.MLModelKey'],
    ['mlModelGroupKey', 'com.linkedin.metadata.key.MLModelGroupKey'],
    ['mlFeatureTableKey', 'com.linkedin.metadata.key.MLFeatureTableKey'],
    ['corpUserKey', 'com.linkedin.metadata.key.CorpUserKey'],
    ['corpGroupKey', 'com.linkedin.metadata.key.CorpGroupKey'],
    ['dataHubAccessTokenKey', 'com.linkedin.metadata.key.DataHubAccessTokenKey'],
    ['dataHubRoleKey', 'com.linkedin.metadata.key.DataHubRoleKey'],
    ['queryKey', 'com.linkedin.metadata.key.QueryKey'],
    ['telemetryKey', 'com.linkedin.metadata.key.TelemetryKey'],
    ['dataPlatformKey', 'com.linkedin.metadata.key.DataPlatformKey'],
  ];
  test.each(table)('%s ↔ %s', (name, fqcn) => {
    expect(aspectFqcn(name)).toBe(fqcn);
    expect(aspectNameOfFqcn(fqcn)).toBe(name);
  });

  test('every modelled aspect has an FQCN that round trips', () => {
    for (const name of aspectSchemas().keys()) {
      const fqcn = aspectFqcn(name);
      expect(fqcn).toMatch(/^com\.linkedin\./);
      expect(aspectNameOfFqcn(fqcn!)).toBe(name);
    }
  });

  test('unknown names and classes', () => {
    expect(aspectFqcn('myCustomAspect')).toBeUndefined();
    expect(aspectFqcn('constructor')).toBeUndefined();
    expect(aspectNameOfFqcn('com.example.Nope')).toBeUndefined();
    expect(isModelledAspect('myCustomAspect')).toBe(false);
    expect(isModelledAspect('upstreamLineage')).toBe(true);
  });
});

describe("canonicalAspectName (the OpenAPI paths DataHub's generated spec lower-cases)", () => {
  test.each([
    ['datasetproperties', 'datasetProperties'],
    ['GLOBALTAGS', 'globalTags'],
    ['globalTags', 'globalTags'],
    ['datasetkey', 'datasetKey'],
    ['browsepathsv2', 'browsePathsV2'],
    ['editabledatasetproperties', 'editableDatasetProperties'],
  ])('%s → %s', (asked, stored) => {
    expect(canonicalAspectName(asked)).toBe(stored);
  });

  test('a name the catalog does not know is kept as sent', () => {
    expect(canonicalAspectName('myCustomAspect')).toBe('myCustomAspect');
    expect(canonicalAspectName('mycustomaspect')).toBe('mycustomaspect');
    expect(canonicalAspectName('constructor')).toBe('constructor');
  });
});

describe('snapshot classes', () => {
  test.each([
    ['DatasetSnapshot', 'dataset'],
    ['DataJobSnapshot', 'dataJob'],
    ['DataFlowSnapshot', 'dataFlow'],
    ['ChartSnapshot', 'chart'],
    ['DashboardSnapshot', 'dashboard'],
    ['MLFeatureSnapshot', 'mlFeature'],
    ['MLPrimaryKeySnapshot', 'mlPrimaryKey'],
    ['MLModelSnapshot', 'mlModel'],
    ['MLModelGroupSnapshot', 'mlModelGroup'],
    ['MLFeatureTableSnapshot', 'mlFeatureTable'],
    ['CorpUserSnapshot', 'corpuser'],
    ['CorpGroupSnapshot', 'corpGroup'],
    ['DataPlatformSnapshot', 'dataPlatform'],
    ['DataProcessSnapshot', 'dataProcess'],
    ['SchemaFieldSnapshot', 'schemaField'],
    ['TagSnapshot', 'tag'],
  ])('%s ↔ %s', (cls, type) => {
    const fqcn = `com.linkedin.metadata.snapshot.${cls}`;
    expect(snapshotEntityType(fqcn)).toBe(type);
    expect(snapshotFqcnOf(type)).toBe(fqcn);
  });

  test('the 21 members of the Snapshot union all have an entity type', () => {
    const members = [
      'ChartSnapshot',
      'CorpGroupSnapshot',
      'CorpUserSnapshot',
      'DashboardSnapshot',
      'DataFlowSnapshot',
      'DataHubPolicySnapshot',
      'DataHubRetentionSnapshot',
      'DataJobSnapshot',
      'DataPlatformSnapshot',
      'DataProcessSnapshot',
      'DatasetSnapshot',
      'GlossaryNodeSnapshot',
      'GlossaryTermSnapshot',
      'MLFeatureSnapshot',
      'MLFeatureTableSnapshot',
      'MLModelDeploymentSnapshot',
      'MLModelGroupSnapshot',
      'MLModelSnapshot',
      'MLPrimaryKeySnapshot',
      'SchemaFieldSnapshot',
      'TagSnapshot',
    ];
    for (const cls of members) expect(snapshotEntityType(`com.linkedin.metadata.snapshot.${cls}`)).toBeDefined();
  });

  test('unknown', () => {
    expect(snapshotEntityType('com.linkedin.metadata.snapshot.QuerySnapshot')).toBeUndefined();
    expect(snapshotFqcnOf('query')).toBeUndefined();
  });
});
