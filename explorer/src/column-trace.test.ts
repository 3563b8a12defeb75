import { traceOf } from './column-trace.ts';
import { columnKey } from './columns.ts';

const a = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.orders,PROD)';
const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,mart.revenue,PROD)';
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,mart,PROD),build_revenue)';
const chart = 'urn:li:chart:(looker,revenue)';
const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
const step = (urn: string) => ({ urn, type: urn.startsWith('urn:li:schemaField:') ? 'SCHEMA_FIELD' : 'DATA_JOB' });

test('a downstream trace: reached columns, and path steps across a job in data-flow order', () => {
  const { reached, edges } = traceOf(
    {
      searchResults: [
        { degree: 1, entity: { urn: job, type: 'DATA_JOB' }, paths: [{ path: [step(field(a, 'amount')), step(job)] }] },
        {
          degree: 1,
          entity: { urn: field(b, 'total'), type: 'SCHEMA_FIELD' },
          paths: [{ path: [step(field(a, 'amount')), step(job), step(field(b, 'total'))] }],
        },
        {
          degree: 2,
          entity: { urn: field(chart, 'total'), type: 'SCHEMA_FIELD' },
          paths: [{ path: [step(field(a, 'amount')), step(job), step(field(b, 'total')), step(field(chart, 'total'))] }],
        },
      ],
    },
    'DOWNSTREAM',
  );
  expect([...reached].sort()).toEqual([columnKey(b, 'total'), columnKey(chart, 'total')].sort());
  expect(edges).toEqual([
    { from: columnKey(a, 'amount'), to: columnKey(b, 'total') },
    { from: columnKey(b, 'total'), to: columnKey(chart, 'total') },
  ]);
});

test('an upstream trace turns path order (source first) into data-flow order', () => {
  const { edges } = traceOf(
    {
      searchResults: [
        {
          degree: 1,
          entity: { urn: field(a, 'amount'), type: 'SCHEMA_FIELD' },
          paths: [{ path: [step(field(b, 'total')), step(field(a, 'amount'))] }, null],
        },
      ],
    },
    'UPSTREAM',
  );
  expect(edges).toEqual([{ from: columnKey(a, 'amount'), to: columnKey(b, 'total') }]);
});
