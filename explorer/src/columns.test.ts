import { buildColumnGraph, columnClosure, columnKey, displayFieldPath, schemaFieldsOf } from './columns.ts';

const created = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const deleted = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';
const events = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)';
const sessions = 'urn:li:dataset:(urn:li:dataPlatform:hive,user_sessions,PROD)';

const graph = buildColumnGraph([
  { urn: deleted, schemaFields: ['user_id', 'browser'] },
  { urn: created, schemaFields: [] },
  {
    urn: events, schemaFields: ['browser_id', 'event_ts'],
    fineGrainedLineages: [
      { upstreams: [{ urn: deleted, path: 'browser' }], downstreams: [{ urn: events, path: 'browser_id' }, { urn: events, path: 'user_id' }] },
      { upstreams: [{ urn: created, path: '' }], downstreams: [{ urn: events, path: 'event_ts' }] },
    ],
  },
  { urn: sessions, schemaFields: [], fineGrainedLineages: [{ upstreams: [{ urn: events, path: 'user_id' }], downstreams: [{ urn: sessions, path: 'user_id' }] }] },
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
  expect([...down.downstream].sort()).toEqual([columnKey(events, 'browser_id'), columnKey(events, 'user_id'), columnKey(sessions, 'user_id')].sort());
  expect(down.upstream.size).toBe(0);
  const up = columnClosure(graph.edges, columnKey(sessions, 'user_id'));
  expect([...up.upstream].sort()).toEqual([columnKey(deleted, 'browser'), columnKey(events, 'user_id')].sort());
  // A cycle terminates.
  const cyc = columnClosure([{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }], 'a');
  expect([...cyc.downstream]).toEqual(['b']);
});

test('schemaFieldsOf and displayFieldPath tolerate odd input', () => {
  expect(schemaFieldsOf(JSON.stringify({ fields: [{ fieldPath: 'a' }, { nope: 1 }] }))).toEqual(['a']);
  expect(schemaFieldsOf('not json')).toEqual([]);
  expect(schemaFieldsOf(null)).toEqual([]);
  expect(displayFieldPath('[version=2.0].[type=struct].address.[type=string].zip')).toBe('address.zip');
  expect(displayFieldPath('plain')).toBe('plain');
});
