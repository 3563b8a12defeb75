import { datasetIdOfUrn, datasetUrnOfId, jobTypeOf, namespaceOfScope, namespaceScope, parseLineageNodeId, runStateOf } from './ids.ts';
import { datasetUrnOfName } from '../openlineage/naming.ts';

describe('Marquez dataset ids', () => {
  test.each([
    ['postgres', 'db.public.orders'],
    ['bigquery', 'proj.ds.t'],
    ['s3://bucket', 'path/to/x.parquet'],
    ['gcs://b', 'k'],
    ['file', '/tmp/x.csv'],
    ['kafka', 'topic(1),a'],
  ])('(%s, %s) names the urn the OpenLineage door writes, and reads back from it', (namespace, name) => {
    const urn = datasetUrnOfId({ namespace, name });
    expect(urn).toBeDefined();
    expect(datasetIdOfUrn(urn!)).toEqual({ namespace, name });
  });

  test('a namespace that reads back as another (host and port, upper case, a renamed scheme) names no dataset', () => {
    expect(datasetUrnOfId({ namespace: 'postgres://h:5432', name: 'db.t' })).toBeUndefined();
    expect(datasetUrnOfId({ namespace: 'BigQuery', name: 't' })).toBeUndefined();
    expect(datasetUrnOfId({ namespace: 's3a://b', name: 'k' })).toBeUndefined();
    // What such an event wrote is found under the platform.
    expect(datasetIdOfUrn(datasetUrnOfName('postgres://h:5432', 'db.t'))).toEqual({ namespace: 'postgres', name: 'db.t' });
  });

  test('only PROD datasets have a Marquez id', () => {
    expect(datasetIdOfUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,DEV)')).toBeUndefined();
    expect(datasetIdOfUrn('urn:li:dataJob:(urn:li:dataFlow:(a,b,c),d)')).toBeUndefined();
  });

  test('a namespace and its (platform, bucket) scope', () => {
    expect(namespaceScope('s3://b')).toEqual({ platformUrn: 'urn:li:dataPlatform:s3', bucket: 'b' });
    expect(namespaceScope('postgres')).toEqual({ platformUrn: 'urn:li:dataPlatform:postgres', bucket: null });
    expect(namespaceOfScope('urn:li:dataPlatform:s3', 'b')).toBe('s3://b');
    expect(namespaceOfScope('urn:li:dataPlatform:file', null)).toBe('file');
  });
});

describe('lineage node ids', () => {
  test.each([
    ['dataset:postgres:db.t', { type: 'DATASET', id: { namespace: 'postgres', name: 'db.t' } }],
    ['dataset:s3://bucket:path/x:y', { type: 'DATASET', id: { namespace: 's3://bucket', name: 'path/x:y' } }],
    ['dataset:postgres://h:5432:db.t', { type: 'DATASET', id: { namespace: 'postgres://h:5432', name: 'db.t' } }],
    ['job:ns:a.b', { type: 'JOB', id: { namespace: 'ns', name: 'a.b' } }],
  ])('%s', (text, parsed) => expect(parseLineageNodeId(text)).toEqual(parsed));

  test.each([undefined, '', 'run:x', 'datasetField:a:b:c', 'job:ns', 'job::x', 'job:ns:'])('%s is a bad request', (text) => {
    expect(() => parseLineageNodeId(text)).toThrow(expect.objectContaining({ kind: 'badRequest' }));
  });
});

test('run states and job types as Marquez names them', () => {
  expect(runStateOf('STARTED', null, null)).toBe('RUNNING');
  expect(runStateOf('COMPLETE', 'SUCCESS', 'COMPLETE')).toBe('COMPLETED');
  expect(runStateOf('COMPLETE', 'FAILURE', 'FAIL')).toBe('FAILED');
  expect(runStateOf('COMPLETE', 'FAILURE', 'ABORT')).toBe('ABORTED');
  expect(runStateOf(null, null, null)).toBe('NEW');
  expect([jobTypeOf('STREAMING'), jobTypeOf('TASK'), jobTypeOf(null), jobTypeOf('SERVICE')]).toEqual([
    'STREAM',
    'BATCH',
    'BATCH',
    'SERVICE',
  ]);
});
