import { applyLineageEdits, resolvePair, type LineageEdit } from './update-lineage.ts';
import { parseUrn } from '../model/urn.ts';

const ds = (n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`;
const job = (n: string) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),${n})`;
const chart = (n: string) => `urn:li:chart:(looker,${n})`;
const dash = (n: string) => `urn:li:dashboard:(looker,${n})`;
const flow = 'urn:li:dataFlow:(airflow,dag,PROD)';
const model = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)';
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:alice' };

function pair(up: string, down: string) {
  return resolvePair(parseUrn(up), parseUrn(down));
}

describe('resolvePair', () => {
  test.each([
    [ds('a'), ds('b'), 'upstreamLineage.upstreams', ds('b'), ds('a')],
    [ds('a'), chart('c'), 'chartInfo.inputEdges', chart('c'), ds('a')],
    [chart('x'), chart('c'), 'chartInfo.inputEdges', chart('c'), chart('x')],
    [chart('x'), dash('d'), 'dashboardInfo.chartEdges', dash('d'), chart('x')],
    [ds('a'), dash('d'), 'dashboardInfo.datasetEdges', dash('d'), ds('a')],
    [ds('a'), job('j'), 'dataJobInputOutput.inputDatasetEdges', job('j'), ds('a')],
    [job('i'), job('j'), 'dataJobInputOutput.inputDatajobEdges', job('j'), job('i')],
    [job('j'), ds('b'), 'dataJobInputOutput.outputDatasetEdges', job('j'), ds('b')],
  ])('%s -> %s is written in %s of %s', (up, down, field, owner, other) => {
    const r = pair(up, down);
    expect(
      r.ok && { field: `${r.target.field.aspect}.${r.target.field.field}`, owner: r.target.owner.text, other: r.target.other.text },
    ).toEqual({ field, owner, other });
  });

  test.each([
    [chart('x'), ds('b'), `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${chart('x')}`],
    [flow, ds('b'), `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${flow}`],
    [job('j'), chart('c'), `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${job('j')}`],
    [dash('e'), chart('c'), `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${dash('e')}`],
    [dash('e'), dash('d'), `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${dash('e')}`],
    [job('j'), dash('d'), `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${job('j')}`],
    [chart('x'), job('j'), `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${chart('x')}`],
    [job('j'), model, `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${model}`],
    [job('j'), flow, `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${flow}`],
    [ds('a'), flow, `Unsupported lineage edge: ${ds('a')} (dataset) -> ${flow} (dataFlow)`],
    [ds('a'), model, `Unsupported lineage edge: ${ds('a')} (dataset) -> ${model} (mlModel)`],
  ])('%s -> %s is rejected', (up, down, message) => {
    expect(pair(up, down)).toEqual({ ok: false, message });
  });
});

