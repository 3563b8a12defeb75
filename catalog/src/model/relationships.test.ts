import {
  deriveEdges,
  deriveRow,
  edgeKey,
  hasLineage,
  isLineageAspect,
  lineageDirectionOf,
  lineageTriples,
  RELATIONSHIP_TYPES,
  type DerivedEdge,
  type LineageEnd,
} from './relationships.ts';
import { entityTypeDescriptors } from './entity-registry.ts';
import { parseUrn } from './urn.ts';

const WRITE_TIME = 1700000000000;
const WRITER = 'urn:li:corpuser:ingestion';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const field = (dataset: string, path: string) => `urn:li:schemaField:(${ds(dataset)},${path})`;
const flow = 'urn:li:dataFlow:(airflow,dag_abc,PROD)';
const job = (id: string) => `urn:li:dataJob:(${flow},${id})`;
const chart = (id: string) => `urn:li:chart:(looker,${id})`;
const dash = (id: string) => `urn:li:dashboard:(looker,${id})`;
const feature = (name: string) => `urn:li:mlFeature:(user_features,${name})`;
const primaryKey = (name: string) => `urn:li:mlPrimaryKey:(user_features,${name})`;
const featureTable = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)';
const model = (name: string) => `urn:li:mlModel:(urn:li:dataPlatform:sagemaker,${name},PROD)`;
const modelGroup = (name: string) => `urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,${name},PROD)`;
const deployment = 'urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,endpoint,PROD)';
const dpi = (id: string) => `urn:li:dataProcessInstance:${id}`;
const legacyProcess = 'urn:li:dataProcess:(etl,azkaban,PROD)';

function derive(urn: string, aspectName: string, value: unknown, writeTime = WRITE_TIME): DerivedEdge[] {
  const entityType = urn.split(':')[2]!;
  return deriveEdges({ urn, entityType, aspectName, value, writeTime, actor: WRITER });
}

/** What the write path derives from one row of `urn`: its edges and lineage references. */
function deriveWritten(urn: string, aspectName: string, value: unknown) {
  return deriveRow(parseUrn(urn), aspectName, { value, systemMetadata: { lastObserved: WRITE_TIME }, createdBy: WRITER });
}
const references = (urn: string, aspectName: string, value: unknown) => deriveWritten(urn, aspectName, value).references;

