import {
  COLUMN_CSV_COLUMNS,
  csvHeaderOf,
  csvRecordOf,
  ENTITY_CSV_COLUMNS,
  exportFileName,
  facetCountsOf,
  impactRowsOf,
  sortRows,
  stepName,
  type ImpactResult,
} from './impact-rows.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,tutorial_flow,PROD),aggregate_events)';
const key = 'urn:li:mlPrimaryKey:(hive,session_id)';
const page = 'http://127.0.0.1:9002/';

const entityResults: ImpactResult[] = [
  {
    degree: 1,
    entity: {
      urn: job,
      type: 'DATA_JOB',
      jobId: 'aggregate_events',
      properties: { name: 'aggregate events' },
      dataFlow: { orchestrator: 'airflow' },
    },
    paths: [
      {
        path: [
          { urn: ds('logging_events'), type: 'DATASET' },
          { urn: job, type: 'DATA_JOB' },
        ],
      },
    ],
  },
  { degree: 1, entity: { urn: ds('user_sessions'), type: 'DATASET', name: 'user_sessions', platform: { name: 'hive' } }, paths: null },
  {
    degree: 2,
    entity: { urn: key, type: 'MLPRIMARY_KEY', name: 'session_id' },
    paths: [
      null,
      {
        path: [
          { urn: ds('logging_events'), type: 'DATASET' },
          null,
          { urn: ds('user_sessions'), type: 'DATASET' },
          { urn: key, type: 'MLPRIMARY_KEY' },
        ],
      },
    ],
  },
];

test('entity rows: name, type, platform and degree from each result; paths as urns, nulls dropped', () => {
  const rows = impactRowsOf('entity', entityResults, 100);
  expect(rows.map((r) => [r.order, r.degree, r.type, r.name, r.platform, r.target, r.column])).toEqual([
    [100, 1, 'DATA_JOB', 'aggregate events', 'airflow', job, null],
    [101, 1, 'DATASET', 'user_sessions', 'hive', ds('user_sessions'), null],
    [102, 2, 'MLPRIMARY_KEY', 'session_id', null, key, null],
  ]);
  expect(rows[0]!.paths).toEqual([[ds('logging_events'), job]]);
  expect(rows[1]!.paths).toEqual([]);
  expect(rows[2]!.paths).toEqual([[ds('logging_events'), ds('user_sessions'), key]]);
});

const schemaFieldUrn = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
const browserId = schemaFieldUrn(ds('logging_events'), 'browser_id');
const chartField = schemaFieldUrn('urn:li:chart:(looker,sales.revenue)', 'amount');
const columnResults: ImpactResult[] = [
  {
    degree: 1,
    entity: { urn: browserId, type: 'SCHEMA_FIELD', fieldPath: 'browser_id', parent: { urn: ds('logging_events'), type: 'DATASET' } },
  },
  { degree: 2, entity: { urn: chartField, type: 'SCHEMA_FIELD', parent: { urn: 'urn:li:chart:(looker,sales.revenue)', type: 'CHART' } } },
  { degree: 2, entity: { urn: job, type: 'DATA_JOB', jobId: 'aggregate_events', dataFlow: { orchestrator: 'airflow' } } },
];

test('column rows name the column and its parent (charts too); a job the column lineage passed keeps its own name', () => {
  const rows = impactRowsOf('column', columnResults, 0);
  expect(rows.map((r) => [r.urn, r.column, r.name, r.type, r.platform, r.target, r.parentUrn])).toEqual([
    [browserId, 'browser_id', 'logging_events', 'DATASET', 'hive', ds('logging_events'), ds('logging_events')],
    [
      chartField,
      'amount',
      'sales.revenue',
      'CHART',
      'looker',
      'urn:li:chart:(looker,sales.revenue)',
      'urn:li:chart:(looker,sales.revenue)',
    ],
    [job, '', 'aggregate_events', 'DATA_JOB', 'airflow', job, null],
  ]);
});

test('path steps read parent.column for columns (v2 field paths too), their name for anything else', () => {
  expect(stepName(schemaFieldUrn(ds('t'), '[version=2.0].[type=struct].a'))).toBe('t.[version=2.0].[type=struct].a');
  expect(stepName(browserId)).toBe('logging_events.browser_id');
  expect(stepName(job)).toBe('aggregate_events');
});

