import { edgesOfParsedRow, edgesOfRow } from './relationships.ts';
import { parseUrn } from './urn.ts';

const ds = (n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`;
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)';

// The write path derives a new row's edges from the values it stringifies (apply.ts); restore
// derives them from the stored text. Both must give the same edges, also for what JSON text does
// not keep as it is: undefined members, a non-finite number (1e400 parses to Infinity), -0.
test.each([
  [
    'upstreamLineage',
    ds('d'),
    {
      upstreams: [
        {
          dataset: ds('a'),
          type: 'TRANSFORMED',
          auditStamp: { time: Infinity, actor: 'urn:li:corpuser:x' },
          created: { time: -0 },
          query: undefined,
        },
        { dataset: ds('b'), type: 'COPY', auditStamp: { time: 7, actor: undefined }, properties: { k: 'v', n: undefined } },
        undefined,
      ],
      fineGrainedLineages: [
        { upstreams: [`urn:li:schemaField:(${ds('a')},x)`], downstreams: [`urn:li:schemaField:(${ds('d')},y)`], query: undefined },
      ],
    },
    { lastObserved: 5 },
  ],
  [
    'dataJobInputOutput',
    job,
    {
      inputDatasetEdges: [{ destinationUrn: ds('i'), created: { time: 3, actor: 'urn:li:corpuser:y' }, lastModified: undefined }],
      outputDatasets: [ds('o'), undefined],
    },
    { lastObserved: Infinity },
  ],
])('%s: edges of the parsed row are those of its JSON text', (aspect, urn, value, systemMetadata) => {
  const createdBy = 'urn:li:corpuser:w';
  const parsed = edgesOfParsedRow(parseUrn(urn), aspect, { value, systemMetadata, createdBy });
  const text = edgesOfRow(parseUrn(urn), aspect, {
    value: JSON.stringify(value),
    systemMetadata: JSON.stringify(systemMetadata),
    createdBy,
  });
  expect(parsed.length).toBeGreaterThan(1);
  expect(parsed).toEqual(text);
});