/** [type, source, destination, which end the destination is in lineage, or null]. */
type Row = [string, string, string, 'upstream' | 'downstream' | null];
function rows(edges: DerivedEdge[]): Row[] {
  return edges.map((e) => [
    e.type,
    e.source,
    e.destination,
    e.lineage === null ? null : e.lineage.upstream === e.destination ? 'upstream' : 'downstream',
  ]);
}
const sorted = <T>(xs: T[]) => [...xs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const edgeTo = (destinationUrn: string, extra: Record<string, unknown> = {}) => ({ destinationUrn, ...extra });

describe('the derivation table, one row at a time', () => {
  const cases: Array<[string, string, string, unknown, Row[]]> = [
    [
      'dataset upstreamLineage upstreams[].dataset',
      ds('a'),
      'upstreamLineage',
      { upstreams: [{ dataset: ds('u'), type: 'COPY' }] },
      [['DownstreamOf', ds('a'), ds('u'), 'upstream']],
    ],
    [
      'dataJob inputDatasets',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [ds('in')], outputDatasets: [] },
      [['Consumes', job('j'), ds('in'), 'upstream']],
    ],
    [
      'dataJob inputDatasetEdges',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [], inputDatasetEdges: [edgeTo(ds('in'))] },
      [['Consumes', job('j'), ds('in'), 'upstream']],
    ],
    [
      'dataJob outputDatasets',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [ds('out')] },
      [['Produces', job('j'), ds('out'), 'downstream']],
    ],
    [
      'dataJob outputDatasetEdges',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [], outputDatasetEdges: [edgeTo(ds('out'))] },
      [['Produces', job('j'), ds('out'), 'downstream']],
    ],
    [
      'dataJob inputDatajobs',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [], inputDatajobs: [job('prev')] },
      [['DownstreamOf', job('j'), job('prev'), 'upstream']],
    ],
    [
      'dataJob inputDatajobEdges',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [], inputDatajobEdges: [edgeTo(job('prev'))] },
      [['DownstreamOf', job('j'), job('prev'), 'upstream']],
    ],
    [
      'dataJob inputDatasetFields / outputDatasetFields',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [], inputDatasetFields: [field('in', 'c')], outputDatasetFields: [field('out', 'c')] },
      [
        ['Consumes', job('j'), field('in', 'c'), null],
        ['Produces', job('j'), field('out', 'c'), null],
      ],
    ],
    ['dataJob dataJobKey.flow', job('j'), 'dataJobKey', { flow, jobId: 'j' }, [['IsPartOf', job('j'), flow, null]]],
    [
      'chart chartInfo inputs[] ({"string": urn})',
      chart('c'),
      'chartInfo',
      { title: 't', description: '', lastModified: {}, inputs: [{ string: ds('src') }] },
      [['Consumes', chart('c'), ds('src'), 'upstream']],
    ],
    [
      'chart chartInfo inputEdges (dataset, chart)',
      chart('c'),
      'chartInfo',
      { title: 't', description: '', lastModified: {}, inputEdges: [edgeTo(ds('src')), edgeTo(chart('base'))] },
      [
        ['Consumes', chart('c'), ds('src'), 'upstream'],
        ['Consumes', chart('c'), chart('base'), 'upstream'],
      ],
    ],
    [
      "chart inputFields: the chart's own field is downstream of its input field",
      chart('c'),
      'inputFields',
      { fields: [{ schemaFieldUrn: field('src', 'x'), schemaField: { fieldPath: 'x' } }] },
      [
        ['consumesField', chart('c'), field('src', 'x'), null],
        ['DownstreamOf', `urn:li:schemaField:(${chart('c')},x)`, field('src', 'x'), 'upstream'],
      ],
    ],
    [
      "chart inputFields: urn characters in the chart's fieldPath are encoded as DataHub does",
      chart('c'),
      'inputFields',
      { fields: [{ schemaFieldUrn: field('src', 'x'), schemaField: { fieldPath: 'sum(x, y)' } }] },
      [
        ['consumesField', chart('c'), field('src', 'x'), null],
        ['DownstreamOf', `urn:li:schemaField:(${chart('c')},sum%28x%2C y%29)`, field('src', 'x'), 'upstream'],
      ],
    ],
    [
      'dashboard inputFields',
      dash('d'),
      'inputFields',
      { fields: [{ schemaFieldUrn: field('src', 'x') }] },
      [['consumesField', dash('d'), field('src', 'x'), null]],
    ],
    [
      'dashboard charts / chartEdges',
      dash('d'),
      'dashboardInfo',
      { title: 't', description: '', lastModified: {}, charts: [chart('c1')], chartEdges: [edgeTo(chart('c2'))], datasets: [] },
      [
        ['Contains', dash('d'), chart('c1'), 'upstream'],
        ['Contains', dash('d'), chart('c2'), 'upstream'],
      ],
    ],
    [
      'dashboard datasets / datasetEdges',
      dash('d'),
      'dashboardInfo',
      { title: 't', description: '', lastModified: {}, charts: [], datasets: [ds('x')], datasetEdges: [edgeTo(ds('y'))] },
      [
        ['Consumes', dash('d'), ds('x'), 'upstream'],
        ['Consumes', dash('d'), ds('y'), 'upstream'],
      ],
    ],
    [
      'dashboard dashboards[].destinationUrn',
      dash('d'),
      'dashboardInfo',
      { title: 't', description: '', lastModified: {}, charts: [], datasets: [], dashboards: [edgeTo(dash('inner'))] },
      [['DashboardContainsDashboard', dash('d'), dash('inner'), 'upstream']],
    ],
    [
      'mlFeature sources',
      feature('age'),
      'mlFeatureProperties',
      { sources: [ds('users')] },
      [['DerivedFrom', feature('age'), ds('users'), 'upstream']],
    ],
    [
      'mlPrimaryKey sources',
      primaryKey('id'),
      'mlPrimaryKeyProperties',
      { sources: [ds('users')] },
      [['DerivedFrom', primaryKey('id'), ds('users'), 'upstream']],
    ],
    [
      'mlFeatureTable mlFeatures / mlPrimaryKeys',
      featureTable,
      'mlFeatureTableProperties',
      { mlFeatures: [feature('age')], mlPrimaryKeys: [primaryKey('id')] },
      [
        ['Contains', featureTable, feature('age'), null],
        ['KeyedBy', featureTable, primaryKey('id'), null],
      ],
    ],
    [
      'mlModel mlFeatures',
      model('m'),
      'mlModelProperties',
      { mlFeatures: [feature('age')] },
      [['Consumes', model('m'), feature('age'), 'upstream']],
    ],
    [
      'mlModel trainingJobs (dataJob, DPI)',
      model('m'),
      'mlModelProperties',
      { trainingJobs: [job('train'), dpi('run1')] },
      [
        ['TrainedBy', model('m'), job('train'), 'upstream'],
        ['TrainedBy', model('m'), dpi('run1'), 'upstream'],
      ],
    ],
    [
      'mlModelGroup trainingJobs (dataJob, DPI)',
      modelGroup('g'),
      'mlModelGroupProperties',
      { trainingJobs: [job('train'), dpi('run1')] },
      [
        ['TrainedBy', modelGroup('g'), job('train'), 'upstream'],
        ['TrainedBy', modelGroup('g'), dpi('run1'), 'upstream'],
      ],
    ],
    [
      'mlModel downstreamJobs (dataJob, DPI)',
      model('m'),
      'mlModelProperties',
      { downstreamJobs: [job('score'), dpi('run2')] },
      [
        ['UsedBy', model('m'), job('score'), 'downstream'],
        ['UsedBy', model('m'), dpi('run2'), 'downstream'],
      ],
    ],
    [
      'mlModelGroup downstreamJobs (dataJob, DPI)',
      modelGroup('g'),
      'mlModelGroupProperties',
      { downstreamJobs: [job('score'), dpi('run2')] },
      [
        ['UsedBy', modelGroup('g'), job('score'), 'downstream'],
        ['UsedBy', modelGroup('g'), dpi('run2'), 'downstream'],
      ],
    ],
    [
      'mlModel groups',
      model('m'),
      'mlModelProperties',
      { groups: [modelGroup('g')] },
      [['MemberOf', model('m'), modelGroup('g'), 'downstream']],
    ],
    ['mlModel deployments', model('m'), 'mlModelProperties', { deployments: [deployment] }, [['DeployedTo', model('m'), deployment, null]]],
    [
      'DPI inputs (dataset, mlModel) — not lineage',
      dpi('r'),
      'dataProcessInstanceInput',
      { inputs: [ds('in'), model('m')] },
      [
        ['Consumes', dpi('r'), ds('in'), null],
        ['Consumes', dpi('r'), model('m'), null],
      ],
    ],
    [
      'DPI inputEdges (dataset, mlModel, DPI)',
      dpi('r'),
      'dataProcessInstanceInput',
      { inputs: [], inputEdges: [edgeTo(ds('in')), edgeTo(model('m')), edgeTo(dpi('prev'))] },
      [
        ['DataProcessInstanceConsumes', dpi('r'), ds('in'), 'upstream'],
        ['DataProcessInstanceConsumes', dpi('r'), model('m'), 'upstream'],
        ['DataProcessInstanceConsumes', dpi('r'), dpi('prev'), 'upstream'],
      ],
    ],
    [
      'DPI outputs (dataset, mlModel) — not lineage',
      dpi('r'),
      'dataProcessInstanceOutput',
      { outputs: [ds('out'), model('m')] },
      [
        ['Produces', dpi('r'), ds('out'), null],
        ['Produces', dpi('r'), model('m'), null],
      ],
    ],
    [
      'DPI outputEdges (dataset, mlModel, DPI)',
      dpi('r'),
      'dataProcessInstanceOutput',
      { outputs: [], outputEdges: [edgeTo(ds('out')), edgeTo(model('m')), edgeTo(dpi('next'))] },
      [
        ['DataProcessInstanceProduces', dpi('r'), ds('out'), 'downstream'],
        ['DataProcessInstanceProduces', dpi('r'), model('m'), 'downstream'],
        ['DataProcessInstanceProduces', dpi('r'), dpi('next'), 'downstream'],
      ],
    ],
    [
      'DPI relationships parentTemplate / parentInstance / upstreamInstances',
      dpi('r'),
      'dataProcessInstanceRelationships',
      { parentTemplate: job('j'), parentInstance: dpi('parent'), upstreamInstances: [dpi('up')] },
      [
        ['InstanceOf', dpi('r'), job('j'), null],
        ['ChildOf', dpi('r'), dpi('parent'), null],
        ['UpstreamOf', dpi('r'), dpi('up'), null],
      ],
    ],
    [
      'DPI parentTemplate may be a dataFlow or a dataset',
      dpi('r'),
      'dataProcessInstanceRelationships',
      { parentTemplate: flow },
      [['InstanceOf', dpi('r'), flow, null]],
    ],
    [
      'globalTags, glossaryTerms and ownership, on any entity type',
      chart('c'),
      'globalTags',
      { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] },
      [
        ['TaggedWith', chart('c'), 'urn:li:tag:pii', null],
        ['TaggedWith', chart('c'), 'urn:li:tag:gold', null],
      ],
    ],
    [
      'glossaryTerms',
      job('j'),
      'glossaryTerms',
      { terms: [{ urn: 'urn:li:glossaryTerm:revenue' }], auditStamp: {} },
      [['TermedWith', job('j'), 'urn:li:glossaryTerm:revenue', null]],
    ],
    [
      'ownership',
      ds('o'),
      'ownership',
      {
        owners: [
          { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' },
          { owner: 'urn:li:corpGroup:eng', type: 'DATAOWNER' },
        ],
      },
      [
        ['OwnedBy', ds('o'), 'urn:li:corpuser:jdoe', null],
        ['OwnedBy', ds('o'), 'urn:li:corpGroup:eng', null],
      ],
    ],
    [
      'schemaMetadata field tags and terms: one edge per distinct tag of the dataset',
      ds('s'),
      'schemaMetadata',
      {
        schemaName: 's',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: {},
        fields: [
          {
            fieldPath: 'a',
            nativeDataType: 'int',
            type: {},
            globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
            glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:id' }] },
          },
          { fieldPath: 'b', nativeDataType: 'int', type: {}, globalTags: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:raw' }] } },
        ],
      },
      [
        ['SchemaFieldTaggedWith', ds('s'), 'urn:li:tag:pii', null],
        ['SchemaFieldTaggedWith', ds('s'), 'urn:li:tag:raw', null],
        ['SchemaFieldWithGlossaryTerm', ds('s'), 'urn:li:glossaryTerm:id', null],
      ],
    ],
    [
      'legacy dataProcess inputs and outputs are both Consumes, both upstream',
      legacyProcess,
      'dataProcessInfo',
      { inputs: [ds('in')], outputs: [ds('out')] },
      [
        ['Consumes', legacyProcess, ds('in'), 'upstream'],
        ['Consumes', legacyProcess, ds('out'), 'upstream'],
      ],
    ],
    [
      "a user's groups, from LDAP and native, are its group edges (a non-group urn derives none)",
      'urn:li:corpuser:alice',
      'groupMembership',
      { groups: ['urn:li:corpGroup:analysts', 'urn:li:corpuser:bob'] },
      [['IsMemberOfGroup', 'urn:li:corpuser:alice', 'urn:li:corpGroup:analysts', null]],
    ],
    [
      'native group membership',
      'urn:li:corpuser:alice',
      'nativeGroupMembership',
      { nativeGroups: ['urn:li:corpGroup:admins'] },
      [['IsMemberOfNativeGroup', 'urn:li:corpuser:alice', 'urn:li:corpGroup:admins', null]],
    ],
  ];

  test.each(cases)('%s', (_label, urn, aspect, value, expected) => {
    expect(sorted(rows(derive(urn, aspect, value)))).toEqual(sorted(expected));
  });

  test('every relationship type is emitted by some row', () => {
    const emitted = new Set(cases.flatMap(([, urn, aspect, value]) => derive(urn, aspect, value).map((e) => e.type)));
    emitted.add('DownstreamOf'); // fine-grained only repeats a type already covered
    expect([...emitted].sort()).toEqual([...RELATIONSHIP_TYPES].sort());
  });

  test('aspects and owners outside the table derive nothing', () => {
    expect(derive(ds('a'), 'datasetProperties', { name: 'x' })).toEqual([]);
    // dataJobInfo.flowUrn creates nothing: the flow link is dataJobKey's IsPartOf.
    expect(derive(job('j'), 'dataJobInfo', { name: 'j', type: 'COMMAND', flowUrn: flow })).toEqual([]);
    // Right aspect name, wrong owner type.
    expect(derive(ds('a'), 'dataJobInputOutput', { inputDatasets: [ds('b')], outputDatasets: [] })).toEqual([]);
    expect(derive(ds('a'), 'upstreamLineage', null)).toEqual([]);
  });

  test('an entityType that disagrees with the urn is a validation error', () => {
    expect(() =>
      deriveEdges({ urn: ds('a'), entityType: 'dataJob', aspectName: 'dataJobInputOutput', value: {}, writeTime: 1, actor: WRITER }),
    ).toThrow(expect.objectContaining({ kind: 'validation' }));
  });
});