test('sorting by name, type or degree, either way; ties keep the catalog order', () => {
  const rows = impactRowsOf(
    'entity',
    [
      { degree: 2, entity: { urn: ds('b10'), type: 'DATASET', name: 'b10' } },
      { degree: 1, entity: { urn: ds('B2'), type: 'DATASET', name: 'B2' } },
      { degree: 1, entity: { urn: job, type: 'DATA_JOB', jobId: 'a_job' } },
      { degree: 3, entity: { urn: key, type: 'MLPRIMARY_KEY', name: 'c' } },
    ],
    0,
  );
  const names = (key: 'degree' | 'name' | 'type', descending = false) => sortRows(rows, { key, descending }).map((r) => r.name);
  // Numbers in names by value (B2 before b10), case ignored.
  expect(names('name')).toEqual(['a_job', 'B2', 'b10', 'c']);
  expect(names('name', true)).toEqual(['c', 'b10', 'B2', 'a_job']);
  // Equal degrees stay in the catalog's order.
  expect(names('degree')).toEqual(['B2', 'a_job', 'b10', 'c']);
  expect(names('degree', true)).toEqual(['c', 'b10', 'B2', 'a_job']);
  // By the type's label (Data job < Dataset < ML primary key), then degree.
  expect(names('type')).toEqual(['a_job', 'B2', 'b10', 'c']);
  // The input is left as it was.
  expect(rows.map((r) => r.name)).toEqual(['b10', 'B2', 'a_job', 'c']);
});

test('facet counts of a first page: types and platforms, most first', () => {
  const counts = facetCountsOf([
    { field: 'degree', aggregations: [{ value: '1', count: 3 }] },
    {
      field: '_entityType',
      aggregations: [
        { value: 'DATA_JOB', count: 1 },
        { value: 'DATASET', count: 480 },
      ],
    },
    {
      field: 'platform',
      aggregations: [
        {
          value: 'urn:li:dataPlatform:hive',
          count: 480,
          entity: { urn: 'urn:li:dataPlatform:hive', name: 'hive', properties: { displayName: 'Hive' } },
        },
        { value: 'urn:li:dataPlatform:airflow', count: 1 },
      ],
    },
  ]);
  expect(counts.types).toEqual([
    { value: 'DATASET', label: 'Dataset', count: 480 },
    { value: 'DATA_JOB', label: 'Data job', count: 1 },
  ]);
  expect(counts.platforms).toEqual([
    { value: 'urn:li:dataPlatform:hive', label: 'Hive', count: 480 },
    { value: 'urn:li:dataPlatform:airflow', label: 'airflow', count: 1 },
  ]);
  expect(facetCountsOf(null)).toEqual({ types: [], platforms: [] });
});

test("CSV: DataHub's column names, a deep link per row, a column's parent in column mode", () => {
  expect(csvHeaderOf('entity')).toBe('urn,name,type,platform,entity url,level of dependency\r\n');
  expect(csvHeaderOf('column')).toBe(`${[...ENTITY_CSV_COLUMNS, 'column', 'parent urn'].join(',')}\r\n`);
  expect(COLUMN_CSV_COLUMNS).toHaveLength(8);
  const [jobRow] = impactRowsOf('entity', entityResults, 0);
  expect(csvRecordOf(jobRow!, 'entity', page)).toBe(
    `"${job}",aggregate events,Data job,airflow,${page}#urn=${encodeURIComponent(job)},1\r\n`,
  );
  const [columnRow, , jobInColumns] = impactRowsOf('column', columnResults, 0);
  expect(csvRecordOf(columnRow!, 'column', page)).toBe(
    `"${browserId}",logging_events,Dataset,hive,${page}#urn=${encodeURIComponent(ds('logging_events'))},1,browser_id,"${ds('logging_events')}"\r\n`,
  );
  expect(csvRecordOf(jobInColumns!, 'column', page)).toBe(
    `"${job}",aggregate_events,Data job,airflow,${page}#urn=${encodeURIComponent(job)},2,,\r\n`,
  );
});

test('a name that starts like a formula is neutralised in the export too', () => {
  const [row] = impactRowsOf(
    'entity',
    [{ degree: 1, entity: { urn: ds('x'), type: 'DATASET', properties: { name: "=cmd|' /C calc'!A0" } } }],
    0,
  );
  expect(csvRecordOf(row!, 'entity', page).split(',').slice(3, 5)).toEqual(["'=cmd|' /C calc'!A0", 'Dataset']);
});

test('export file names keep letters, digits, dot, dash and underscore', () => {
  expect(exportFileName('logging_events', 'DOWNSTREAM')).toBe('lineage-logging_events-downstream.csv');
  expect(exportFileName('sales / revenue (2024)', 'UPSTREAM')).toBe('lineage-sales_revenue_2024-upstream.csv');
  expect(exportFileName('…', 'UPSTREAM')).toBe('lineage-entity-upstream.csv');
});
