import { describedTypenames, describingAspectsOf, pageEntityFragment, pageFieldsOf } from './browser.ts';

test('the fields that name a drawn type follow from its descriptor: key name, platform part, descriptive name', () => {
  expect(pageFieldsOf('DATASET')).toEqual({ typename: 'Dataset', name: 'name', platformEntity: true, properties: true, described: true });
  // A job's platform part is its flow, asked for with the flow's own fields.
  expect(pageFieldsOf('DATA_JOB')).toEqual({
    typename: 'DataJob',
    name: 'jobId',
    properties: true,
    described: true,
    via: {
      field: 'dataFlow',
      fields: { typename: 'DataFlow', name: 'flowId', platform: 'orchestrator', properties: true, described: true },
    },
  });
  // A column's parent may be a dataset, chart or dashboard: its urn names the platform.
  expect(pageFieldsOf('SCHEMA_FIELD')).toEqual({ typename: 'SchemaFieldEntity', name: 'fieldPath' });
  expect(pageFieldsOf('DATA_PROCESS_INSTANCE')).toEqual({ typename: 'DataProcessInstance' });
  // Not drawn (no relationships): the urn names it.
  expect(pageFieldsOf('CORP_USER')).toBeUndefined();
  expect(pageFieldsOf('OTHER')).toBeUndefined();
});

test('the page fragment asks each drawn type whether it exists and what names it; the details sheet reads described types', () => {
  const fragment = pageEntityFragment();
  expect(fragment).toContain(
    '... on DataJob { exists jobId properties { name } dataFlow { urn flowId orchestrator properties { name } } }',
  );
  expect(fragment).toContain('... on MLModel { exists name platform { urn name properties { displayName } } }');
  expect(fragment).not.toContain('CorpUser');
  expect(describedTypenames()).toContain('MLFeature');
  expect(describedTypenames()).not.toContain('SchemaFieldEntity');
  expect(describedTypenames()).not.toContain('DataProcessInstance');
});

test('the aspects that describe the drawn types, and their hand-edited twins, follow from their descriptors', () => {
  const describing = describingAspectsOf();
  // The lists the explorer kept by hand (queries.ts DETAIL_ASPECTS, details.ts) before they were derived.
  expect(describing.map((a) => a.aspect).sort()).toEqual([
    'chartInfo',
    'dashboardInfo',
    'dataFlowInfo',
    'dataJobInfo',
    'datasetProperties',
    'mlFeatureProperties',
    'mlFeatureTableProperties',
    'mlModelGroupProperties',
    'mlModelProperties',
    'mlPrimaryKeyProperties',
  ]);
  expect(describing.flatMap((a) => (a.editable ? [a.editable] : [])).sort()).toEqual([
    'editableChartProperties',
    'editableDashboardProperties',
    'editableDataFlowProperties',
    'editableDataJobProperties',
    'editableDatasetProperties',
  ]);
  expect(describing).toContainEqual({ aspect: 'chartInfo', editable: 'editableChartProperties' });
});