describe('destination type checks', () => {
  test('urns of an unlisted type in generic Edge and urn fields yield no edge', () => {
    const chartEdges = derive(chart('c'), 'chartInfo', {
      inputEdges: [edgeTo(dash('d')), edgeTo(job('j')), edgeTo(ds('ok'))],
    });
    expect(rows(chartEdges)).toEqual([['Consumes', chart('c'), ds('ok'), 'upstream']]);
    const dpiEdges = derive(dpi('r'), 'dataProcessInstanceInput', { inputs: [job('j')], inputEdges: [edgeTo(chart('c'))] });
    expect(dpiEdges).toEqual([]);
    expect(derive(model('m'), 'mlModelProperties', { trainingJobs: [flow], groups: [model('other')] })).toEqual([]);
  });

  test('typed fields holding another kind (already rejected by validation) are skipped, not thrown', () => {
    expect(derive(ds('a'), 'upstreamLineage', { upstreams: [{ dataset: job('j'), type: 'COPY' }] })).toEqual([]);
    expect(derive(job('j'), 'dataJobKey', { flow: ds('x') })).toEqual([]);
  });

  test('unparseable urns and non-string members are skipped', () => {
    const edges = derive(job('j'), 'dataJobInputOutput', {
      inputDatasets: ['not-a-urn', 42, null, 'urn:li:dataset:(a,b', ds('ok')],
      outputDatasets: [],
      inputDatasetEdges: [{}, { destinationUrn: 7 }, 'urn:li:dataset:x'],
    });
    expect(rows(edges)).toEqual([['Consumes', job('j'), ds('ok'), 'upstream']]);
  });

  test('urns are stored in canonical form', () => {
    const edges = derive('urn:li:chart:(looker,c)', 'chartInfo', {
      inputs: [{ string: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)' }],
    });
    const single = derive(ds('a'), 'upstreamLineage', {
      upstreams: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)', type: 'COPY', query: 'urn:li:query:(q1)' }],
    });
    expect(edges[0]!.destination).toBe(ds('t'));
    expect(single[0]!.via).toBe('urn:li:query:q1');
  });
});

