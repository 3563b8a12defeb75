// The sample lineage `npm start -- --sample` loads: a small online shop — its order tables on
// postgres, a Snowflake warehouse loaded from them by an Airflow DAG, dbt models reported as
// OpenLineage runs, and a Looker dashboard on the marts. It is sent through the ingestion service's
// own doors, as a client sends it (Rest.li ingestProposalBatch, what acryl-datahub's emitter posts,
// and OpenLineage run events on /api/v1/lineage), so what the explorer shows was written by the
// real write path. Every stamp, run id and event time is fixed: loading it again writes nothing.

const SAMPLE_TIME = Date.UTC(2026, 0, 12, 2, 0);
const ACTOR = 'urn:li:corpuser:datahub';
const stamp = { time: SAMPLE_TIME, actor: ACTOR };

const dataset = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const column = (datasetUrn: string, path: string) => `urn:li:schemaField:(${datasetUrn},${path})`;

/** A table: its platform, its full name and its columns with their native types. */
interface Table {
  urn: string;
  platform: string;
  name: string;
  description: string;
  columns: Array<[name: string, nativeType: string]>;
}

function table(platform: string, name: string, description: string, columns: Table['columns']): Table {
  return { urn: dataset(platform, name), platform, name, description, columns };
}

const orders = table('postgres', 'shop.public.orders', 'One row per order placed in the web shop.', [
  ['order_id', 'bigint'],
  ['customer_id', 'bigint'],
  ['ordered_at', 'timestamp'],
  ['status', 'varchar'],
]);
const orderItems = table('postgres', 'shop.public.order_items', 'The products of each order, with the price paid.', [
  ['order_id', 'bigint'],
  ['product_id', 'bigint'],
  ['quantity', 'integer'],
  ['unit_price', 'numeric(10,2)'],
]);
const customers = table('postgres', 'shop.public.customers', 'Registered customers.', [
  ['customer_id', 'bigint'],
  ['email', 'varchar'],
  ['country', 'char(2)'],
  ['created_at', 'timestamp'],
]);
const stgOrders = table('snowflake', 'analytics.staging.stg_orders', 'Orders with their amount, loaded nightly from the shop database.', [
  ['order_id', 'NUMBER'],
  ['customer_id', 'NUMBER'],
  ['order_date', 'DATE'],
  ['amount', 'NUMBER(12,2)'],
]);
const stgCustomers = table('snowflake', 'analytics.staging.stg_customers', 'Customers without their e-mail address.', [
  ['customer_id', 'NUMBER'],
  ['country', 'VARCHAR'],
  ['signed_up_on', 'DATE'],
]);
const dimCustomers = table('snowflake', 'analytics.marts.dim_customers', 'One row per customer, with the date of their first order.', [
  ['customer_id', 'NUMBER'],
  ['country', 'VARCHAR'],
  ['first_order_date', 'DATE'],
]);
const fctDailyRevenue = table('snowflake', 'analytics.marts.fct_daily_revenue', 'Revenue and order count per day and country.', [
  ['order_date', 'DATE'],
  ['country', 'VARCHAR'],
  ['revenue', 'NUMBER(14,2)'],
  ['orders', 'NUMBER'],
]);
const TABLES = [orders, orderItems, customers, stgOrders, stgCustomers, dimCustomers, fctDailyRevenue];

const FLOW = 'urn:li:dataFlow:(airflow,shop_nightly,PROD)';
const loadOrdersJob = `urn:li:dataJob:(${FLOW},load_orders)`;
const loadCustomersJob = `urn:li:dataJob:(${FLOW},load_customers)`;
const chartUrn = (look: string) => `urn:li:chart:(looker,revenue_overview.${look})`;
const dailyRevenueChart = 'daily_revenue';
const countryChart = 'revenue_by_country';
const DASHBOARD = 'urn:li:dashboard:(looker,revenue_overview)';

