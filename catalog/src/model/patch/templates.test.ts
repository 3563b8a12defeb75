import { COMMON_ASPECTS } from '../descriptors/common-aspects.ts';
import { entityTypeDescriptors, patchTemplateOf } from '../entity-registry.ts';
import { SYSTEM_ACTOR_URN as SYSTEM_ACTOR } from '../privileges.ts';
import { HIVE_A, HIVE_B, NOW, patch, rejects, upstream } from './test-support.ts';

const S3 = 'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/key/file.csv,PROD)';
const TILDE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.~tmp,PROD)';
const field = (ds: string, f: string) => `urn:li:schemaField:(${ds},${f})`;
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)';
const CHART = 'urn:li:chart:(looker,dashboard_elements.1)';
const DASH = 'urn:li:dashboard:(looker,dashboards.2)';

describe('upstreamLineage /upstreams/<urn>', () => {
  test('0.13 SDK add_upstream_lineage on an absent aspect yields the spec default plus the entry', () => {
    // DatasetPatchBuilder.add_upstream_lineage: path f"/upstreams/{quote(upstream.dataset)}".
    const out = patch('upstreamLineage', undefined, [{ op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A) }]);
    expect(out).toEqual({ upstreams: [upstream(HIVE_A)], fineGrainedLineages: [] });
  });

  test('0.13 SDK: add quotes "/" as ~1 but remove_upstream_lineage sends the urn unquoted', () => {
    const added = patch('upstreamLineage', undefined, [
      { op: 'add', path: '/upstreams/urn:li:dataset:(urn:li:dataPlatform:s3,bucket~1key~1file.csv,PROD)', value: upstream(S3) },
      { op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A) },
    ]);
    expect(added.upstreams).toEqual([upstream(S3), upstream(HIVE_A)]);
    const removed = patch('upstreamLineage', added, [{ op: 'remove', path: `/upstreams/${S3}`, value: {} }]);
    expect(removed.upstreams).toEqual([upstream(HIVE_A)]);
  });

  test('newest SDK quotes every path component (~0, ~1) for add and remove', () => {
    // _Patch.to_obj: "/" + "/".join(quote(p) for p in path), quote = ~ → ~0, / → ~1.
    const quoted = (u: string) => u.replace(/~/g, '~0').replace(/\//g, '~1');
    const added = patch('upstreamLineage', { upstreams: [] }, [
      { op: 'add', path: `/upstreams/${quoted(S3)}`, value: upstream(S3) },
      { op: 'add', path: `/upstreams/${quoted(TILDE)}`, value: upstream(TILDE, 'VIEW') },
    ]);
    expect(added).toEqual({ upstreams: [upstream(S3), upstream(TILDE, 'VIEW')] });
    const removed = patch('upstreamLineage', added, [{ op: 'remove', path: `/upstreams/${quoted(TILDE)}`, value: {} }]);
    expect(removed).toEqual({ upstreams: [upstream(S3)] });
  });

  test('re-adding replaces the entry in place; new keys append', () => {
    const current = { upstreams: [upstream(HIVE_A), upstream(HIVE_B)] };
    const out = patch('upstreamLineage', current, [
      { op: 'add', path: `/upstreams/${HIVE_C}`, value: upstream(HIVE_C) },
      { op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A, 'VIEW') },
    ]);
    expect(out.upstreams).toEqual([upstream(HIVE_A, 'VIEW'), upstream(HIVE_B), upstream(HIVE_C)]);
  });

  test('removing an absent upstream is a no-op and leaves the stored value exactly as it was', () => {
    const current = { upstreams: [upstream(HIVE_A)], customField: { kept: true } };
    const out = patch('upstreamLineage', current, [{ op: 'remove', path: `/upstreams/${HIVE_B}`, value: {} }]);
    expect(out).toEqual(current);
    expect(out).not.toHaveProperty('fineGrainedLineages');
    // Retried removal of a present key: the second application changes nothing.
    const once = patch('upstreamLineage', current, [{ op: 'remove', path: `/upstreams/${HIVE_A}`, value: {} }]);
    const twice = patch('upstreamLineage', once, [{ op: 'remove', path: `/upstreams/${HIVE_A}`, value: {} }]);
    expect(once).toEqual({ upstreams: [], customField: { kept: true } });
    expect(twice).toEqual(once);
  });

  test('does not mutate the stored value', () => {
    const current = { upstreams: [upstream(HIVE_A)] };
    const snapshot = structuredClone(current);
    patch('upstreamLineage', current, [{ op: 'remove', path: `/upstreams/${HIVE_A}` }]);
    expect(current).toEqual(snapshot);
  });

  test('set_upstream_lineages replaces the whole array', () => {
    const out = patch('upstreamLineage', { upstreams: [upstream(HIVE_A)] }, [
      { op: 'add', path: '/upstreams', value: [upstream(HIVE_B)] },
      { op: 'add', path: `/upstreams/${HIVE_C}`, value: upstream(HIVE_C) },
    ]);
    expect(out.upstreams).toEqual([upstream(HIVE_B), upstream(HIVE_C)]);
  });

  test('a field inside a keyed entry can be patched; an absent entry cannot', () => {
    const out = patch('upstreamLineage', { upstreams: [upstream(HIVE_A)] }, [
      { op: 'replace', path: `/upstreams/${HIVE_A}/type`, value: 'COPY' },
      { op: 'add', path: `/upstreams/${HIVE_A}/properties/source`, value: 'sdk' },
    ]);
    expect(out.upstreams).toEqual([{ ...upstream(HIVE_A, 'COPY'), properties: { source: 'sdk' } }]);
    rejects(
      () => patch('upstreamLineage', { upstreams: [] }, [{ op: 'add', path: `/upstreams/${HIVE_A}/type`, value: 'COPY' }]),
      /has no entry/,
    );
  });

  test('an added Upstream without its dataset takes it from the path', () => {
    const out = patch('upstreamLineage', { upstreams: [] }, [{ op: 'add', path: `/upstreams/${HIVE_A}`, value: { type: 'COPY' } }]);
    expect(out.upstreams).toEqual([{ dataset: HIVE_A, type: 'COPY' }]);
  });

  test('other fields are plain JSON pointers', () => {
    const out = patch('upstreamLineage', { upstreams: [] }, [{ op: 'add', path: '/fineGrainedLineages', value: [] }]);
    expect(out).toEqual({ upstreams: [], fineGrainedLineages: [] });
  });
});

