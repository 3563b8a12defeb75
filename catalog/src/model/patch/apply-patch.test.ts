import { applyPatch } from './apply-patch.ts';
import { HIVE_A, NOW, patch, rejects, upstream } from './test-support.ts';

describe('malformed patches are 422 naming the problem', () => {
  test.each([
    ['not JSON', '{"op": ', /not valid JSON/],
    ['a scalar', '42', /JSON Patch array/],
    ['a wrapper without patch', '{"arrayPrimaryKeys": {}}', /no "patch" array/],
    ['a non-object op', '[1]', /operation 0 is not an object/],
    ['an op without op', '[{"path": "/a"}]', /operation 0 has no "op"/],
    ['an unknown op', '[{"op": "merge", "path": "/a"}]', /unsupported op "merge"/],
    ['an op without path', '[{"op": "add", "value": 1}]', /operation 0 has no "path"/],
    ['a relative path', '[{"op": "add", "path": "a", "value": 1}]', /does not start with "\/"/],
    ['add without value', '[{"op": "add", "path": "/a"}]', /has no "value"/],
    ['move without from', '[{"op": "move", "path": "/a"}]', /has no "from"/],
    ['bad arrayPrimaryKeys', '{"arrayPrimaryKeys": {"tags": "tag"}, "patch": []}', /arrayPrimaryKeys.tags/],
    ['bad forceGenericPatch', '{"patch": [], "forceGenericPatch": "yes"}', /forceGenericPatch must be a boolean/],
  ])('%s', (_name, patchText, message) => {
    rejects(() => applyPatch({ aspectName: 'upstreamLineage', current: undefined, patchText, now: NOW }), message);
  });

  test('unsupported ops on keyed paths and malformed keys', () => {
    rejects(() => patch('upstreamLineage', undefined, [{ op: 'move', from: '/a', path: `/upstreams/${HIVE_A}` }]), /not supported/);
    rejects(
      () => patch('upstreamLineage', undefined, [{ op: 'add', path: '/fineGrainedLineages/NONE/x', value: {} }]),
      /expected \/fineGrainedLineages/,
    );
    rejects(
      () => patch('upstreamLineage', undefined, [{ op: 'add', path: '/upstreams/urn%3Ali%ZZ', value: {} }]),
      /malformed percent-encoded/,
    );
    rejects(
      () => patch('dataJobInputOutput', undefined, [{ op: 'add', path: `/inputDatasetEdges/${HIVE_A}`, value: 3 }]),
      /Edge object or a urn/,
    );
    rejects(
      () => patch('upstreamLineage', { upstreams: 'x' }, [{ op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A) }]),
      /not an array/,
    );
  });
});

test('prototype member names are neither templates nor keyed fields', () => {
  expect(patch('constructor', undefined, [{ op: 'add', path: '/a', value: 1 }])).toEqual({ a: 1 });
  expect(patch('upstreamLineage', { upstreams: [] }, [{ op: 'add', path: '/toString/x', value: 1 }])).toEqual({
    upstreams: [],
    toString: { x: 1 },
  });
});