/** The entity the banner points at: it has sources on both platforms and a dashboard downstream. */
const SAMPLE_FEATURED_URN = fctDailyRevenue.urn;
const SAMPLE_FEATURED_NAME = fctDailyRevenue.name;

// ---- Rest.li proposals ----------------------------------------------------------------------------

/** One Rest.li proposal of an aspect value, stamped (the sample's, unless a caller gives its own). */
export function proposal(urn: string, aspectName: string, value: unknown, stamp = { lastObserved: SAMPLE_TIME, runId: 'sample-data' }) {
  return {
    entityType: /^urn:li:([^:]+):/.exec(urn)![1],
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    systemMetadata: stamp,
  };
}
type SampleProposal = ReturnType<typeof proposal>;

/** DataHub's type family of a native column type, as its SQL connectors map them. */
function typeFamily(nativeType: string): string {
  if (/^(big)?int|integer|number|numeric/i.test(nativeType)) return 'com.linkedin.schema.NumberType';
  if (/^(date|timestamp)/i.test(nativeType)) return 'com.linkedin.schema.DateType';
  return 'com.linkedin.schema.StringType';
}

function describeTable(t: Table): SampleProposal[] {
  return [
    proposal(t.urn, 'datasetProperties', {
      name: t.name.split('.').at(-1),
      qualifiedName: t.name,
      description: t.description,
      customProperties: {},
    }),
    proposal(t.urn, 'schemaMetadata', {
      schemaName: t.name,
      platform: `urn:li:dataPlatform:${t.platform}`,
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      fields: t.columns.map(([fieldPath, nativeDataType]) => ({
        fieldPath,
        nativeDataType,
        type: { type: { [typeFamily(nativeDataType)]: {} } },
        nullable: fieldPath !== t.columns[0]![0],
      })),
    }),
  ];
}

/** Column lineage entries: each output column from the input columns named beside it. */
function columnsFrom(downstream: Table, mapping: Array<[output: string, inputs: Array<[Table, string]>, transform: string]>) {
  return mapping.map(([output, inputs, transformOperation]) => ({
    upstreamType: 'FIELD_SET',
    upstreams: inputs.map(([t, c]) => column(t.urn, c)),
    downstreamType: 'FIELD',
    downstreams: [column(downstream.urn, output)],
    transformOperation,
  }));
}

function upstreamsOf(downstream: Table, upstreams: Table[], columns: ReturnType<typeof columnsFrom>): SampleProposal {
  return proposal(downstream.urn, 'upstreamLineage', {
    upstreams: upstreams.map((u) => ({ auditStamp: stamp, created: stamp, dataset: u.urn, type: 'TRANSFORMED' })),
    fineGrainedLineages: columns,
  });
}

function job(urn: string, name: string, description: string, inputs: Table[], outputs: Table[]): SampleProposal[] {
  const edge = (t: Table) => ({ destinationUrn: t.urn, created: stamp, lastModified: stamp });
  return [
    proposal(urn, 'dataJobInfo', {
      name,
      description,
      type: { string: 'COMMAND' },
      flowUrn: FLOW,
      customProperties: { operator: 'SQLExecuteQueryOperator' },
    }),
    proposal(urn, 'dataJobInputOutput', {
      inputDatasets: inputs.map((t) => t.urn),
      outputDatasets: outputs.map((t) => t.urn),
      inputDatasetEdges: inputs.map(edge),
      outputDatasetEdges: outputs.map(edge),
    }),
  ];
}

function chart(look: string, title: string, inputs: Array<[Table, string[]]>): SampleProposal[] {
  const urn = chartUrn(look);
  return [
    proposal(urn, 'chartInfo', {
      title,
      description: `${title}, from the analytics marts.`,
      lastModified: { created: stamp, lastModified: stamp },
      inputs: inputs.map(([t]) => ({ string: t.urn })),
      chartUrl: `https://looker.example.com/looks/${look}`,
    }),
    proposal(urn, 'inputFields', {
      fields: inputs.flatMap(([t, names]) =>
        names.map((fieldPath) => {
          const nativeDataType = t.columns.find(([c]) => c === fieldPath)![1];
          return {
            schemaFieldUrn: column(t.urn, fieldPath),
            schemaField: { fieldPath, nativeDataType, type: { type: { [typeFamily(nativeDataType)]: {} } } },
          };
        }),
      ),
    }),
  ];
}

