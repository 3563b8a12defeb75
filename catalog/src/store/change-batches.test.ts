import { encodeLineageChange, lineageChangeRecord, type ChangeRecord } from '../model/change-events.ts';
import { changeBatchesOf, decodeChangeItem, encodeAspectRef, encodeChangeItem, frozenItem } from './change-batches.ts';
import { rowKey } from './rows.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const stamp = { actor: 'urn:li:corpuser:alice', time: 1_764_143_000_123 };
const edge = (down: string, up: string) => ({
  owner: down,
  aspect: 'upstreamLineage',
  type: 'DownstreamOf',
  upstream: up,
  downstream: down,
  via: null,
});
const mcl = (urn: string, aspectName: string): ChangeRecord => ({
  topic: 'MetadataChangeLog_Versioned_v1',
  entityUrn: urn,
  aspect: {
    aspectName,
    rowKey: rowKey(urn, aspectName),
    changeType: 'UPSERT',
    sequence: 2,
    previousSequence: 1,
    time: stamp.time,
    actor: stamp.actor,
  },
});

test('each kind of event decodes to what was recorded, whatever its urn holds', () => {
  // A urn may hold newlines and the row separator; the reference text (JSON) holds no raw newline.
  const odd = ds('we\nird\u241fname');
  const ref = mcl(odd, 'datasetProperties');
  expect(decodeChangeItem(7, odd, encodeChangeItem(ref))).toEqual({
    offset: 7,
    entityUrn: odd,
    value: null,
    lineage: null,
    aspectKey: rowKey(odd, 'datasetProperties'),
    ref: encodeAspectRef(ref.aspect!),
  });
  const lineage = lineageChangeRecord(edge(ds('b'), ds('a')), 'ADD', stamp);
  expect(decodeChangeItem(8, ds('b'), encodeChangeItem(lineage))).toMatchObject({
    value: null,
    aspectKey: null,
    lineage: encodeLineageChange(lineage.lineage!),
  });
  expect(
    decodeChangeItem(9, ds('b'), encodeChangeItem({ topic: 'PlatformEvent_v1', entityUrn: ds('b'), value: '{"a":"\\n"}' })),
  ).toMatchObject({ value: '{"a":"\\n"}', lineage: null, ref: null });
  expect(decodeChangeItem(9, ds('b'), frozenItem('text'))).toMatchObject({ value: 'text' });
});

test('an item of a form this catalog does not know is an error naming its offset, never a silent skip', () => {
  expect(() => decodeChangeItem(41, ds('a'), 'Xsomething')).toThrow(/change log event 41 .*"Xsomething"/);
  expect(() => decodeChangeItem(42, ds('a'), 'Rno-newline')).toThrow(/change log event 42/);
});

test('records become one batch per topic and entity, in order of first appearance, each keeping its order', () => {
  const [a, b, c] = [ds('a'), ds('b'), ds('c')];
  const records: ChangeRecord[] = [
    mcl(b, 'upstreamLineage'),
    lineageChangeRecord(edge(b, a), 'REMOVE', stamp),
    mcl(c, 'upstreamLineage'),
    lineageChangeRecord(edge(c, a), 'ADD', stamp),
    lineageChangeRecord(edge(b, c), 'ADD', stamp),
    mcl(b, 'datasetProperties'),
  ];
  const batches = changeBatchesOf(records);
  expect(batches.map((x) => [x.topic, x.entityUrn, x.at, x.items.length])).toEqual([
    ['MetadataChangeLog_Versioned_v1', b, 0, 2],
    ['PlatformEvent_v1', b, 2, 2],
    ['MetadataChangeLog_Versioned_v1', c, 4, 1],
    ['PlatformEvent_v1', c, 5, 1],
  ]);
  expect(batches[0]!.items).toEqual([encodeChangeItem(records[0]!), encodeChangeItem(records[5]!)]);
  expect(batches[1]!.items).toEqual([encodeChangeItem(records[1]!), encodeChangeItem(records[4]!)]);
  expect(changeBatchesOf([])).toEqual([]);
});