const HIVE_C = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';

describe('fine-grained lineage map', () => {
  const down = field(HIVE_C, 'user_id');
  const upA = field(HIVE_A, 'id');
  const upB = field(HIVE_B, 'uid');
  const q = 'urn:li:query:abc';
  // DatasetPatchBuilder.quote_fine_grained_path (0.13) / _build_fine_grained_path (newest): every
  // component quoted, "NONE" for a missing transformOperation or query.
  const fgPath = (op: string, d: string, query: string, u: string) =>
    `/fineGrainedLineages/${[op, d, query, u].map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

  test('add_fine_grained_upstream_lineage on an absent aspect builds one entry per group', () => {
    const out = patch('upstreamLineage', undefined, [
      { op: 'add', path: fgPath('TRANSFORM', down, 'NONE', upA), value: { confidenceScore: 1.0 } },
      { op: 'add', path: fgPath('TRANSFORM', down, 'NONE', upB), value: { confidenceScore: 0.5 } },
      { op: 'add', path: fgPath('NONE', down, q, upA), value: { confidenceScore: 1.0 } },
    ]);
    expect(out).toEqual({
      upstreams: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [upA, upB],
          downstreamType: 'FIELD',
          downstreams: [down],
          transformOperation: 'TRANSFORM',
          confidenceScore: 0.5,
        },
        {
          upstreamType: 'FIELD_SET',
          upstreams: [upA],
          downstreamType: 'FIELD',
          downstreams: [down],
          transformOperation: 'NONE',
          confidenceScore: 1.0,
          query: q,
        },
      ],
    });
  });

  test('a dataset upstream defaults upstreamType to DATASET', () => {
    const out = patch('upstreamLineage', { upstreams: [] }, [
      { op: 'add', path: fgPath('NONE', down, 'NONE', HIVE_A), value: { confidenceScore: 1.0 } },
    ]);
    expect(out.fineGrainedLineages).toEqual([
      {
        upstreamType: 'DATASET',
        upstreams: [HIVE_A],
        downstreamType: 'FIELD',
        downstreams: [down],
        transformOperation: 'NONE',
        confidenceScore: 1.0,
      },
    ]);
  });

  test('stored entries are converted into the map first and preserved', () => {
    const untouched = {
      upstreamType: 'FIELD_SET',
      upstreams: [upB],
      downstreamType: 'FIELD',
      downstreams: [field(HIVE_C, 'other')],
      confidenceScore: 0.8,
    };
    const existing = {
      upstreamType: 'FIELD_SET',
      upstreams: [upA],
      downstreamType: 'FIELD',
      downstreams: [down],
      transformOperation: 'IDENTITY',
      confidenceScore: 0.9,
    };
    const current = { upstreams: [upstream(HIVE_A)], fineGrainedLineages: [untouched, existing] };
    const out = patch('upstreamLineage', current, [
      { op: 'add', path: fgPath('IDENTITY', down, 'NONE', upB), value: { confidenceScore: 1.0 } },
    ]);
    expect(out).toEqual({
      upstreams: [upstream(HIVE_A)],
      fineGrainedLineages: [untouched, { ...existing, upstreams: [upA, upB], confidenceScore: 0.9 }],
    });
  });

  test('round trip: add then remove every upstream gives back the stored value', () => {
    const stored = {
      upstreams: [upstream(HIVE_A)],
      fineGrainedLineages: [
        { upstreamType: 'FIELD_SET', upstreams: [upA], downstreamType: 'FIELD', downstreams: [down], confidenceScore: 1.0 },
      ],
    };
    const added = patch('upstreamLineage', stored, [
      { op: 'add', path: fgPath('TRANSFORM', down, q, upB), value: { confidenceScore: 0.7 } },
    ]);
    expect(added.fineGrainedLineages).toHaveLength(2);
    const removed = patch('upstreamLineage', added, [{ op: 'remove', path: fgPath('TRANSFORM', down, q, upB), value: {} }]);
    expect(removed).toEqual(stored);
    // Removing it again (a retry) changes nothing.
    expect(patch('upstreamLineage', removed, [{ op: 'remove', path: fgPath('TRANSFORM', down, q, upB), value: {} }])).toEqual(stored);
  });

  test('removing the last upstream of a group drops the entry; removing a prefix drops the group', () => {
    const current = patch('upstreamLineage', undefined, [
      { op: 'add', path: fgPath('TRANSFORM', down, 'NONE', upA), value: { confidenceScore: 1.0 } },
      { op: 'add', path: fgPath('TRANSFORM', down, 'NONE', upB), value: { confidenceScore: 1.0 } },
    ]);
    const one = patch('upstreamLineage', current, [{ op: 'remove', path: fgPath('TRANSFORM', down, 'NONE', upA), value: {} }]);
    expect((one.fineGrainedLineages as { upstreams: string[] }[]).map((f) => f.upstreams)).toEqual([[upB]]);
    const none = patch('upstreamLineage', current, [{ op: 'remove', path: `/fineGrainedLineages/TRANSFORM` }]);
    expect(none.fineGrainedLineages).toEqual([]);
  });

  test('stored entries without exactly one downstream cannot be patched', () => {
    const current = {
      upstreams: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [upA],
          downstreamType: 'FIELD_SET',
          downstreams: [down, field(HIVE_C, 'x')],
          confidenceScore: 1,
        },
      ],
    };
    rejects(
      () => patch('upstreamLineage', current, [{ op: 'add', path: fgPath('NONE', down, 'NONE', upB), value: { confidenceScore: 1 } }]),
      /2 downstreams/,
    );
    // A patch that does not touch fineGrainedLineages still works on such a value.
    expect(
      patch('upstreamLineage', current, [{ op: 'add', path: `/upstreams/${HIVE_A}`, value: upstream(HIVE_A) }]).fineGrainedLineages,
    ).toEqual(current.fineGrainedLineages);
  });

  test('the upstream value must be an object', () => {
    rejects(
      () => patch('upstreamLineage', undefined, [{ op: 'add', path: fgPath('NONE', down, 'NONE', upA), value: 1 }]),
      /must be an object/,
    );
  });

  test('dataJobInputOutput has the same fine-grained map', () => {
    const out = patch('dataJobInputOutput', { inputDatasets: [], outputDatasets: [] }, [
      { op: 'add', path: fgPath('NONE', down, 'NONE', upA), value: { confidenceScore: 1.0 } },
    ]);
    expect(out).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [upA],
          downstreamType: 'FIELD',
          downstreams: [down],
          transformOperation: 'NONE',
          confidenceScore: 1.0,
        },
      ],
    });
  });
});

describe('dataJobInputOutput', () => {
  const edge = (destinationUrn: string) => ({
    destinationUrn,
    created: { time: NOW, actor: 'urn:li:corpuser:datahub' },
    lastModified: { time: NOW, actor: 'urn:li:corpuser:datahub' },
  });
  const fieldUrn = field(HIVE_A, 'id');

  test('absent aspect: every array empty, including the required deprecated ones', () => {
    const out = patch('dataJobInputOutput', undefined, []);
    expect(out).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatajobs: [],
      inputDatasetEdges: [],
      outputDatasetEdges: [],
      inputDatajobEdges: [],
      inputDatasetFields: [],
      outputDatasetFields: [],
      fineGrainedLineages: [],
    });
  });

  test('0.13 DataJobPatchBuilder: percent-encoded add paths, raw remove paths', () => {
    // add_input_dataset: path f"/inputDatasetEdges/{quote(input_urn, safe='')}" (urllib quote).
    const pct = 'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cfct_users_deleted%2CPROD%29';
    const jobPct = 'urn%3Ali%3AdataJob%3A%28urn%3Ali%3AdataFlow%3A%28airflow%2Cdag%2Cprod%29%2Ctask%29';
    const fieldPct =
      'urn%3Ali%3AschemaField%3A%28urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cfct_users_deleted%2CPROD%29%2Cid%29';
    const added = patch('dataJobInputOutput', undefined, [
      { op: 'add', path: `/inputDatasetEdges/${pct}`, value: edge(HIVE_A) },
      { op: 'add', path: `/outputDatasetEdges/${HIVE_B}`, value: edge(HIVE_B) },
      { op: 'add', path: `/inputDatajobEdges/${jobPct}`, value: edge(JOB) },
      // add_input_dataset_field sends an Edge as the value of a urn array.
      { op: 'add', path: `/inputDatasetFields/${fieldPct}`, value: edge(fieldUrn) },
      { op: 'add', path: `/outputDatasetFields/${field(HIVE_B, 'uid')}`, value: field(HIVE_B, 'uid') },
    ]);
    expect(added).toMatchObject({
      inputDatasetEdges: [edge(HIVE_A)],
      outputDatasetEdges: [edge(HIVE_B)],
      inputDatajobEdges: [edge(JOB)],
      inputDatasetFields: [fieldUrn],
      outputDatasetFields: [field(HIVE_B, 'uid')],
    });
    const removed = patch('dataJobInputOutput', added, [
      { op: 'remove', path: `/inputDatasetEdges/${HIVE_A}`, value: {} },
      { op: 'remove', path: `/outputDatasetEdges/${HIVE_B}`, value: {} },
      { op: 'remove', path: `/inputDatajobEdges/${JOB}`, value: {} },
      { op: 'remove', path: `/inputDatasetFields/${fieldPct}`, value: {} },
      { op: 'remove', path: `/outputDatasetFields/${field(HIVE_B, 'uid')}`, value: {} },
    ]);
    expect(removed).toEqual(patch('dataJobInputOutput', undefined, []));
  });

  test('set_input_datasets sends replace on the whole array, even when the stored value lacks it', () => {
    const out = patch('dataJobInputOutput', { inputDatasets: [], outputDatasets: [] }, [
      { op: 'replace', path: '/inputDatasetEdges', value: [edge(HIVE_A)] },
    ]);
    expect(out).toEqual({ inputDatasets: [], outputDatasets: [], inputDatasetEdges: [edge(HIVE_A)] });
  });

  test('a bare urn added to an edge array becomes an Edge', () => {
    const out = patch('dataJobInputOutput', { inputDatasets: [], outputDatasets: [] }, [
      { op: 'add', path: `/inputDatasetEdges/${HIVE_A}`, value: HIVE_A },
    ]);
    expect(out.inputDatasetEdges).toEqual([{ destinationUrn: HIVE_A }]);
  });
});

describe('chartInfo', () => {
  const defaultStamp = { time: NOW, actor: SYSTEM_ACTOR };

  test('absent aspect default', () => {
    expect(patch('chartInfo', undefined, [])).toEqual({
      title: '',
      description: '',
      lastModified: { created: defaultStamp, lastModified: defaultStamp },
      inputs: [],
      inputEdges: [],
    });
  });

  test('0.13 ChartPatchBuilder.add_input_edge: percent-encoded path and a bare urn as value', () => {
    const pct = 'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cfct_users_deleted%2CPROD%29';
    const out = patch('chartInfo', undefined, [{ op: 'add', path: `/inputEdges/${pct}`, value: HIVE_A }]);
    expect(out.inputEdges).toEqual([{ destinationUrn: HIVE_A }]);
    const removed = patch('chartInfo', out, [{ op: 'remove', path: `/inputEdges/${HIVE_A}`, value: {} }]);
    expect(removed.inputEdges).toEqual([]);
  });

  test('/inputs/<urn> keys {"string": urn} entries by the urn', () => {
    const current = {
      title: 't',
      description: 'd',
      lastModified: { created: defaultStamp, lastModified: defaultStamp },
      inputs: [{ string: HIVE_A }],
    };
    const out = patch('chartInfo', current, [
      { op: 'add', path: `/inputs/${HIVE_B}`, value: HIVE_B },
      { op: 'add', path: `/inputs/${HIVE_A}`, value: { string: HIVE_A } },
      { op: 'add', path: `/inputs/${S3.replace(/\//g, '~1')}`, value: { string: S3 } },
    ]);
    expect(out.inputs).toEqual([{ string: HIVE_A }, { string: HIVE_B }, { string: S3 }]);
    const removed = patch('chartInfo', out, [
      { op: 'remove', path: `/inputs/${HIVE_A}` },
      { op: 'remove', path: `/inputs/${S3}` },
      { op: 'remove', path: `/inputs/${HIVE_C}` },
    ]);
    expect(removed.inputs).toEqual([{ string: HIVE_B }]);
    expect(removed.title).toBe('t');
  });
});

