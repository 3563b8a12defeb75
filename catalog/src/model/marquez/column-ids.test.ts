import { fieldNodeIdOf, parseColumnNodeId } from './column-ids.ts';

describe('parseColumnNodeId', () => {
  it('reads datasets, fields and jobs, with namespaces that hold a scheme and a port', () => {
    expect(parseColumnNodeId('dataset:postgres:db.t')).toEqual({
      type: 'DATASET',
      id: { namespace: 'postgres', name: 'db.t' },
      version: null,
    });
    expect(parseColumnNodeId('datasetField:s3://bucket:path/x:col')).toEqual({
      type: 'DATASET_FIELD',
      id: { namespace: 's3://bucket', name: 'path/x' },
      field: 'col',
      version: null,
    });
    expect(parseColumnNodeId('datasetField:postgres://h:5432:db.t:a:b')).toEqual({
      type: 'DATASET_FIELD',
      id: { namespace: 'postgres://h:5432', name: 'db.t' },
      field: 'a:b',
      version: null,
    });
    expect(parseColumnNodeId('job:ns:a.b#1234')).toEqual({ type: 'JOB', id: { namespace: 'ns', name: 'a.b' }, version: '1234' });
  });

  it('refuses what names no node, naming nodeId', () => {
    for (const bad of [undefined, '', 'run:x', 'dataset:ns', 'datasetField:ns:t', 'dataset::t', 'dataset:ns:t#'])
      expect(() => parseColumnNodeId(bad)).toThrow(/nodeId/);
  });

  it('writes a field node id back as it reads', () => {
    const id = { namespace: 's3://b', name: 'p/x' };
    const parsed = parseColumnNodeId(fieldNodeIdOf(id, 'c'));
    expect(parsed).toEqual({ type: 'DATASET_FIELD', id, field: 'c', version: null });
  });
});