/**
 * Every aspect the Rest.li door receives, in one batch: a batch is one transaction and the existence
 * rule counts what the same request writes, so the lineage may name the tables it creates.
 */
function sampleProposals(): SampleProposal[] {
  return [
    ...TABLES.flatMap(describeTable),
    proposal(FLOW, 'dataFlowInfo', {
      name: 'Shop nightly load',
      description: 'Copies the shop database into the warehouse every night.',
      customProperties: {},
    }),
    ...job(loadOrdersJob, 'Load orders', 'Joins orders with their items and sums the amount.', [orders, orderItems], [stgOrders]),
    ...job(loadCustomersJob, 'Load customers', 'Copies customers, leaving out their e-mail address.', [customers], [stgCustomers]),
    upstreamsOf(
      stgOrders,
      [orders, orderItems],
      columnsFrom(stgOrders, [
        ['order_id', [[orders, 'order_id']], 'IDENTITY'],
        ['customer_id', [[orders, 'customer_id']], 'IDENTITY'],
        ['order_date', [[orders, 'ordered_at']], 'CAST'],
        [
          'amount',
          [
            [orderItems, 'quantity'],
            [orderItems, 'unit_price'],
          ],
          'SUM',
        ],
      ]),
    ),
    upstreamsOf(
      stgCustomers,
      [customers],
      columnsFrom(stgCustomers, [
        ['customer_id', [[customers, 'customer_id']], 'IDENTITY'],
        ['country', [[customers, 'country']], 'IDENTITY'],
        ['signed_up_on', [[customers, 'created_at']], 'CAST'],
      ]),
    ),
    ...chart(dailyRevenueChart, 'Daily revenue', [[fctDailyRevenue, ['order_date', 'revenue']]]),
    ...chart(countryChart, 'Revenue by country', [
      [fctDailyRevenue, ['country', 'revenue']],
      [dimCustomers, ['country']],
    ]),
    proposal(DASHBOARD, 'dashboardInfo', {
      title: 'Revenue overview',
      description: 'How much the shop sells, per day and per country.',
      lastModified: { created: stamp, lastModified: stamp },
      charts: [chartUrn(dailyRevenueChart), chartUrn(countryChart)],
      dashboardUrl: 'https://looker.example.com/dashboards/revenue_overview',
    }),
  ];
}

// ---- OpenLineage runs ---------------------------------------------------------------------------

const PRODUCER = 'https://github.com/lineage-catalog/lineage-catalog/tree/main/tools/sample-data.ts';
const WAREHOUSE = 'snowflake://shop.snowflakecomputing.com';
const DBT_NAMESPACE = 'dbt';
const DBT_PARENT = 'dbt-run-analytics';
const facet = (name: string, fields: Record<string, unknown>) => ({
  _producer: PRODUCER,
  _schemaURL: `https://openlineage.io/spec/facets/1-0-0/${name}.json#/$defs/${name}`,
  ...fields,
});

/** One dbt model, as dbt-ol reports it: the model's job under the run of the whole project. */
interface Model {
  output: Table;
  inputs: Table[];
  columns: Record<string, Array<[Table, string, string]>>;
}

const MODELS: Model[] = [
  {
    output: dimCustomers,
    inputs: [stgCustomers, stgOrders],
    columns: {
      customer_id: [[stgCustomers, 'customer_id', 'IDENTITY']],
      country: [[stgCustomers, 'country', 'IDENTITY']],
      first_order_date: [[stgOrders, 'order_date', 'AGGREGATION']],
    },
  },
  {
    output: fctDailyRevenue,
    inputs: [stgOrders, dimCustomers],
    columns: {
      order_date: [[stgOrders, 'order_date', 'IDENTITY']],
      country: [[dimCustomers, 'country', 'IDENTITY']],
      revenue: [[stgOrders, 'amount', 'AGGREGATION']],
      orders: [[stgOrders, 'order_id', 'AGGREGATION']],
    },
  },
];

