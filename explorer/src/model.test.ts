import { columnOf, emptyNeighbourhood, mergeResults, summarise, urnTail } from './model.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,tutorial_flow,PROD),aggregate_events)';

test('urnTail names datasets by their name part and jobs by their id', () => {
  expect(urnTail(ds('db.logging_events'))).toBe('db.logging_events');
  expect(urnTail(job)).toBe('aggregate_events');
  expect(urnTail('urn:li:mlPrimaryKey:(hive,session_id)')).toBe('session_id');
  expect(urnTail('urn:li:corpuser:datahub')).toBe('datahub');
});

test('summarise prefers properties.name, then key fields; the platform comes from the platform, flow or urn', () => {
  expect(
    summarise({
      urn: ds('t'),
      type: 'DATASET',
      name: 't',
      properties: { name: 'Nice' },
      platform: { name: 'hive', properties: { displayName: 'Hive' } },
    }),
  ).toEqual({ urn: ds('t'), type: 'DATASET', name: 'Nice', platform: 'Hive', exists: null });
  expect(summarise({ urn: job, type: 'DATA_JOB', jobId: 'aggregate_events', dataFlow: { orchestrator: 'airflow' }, exists: true })).toEqual(
    { urn: job, type: 'DATA_JOB', name: 'aggregate_events', platform: 'airflow', exists: true },
  );
  // A path step carries only urn and type.
  expect(summarise({ urn: job, type: 'DATA_JOB' })).toMatchObject({ name: 'aggregate_events', platform: 'airflow' });
  // A job's flow is its pipeline, named as the flow would be.
  const flow = 'urn:li:dataFlow:(airflow,tutorial_flow,PROD)';
  expect(
    summarise({
      urn: job,
      type: 'DATA_JOB',
      jobId: 'aggregate_events',
      dataFlow: { urn: flow, flowId: 'tutorial_flow', orchestrator: 'airflow', properties: { name: 'Tutorial' } },
    }),
  ).toMatchObject({ platform: 'airflow', pipeline: { urn: flow, name: 'Tutorial' } });
  expect(summarise({ urn: job, type: 'DATA_JOB', dataFlow: { urn: flow, flowId: 'tutorial_flow' } }).pipeline).toEqual({
    urn: flow,
    name: 'tutorial_flow',
  });
  // A chart's platform is its tool.
  expect(summarise({ urn: 'urn:li:chart:(looker,c1)', type: 'CHART', chartId: 'c1', tool: 'looker' })).toMatchObject({
    name: 'c1',
    platform: 'looker',
  });
});

test('summarise never names a job by its urn: an empty or urn-shaped name gives way to the job id, else the flow', () => {
  const flow = 'urn:li:dataFlow:(airflow,tutorial_flow,PROD)';
  expect(summarise({ urn: job, type: 'DATA_JOB', jobId: 'aggregate_events', properties: { name: '' } }).name).toBe('aggregate_events');
  expect(summarise({ urn: job, type: 'DATA_JOB', jobId: 'aggregate_events', properties: { name: job } }).name).toBe('aggregate_events');
  // A key this page cannot read names nothing: the flow it runs in does.
  const unreadable = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,tutorial_flow,PROD),)';
  expect(
    summarise({ urn: unreadable, type: 'DATA_JOB', dataFlow: { urn: flow, flowId: 'tutorial_flow', properties: { name: 'Tutorial' } } })
      .name,
  ).toBe('Tutorial');
  expect(summarise({ urn: unreadable, type: 'DATA_JOB' }).name).toBe(unreadable);
});

test('mergeResults: paths become edges in data-flow direction; path-only steps are context nodes', () => {
  const g = emptyNeighbourhood({ urn: ds('events'), type: 'DATASET', name: 'events' });
  const key = 'urn:li:mlPrimaryKey:(hive,session_id)';
  mergeResults(g, 'DOWNSTREAM', [
    {
      degree: 2,
      entity: { urn: key, type: 'MLPRIMARY_KEY', name: 'session_id' },
      paths: [
        {
          path: [
            { urn: ds('events'), type: 'DATASET' },
            { urn: ds('sessions'), type: 'DATASET' },
            { urn: key, type: 'MLPRIMARY_KEY' },
          ],
        },
      ],
    },
  ]);
  expect(g.nodes.get(key)).toMatchObject({ side: 'downstream', degree: 2, context: false });
  expect(g.nodes.get(ds('sessions'))).toMatchObject({ side: 'downstream', degree: 1, context: true });
  expect([...g.edges.values()]).toEqual([
    { from: ds('events'), to: ds('sessions') },
    { from: ds('sessions'), to: key },
  ]);
  // The same entity later returned as a result stops being context.
  expect(mergeResults(g, 'DOWNSTREAM', [{ degree: 1, entity: { urn: ds('sessions'), type: 'DATASET', name: 'sessions' } }])).toEqual([
    ds('sessions'),
  ]);
  expect(g.nodes.get(ds('sessions'))!.context).toBe(false);

  mergeResults(g, 'UPSTREAM', [
    {
      degree: 1,
      entity: { urn: ds('created'), type: 'DATASET', name: 'created' },
      paths: [
        {
          path: [
            { urn: ds('events'), type: 'DATASET' },
            { urn: ds('created'), type: 'DATASET' },
          ],
        },
      ],
    },
  ]);
  expect(g.edges.has(`${ds('created')}\u0000${ds('events')}`)).toBe(true);
  expect(columnOf(g.nodes.get(ds('created'))!)).toBe(-1);
  expect(columnOf(g.nodes.get(key)!)).toBe(2);
  expect(columnOf(g.nodes.get(ds('events'))!)).toBe(0);
});

test('mergeResults from an expanded node adds its degree', () => {
  const g = emptyNeighbourhood({ urn: ds('a'), type: 'DATASET' });
  mergeResults(g, 'DOWNSTREAM', [{ degree: 1, entity: { urn: ds('b'), type: 'DATASET' } }]);
  mergeResults(
    g,
    'DOWNSTREAM',
    [
      {
        degree: 1,
        entity: { urn: ds('c'), type: 'DATASET' },
        paths: [
          {
            path: [
              { urn: ds('b'), type: 'DATASET' },
              { urn: ds('c'), type: 'DATASET' },
            ],
          },
        ],
      },
    ],
    ds('b'),
    1,
  );
  expect(g.nodes.get(ds('c'))).toMatchObject({ degree: 2, side: 'downstream' });
  expect(g.edges.has(`${ds('b')}\u0000${ds('c')}`)).toBe(true);
  expect(g.edges.has(`${ds('a')}\u0000${ds('b')}`)).toBe(true);
});
