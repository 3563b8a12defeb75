import { SYSTEM_ACTOR_URN as SYSTEM_ACTOR } from '../privileges.ts';
import { HIVE_A, HIVE_B, NOW, patch, rejects, upstream } from './test-support.ts';

describe('GenericJsonPatch wrapper', () => {
  test('a wrapper without keys or force uses the templates', () => {
    const out = patch('upstreamLineage', undefined, {
      arrayPrimaryKeys: {},
      patch: [{ op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A) }],
      forceGenericPatch: false,
    });
    expect(out).toEqual({ upstreams: [upstream(HIVE_A)], fineGrainedLineages: [] });
  });

  test("arrayPrimaryKeys keys an unmodelled aspect's arrays (globalTags by tag)", () => {
    const tag = (t: string) => ({ tag: t });
    const current = { tags: [tag('urn:li:tag:a'), tag('urn:li:tag:b')] };
    const out = patch('globalTags', current, {
      arrayPrimaryKeys: { tags: ['tag'] },
      patch: [
        { op: 'add', path: '/tags/urn:li:tag:c', value: tag('urn:li:tag:c') },
        { op: 'remove', path: '/tags/urn:li:tag:a' },
        { op: 'remove', path: '/tags/urn:li:tag:absent' },
        { op: 'add', path: '/tags/urn:li:tag:b', value: { tag: 'urn:li:tag:b', context: 'x' } },
      ],
    });
    expect(out).toEqual({ tags: [{ tag: 'urn:li:tag:b', context: 'x' }, tag('urn:li:tag:c')] });
  });

  test('compound keys: a shorter path removes every entry under the prefix', () => {
    const owner = (o: string, type: string) => ({ owner: o, type });
    const current = {
      owners: [
        owner('urn:li:corpuser:a', 'TECHNICAL_OWNER'),
        owner('urn:li:corpuser:a', 'BUSINESS_OWNER'),
        owner('urn:li:corpuser:b', 'TECHNICAL_OWNER'),
      ],
    };
    const keys = { owners: ['owner', 'type'] };
    const removedOne = patch('ownership', current, {
      arrayPrimaryKeys: keys,
      patch: [{ op: 'remove', path: '/owners/urn:li:corpuser:a/BUSINESS_OWNER' }],
    });
    expect(removedOne.owners).toEqual([owner('urn:li:corpuser:a', 'TECHNICAL_OWNER'), owner('urn:li:corpuser:b', 'TECHNICAL_OWNER')]);
    const removedAll = patch('ownership', current, {
      arrayPrimaryKeys: keys,
      patch: [{ op: 'remove', path: '/owners/urn:li:corpuser:a' }],
    });
    expect(removedAll.owners).toEqual([owner('urn:li:corpuser:b', 'TECHNICAL_OWNER')]);
    const added = patch('ownership', undefined, {
      arrayPrimaryKeys: keys,
      patch: [{ op: 'add', path: '/owners/urn:li:corpuser:c/DATAOWNER', value: owner('urn:li:corpuser:c', 'DATAOWNER') }],
    });
    // An absent ownership starts from DataHub's template default, whichever form the patch takes.
    expect(added).toEqual({
      owners: [owner('urn:li:corpuser:c', 'DATAOWNER')],
      ownerTypes: {},
      lastModified: { time: NOW, actor: SYSTEM_ACTOR },
    });
  });

  test('nested key fields use the unit separator; an empty key list keys strings by themselves', () => {
    const current = { items: [{ ref: { id: 'x' }, v: 1 }], names: ['a', 'b'] };
    const out = patch('someAspect', current, {
      arrayPrimaryKeys: { items: ['ref\u241fid'], names: [] },
      patch: [
        { op: 'add', path: '/items/x/v', value: 2 },
        { op: 'remove', path: '/names/a' },
        { op: 'add', path: '/names/c', value: 'c' },
      ],
    });
    expect(out).toEqual({ items: [{ ref: { id: 'x' }, v: 2 }], names: ['b', 'c'] });
  });

  test('forceGenericPatch without keys is plain JSON Patch, even on a templated aspect', () => {
    const current = { upstreams: [upstream(HIVE_A), upstream(HIVE_B)] };
    const out = patch('upstreamLineage', current, {
      arrayPrimaryKeys: {},
      patch: [{ op: 'remove', path: '/upstreams/0' }],
      forceGenericPatch: true,
    });
    expect(out).toEqual({ upstreams: [upstream(HIVE_B)] });
    rejects(
      () =>
        patch('upstreamLineage', current, {
          patch: [
            { op: 'remove', path: `/upstreams/${HIVE_A}/x` },
            { op: 'add', path: `/upstreams/${HIVE_A}`, value: {} },
          ],
          forceGenericPatch: true,
        }),
      /operation 1/,
    );
  });
});
