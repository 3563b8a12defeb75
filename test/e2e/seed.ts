// Seeds the explorer's end-to-end graphs through the real front door: Rest.li ingestProposalBatch
// under /api/gms (what acryl-datahub sends) and DataHub's tutorial updateLineage mutation.
import { proposal as sampleProposal } from '../../tools/sample-data.ts';

const T0 = 1_700_000_000_000;

export interface FrontDoor {
  baseUrl: string;
  token: string;
}

export const dataset = (platform: string, name: string): string => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
export const field = (datasetUrn: string, path: string): string => `urn:li:schemaField:(${datasetUrn},${path})`;

const proposal = (urn: string, aspectName: string, value: unknown) =>
  sampleProposal(urn, aspectName, value, { lastObserved: T0, runId: 'explorer-e2e' });
type Proposal = ReturnType<typeof proposal>;

/** Proposals per ingestProposalBatch request: well under the front door's body limit. */
const BATCH = 2_000;

async function ingest(door: FrontDoor, proposals: Proposal[]): Promise<void> {
  if (proposals.length > BATCH) {
    for (let i = 0; i < proposals.length; i += BATCH) await ingest(door, proposals.slice(i, i + BATCH));
    return;
  }
  const res = await fetch(`${door.baseUrl}/api/gms/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0', authorization: `Bearer ${door.token}` },
    body: JSON.stringify({ proposals }),
  });
  if (!res.ok) throw new Error(`ingestProposalBatch → HTTP ${res.status}: ${await res.text()}`);
}

export async function graphql(door: FrontDoor, query: string, token = door.token): Promise<{ status: number; body: any }> {
  const res = await fetch(`${door.baseUrl}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

function schema(platform: string, name: string, fields: string[]) {
  return {
    schemaName: name,
    platform: `urn:li:dataPlatform:${platform}`,
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: fields.map((fieldPath) => ({ fieldPath, type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'string' })),
  };
}

export interface TutorialGraph {
  created: string;
  deleted: string;
  events: string;
  sessions: string;
  flow: string;
  job: string;
  key: string;
}

/**
 * DataHub's lineage tutorial: fct_users_created and fct_users_deleted → logging_events (written with
 * the tutorial's own updateLineage document); a job reading logging_events (degree 1) that produces
 * user_sessions; an ML primary key sourced from user_sessions (degree 2); column lineage
 * fct_users_deleted.browser → logging_events.browser_id and .user_id, and on to user_sessions.
 */
export async function seedTutorial(door: FrontDoor, platform = 'hive'): Promise<TutorialGraph> {
  const flow = 'urn:li:dataFlow:(airflow,tutorial_flow,PROD)';
  const g: TutorialGraph = {
    created: dataset(platform, 'fct_users_created'),
    deleted: dataset(platform, 'fct_users_deleted'),
    events: dataset(platform, 'logging_events'),
    sessions: dataset(platform, 'user_sessions'),
    flow,
    job: `urn:li:dataJob:(${flow},aggregate_events)`,
    key: `urn:li:mlPrimaryKey:(${platform},session_id)`,
  };
  const table = (urn: string, name: string, fields: string[]) => [
    proposal(urn, 'datasetProperties', { name, description: 'tutorial table', customProperties: {} }),
    proposal(urn, 'schemaMetadata', schema(platform, name, fields)),
  ];
  await ingest(door, [
    ...table(g.created, 'fct_users_created', ['user_id', 'browser', 'created_at']),
    ...table(g.deleted, 'fct_users_deleted', ['user_id', 'browser', 'deleted_at']),
    ...table(g.events, 'logging_events', ['browser_id', 'user_id', 'event_type', 'event_ts']),
    ...table(g.sessions, 'user_sessions', ['session_id', 'user_id', 'browser_id']),
    proposal(flow, 'dataFlowInfo', { name: 'tutorial flow', customProperties: {} }),
    proposal(g.key, 'mlPrimaryKeyKey', { featureNamespace: platform, name: 'session_id' }),
  ]);
  await ingest(door, [
    proposal(g.job, 'dataJobInfo', { name: 'aggregate events', type: { string: 'COMMAND' }, customProperties: {} }),
    proposal(g.job, 'dataJobInputOutput', { inputDatasets: [g.events], outputDatasets: [g.sessions] }),
    proposal(g.sessions, 'upstreamLineage', {
      upstreams: [{ auditStamp: { time: T0, actor: 'urn:li:corpuser:datahub' }, dataset: g.events, type: 'TRANSFORMED' }],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(g.events, 'user_id')],
          downstreamType: 'FIELD',
          downstreams: [field(g.sessions, 'user_id')],
        },
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(g.events, 'browser_id')],
          downstreamType: 'FIELD',
          downstreams: [field(g.sessions, 'browser_id')],
        },
      ],
    }),
    proposal(g.key, 'mlPrimaryKeyProperties', { sources: [g.sessions] }),
  ]);
  // The tutorial's mutation, character for character (on the chosen platform).
  const update = await graphql(
    door,
    `mutation updateLineage { updateLineage(input: { edgesToAdd: [{ downstreamUrn: "${g.events}", upstreamUrn: "${g.deleted}" }, { downstreamUrn: "${g.events}", upstreamUrn: "${g.created}" }], edgesToRemove: [] }) }`,
  );
  if (update.body?.data?.updateLineage !== true) throw new Error(`updateLineage failed: ${JSON.stringify(update.body)}`);
  // The tutorial's column-level record, on top of the dataset-level edges just written.
  await ingest(door, [
    proposal(g.events, 'upstreamLineage', {
      upstreams: [
        { auditStamp: { time: T0, actor: 'urn:li:corpuser:datahub' }, dataset: g.deleted, type: 'TRANSFORMED' },
        { auditStamp: { time: T0, actor: 'urn:li:corpuser:datahub' }, dataset: g.created, type: 'TRANSFORMED' },
      ],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(g.deleted, 'browser')],
          downstreamType: 'FIELD',
          downstreams: [field(g.events, 'browser_id')],
          confidenceScore: 1.0,
        },
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(g.deleted, 'browser')],
          downstreamType: 'FIELD',
          downstreams: [field(g.events, 'user_id')],
          confidenceScore: 1.0,
        },
      ],
    }),
  ]);
  return g;
}

