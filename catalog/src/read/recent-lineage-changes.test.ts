// Reading the change log's LINEAGE events back as changes a person reads: the events the write path
// builds (model/change-events.ts) parse into who, when and what, and an event of another shape is a
// defect reported as such, never silently dropped from the list.
import { encodeLineageChange, lineageChangeEvent, type LineageChange } from '../model/change-events.ts';
import { lineageChangesUnrecorded, recentLineageChangeOf, recentLineageChangeOfStored } from './recent-lineage-changes.ts';

const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)';
const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)';
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)';
const query = 'urn:li:query:q1';
const stamp = { actor: 'urn:li:corpuser:alice', time: 1_764_143_000_123 };

test('an upstream removed from a dataset: who, when, the other end, through which query', () => {
  const event = lineageChangeEvent(
    { owner: b, aspect: 'upstreamLineage', type: 'DownstreamOf', upstream: a, downstream: b, via: query },
    'REMOVE',
    stamp,
  );
  expect(recentLineageChangeOf(7, event.value)).toEqual({
    offset: 7,
    time: stamp.time,
    actor: stamp.actor,
    operation: 'REMOVE',
    direction: 'UPSTREAM',
    other: a,
    relationshipType: 'DownstreamOf',
    aspectName: 'upstreamLineage',
    via: query,
  });
});

test("a job's output added: the dataset is downstream of the job that declared it", () => {
  const event = lineageChangeEvent(
    { owner: job, aspect: 'dataJobInputOutput', type: 'Produces', upstream: job, downstream: b, via: null },
    'ADD',
    stamp,
  );
  expect(recentLineageChangeOf(8, event.value)).toMatchObject({ operation: 'ADD', direction: 'DOWNSTREAM', other: b, via: null });
});

test('an event stored compactly reads as the same change as its rendered text', () => {
  const column = (dataset: string, field: string) => `urn:li:schemaField:(${dataset},${field})`;
  const changes: LineageChange[] = [
    {
      edge: { owner: b, aspect: 'upstreamLineage', type: 'DownstreamOf', upstream: a, downstream: b, via: query },
      operation: 'REMOVE',
      stamp,
    },
    {
      edge: { owner: job, aspect: 'dataJobInputOutput', type: 'Produces', upstream: job, downstream: b, via: null },
      operation: 'ADD',
      stamp,
    },
    {
      edge: { owner: b, aspect: 'upstreamLineage', type: 'DownstreamOf', upstream: column(a, 'x'), downstream: column(b, 'y'), via: null },
      operation: 'ADD',
      stamp,
    },
    {
      edge: {
        owner: a,
        aspect: 'upstreamLineage',
        type: 'DownstreamOf',
        upstream: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.é,PROD)',
        downstream: a,
        via: '',
      },
      operation: 'ADD',
      stamp,
    },
  ];
  for (const [i, c] of changes.entries()) {
    const rendered = recentLineageChangeOf(i, lineageChangeEvent(c.edge, c.operation, c.stamp).value);
    expect(recentLineageChangeOfStored(i, c.edge.owner, encodeLineageChange(c))).toEqual(rendered);
  }
});

test('an event that is not a lineage EntityChangeEvent is an error naming its offset', () => {
  expect(() => recentLineageChangeOf(9, '{"name":"entityChangeEvent","payload":{"value":"{}"}}')).toThrow(
    'change log event 9 is not a lineage EntityChangeEvent',
  );
  expect(() => recentLineageChangeOf(10, 'not json')).toThrow('change log event 10');
});

test('not recorded: the log off, or recording no PlatformEvent_v1; recorded otherwise', () => {
  expect(lineageChangesUnrecorded([])).toMatch(/off.*EVENTS_API_ENABLED=false/);
  expect(lineageChangesUnrecorded(['MetadataChangeLog_Versioned_v1'])).toMatch(/EVENTS_TOPICS has no PlatformEvent_v1/);
  expect(lineageChangesUnrecorded(['PlatformEvent_v1'])).toBeNull();
});