describe('stamps and provenance', () => {
  test('Upstream: created from created, updated from auditStamp, properties, via from query, manual from source=UI', () => {
    const [edge] = derive(ds('a'), 'upstreamLineage', {
      upstreams: [
        {
          dataset: ds('u'),
          type: 'TRANSFORMED',
          created: { time: 100, actor: 'urn:li:corpuser:alice' },
          auditStamp: { time: 200, actor: 'urn:li:corpuser:bob' },
          properties: { source: 'UI', note: 'x' },
          query: 'urn:li:query:q1',
        },
      ],
    });
    expect(edge).toMatchObject({
      createdOn: 100,
      createdActor: 'urn:li:corpuser:alice',
      updatedOn: 200,
      updatedActor: 'urn:li:corpuser:bob',
      properties: { source: 'UI', note: 'x' },
      via: 'urn:li:query:q1',
      manual: true,
      owner: ds('a'),
      aspect: 'upstreamLineage',
    });
  });

  test('Edge: created from created, updated from lastModified; each stamp falls back on its own', () => {
    const [edge] = derive(job('j'), 'dataJobInputOutput', {
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [
        { destinationUrn: ds('in'), lastModified: { time: 300, actor: 'urn:li:corpuser:bob' }, properties: { source: 'ingest' } },
      ],
    });
    expect(edge).toMatchObject({
      createdOn: WRITE_TIME,
      createdActor: WRITER,
      updatedOn: 300,
      updatedActor: 'urn:li:corpuser:bob',
      properties: { source: 'ingest' },
      via: null,
      manual: false,
    });
  });

  test('a 0 time takes the write time but a real actor is kept; a missing actor takes the writer', () => {
    const [edge] = derive(dash('d'), 'dashboardInfo', {
      charts: [],
      datasets: [],
      chartEdges: [{ destinationUrn: chart('c'), created: { time: 0, actor: 'urn:li:corpuser:alice' }, lastModified: { time: 5 } }],
    });
    expect(edge).toMatchObject({ createdOn: WRITE_TIME, createdActor: 'urn:li:corpuser:alice', updatedOn: 5, updatedActor: WRITER });
  });

  test('plain urn lists carry the write time and the writer for both stamps', () => {
    const [edge] = derive(feature('f'), 'mlFeatureProperties', { sources: [ds('s')] });
    expect(edge).toMatchObject({
      createdOn: WRITE_TIME,
      createdActor: WRITER,
      updatedOn: WRITE_TIME,
      updatedActor: WRITER,
      properties: null,
      via: null,
      manual: false,
    });
  });

  test('a write without lastObserved leaves the fallback times null', () => {
    const [edge] = derive(feature('f'), 'mlFeatureProperties', { sources: [ds('s')] }, 0);
    expect(edge).toMatchObject({ createdOn: null, updatedOn: null, createdActor: WRITER, updatedActor: WRITER });
  });

  test('non-string property values are dropped; the map is otherwise kept', () => {
    const [edge] = derive(chart('c'), 'chartInfo', { inputEdges: [edgeTo(ds('s'), { properties: { source: 'UI', n: 1 } })] });
    expect(edge!.properties).toEqual({ source: 'UI' });
    expect(edge!.manual).toBe(true);
  });
});

