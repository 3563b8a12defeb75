import { patch, rejects } from './test-support.ts';

describe('unmodelled aspects: plain RFC 6902', () => {
  test('add/replace/remove/test/move/copy on a JSON document', () => {
    const current = { name: 'a', tags: ['x'], nested: { n: 1 } };
    const out = patch('datasetProperties', current, [
      { op: 'test', path: '/name', value: 'a' },
      { op: 'replace', path: '/name', value: 'b' },
      { op: 'add', path: '/tags/-', value: 'y' },
      { op: 'copy', from: '/nested', path: '/copied' },
      { op: 'move', from: '/copied/n', path: '/moved' },
      { op: 'remove', path: '/tags/0' },
      { op: 'add', path: '/customProperties/k', value: 'v' },
    ]);
    expect(out).toEqual({ name: 'b', tags: ['y'], nested: { n: 1 }, copied: {}, moved: 1, customProperties: { k: 'v' } });
    expect(current).toEqual({ name: 'a', tags: ['x'], nested: { n: 1 } });
  });

  test('absent aspect starts from {}; removing something absent is a no-op', () => {
    expect(patch('editableDatasetProperties', undefined, [{ op: 'add', path: '/description', value: 'd' }])).toEqual({ description: 'd' });
    expect(patch('editableDatasetProperties', { description: 'd' }, [{ op: 'remove', path: '/missing/deep' }])).toEqual({
      description: 'd',
    });
  });

  test('replace of a missing member adds it (DataJobPatchBuilder.set_custom_properties)', () => {
    expect(
      patch('dataJobInfo', { name: 'j', type: { string: 'COMMAND' } }, [{ op: 'replace', path: '/customProperties', value: { a: 'b' } }]),
    ).toEqual({
      name: 'j',
      type: { string: 'COMMAND' },
      customProperties: { a: 'b' },
    });
  });

  test('a failed test or an unresolvable path is a 422 naming the operation', () => {
    rejects(
      () => patch('datasetProperties', { name: 'a' }, [{ op: 'test', path: '/name', value: 'z' }]),
      /operation 0 \(test \/name\): the test failed/,
    );
    rejects(() => patch('datasetProperties', { tags: [] }, [{ op: 'add', path: '/tags/5', value: 'x' }]), /operation 0 \(add \/tags\/5\)/);
    rejects(() => patch('datasetProperties', { name: 'a' }, [{ op: 'add', path: '/name/x', value: 1 }]), /operation 0/);
    rejects(() => patch('datasetProperties', {}, [{ op: 'add', path: '', value: 3 }]), /not a JSON object/);
  });

  test('__proto__ cannot be used to reach the prototype', () => {
    rejects(() => patch('datasetProperties', {}, [{ op: 'add', path: '/__proto__/polluted', value: true }]), /operation 0/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