describe('applyLineageEdits', () => {
  const add = (field: LineageEdit['field'], other: string): LineageEdit => ({ op: 'add', field, other });
  const remove = (field: LineageEdit['field'], other: string): LineageEdit => ({ op: 'remove', field, other });

  test('creates an absent upstreamLineage with a UI-sourced TRANSFORMED upstream', () => {
    expect(applyLineageEdits('upstreamLineage', undefined, ds('b'), [add('upstreams', ds('a'))], stamp)).toEqual({
      upstreams: [{ dataset: ds('a'), type: 'TRANSFORMED', auditStamp: stamp, created: stamp, properties: { source: 'UI' } }],
    });
  });

  test('re-adding a listed upstream changes nothing', () => {
    const current = { upstreams: [{ dataset: ds('a'), type: 'COPY' }] };
    expect(applyLineageEdits('upstreamLineage', current, ds('b'), [add('upstreams', ds('a'))], stamp)).toBeUndefined();
  });

  test('remove drops every upstream with that dataset and keeps fine-grained lineage and other fields', () => {
    const fgl = [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [], downstreams: [] }];
    const current = {
      upstreams: [
        { dataset: ds('a'), type: 'COPY' },
        { dataset: ds('c'), type: 'VIEW' },
        { dataset: ds('a'), type: 'TRANSFORMED' },
      ],
      fineGrainedLineages: fgl,
      extra: 1,
    };
    expect(applyLineageEdits('upstreamLineage', current, ds('b'), [remove('upstreams', ds('a'))], stamp)).toEqual({
      upstreams: [{ dataset: ds('c'), type: 'VIEW' }],
      fineGrainedLineages: fgl,
      extra: 1,
    });
  });

  test('adds come before removes: an edge in both lists ends absent, and an absent aspect stays absent', () => {
    const edits = [remove('upstreams', ds('a')), add('upstreams', ds('a'))];
    expect(applyLineageEdits('upstreamLineage', undefined, ds('b'), edits, stamp)).toBeUndefined();
    const current = { upstreams: [{ dataset: ds('a'), type: 'COPY' }] };
    expect(applyLineageEdits('upstreamLineage', current, ds('b'), edits, stamp)).toEqual({ upstreams: [] });
  });

  test('removing an unlisted edge changes nothing', () => {
    const current = { upstreams: [{ dataset: ds('c'), type: 'COPY' }] };
    expect(applyLineageEdits('upstreamLineage', current, ds('b'), [remove('upstreams', ds('a'))], stamp)).toBeUndefined();
    expect(applyLineageEdits('dataJobInputOutput', undefined, job('j'), [remove('inputDatasetEdges', ds('a'))], stamp)).toBeUndefined();
    expect(applyLineageEdits('chartInfo', undefined, chart('c'), [remove('inputEdges', ds('a'))], stamp)).toBeUndefined();
  });

  test('chart: new Edge owned by the chart; legacy inputs count as present and are removed too', () => {
    const info = { title: 't', description: '', lastModified: {}, inputs: [{ string: ds('a') }] };
    expect(applyLineageEdits('chartInfo', info, chart('c'), [add('inputEdges', ds('a'))], stamp)).toBeUndefined();
    expect(applyLineageEdits('chartInfo', info, chart('c'), [add('inputEdges', chart('x'))], stamp)).toEqual({
      ...info,
      inputEdges: [
        { sourceUrn: chart('c'), destinationUrn: chart('x'), created: stamp, lastModified: stamp, properties: { source: 'UI' } },
      ],
    });
    expect(applyLineageEdits('chartInfo', info, chart('c'), [remove('inputEdges', ds('a'))], stamp)).toEqual({ ...info, inputs: [] });
  });

  test('dashboard: charts and datasets go to their own Edge lists; removal clears legacy lists', () => {
    const info = { title: 't', description: '', lastModified: {}, charts: [chart('x')], datasets: [ds('a')] };
    const next = applyLineageEdits(
      'dashboardInfo',
      info,
      dash('d'),
      [add('chartEdges', chart('y')), add('datasetEdges', ds('b')), remove('chartEdges', chart('x')), remove('datasetEdges', ds('a'))],
      stamp,
    );
    expect(next).toEqual({
      ...info,
      charts: [],
      datasets: [],
      chartEdges: [{ sourceUrn: dash('d'), destinationUrn: chart('y'), created: stamp, lastModified: stamp, properties: { source: 'UI' } }],
      datasetEdges: [{ sourceUrn: dash('d'), destinationUrn: ds('b'), created: stamp, lastModified: stamp, properties: { source: 'UI' } }],
    });
  });

  test('dataJobInputOutput: created with the required legacy lists; all three Edge lists', () => {
    const next = applyLineageEdits(
      'dataJobInputOutput',
      undefined,
      job('j'),
      [add('inputDatasetEdges', ds('a')), add('inputDatajobEdges', job('i')), add('outputDatasetEdges', ds('b'))],
      stamp,
    );
    const edge = (d: string) => ({
      sourceUrn: job('j'),
      destinationUrn: d,
      created: stamp,
      lastModified: stamp,
      properties: { source: 'UI' },
    });
    expect(next).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [edge(ds('a'))],
      inputDatajobEdges: [edge(job('i'))],
      outputDatasetEdges: [edge(ds('b'))],
    });
    const legacy = { inputDatasets: [ds('a')], outputDatasets: [ds('b')], inputDatajobs: [job('i')] };
    expect(
      applyLineageEdits(
        'dataJobInputOutput',
        legacy,
        job('j'),
        [add('inputDatasetEdges', ds('a')), add('inputDatajobEdges', job('i')), add('outputDatasetEdges', ds('b'))],
        stamp,
      ),
    ).toBeUndefined();
    expect(
      applyLineageEdits(
        'dataJobInputOutput',
        { ...legacy, ...next },
        job('j'),
        [remove('inputDatasetEdges', ds('a')), remove('inputDatajobEdges', job('i')), remove('outputDatasetEdges', ds('b'))],
        stamp,
      ),
    ).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatajobs: [],
      inputDatasetEdges: [],
      inputDatajobEdges: [],
      outputDatasetEdges: [],
    });
  });
});