describe('deprecated arrays and their *Edges replacements', () => {
  test('a urn named by both yields one edge, and the Edge-typed entry supplies stamps and properties', () => {
    const edges = derive(job('j'), 'dataJobInputOutput', {
      inputDatasets: [ds('a'), ds('b')],
      outputDatasets: [],
      inputDatasetEdges: [edgeTo(ds('a'), { created: { time: 10, actor: 'urn:li:corpuser:alice' }, properties: { source: 'UI' } })],
    });
    expect(rows(edges)).toEqual([
      ['Consumes', job('j'), ds('a'), 'upstream'],
      ['Consumes', job('j'), ds('b'), 'upstream'],
    ]);
    expect(edges[0]).toMatchObject({ createdOn: 10, createdActor: 'urn:li:corpuser:alice', properties: { source: 'UI' }, manual: true });
    expect(edges[1]).toMatchObject({ createdOn: WRITE_TIME, properties: null, manual: false });
  });

  test.each([
    [
      'chart inputs + inputEdges',
      chart('c'),
      'chartInfo',
      { inputs: [{ string: ds('s') }], inputEdges: [edgeTo(ds('s'), { properties: { k: 'v' } })] },
    ],
    [
      'dashboard charts + chartEdges',
      dash('d'),
      'dashboardInfo',
      { charts: [chart('c')], chartEdges: [edgeTo(chart('c'), { properties: { k: 'v' } })], datasets: [] },
    ],
    [
      'dashboard datasets + datasetEdges',
      dash('d'),
      'dashboardInfo',
      { charts: [], datasets: [ds('s')], datasetEdges: [edgeTo(ds('s'), { properties: { k: 'v' } })] },
    ],
    [
      'job inputDatajobs + inputDatajobEdges',
      job('j'),
      'dataJobInputOutput',
      {
        inputDatasets: [],
        outputDatasets: [],
        inputDatajobs: [job('p')],
        inputDatajobEdges: [edgeTo(job('p'), { properties: { k: 'v' } })],
      },
    ],
    [
      'job outputDatasets + outputDatasetEdges',
      job('j'),
      'dataJobInputOutput',
      { inputDatasets: [], outputDatasets: [ds('o')], outputDatasetEdges: [edgeTo(ds('o'), { properties: { k: 'v' } })] },
    ],
  ])('%s', (_label, urn, aspect, value) => {
    const edges = derive(urn, aspect, value);
    expect(edges).toHaveLength(1);
    expect(edges[0]!.properties).toEqual({ k: 'v' });
  });

  test('repeated entries of one array collapse to the first', () => {
    const edges = derive(ds('a'), 'upstreamLineage', {
      upstreams: [
        { dataset: ds('u'), type: 'COPY', properties: { n: '1' } },
        { dataset: ds('u'), type: 'VIEW', properties: { n: '2' } },
      ],
    });
    expect(edges).toHaveLength(1);
    expect(edges[0]!.properties).toEqual({ n: '1' });
  });

  test('DPI inputs and inputEdges are different relationships and both stay; only the Edge one is lineage', () => {
    const edges = derive(dpi('r'), 'dataProcessInstanceInput', { inputs: [ds('s')], inputEdges: [edgeTo(ds('s'))] });
    expect(sorted(rows(edges))).toEqual(
      sorted<Row>([
        ['Consumes', dpi('r'), ds('s'), null],
        ['DataProcessInstanceConsumes', dpi('r'), ds('s'), 'upstream'],
      ]),
    );
  });

  test('the dataProcess quirk: a dataset in both inputs and outputs is one Consumes edge', () => {
    expect(derive(legacyProcess, 'dataProcessInfo', { inputs: [ds('s')], outputs: [ds('s')] })).toHaveLength(1);
  });
});