describe('dashboardInfo', () => {
  const defaultStamp = { time: NOW, actor: SYSTEM_ACTOR };
  const edge = (destinationUrn: string) => ({ destinationUrn, created: { time: 1, actor: 'urn:li:corpuser:datahub' } });

  test('absent aspect default and every keyed path', () => {
    // DashboardPatchBuilder: /chartEdges/{quote(urn)}, /datasetEdges/{quote(urn)} (Edge values);
    // add_charts / add_datasets: /charts/{urn}, /datasets/{urn} unquoted, the urn as value.
    const out = patch('dashboardInfo', undefined, [
      { op: 'add', path: `/chartEdges/${CHART}`, value: edge(CHART) },
      { op: 'add', path: `/datasetEdges/${HIVE_A}`, value: edge(HIVE_A) },
      { op: 'add', path: `/charts/${CHART}`, value: CHART },
      { op: 'add', path: `/datasets/${S3}`, value: S3 },
      { op: 'add', path: `/dashboards/${DASH}`, value: edge(DASH) },
    ]);
    expect(out).toEqual({
      title: '',
      description: '',
      lastModified: { created: defaultStamp, lastModified: defaultStamp },
      charts: [CHART],
      chartEdges: [edge(CHART)],
      datasets: [S3],
      datasetEdges: [edge(HIVE_A)],
      dashboards: [edge(DASH)],
    });
    const removed = patch('dashboardInfo', out, [
      { op: 'remove', path: `/chartEdges/${CHART}`, value: {} },
      { op: 'remove', path: `/datasetEdges/${HIVE_A}`, value: {} },
      { op: 'remove', path: `/charts/${CHART}`, value: {} },
      { op: 'remove', path: `/datasets/${S3}`, value: {} },
      { op: 'remove', path: `/dashboards/${DASH}`, value: {} },
      { op: 'remove', path: `/datasets/${HIVE_B}`, value: {} },
    ]);
    expect(removed).toEqual({ ...patch('dashboardInfo', undefined, []), dashboards: [] });
  });

  test('plain fields: set_title, add_custom_property', () => {
    const out = patch('dashboardInfo', undefined, [
      { op: 'add', path: '/title', value: 'Revenue' },
      { op: 'add', path: '/customProperties/owner', value: 'finance' },
    ]);
    expect(out.title).toBe('Revenue');
    expect(out.customProperties).toEqual({ owner: 'finance' });
  });
});