/** A root dataset (`<prefix>_root`) with `fanOut` children, each with `perChild` grandchildren: fanOut·(1+perChild) downstream. */
export async function seedWideGraph(
  door: FrontDoor,
  platform: string,
  fanOut: number,
  perChild: number,
  prefix = 'wide',
): Promise<{ root: string; count: number }> {
  const root = dataset(platform, `${prefix}_root`);
  const children = Array.from({ length: fanOut }, (_, i) => dataset(platform, `${prefix}_c${String(i).padStart(3, '0')}`));
  const upstreamOn = (urn: string, up: string) =>
    proposal(urn, 'upstreamLineage', {
      upstreams: [{ auditStamp: { time: T0, actor: 'urn:li:corpuser:datahub' }, dataset: up, type: 'TRANSFORMED' }],
    });
  const grand = children.flatMap((c, i) =>
    Array.from({ length: perChild }, (_, j) => ({
      urn: dataset(platform, `${prefix}_c${String(i).padStart(3, '0')}_g${String(j).padStart(4, '0')}`),
      parent: c,
    })),
  );
  // Lineage is written onto existing datasets only (the catalog's existence rule), so create them first.
  const properties = (urn: string) => proposal(urn, 'datasetProperties', { name: /,([^,]+),PROD\)$/.exec(urn)![1], customProperties: {} });
  await ingest(door, [root, ...children, ...grand.map((x) => x.urn)].map(properties));
  await ingest(door, [...children.map((c) => upstreamOn(c, root)), ...grand.map((x) => upstreamOn(x.urn, x.parent))]);
  return { root, count: fanOut * (1 + perChild) };
}

export interface ColumnToDashboard {
  orders: string;
  revenue: string;
  job: string;
  chart: string;
  dashboard: string;
}

/**
 * A column's way from a source table to a dashboard field: shop_orders.amount → (job build_revenue,
 * whose fine-grained lineage makes the step) → mart_revenue.total → the chart's field `total`
 * (inputFields) → the dashboard's field `revenue_total` (inputFields on the chart's field). Entity
 * lineage follows the same way: job inputs/outputs, chartInfo.inputs, dashboardInfo.charts.
 */
export async function seedColumnToDashboard(door: FrontDoor, platform: string): Promise<ColumnToDashboard> {
  const flow = 'urn:li:dataFlow:(airflow,mart_flow,PROD)';
  const g: ColumnToDashboard = {
    orders: dataset(platform, 'shop_orders'),
    revenue: dataset(platform, 'mart_revenue'),
    job: `urn:li:dataJob:(${flow},build_revenue)`,
    chart: `urn:li:chart:(looker,revenue_chart_${platform})`,
    dashboard: `urn:li:dashboard:(looker,finance_${platform})`,
  };
  const stamps = { created: { time: T0, actor: 'urn:li:corpuser:datahub' }, lastModified: { time: T0, actor: 'urn:li:corpuser:datahub' } };
  const numberField = (fieldPath: string) => ({
    fieldPath,
    nativeDataType: 'double',
    type: { type: { 'com.linkedin.schema.NumberType': {} } },
  });
  await ingest(door, [
    proposal(g.orders, 'datasetProperties', { name: 'shop_orders', customProperties: {} }),
    proposal(g.orders, 'schemaMetadata', schema(platform, 'shop_orders', ['order_id', 'amount', 'ordered_at'])),
    proposal(g.revenue, 'datasetProperties', { name: 'mart_revenue', customProperties: {} }),
    proposal(g.revenue, 'schemaMetadata', schema(platform, 'mart_revenue', ['day', 'total'])),
    proposal(flow, 'dataFlowInfo', { name: 'mart flow', customProperties: {} }),
    proposal(g.job, 'dataJobInfo', { name: 'build revenue', type: { string: 'COMMAND' }, customProperties: {} }),
  ]);
  await ingest(door, [
    proposal(g.job, 'dataJobInputOutput', {
      inputDatasets: [g.orders],
      outputDatasets: [g.revenue],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(g.orders, 'amount')],
          downstreamType: 'FIELD',
          downstreams: [field(g.revenue, 'total')],
        },
      ],
    }),
    proposal(g.chart, 'chartInfo', {
      title: 'Revenue',
      description: 'daily revenue',
      lastModified: stamps,
      inputs: [{ string: g.revenue }],
    }),
    proposal(g.chart, 'inputFields', { fields: [{ schemaFieldUrn: field(g.revenue, 'total'), schemaField: numberField('total') }] }),
  ]);
  await ingest(door, [
    proposal(g.dashboard, 'dashboardInfo', { title: 'Finance', description: 'finance overview', lastModified: stamps, charts: [g.chart] }),
    proposal(g.dashboard, 'inputFields', {
      fields: [{ schemaFieldUrn: field(g.chart, 'total'), schemaField: numberField('revenue_total') }],
    }),
  ]);
  return g;
}
