import {
  buildColumnGraph,
  columnClosure,
  columnKey,
  columnKeyOfUrn,
  displayFieldPath,
  inputFieldColumns,
  schemaFieldsOf,
  schemaFieldUrnOf,
} from './columns.ts';

const created = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const deleted = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';
const events = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)';
const sessions = 'urn:li:dataset:(urn:li:dataPlatform:hive,user_sessions,PROD)';

const graph = buildColumnGraph([
  { urn: deleted, schemaFields: ['user_id', 'browser'] },
  { urn: created, schemaFields: [] },
  {
    urn: events,
    schemaFields: ['browser_id', 'event_ts'],
    fineGrainedLineages: [
      {
        upstreams: [{ urn: deleted, path: 'browser' }],
        downstreams: [
          { urn: events, path: 'browser_id' },
          { urn: events, path: 'user_id' },
        ],
      },
      { upstreams: [{ urn: created, path: '' }], downstreams: [{ urn: events, path: 'event_ts' }] },
    ],
  },
  {
    urn: sessions,
    schemaFields: [],
    fineGrainedLineages: [{ upstreams: [{ urn: events, path: 'user_id' }], downstreams: [{ urn: sessions, path: 'user_id' }] }],
  },
]);

test('columns: schema order first, then fields only lineage names; whole-dataset upstreams draw no edge', () => {
  expect(graph.columns.get(events)).toEqual(['browser_id', 'event_ts', 'user_id']);
  expect(graph.columns.get(sessions)).toEqual(['user_id']);
  expect(graph.columns.has(created)).toBe(false);
  expect(graph.edges).toEqual([
    { from: columnKey(deleted, 'browser'), to: columnKey(events, 'browser_id') },
    { from: columnKey(deleted, 'browser'), to: columnKey(events, 'user_id') },
    { from: columnKey(events, 'user_id'), to: columnKey(sessions, 'user_id') },
  ]);
});

test('columnClosure follows column edges across hops both ways', () => {
  const down = columnClosure(graph.edges, columnKey(deleted, 'browser'));
  expect([...down.downstream].sort()).toEqual(
    [columnKey(events, 'browser_id'), columnKey(events, 'user_id'), columnKey(sessions, 'user_id')].sort(),
  );
  expect(down.upstream.size).toBe(0);
  const up = columnClosure(graph.edges, columnKey(sessions, 'user_id'));
  expect([...up.upstream].sort()).toEqual([columnKey(deleted, 'browser'), columnKey(events, 'user_id')].sort());
  // A cycle terminates.
  const cyc = columnClosure(
    [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
    ],
    'a',
  );
  expect([...cyc.downstream]).toEqual(['b']);
});

test('schemaFieldsOf and displayFieldPath tolerate odd input', () => {
  expect(schemaFieldsOf(JSON.stringify({ fields: [{ fieldPath: 'a' }, { nope: 1 }] }))).toEqual(['a']);
  expect(schemaFieldsOf('not json')).toEqual([]);
  expect(schemaFieldsOf(null)).toEqual([]);
  expect(displayFieldPath('[version=2.0].[type=struct].address.[type=string].zip')).toBe('address.zip');
  expect(displayFieldPath('plain')).toBe('plain');
});

test('chart and dashboard columns come from inputFields: own fieldPath downstream of the input column', () => {
  const chart = 'urn:li:chart:(looker,revenue)';
  const dashboard = 'urn:li:dashboard:(looker,finance)';
  const payload = JSON.stringify({
    fields: [
      { schemaFieldUrn: `urn:li:schemaField:(${sessions},user_id)`, schemaField: { fieldPath: 'users' } },
      { schemaFieldUrn: `urn:li:schemaField:(${sessions},browser_id)`, schemaField: { fieldPath: 'users' } },
      { schemaField: { fieldPath: 'no_input' } },
      { schemaFieldUrn: 'not a urn', schemaField: {} },
    ],
  });
  const chartColumns = inputFieldColumns(chart, payload);
  expect(chartColumns.schemaFields).toEqual(['users', 'no_input']);
  const onDashboard = inputFieldColumns(
    dashboard,
    JSON.stringify({
      fields: [{ schemaFieldUrn: `urn:li:schemaField:(${chart},total%2C net)`, schemaField: { fieldPath: 'total, net' } }],
    }),
  );
  const g = buildColumnGraph([chartColumns, onDashboard]);
  expect(g.edges).toEqual([
    { from: columnKey(sessions, 'user_id'), to: columnKey(chart, 'users') },
    { from: columnKey(sessions, 'browser_id'), to: columnKey(chart, 'users') },
    { from: columnKey(chart, 'total, net'), to: columnKey(dashboard, 'total, net') },
  ]);
  expect(inputFieldColumns(chart, '{not json').schemaFields).toEqual([]);
});

test('column keys and schemaField urns convert both ways; owned columns of charts percent-encode', () => {
  const chart = 'urn:li:chart:(looker,revenue)';
  expect(schemaFieldUrnOf(columnKey(events, 'user_id'))).toBe(`urn:li:schemaField:(${events},user_id)`);
  expect(schemaFieldUrnOf(columnKey(chart, 'sum(x), y'))).toBe(`urn:li:schemaField:(${chart},sum%28x%29%2C y)`);
  expect(columnKeyOfUrn(`urn:li:schemaField:(${chart},sum%28x%29%2C y)`)).toBe(columnKey(chart, 'sum(x), y'));
  expect(columnKeyOfUrn(`urn:li:schemaField:(${events},user_id)`)).toBe(columnKey(events, 'user_id'));
  expect(columnKeyOfUrn(events)).toBeNull();
});