describe('tags, terms and owners as the Python builders address them', () => {
  const stamp = { time: NOW, actor: SYSTEM_ACTOR };
  test('globalTags /tags/<urn>: add to nothing, re-add in place, remove', () => {
    const one = patch('globalTags', undefined, [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }]);
    expect(one).toEqual({ tags: [{ tag: 'urn:li:tag:pii' }] });
    const two = patch('globalTags', one, [
      { op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } },
      { op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii', context: 'c' } },
    ]);
    expect(two).toEqual({ tags: [{ tag: 'urn:li:tag:pii', context: 'c' }, { tag: 'urn:li:tag:gold' }] });
    expect(patch('globalTags', two, [{ op: 'remove', path: '/tags/urn:li:tag:pii', value: {} }])).toEqual({
      tags: [{ tag: 'urn:li:tag:gold' }],
    });
  });

  test('glossaryTerms /terms/<urn> starts from a stamped default', () => {
    expect(
      patch('glossaryTerms', undefined, [{ op: 'add', path: '/terms/urn:li:glossaryTerm:rev', value: { urn: 'urn:li:glossaryTerm:rev' } }]),
    ).toEqual({ terms: [{ urn: 'urn:li:glossaryTerm:rev' }], auditStamp: stamp });
  });

  test('ownership /owners/<urn>/<type>: one entry per type; removing the owner removes every type', () => {
    const jdoe = 'urn:li:corpuser:jdoe';
    const owned = patch('ownership', undefined, [
      { op: 'add', path: `/owners/${jdoe}/TECHNICAL_OWNER`, value: { owner: jdoe, type: 'TECHNICAL_OWNER' } },
      { op: 'add', path: `/owners/${jdoe}/BUSINESS_OWNER`, value: { owner: jdoe, type: 'BUSINESS_OWNER' } },
      { op: 'add', path: '/owners/urn:li:corpuser:amy/DATAOWNER', value: { owner: 'urn:li:corpuser:amy', type: 'DATAOWNER' } },
    ]);
    expect(owned.owners).toEqual([
      { owner: jdoe, type: 'TECHNICAL_OWNER' },
      { owner: jdoe, type: 'BUSINESS_OWNER' },
      { owner: 'urn:li:corpuser:amy', type: 'DATAOWNER' },
    ]);
    expect(owned.lastModified).toEqual(stamp);
    expect(patch('ownership', owned, [{ op: 'remove', path: `/owners/${jdoe}/BUSINESS_OWNER` }]).owners).toEqual([
      { owner: jdoe, type: 'TECHNICAL_OWNER' },
      { owner: 'urn:li:corpuser:amy', type: 'DATAOWNER' },
    ]);
    // The 0.13–1.3 builders send the owner urn as the value of a whole-owner remove.
    expect(patch('ownership', owned, [{ op: 'remove', path: `/owners/${jdoe}`, value: jdoe }]).owners).toEqual([
      { owner: 'urn:li:corpuser:amy', type: 'DATAOWNER' },
    ]);
  });
});

