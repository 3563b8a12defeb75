import { checkRow, checkUrn, diffEdges, likeMatcher, likePrefix, urnRange, type StoredEdge } from './diff.ts';
import { edgesOfRow } from '../../model/relationships.ts';
import { parseUrn } from '../../model/urn.ts';
import { diffFields, searchFieldsOf } from '../../model/search-fields.ts';

const ds = (n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`;
const row = (value: unknown) => ({
  value: JSON.stringify(value),
  systemMetadata: JSON.stringify({ lastObserved: 5 }),
  createdBy: 'urn:li:corpuser:w',
});

function storedOf(urn: string, aspect: string, value: unknown): StoredEdge[] {
  return edgesOfRow(parseUrn(urn), aspect, row(value)).flatMap((e) => {
    const typed: StoredEdge = {
      owner: e.owner,
      aspect: e.aspect,
      type: e.type,
      key: e.key,
      source: e.source,
      destination: e.destination,
      createdOn: e.createdOn,
      createdActor: e.createdActor,
      updatedOn: e.updatedOn,
      updatedActor: e.updatedActor,
      properties: e.properties === null ? null : JSON.stringify(e.properties),
      via: e.via,
      manual: e.manual,
      lineageType: null,
    };
    if (!e.lineage) return [typed];
    return [
      typed,
      {
        owner: e.owner,
        aspect: e.aspect,
        type: 'LINEAGE',
        key: e.key,
        source: e.lineage.upstream,
        destination: e.lineage.downstream,
        createdOn: e.createdOn,
        createdActor: null,
        updatedOn: e.updatedOn,
        updatedActor: null,
        properties: null,
        via: null,
        manual: e.manual,
        lineageType: e.type,
      },
    ];
  });
}

test('LIKE prefix and range: escapes are literal, wildcards end the prefix', () => {
  expect(likePrefix('urn:li:dataset:%')).toBe('urn:li:dataset:');
  expect(likePrefix('a\\%b_c')).toBe('a%b');
  expect(urnRange({ urnLike: 'abc%' })).toMatchObject({ lower: 'abc', upper: 'abd' });
  expect(urnRange({ urn: 'u' })).toMatchObject({ lower: 'u', upper: 'u\u0000' });
  expect(urnRange({})).toMatchObject({ lower: '' });
  const m = likeMatcher('a\\_b%');
  expect(m.test('a_bxyz')).toBe(true);
  expect(m.test('aXbxyz')).toBe(false);
  expect(likeMatcher('a_c').test('abc')).toBe(true);
});

test('checkRow ignores bad urns, bad JSON and aspects the registry refuses, but keeps schema drift', () => {
  expect(checkUrn('not-a-urn').ok).toBe(false);
  expect(checkRow(ds('a'), 'upstreamLineage', '{').ok).toBe(false);
  expect(checkRow(ds('a'), 'chartInfo', '{}')).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/not supported for entity type dataset/),
  });
  expect(checkRow(ds('a'), 'chartKey', '{}')).toMatchObject({ ok: false, reason: expect.stringMatching(/key aspect of chart/) });
  expect(checkRow('urn:li:dataset:(urn:li:dataPlatform:hive,a,NOPE)', 'status', '{}').ok).toBe(false);
  expect(checkRow(ds('a'), 'upstreamLineage', '{"upstreams": 3}').ok).toBe(true);
  expect(checkRow(ds('a'), 'someCustomAspect', '{"x": 1}').ok).toBe(true);
});

test('diffEdges: identical state gives nothing; missing, extra, changed and wrong ends are found', () => {
  const value = {
    upstreams: [
      { dataset: ds('u1'), type: 'TRANSFORMED' },
      { dataset: ds('u2'), type: 'COPY' },
    ],
  };
  const derived = edgesOfRow(parseUrn(ds('d')), 'upstreamLineage', row(value));
  const stored = storedOf(ds('d'), 'upstreamLineage', value);
  expect(diffEdges(derived, stored)).toMatchObject({ missing: [], extra: [], changed: [], toMerge: [], toDelete: [] });

  const [typed1, lin1, typed2, lin2] = stored;
  const bogus: StoredEdge = { ...typed1!, key: 'bogus', destination: ds('zz') };
  const diff = diffEdges(derived, [{ ...typed1!, via: 'x' }, lin1!, typed2!, { ...lin2!, source: ds('wrong') }, bogus]);
  expect(diff.changed.map((c) => [c.type, Object.keys(c.fields)])).toEqual([['DownstreamOf', ['via']]]);
  expect(diff.extra.map((e) => e.key).sort()).toEqual(['bogus', lin2!.key].sort());
  expect(diff.missing.map((e) => [e.type, e.key])).toEqual([['LINEAGE', lin2!.key]]);
  // The wrong LINEAGE twin is deleted by key between its (wrong) ends; the bogus one too.
  expect(diff.toDelete).toHaveLength(2);
  expect(diff.toMerge.map((e) => e.key).sort()).toEqual([typed1!.key, typed2!.key].sort());
});

test('diffEdges: a duplicate relationship is removed and its edge merged again', () => {
  const value = { upstreams: [{ dataset: ds('u1'), type: 'TRANSFORMED' }] };
  const derived = edgesOfRow(parseUrn(ds('d')), 'upstreamLineage', row(value));
  const stored = storedOf(ds('d'), 'upstreamLineage', value);
  const diff = diffEdges(derived, [...stored, stored[0]!]);
  expect(diff.extra).toHaveLength(2);
  expect(diff.missing).toHaveLength(1);
  expect(diff.toMerge).toHaveLength(1);
});

test('diffFields compares every search field, missing properties as null', () => {
  const u = parseUrn(ds('a'));
  const expected = searchFieldsOf(u, { exists: true, aspects: new Map([['datasetProperties', { name: 'A', description: 'd' }]]) });
  expect(diffFields(expected, { ...expected })).toEqual({});
  expect(Object.keys(diffFields(expected, { ...expected, name: 'x', removed: undefined }))).toEqual(['removed', 'name']);
  expect(Object.keys(diffFields(expected, undefined)).length).toBeGreaterThan(3);
});