describe('fine-grained (column) lineage', () => {
  test('one DownstreamOf per downstream × upstream pair, via = the entry query, no stamps', () => {
    const edges = derive(ds('t'), 'upstreamLineage', {
      upstreams: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field('s', 'a'), field('s', 'b')],
          downstreamType: 'FIELD_SET',
          downstreams: [field('t', 'x'), field('t', 'y')],
          confidenceScore: 1.0,
          query: 'urn:li:query:q7',
        },
      ],
    });
    expect(sorted(rows(edges))).toEqual(
      sorted<Row>([
        ['DownstreamOf', field('t', 'x'), field('s', 'a'), 'upstream'],
        ['DownstreamOf', field('t', 'x'), field('s', 'b'), 'upstream'],
        ['DownstreamOf', field('t', 'y'), field('s', 'a'), 'upstream'],
        ['DownstreamOf', field('t', 'y'), field('s', 'b'), 'upstream'],
      ]),
    );
    for (const e of edges) {
      expect(e).toMatchObject({
        owner: ds('t'),
        aspect: 'upstreamLineage',
        via: 'urn:li:query:q7',
        createdOn: null,
        createdActor: null,
        updatedOn: null,
        updatedActor: null,
        properties: null,
        manual: false,
      });
    }
  });

  test('an entry lacking upstreams or downstreams is skipped, and later entries still count', () => {
    const edges = derive(ds('t'), 'upstreamLineage', {
      upstreams: [],
      fineGrainedLineages: [
        { upstreamType: 'NONE', downstreamType: 'FIELD', downstreams: [field('t', 'const')] },
        { upstreamType: 'FIELD_SET', upstreams: [field('s', 'a')], downstreamType: 'FIELD', downstreams: [] },
        { upstreamType: 'FIELD_SET', upstreams: [field('s', 'a')], downstreamType: 'FIELD', downstreams: [field('t', 'x')] },
      ],
    });
    expect(rows(edges)).toEqual([['DownstreamOf', field('t', 'x'), field('s', 'a'), 'upstream']]);
  });

  test('a dataset upstream is stored as a typed edge only; only schemaField→schemaField is lineage', () => {
    const edges = derive(ds('t'), 'upstreamLineage', {
      upstreams: [{ dataset: ds('s'), type: 'TRANSFORMED' }],
      fineGrainedLineages: [
        {
          upstreamType: 'DATASET',
          upstreams: [ds('s')],
          downstreamType: 'FIELD',
          downstreams: [field('t', 'x')],
        },
      ],
    });
    expect(sorted(rows(edges))).toEqual(
      sorted<Row>([
        ['DownstreamOf', ds('t'), ds('s'), 'upstream'],
        ['DownstreamOf', field('t', 'x'), ds('s'), null],
      ]),
    );
  });

  test('dataJob fine-grained edges have the job as owner and via', () => {
    const edges = derive(job('j'), 'dataJobInputOutput', {
      inputDatasets: [ds('s')],
      outputDatasets: [ds('t')],
      fineGrainedLineages: [
        { upstreamType: 'FIELD_SET', upstreams: [field('s', 'a')], downstreamType: 'FIELD', downstreams: [field('t', 'x')] },
      ],
    });
    const fieldEdge = edges.find((e) => e.source === field('t', 'x'))!;
    expect(fieldEdge).toMatchObject({
      type: 'DownstreamOf',
      destination: field('s', 'a'),
      owner: job('j'),
      via: job('j'),
      lineage: { upstream: field('s', 'a'), downstream: field('t', 'x') },
    });
    expect(edges).toHaveLength(3);
  });

  test('two owners asserting the same column edge keep two edges', () => {
    const fg = { upstreamType: 'FIELD_SET', upstreams: [field('s', 'a')], downstreamType: 'FIELD', downstreams: [field('t', 'x')] };
    const [byDataset] = derive(ds('t'), 'upstreamLineage', { upstreams: [], fineGrainedLineages: [fg] });
    const byJob = derive(job('j'), 'dataJobInputOutput', { inputDatasets: [], outputDatasets: [], fineGrainedLineages: [fg] });
    expect(byJob).toHaveLength(1);
    expect(byDataset!.key).not.toBe(byJob[0]!.key);
    expect([byDataset!.source, byDataset!.destination]).toEqual([byJob[0]!.source, byJob[0]!.destination]);
  });

  test('non-schemaField downstreams and foreign upstream kinds are skipped', () => {
    const edges = derive(ds('t'), 'upstreamLineage', {
      upstreams: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [chart('c'), field('s', 'a')],
          downstreamType: 'FIELD',
          downstreams: [ds('t'), field('t', 'x')],
        },
      ],
    });
    expect(rows(edges)).toEqual([['DownstreamOf', field('t', 'x'), field('s', 'a'), 'upstream']]);
  });
});