describe('where templates are declared', () => {
  // Every aspect a descriptor (or COMMON_ASPECTS) gives a PATCH template, once each.
  const declared = [
    ...Object.entries(COMMON_ASPECTS).flatMap(([name, a]) => (a.patch ? [name] : [])),
    ...entityTypeDescriptors().flatMap((d) => Object.entries(d.aspects ?? {}).flatMap(([name, a]) => (a.patch ? [name] : []))),
  ];

  test('the templated aspects are the seven DataHub patches through a template, each declared once', () => {
    expect([...declared].sort()).toEqual([
      'chartInfo',
      'dashboardInfo',
      'dataJobInputOutput',
      'globalTags',
      'glossaryTerms',
      'ownership',
      'upstreamLineage',
    ]);
    for (const name of declared) expect(patchTemplateOf(name)).toBeDefined();
    expect(patchTemplateOf('datasetProperties')).toBeUndefined();
    expect(patchTemplateOf('toString')).toBeUndefined();
  });

  test("an absent chart or dashboard info starts from DataHub's default, stamped by the system actor", () => {
    const stamp = { time: NOW, actor: SYSTEM_ACTOR };
    expect(patch('chartInfo', undefined, [])).toEqual({
      title: '',
      description: '',
      lastModified: { created: stamp, lastModified: stamp },
      inputs: [],
      inputEdges: [],
    });
    expect(patch('dashboardInfo', undefined, [])).toEqual({
      title: '',
      description: '',
      lastModified: { created: stamp, lastModified: stamp },
      charts: [],
      chartEdges: [],
      datasets: [],
      datasetEdges: [],
    });
  });
});
