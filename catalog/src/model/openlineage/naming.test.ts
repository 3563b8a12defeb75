import { parseUrn } from '../urn.ts';
import { dataFlowUrnOf, dataJobUrnOf, datasetUrnOfDataset, datasetUrnOfName, flowJobOf, orchestratorOf } from './naming.ts';

const urn = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

test.each([
  ['postgres://db.example.com:5432', 'shop.public.orders', urn('postgres', 'shop.public.orders')],
  ['mysql://h:3306', 'shop.orders', urn('mysql', 'shop.orders')],
  ['snowflake://org-account', 'DB.SCHEMA.T', urn('snowflake', 'DB.SCHEMA.T')],
  ['bigquery', 'project.dataset.table', urn('bigquery', 'project.dataset.table')],
  ['trino://h:8080', 'cat.schema.t', urn('trino', 'cat.schema.t')],
  ['sqlserver://h:1433', 'dbo.t', urn('mssql', 'dbo.t')],
  ['awsathena://athena.eu-west-1.amazonaws.com', 'c.db.t', urn('athena', 'c.db.t')],
  ['s3://bucket', 'path/to/x', urn('s3', 'bucket/path/to/x')],
  ['s3a://bucket/', '/path/x/', urn('s3', 'bucket/path/x')],
  ['gs://bucket', 'k', urn('gcs', 'bucket/k')],
  ['abfss://c@acct.dfs.core.windows.net', 'p', urn('abs', 'c@acct.dfs.core.windows.net/p')],
  ['file', '/tmp/x.csv', urn('file', '/tmp/x.csv')],
  ['file://', '/tmp/x.csv', urn('file', '/tmp/x.csv')],
  ['hdfs://nn:8020', '/warehouse/t', urn('hdfs', '/warehouse/t')],
  ['kafka://broker:9092', 'orders', urn('kafka', 'orders')],
  ['duckdb:///tmp/demo.duckdb', 'demo.main.t', urn('duckdb', 'demo.main.t')],
])("%s + %s → the platform and name DataHub's converter gives", (namespace, name, expected) => {
  expect(datasetUrnOfName(namespace, name)).toBe(expected);
  expect(parseUrn(expected).text).toBe(expected);
});

test("the urn grammar's characters in a name are percent-encoded, so the urn parses to one key part", () => {
  const u = datasetUrnOfName('s3://b', 'dir/part(1),x');
  expect(u).toBe(urn('s3', 'b/dir/part%281%29%2Cx'));
  expect(parseUrn(u).parts).toHaveLength(3);
});

test('a TABLE symlink replaces the urn: Glue as glue (db.table), anything else as hive', () => {
  const glue = {
    namespace: 's3://b',
    name: 'p',
    facets: { symlinks: { identifiers: [{ namespace: 'arn:aws:glue:eu-west-1:123', name: 'table/sales/orders', type: 'TABLE' }] } },
  };
  expect(datasetUrnOfDataset(glue)).toBe(urn('glue', 'sales.orders'));
  const hive = {
    namespace: 'hdfs://nn',
    name: '/w/t',
    facets: {
      symlinks: {
        identifiers: [
          { namespace: 'hive://metastore:9083', name: 'db.t', type: 'TABLE' },
          { namespace: 'x', name: 'y', type: 'LOCATION' },
        ],
      },
    },
  };
  expect(datasetUrnOfDataset(hive)).toBe(urn('hive', 'db.t'));
  expect(datasetUrnOfDataset({ namespace: 'hdfs://nn', name: '/w/t', facets: {} })).toBe(urn('hdfs', '/w/t'));
});

test('the orchestrator: the jobType integration, else the processing engine, else the producer', () => {
  expect(orchestratorOf({ jobType: { integration: 'DBT' } }, {}, 'x')).toBe('dbt');
  expect(orchestratorOf({}, { processing_engine: { name: 'Spark', version: '3.5' } }, 'x')).toBe('spark');
  expect(orchestratorOf({}, {}, 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow')).toBe('airflow');
  expect(orchestratorOf({}, {}, 'https://github.com/apache/airflow/tree/providers-openlineage/2.1.0')).toBe('airflow');
  expect(orchestratorOf({}, {}, 'https://example.com/me')).toBe('unknown');
});

test("a run's flow is that of its root job, else its parent job, else its own; the job keeps its whole name", () => {
  const job = { namespace: 'dbt-demo', name: 'demo.main.demo.stg_orders' };
  const parent = { run: { runId: '01a208ee-5b24-72d3-a52d-ef95ef02c249' }, job: { namespace: 'dbt-demo', name: 'dbt-run-demo' } };
  expect(flowJobOf(job, { parent })).toEqual(parent.job);
  expect(flowJobOf(job, { parent: { ...parent, root: { run: parent.run, job: { namespace: 'n', name: 'root' } } } })).toEqual({
    namespace: 'n',
    name: 'root',
  });
  expect(flowJobOf(job, {})).toEqual(job);
  const flow = dataFlowUrnOf('dbt', flowJobOf(job, { parent }));
  expect(flow).toBe('urn:li:dataFlow:(dbt,dbt-run-demo,dbt-demo)');
  expect(dataFlowUrnOf('airflow', { namespace: 'prod', name: 'dag.task' })).toBe('urn:li:dataFlow:(airflow,dag,prod)');
  expect(dataJobUrnOf(flow, job.name)).toBe('urn:li:dataJob:(urn:li:dataFlow:(dbt,dbt-run-demo,dbt-demo),demo.main.demo.stg_orders)');
  expect(parseUrn(dataJobUrnOf(flow, job.name)).parts).toHaveLength(2);
});