describe('triple-based lineage', () => {
  test('the same relationship name is lineage or not depending on the endpoint types', () => {
    expect(lineageDirectionOf('dataJob', 'Consumes', 'dataset')).toBe('upstream');
    expect(lineageDirectionOf('dataJob', 'Consumes', 'schemaField')).toBeNull();
    expect(lineageDirectionOf('dataProcessInstance', 'Consumes', 'dataset')).toBeNull();
    expect(lineageDirectionOf('dataJob', 'Produces', 'dataset')).toBe('downstream');
    expect(lineageDirectionOf('dashboard', 'Contains', 'chart')).toBe('upstream');
    expect(lineageDirectionOf('mlFeatureTable', 'Contains', 'mlFeature')).toBeNull();
    expect(lineageDirectionOf('dataJob', 'IsPartOf', 'dataFlow')).toBeNull();
    expect(lineageDirectionOf('schemaField', 'DownstreamOf', 'schemaField')).toBe('upstream');
    expect(lineageDirectionOf('schemaField', 'DownstreamOf', 'dataset')).toBeNull();
  });

  test('every lineage triple is reachable from the derivation and the registry has no duplicates', () => {
    const keys = lineageTriples().map((t) => `${t.sourceType}/${t.type}/${t.destinationType}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of lineageTriples()) expect(RELATIONSHIP_TYPES).toContain(t.type);
  });

  test('a lineage edge reports its upstream and downstream ends', () => {
    const [produces] = derive(job('j'), 'dataJobInputOutput', { inputDatasets: [], outputDatasets: [ds('o')] });
    expect(produces!.lineage).toEqual({ upstream: job('j'), downstream: ds('o') });
    const [consumes] = derive(job('j'), 'dataJobInputOutput', { inputDatasets: [ds('i')], outputDatasets: [] });
    expect(consumes!.lineage).toEqual({ upstream: ds('i'), downstream: job('j') });
  });

  test('a self-edge is kept as a typed edge without lineage', () => {
    const edges = derive(ds('a'), 'upstreamLineage', {
      upstreams: [{ dataset: ds('a'), type: 'COPY' }],
      fineGrainedLineages: [
        { upstreamType: 'FIELD_SET', upstreams: [field('a', 'x')], downstreamType: 'FIELD', downstreams: [field('a', 'x')] },
      ],
    });
    expect(rows(edges)).toEqual([
      ['DownstreamOf', ds('a'), ds('a'), null],
      ['DownstreamOf', field('a', 'x'), field('a', 'x'), null],
    ]);
  });

  test('the lineage aspects are exactly the aspects whose derivation can produce a lineage edge', () => {
    const aspects = new Set(entityTypeDescriptors().flatMap((d) => Object.keys(d.aspects ?? {})));
    expect([...aspects].filter(isLineageAspect).sort()).toEqual([
      'chartInfo',
      'dashboardInfo',
      'dataJobInputOutput',
      'dataProcessInfo',
      'dataProcessInstanceInput',
      'dataProcessInstanceOutput',
      'inputFields',
      'mlFeatureProperties',
      'mlModelGroupProperties',
      'mlModelProperties',
      'mlPrimaryKeyProperties',
      'upstreamLineage',
    ]);
  });
});

describe('edge keys', () => {
  const value = { inputDatasets: [ds('a'), ds('b')], outputDatasets: [ds('c')] };

  test('the same input gives the same keys; keys are distinct sha1 hex', () => {
    const first = derive(job('j'), 'dataJobInputOutput', value).map((e) => e.key);
    const second = derive(job('j'), 'dataJobInputOutput', structuredClone(value), WRITE_TIME + 5).map((e) => e.key);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(3);
    for (const k of first) expect(k).toMatch(/^[0-9a-f]{40}$/);
  });

  test('the key is the hash of (source, type, destination, owner, aspect)', () => {
    const [edge] = derive(job('j'), 'dataJobInputOutput', { inputDatasets: [ds('a')], outputDatasets: [] });
    expect(edge!.key).toBe(edgeKey(job('j'), 'Consumes', ds('a'), job('j'), 'dataJobInputOutput'));
    // Another aspect (or owner) asserting the same pair is a parallel edge, never the same one.
    expect(edgeKey(job('j'), 'Consumes', ds('a'), job('j'), 'otherAspect')).not.toBe(edge!.key);
    expect(edgeKey(job('j'), 'Consumes', ds('a'), job('k'), 'dataJobInputOutput')).not.toBe(edge!.key);
    expect(edgeKey(job('j'), 'Produces', ds('a'), job('j'), 'dataJobInputOutput')).not.toBe(edge!.key);
  });

  test('field separators cannot be forged by urn text', () => {
    expect(edgeKey('a', 'b', 'c', 'd', 'e')).not.toBe(edgeKey('a","b', 'c', 'd', 'e', ''));
  });
});

describe("DataHub's neighbour table reproduced from the derived lineage triples", () => {
  interface LineageNeighbour {
    type: string;
    direction: 'OUTGOING' | 'INCOMING';
    neighbourType: string;
  }

  /** One row of the table: the triples naming the type, as DataHub's LineageRegistry lists them. */
  function lineageNeighbours(entityType: string): Record<LineageEnd, LineageNeighbour[]> {
    const result: Record<LineageEnd, LineageNeighbour[]> = { upstream: [], downstream: [] };
    for (const t of lineageTriples()) {
      if (t.sourceType === entityType) {
        result[t.destinationIs].push({ type: t.type, direction: 'OUTGOING', neighbourType: t.destinationType });
      }
      if (t.destinationType === entityType) {
        result[t.destinationIs === 'upstream' ? 'downstream' : 'upstream'].push({
          type: t.type,
          direction: 'INCOMING',
          neighbourType: t.sourceType,
        });
      }
    }
    return result;
  }

  // DataHub's LineageRegistry, per entity type, transcribed row by row from its entity specs
  // (docs/lineage-model.md §Derivation) ("DPI" = dataProcessInstance).
  const specTable: Record<string, [string, string]> = {
    dataset: [
      'DownstreamOf OUT dataset; Produces IN dataJob; DataProcessInstanceProduces IN DPI',
      'DownstreamOf IN dataset; Consumes IN dataJob, chart, dashboard, dataProcess; DerivedFrom IN mlFeature, mlPrimaryKey; DataProcessInstanceConsumes IN DPI',
    ],
    dataJob: [
      'Consumes OUT dataset; DownstreamOf OUT dataJob; UsedBy IN mlModel, mlModelGroup',
      'Produces OUT dataset; DownstreamOf IN dataJob; TrainedBy IN mlModel, mlModelGroup',
    ],
    chart: ['Consumes OUT dataset, chart', 'Contains IN dashboard; Consumes IN chart'],
    dashboard: [
      'Contains OUT chart; Consumes OUT dataset; DashboardContainsDashboard OUT dashboard',
      'DashboardContainsDashboard IN dashboard',
    ],
    mlFeature: ['DerivedFrom OUT dataset', 'Consumes IN mlModel'],
    mlPrimaryKey: ['DerivedFrom OUT dataset', '–'],
    mlModel: [
      'Consumes OUT mlFeature; TrainedBy OUT dataJob, DPI; DataProcessInstanceProduces IN DPI',
      'UsedBy OUT dataJob, DPI; MemberOf OUT mlModelGroup; DataProcessInstanceConsumes IN DPI',
    ],
    mlModelGroup: ['TrainedBy OUT dataJob, DPI; MemberOf IN mlModel', 'UsedBy OUT dataJob, DPI'],
    dataProcessInstance: [
      'DataProcessInstanceConsumes OUT dataset, mlModel, DPI; DataProcessInstanceProduces IN DPI; UsedBy IN mlModel, mlModelGroup',
      'DataProcessInstanceProduces OUT dataset, mlModel, DPI; DataProcessInstanceConsumes IN DPI; TrainedBy IN mlModel, mlModelGroup',
    ],
    dataProcess: ['Consumes OUT dataset', '–'],
    schemaField: ['DownstreamOf OUT schemaField', 'DownstreamOf IN schemaField'],
  };

  function parseCell(cell: string): string[] {
    if (cell === '–') return [];
    return cell
      .split(';')
      .flatMap((group) => {
        const [rel, dir, ...rest] = group.trim().split(' ');
        const direction = dir === 'OUT' ? 'OUTGOING' : 'INCOMING';
        return rest
          .join(' ')
          .split(',')
          .map((t) => {
            const type = t.trim() === 'DPI' ? 'dataProcessInstance' : t.trim();
            return `${rel} ${direction} ${type}`;
          });
      })
      .sort();
  }

  const render = (ns: { type: string; direction: string; neighbourType: string }[]) =>
    ns.map((n) => `${n.type} ${n.direction} ${n.neighbourType}`).sort();

  test.each(Object.entries(specTable))('%s', (entityType, [upstream, downstream]) => {
    const derived = lineageNeighbours(entityType);
    expect(render(derived.upstream)).toEqual(parseCell(upstream));
    expect(render(derived.downstream)).toEqual(parseCell(downstream));
  });

  test('types without lineage have empty rows, and the registry covers exactly the table', () => {
    for (const t of ['dataFlow', 'mlFeatureTable', 'container', 'domain', 'glossaryTerm', 'corpuser']) {
      expect(lineageNeighbours(t)).toEqual({ upstream: [], downstream: [] });
    }
    const withLineage = [...new Set(entityTypeDescriptors().map((d) => d.name))].filter(hasLineage);
    expect(withLineage.sort()).toEqual(Object.keys(specTable).sort());
  });
});

describe('the tutorial column-level record', () => {
  const downstream = ds('logging_events');
  const upstream = ds('fct_users_deleted');
  // What acryl-datahub sends: the defaulted auditStamp and confidenceScore explicitly.
  const value = {
    upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: upstream, type: 'TRANSFORMED' }],
    fineGrainedLineages: [
      {
        upstreamType: 'FIELD_SET',
        upstreams: [field('fct_users_deleted', 'browser')],
        downstreamType: 'FIELD',
        downstreams: [field('logging_events', 'browser_id')],
        confidenceScore: 1.0,
      },
      {
        upstreamType: 'FIELD_SET',
        upstreams: [field('fct_users_deleted', 'user_id')],
        downstreamType: 'FIELD',
        downstreams: [field('logging_events', 'user_id')],
        confidenceScore: 1.0,
      },
    ],
  };

  test('derives the dataset edge with the write time and writer, and one field edge per column pair', () => {
    const edges = derive(downstream, 'upstreamLineage', value);
    expect(rows(edges)).toEqual([
      ['DownstreamOf', downstream, upstream, 'upstream'],
      ['DownstreamOf', field('logging_events', 'browser_id'), field('fct_users_deleted', 'browser'), 'upstream'],
      ['DownstreamOf', field('logging_events', 'user_id'), field('fct_users_deleted', 'user_id'), 'upstream'],
    ]);
    // auditStamp time 0 → the write's lastObserved; the placeholder actor → the writer.
    expect(edges[0]).toMatchObject({
      owner: downstream,
      aspect: 'upstreamLineage',
      createdOn: WRITE_TIME,
      createdActor: WRITER,
      updatedOn: WRITE_TIME,
      updatedActor: WRITER,
      properties: null,
      via: null,
      manual: false,
      lineage: { upstream, downstream },
    });
    expect(edges.slice(1).every((e) => e.owner === downstream && e.via === null && e.createdOn === null)).toBe(true);
  });

  test('the written row derives the same edges, and names the upstream dataset once, leaving the owner out', () => {
    const written = deriveWritten(downstream, 'upstreamLineage', value);
    expect(written.edges).toEqual(derive(downstream, 'upstreamLineage', value));
    expect(written.references).toEqual([upstream]);
    // Held by another entity, the same value names the fields' dataset too.
    expect(references(ds('other'), 'upstreamLineage', value)).toEqual([upstream, downstream]);
  });
});

describe('lineage references of a written row (the existence rule)', () => {
  test('lists entity-level lineage neighbours only, once each, in derivation order', () => {
    const value = {
      inputDatasets: [ds('a')],
      outputDatasets: [ds('b')],
      inputDatasetEdges: [edgeTo(ds('a')), edgeTo(ds('c'))],
      inputDatajobs: [job('p')],
      inputDatasetFields: [field('z', 'f')], // Consumes schemaField: not lineage
      fineGrainedLineages: [
        { upstreamType: 'FIELD_SET', upstreams: [field('d', 'x')], downstreamType: 'FIELD', downstreams: [field('e', 'y')] },
      ],
    };
    expect(references(job('j'), 'dataJobInputOutput', value)).toEqual([ds('a'), ds('c'), ds('b'), job('p'), ds('d'), ds('e')]);
  });

  test('non-lineage relationships and non-lineage aspects contribute nothing', () => {
    expect(references(dpi('run'), 'dataProcessInstanceInput', { inputs: [ds('a')], inputEdges: [edgeTo(ds('b'))] })).toEqual([ds('b')]);
    expect(references(job('j'), 'dataJobKey', { flow })).toEqual([]);
    expect(
      references(chart('c'), 'inputFields', { fields: [{ schemaFieldUrn: field('src', 'x'), schemaField: { fieldPath: 'x' } }] }),
    ).toEqual([ds('src')]);
    expect(references(featureTable, 'mlFeatureTableProperties', { mlFeatures: [feature('f')] })).toEqual([]);
    expect(references(model('m'), 'mlModelProperties', { deployments: [deployment], groups: [modelGroup('g')] })).toEqual([
      modelGroup('g'),
    ]);
  });

  test('fine-grained dataset upstreams are listed as themselves', () => {
    const value = {
      upstreams: [],
      fineGrainedLineages: [{ upstreamType: 'DATASET', upstreams: [ds('s')], downstreamType: 'FIELD', downstreams: [field('t', 'x')] }],
    };
    expect(references(ds('t'), 'upstreamLineage', value)).toEqual([ds('s')]);
  });
});