/** Two nights of the dbt project: each model's run starts and completes, a few minutes apart. */
const runIdOf = (n: number) => `5a3e0c1d-7b2f-4e8a-9c41-${n.toString(16).padStart(12, '0')}`;
const NIGHTS = [0, 1].map((day) => ({ day, parentRunId: runIdOf(100 * (day + 1)) }));

function runEvent(model: Model, night: (typeof NIGHTS)[number], index: number, eventType: 'START' | 'COMPLETE') {
  const minutes = 30 + index * 4 + (eventType === 'COMPLETE' ? 3 : 0);
  const eventTime = new Date(SAMPLE_TIME + night.day * 86_400_000 + minutes * 60_000).toISOString();
  const runId = runIdOf(100 * (night.day + 1) + index + 1);
  const parentJob = { namespace: DBT_NAMESPACE, name: DBT_PARENT };
  const columnLineage = facet('ColumnLineageDatasetFacet', {
    fields: Object.fromEntries(
      Object.entries(model.columns).map(([output, inputs]) => [
        output,
        {
          inputFields: inputs.map(([t, field, subtype]) => ({
            namespace: WAREHOUSE,
            name: t.name,
            field,
            transformations: [{ type: 'DIRECT', subtype, masking: false }],
          })),
        },
      ]),
    ),
  });
  return {
    eventType,
    eventTime,
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: {
      runId,
      facets: {
        parent: facet('ParentRunFacet', {
          run: { runId: night.parentRunId },
          job: parentJob,
          root: { run: { runId: night.parentRunId }, job: parentJob },
        }),
      },
    },
    job: {
      namespace: DBT_NAMESPACE,
      name: model.output.name,
      facets: { jobType: facet('JobTypeJobFacet', { processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' }) },
    },
    inputs: model.inputs.map((t) => ({ namespace: WAREHOUSE, name: t.name })),
    outputs: [{ namespace: WAREHOUSE, name: model.output.name, facets: { columnLineage } }],
  };
}
type SampleRunEvent = ReturnType<typeof runEvent>;

/** Every OpenLineage event, in the order dbt-ol would send them. */
function sampleRunEvents(): SampleRunEvent[] {
  return NIGHTS.flatMap((night) =>
    MODELS.flatMap((model, i) => [runEvent(model, night, i, 'START'), runEvent(model, night, i, 'COMPLETE')]),
  );
}

// ---- Loading --------------------------------------------------------------------------------------

export interface SampleTarget {
  /** The ingestion service (DataHub GMS's doors). */
  ingestionUrl: string;
  /** A token of an Editor or Admin. */
  token: string;
}

export interface SampleLoaded {
  proposals: number;
  runEvents: number;
  featuredUrn: string;
  featuredName: string;
}

async function post(target: SampleTarget, path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const res = await fetch(`${target.ingestionUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the sample data was refused: POST ${path} → HTTP ${res.status}: ${text.slice(0, 500)}`);
}

/** Loads the sample through the ingestion service; a second load changes nothing. */
export async function loadSampleData(target: SampleTarget): Promise<SampleLoaded> {
  const proposals = sampleProposals();
  await post(target, '/aspects?action=ingestProposalBatch', { proposals }, { 'x-restli-protocol-version': '2.0.0' });
  // One event per request, in order, as an OpenLineage client's HTTP transport sends them.
  const events = sampleRunEvents();
  for (const event of events) await post(target, '/api/v1/lineage', event);
  return { proposals: proposals.length, runEvents: events.length, featuredUrn: SAMPLE_FEATURED_URN, featuredName: SAMPLE_FEATURED_NAME };
}
