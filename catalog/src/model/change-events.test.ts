import {
  asciiJson,
  decodeOffset,
  encodeLineageChange,
  encodeOffset,
  lineageChangeEvent,
  lineageChangeText,
  metadataChangeLog,
} from './change-events.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const stamp = { actor: 'urn:li:corpuser:alice', time: 1_764_143_000_123 };
const ece = (value: string) => JSON.parse((JSON.parse(value) as { payload: { value: string } }).payload.value) as Record<string, unknown>;

test('asciiJson escapes every non-ASCII character and parses back to the same value', () => {
  const value = { name: 'Bücher – 書', emoji: '📦' };
  const text = asciiJson(value);
  expect(text).toMatch(/^[\x20-\x7e]*$/);
  expect(JSON.parse(text)).toEqual(value);
});

test('a column edge stays on the dataset that declared it; the direction says which side the modifier is', () => {
  const up = `urn:li:schemaField:(${ds('a')},x)`,
    down = `urn:li:schemaField:(${ds('b')},y)`;
  const r = lineageChangeEvent(
    { owner: ds('b'), aspect: 'upstreamLineage', type: 'DownstreamOf', upstream: up, downstream: down, via: null },
    'ADD',
    stamp,
  );
  expect(r.entityUrn).toBe(ds('b'));
  expect(ece(r.value)).toMatchObject({
    entityType: 'dataset',
    entityUrn: ds('b'),
    modifier: up,
    parameters: { direction: 'UPSTREAM', upstreamUrn: up, downstreamUrn: down },
  });
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)';
  const out = lineageChangeEvent(
    { owner: job, aspect: 'dataJobInputOutput', type: 'Produces', upstream: job, downstream: ds('c'), via: null },
    'REMOVE',
    stamp,
  );
  expect(ece(out.value)).toMatchObject({
    entityType: 'dataJob',
    operation: 'REMOVE',
    modifier: ds('c'),
    parameters: { direction: 'DOWNSTREAM' },
  });
});

test('a MetadataChangeLog tags its non-null unions as Avro JSON does, and a DELETE has no aspect', () => {
  const r = metadataChangeLog({
    entityUrn: ds('a'),
    aspectName: 'status',
    changeType: 'DELETE',
    stamp,
    after: undefined,
    before: { value: '{"removed":false}', systemMetadata: '{"lastObserved":5,"runId":"r"}' },
  });
  const mcl = JSON.parse(r.value) as Record<string, unknown>;
  expect(mcl).toMatchObject({
    entityType: 'dataset',
    entityUrn: { string: ds('a') },
    changeType: 'DELETE',
    aspectName: { string: 'status' },
    aspect: null,
    systemMetadata: null,
    previousAspectValue: { 'com.linkedin.pegasus2avro.mxe.GenericAspect': { value: '{"removed":false}', contentType: 'application/json' } },
    previousSystemMetadata: {
      'com.linkedin.pegasus2avro.mxe.SystemMetadata': { lastObserved: { long: 5 }, runId: { string: 'r' }, pipelineName: null },
    },
    created: { 'com.linkedin.pegasus2avro.common.AuditStamp': { time: stamp.time, actor: stamp.actor, impersonator: null, message: null } },
  });
});

test("offset tokens are DataHub's format and refuse other topics and non-tokens", () => {
  const token = encodeOffset('PlatformEvent_v1', 42);
  expect(token).toBe('eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQyfQ==');
  expect(decodeOffset('PlatformEvent_v1', token)).toBe(42);
  expect(() => decodeOffset('MetadataChangeLog_Versioned_v1', token)).toThrow(/position in PlatformEvent_v1/);
  expect(() => decodeOffset('PlatformEvent_v1', 'not base64!')).toThrow(/offsetId/);
  expect(() => decodeOffset('PlatformEvent_v1', Buffer.from('{"PlatformEvent_v1-0":-1}').toString('base64'))).toThrow(/not an offset/);
  expect(() => decodeOffset('PlatformEvent_v1', Buffer.from('{"a-0":1,"b-0":2}').toString('base64'))).toThrow(/offsetId/);
});

test('a lineage change stored compactly polls as exactly the text lineageChangeEvent renders', () => {
  const edges = [
    { owner: ds('b'), aspect: 'upstreamLineage', type: 'DownstreamOf', upstream: ds('a'), downstream: ds('b'), via: 'urn:li:query:q1' },
    {
      owner: ds('Bücher'),
      aspect: 'upstreamLineage',
      type: 'DownstreamOf',
      upstream: `urn:li:schemaField:(${ds('a')},x)`,
      downstream: `urn:li:schemaField:(${ds('Bücher')},y)`,
      via: null,
    },
  ];
  for (const edge of edges) {
    for (const operation of ['ADD', 'REMOVE'] as const) {
      expect(lineageChangeText(edge.owner, encodeLineageChange({ edge, operation, stamp }))).toBe(
        lineageChangeEvent(edge, operation, stamp).value,
      );
    }
  }
});
