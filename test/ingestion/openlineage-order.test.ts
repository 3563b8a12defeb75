// Order independence of the OpenLineage door (docs/lineage-model.md §OpenLineage, Order and
// repetition): one realistic set of events — an Airflow DAG run twice, a Spark application on hive
// tables (symlinks, column lineage) run twice, a failed run, a dbt model under its parent run, a
// JobEvent and a DatasetEvent, events that share a millisecond — is delivered in many orders (time
// order, reversed, seeded shuffles, one shuffled batch, shuffled batches of three). Each delivery goes
// to its own namespace on a real Neo4j through the door's parse and write; afterwards every stored
// aspect (latest version) and every edge of every entity the events name must be the same, with the
// namespace taken out. The two cases issue 30 found are also checked by value.
import { randomUUID } from 'node:crypto';
import { parseOpenLineageEvent } from '../../catalog/src/model/openlineage/events.ts';
import { planOpenLineageEvent } from '../../catalog/src/model/openlineage/plan-openlineage-event.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { getLatestAspects } from '../../catalog/src/read/aspect-reader.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { EVENTS_PER_WRITE, ingestOpenLineage } from '../../catalog/src/write/openlineage.ts';
import { namespace, testStore } from '../support/context.ts';

let store: Store;
beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const ACTOR = 'urn:li:corpuser:ol_order';
const options = { actor: ACTOR, existenceMode: 'strict' as const };

// ---------------------------------------------------------------------------------------------
// The events, in our own words, shaped as the producers send them.

const AIRFLOW = 'https://github.com/apache/airflow/tree/providers-openlineage/1.14.0';
const SPARK = 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark';
const DBT = 'https://github.com/OpenLineage/OpenLineage/tree/1.30.0/integration/dbt';
const RUN_EVENT = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const facet = (producer: string, name: string, fields: Record<string, unknown>) => ({
  _producer: producer,
  _schemaURL: `https://openlineage.io/spec/facets/1-0-1/${name}.json#/$defs/${name}`,
  ...fields,
});
const at = (minute: number, ms = 0) => new Date(Date.UTC(2026, 10, 1, 6, minute, 0, ms)).toISOString();

type Json = Record<string, any>;

/**
 * The events of one delivery; `p` is the delivery's namespace (platform-like prefix). Run ids are
 * fresh per delivery (a run urn is global); `ids` maps each to a name for the comparison.
 */
function scenario(p: string): { events: Json[]; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const id = (name: string) => {
    const uuid = randomUUID();
    ids.set(uuid, `RUN_${name}`);
    return uuid;
  };
  const pg = `postgres://${p}-db.internal:5432`;
  const table = (name: string) => ({ namespace: pg, name: `analytics.public.${name}` });
  const events: Json[] = [];
  const airflowRun = (o: {
    runId: string;
    dagRunId: string;
    task: string;
    type: string;
    minute: number;
    inputs?: string[];
    outputs?: string[];
    nominal?: string;
    error?: string;
  }) => ({
    eventType: o.type,
    eventTime: at(o.minute),
    producer: AIRFLOW,
    schemaURL: RUN_EVENT,
    run: {
      runId: o.runId,
      facets: {
        parent: facet(AIRFLOW, 'ParentRunFacet', { run: { runId: o.dagRunId }, job: { namespace: p, name: 'orders_daily' } }),
        ...(o.nominal ? { nominalTime: facet(AIRFLOW, 'NominalTimeRunFacet', { nominalStartTime: o.nominal }) } : {}),
        ...(o.error ? { errorMessage: facet(AIRFLOW, 'ErrorMessageRunFacet', { message: o.error, programmingLanguage: 'python' }) } : {}),
        airflow: facet(AIRFLOW, 'AirflowRunFacet', { taskInstance: { try_number: 1, pool: 'default_pool' } }),
      },
    },
    job: {
      namespace: p,
      name: `orders_daily.${o.task}`,
      facets: { jobType: facet(AIRFLOW, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }) },
    },
    ...(o.inputs ? { inputs: o.inputs.map(table) } : {}),
    ...(o.outputs ? { outputs: o.outputs.map(table) } : {}),
  });

  // The Airflow DAG, run on two days. Run 1 of `transform` reads t1 at START and t1, t2 at COMPLETE;
  // run 2 starts later and reads t3 (issue 30: its START delivered before run 1's COMPLETE lost t3).
  const dag1 = id('dag1'),
    dag2 = id('dag2');
  const tr1 = id('tr1'),
    tr2 = id('tr2'),
    ex1 = id('ex1');
  events.push(
    airflowRun({ runId: ex1, dagRunId: dag1, task: 'extract', type: 'START', minute: 0, nominal: at(0), outputs: ['raw_orders'] }),
    airflowRun({ runId: ex1, dagRunId: dag1, task: 'extract', type: 'COMPLETE', minute: 2, nominal: at(0), outputs: ['raw_orders'] }),
    airflowRun({
      runId: tr1,
      dagRunId: dag1,
      task: 'transform',
      type: 'START',
      minute: 3,
      nominal: at(0),
      inputs: ['t1'],
      outputs: ['orders'],
    }),
    airflowRun({ runId: tr1, dagRunId: dag1, task: 'transform', type: 'RUNNING', minute: 4, inputs: ['t1'], outputs: ['orders'] }),
    airflowRun({
      runId: tr1,
      dagRunId: dag1,
      task: 'transform',
      type: 'COMPLETE',
      minute: 5,
      nominal: at(0),
      inputs: ['t1', 't2'],
      outputs: ['orders'],
    }),
    airflowRun({
      runId: tr2,
      dagRunId: dag2,
      task: 'transform',
      type: 'START',
      minute: 30,
      nominal: at(30),
      inputs: ['t3'],
      outputs: ['orders'],
    }),
    // A run that fails: its lineage is not the job's, its error is the run's.
    airflowRun({ runId: id('ld1'), dagRunId: dag1, task: 'load', type: 'COMPLETE', minute: 20, inputs: ['orders'], outputs: ['mart'] }),
    airflowRun({ runId: id('ld2'), dagRunId: dag2, task: 'load', type: 'START', minute: 31, inputs: ['orders'], outputs: ['mart'] }),
  );
  const failing = id('failing');
  events.push(
    airflowRun({
      runId: failing,
      dagRunId: dag2,
      task: 'load',
      type: 'START',
      minute: 32,
      inputs: ['orders', 'fx_rates'],
      outputs: ['mart'],
    }),
    airflowRun({
      runId: failing,
      dagRunId: dag2,
      task: 'load',
      type: 'FAIL',
      minute: 33,
      inputs: ['orders', 'fx_rates'],
      outputs: ['mart'],
      error: 'division by zero',
    }),
    // A START and a COMPLETE in the same millisecond (fast tasks do this).
    airflowRun({ runId: ex1, dagRunId: dag1, task: 'extract', type: 'RUNNING', minute: 2 }),
  );

  // Spark on hive tables: the files carry TABLE symlinks; column lineage names the files.
  const file = (name: string) => ({
    namespace: 'file',
    name: `/warehouse/${p}/${name}`,
    facets: {
      symlinks: facet(SPARK, 'SymlinksDatasetFacet', {
        identifiers: [{ namespace: `hive://${p}-metastore:9083`, name: `${p}.${name}`, type: 'TABLE' }],
      }),
    },
  });
  const columns = (fields: Record<string, Array<[string, string]>>) =>
    facet(SPARK, 'ColumnLineageDatasetFacet', {
      fields: Object.fromEntries(
        Object.entries(fields).map(([col, ins]) => [
          col,
          {
            inputFields: ins.map(([t, f]) => ({
              namespace: 'file',
              name: `/warehouse/${p}/${t}`,
              field: f,
              transformations: [{ type: 'DIRECT', subtype: 'IDENTITY', description: '', masking: false }],
            })),
          },
        ]),
      ),
    });
  const sparkRun = (o: {
    runId: string;
    type: string;
    minute: number;
    ms?: number;
    inputs: string[];
    output: string;
    fields?: Record<string, Array<[string, string]>>;
    schema?: string[];
  }) => {
    const out = file(o.output) as Json;
    if (o.fields) out.facets.columnLineage = columns(o.fields);
    if (o.schema) out.facets.schema = facet(SPARK, 'SchemaDatasetFacet', { fields: o.schema.map((name) => ({ name, type: 'string' })) });
    return {
      eventType: o.type,
      eventTime: at(o.minute, o.ms),
      producer: SPARK,
      schemaURL: RUN_EVENT,
      run: {
        runId: o.runId,
        facets: {
          processing_engine: facet(SPARK, 'ProcessingEngineRunFacet', {
            version: '3.5.1',
            name: 'spark',
            openlineageAdapterVersion: '1.23.0',
          }),
          spark_properties: facet(SPARK, 'RunFacet', { properties: { 'spark.master': 'local[2]' } }),
        },
      },
      job: {
        namespace: p,
        name: 'nightly_app.execute_insert_into_hive_table.orders_wide',
        facets: { jobType: facet(SPARK, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'SPARK', jobType: 'SQL_JOB' }) },
      },
      inputs: o.inputs.map(file),
      outputs: [out],
    };
  };
  const s1 = id('s1'),
    s2 = id('s2'),
    s3 = id('s3');
  events.push(
    sparkRun({ runId: s1, type: 'START', minute: 10, inputs: ['src_a'], output: 'wide', fields: { x: [['src_a', 'x']] } }),
    sparkRun({
      runId: s1,
      type: 'RUNNING',
      minute: 11,
      inputs: ['src_a', 'src_b'],
      output: 'wide',
      fields: { x: [['src_a', 'x']], y: [['src_b', 'y']] },
    }),
    sparkRun({
      runId: s1,
      type: 'COMPLETE',
      minute: 12,
      inputs: ['src_a', 'src_b'],
      output: 'wide',
      fields: { x: [['src_a', 'x']], y: [['src_b', 'y']] },
      schema: ['x', 'y'],
    }),
    // Run 2 reports only y (issue 30: reversed, the x edge of run 1 was lost).
    sparkRun({ runId: s2, type: 'START', minute: 40, inputs: ['src_b'], output: 'wide' }),
    sparkRun({
      runId: s2,
      type: 'COMPLETE',
      minute: 41,
      inputs: ['src_b', 'src_c'],
      output: 'wide',
      fields: {
        y: [
          ['src_b', 'y'],
          ['src_c', 'y'],
        ],
      },
      schema: ['x', 'y', 'z'],
    }),
    // Two different events of the same job in the same millisecond.
    sparkRun({ runId: s2, type: 'RUNNING', minute: 41, inputs: ['src_b', 'src_c'], output: 'wide', fields: { z: [['src_c', 'z']] } }),
    // A run that fails: its START's column w and input src_d are taken back by a FAIL that names no datasets.
    sparkRun({
      runId: s3,
      type: 'START',
      minute: 50,
      inputs: ['src_d'],
      output: 'wide',
      fields: { w: [['src_d', 'w']], z: [['src_d', 'z']] },
    }),
    { ...sparkRun({ runId: s3, type: 'FAIL', minute: 51, inputs: [], output: 'wide' }), inputs: undefined, outputs: undefined },
  );

  // dbt: a model under its invocation (parent) run.
  const invocation = id('invocation'),
    model = id('model');
  const dbtModel = (type: string, minute: number) => ({
    eventType: type,
    eventTime: at(minute),
    producer: DBT,
    schemaURL: RUN_EVENT,
    run: {
      runId: model,
      facets: {
        parent: facet(DBT, 'ParentRunFacet', { run: { runId: invocation }, job: { namespace: p, name: 'dbt-run-jaffle_shop' } }),
        dbt_version: facet(DBT, 'DbtVersionRunFacet', { version: '1.8.2' }),
      },
    },
    job: {
      namespace: p,
      name: 'jaffle.model.stg_orders',
      facets: {
        jobType: facet(DBT, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' }),
        sql: facet(DBT, 'SQLJobFacet', { query: 'select * from raw_orders', dialect: 'postgres' }),
      },
    },
    inputs: [table('raw_orders')],
    outputs: [
      {
        ...table('stg_orders'),
        facets: { documentation: facet(DBT, 'DocumentationDatasetFacet', { description: `staged orders (${type})` }) },
      },
    ],
  });
  events.push(dbtModel('START', 50), dbtModel('COMPLETE', 51));

  // A JobEvent (static lineage) and a DatasetEvent (a schema), older than the runs above.
  events.push(
    {
      eventTime: at(1),
      producer: AIRFLOW,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: {
        namespace: p,
        name: 'orders_daily.report',
        facets: { documentation: facet(AIRFLOW, 'DocumentationJobFacet', { description: 'weekly report' }) },
      },
      inputs: [table('orders')],
      outputs: [table('report')],
    },
    {
      eventTime: at(45),
      producer: AIRFLOW,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: {
        ...table('orders'),
        facets: {
          schema: facet(AIRFLOW, 'SchemaDatasetFacet', {
            fields: [
              { name: 'id', type: 'bigint' },
              { name: 'amount', type: 'numeric' },
            ],
          }),
        },
      },
    },
    {
      eventTime: at(46),
      producer: AIRFLOW,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: {
        ...table('orders'),
        facets: { documentation: facet(AIRFLOW, 'DocumentationDatasetFacet', { description: 'orders, one row each' }) },
      },
    },
  );
  return { events, ids };
}

// ---------------------------------------------------------------------------------------------
// Deliveries

/** mulberry32: a seeded shuffle, so a failing order can be replayed. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Posts the delivery's events, `size` per request (one transaction each), and returns every urn they name. */
async function deliver(events: readonly Json[], size: number): Promise<string[]> {
  const parsed = events.map((e) => parseOpenLineageEvent(e));
  for (let i = 0; i < parsed.length; i += size) {
    const outcomes = await ingestOpenLineage(store, parsed.slice(i, i + size), options);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  }
  return [...new Set(parsed.flatMap((e) => planOpenLineageEvent(e).urns))].filter((u) => !u.startsWith('urn:li:schemaField:'));
}

/** Everything stored about those urns, the delivery's namespace and run ids replaced by names, keys sorted. */
async function snapshot(urns: readonly string[], p: string, ids: Map<string, string>) {
  const aspects: Record<string, unknown> = {};
  for (const urn of urns) {
    for (const [name, row] of await getLatestAspects(store, parseUrn(urn))) aspects[`${urn} ${name}`] = row.value;
  }
  const edges = await store.read((tx) =>
    tx.run<Record<string, unknown>>('edges/owned-by', { rows: urns.map((owner) => ({ owner, aspect: null })) }),
  );
  // An edge's key hashes its urns (the delivery's names). Edges of aspects without stamps (key
  // aspects, a run's relationships) are stamped with the time of the write, not of any event.
  const unstamped = (aspect: string) => aspect.endsWith('Key') || aspect === 'dataProcessInstanceRelationships';
  const edgeList = edges
    .map(({ key: _key, ...e }) => JSON.stringify(unstamped(String(e.aspect)) ? { ...e, createdOn: 0, updatedOn: 0 } : e))
    .sort();
  let text = JSON.stringify({ aspects: sortKeys(aspects), edges: edgeList }).replaceAll(p, 'NS');
  for (const [uuid, name] of ids) text = text.replaceAll(uuid, name);
  // An event key ends with the digest of the event, which holds the delivery's names.
  text = text.replace(/(\d{17}\.[01])\.[0-9a-f]{16}/g, '$1.DIGEST');
  const state = JSON.parse(text) as { aspects: Record<string, any>; edges: string[] };
  return { ...state, edges: state.edges.sort() };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

const timeOf = (e: Json) => Date.parse(e.eventTime);

test('every delivery order leaves the same aspects and edges', async () => {
  const orders: Array<{ label: string; arrange: (events: Json[]) => Json[]; size: number }> = [
    { label: 'time order', arrange: (e) => [...e].sort((a, b) => timeOf(a) - timeOf(b)), size: 1 },
    { label: 'reverse time order', arrange: (e) => [...e].sort((a, b) => timeOf(b) - timeOf(a)), size: 1 },
    ...[11, 23, 37, 41, 59].map((seed) => ({ label: `shuffle ${seed}`, arrange: (e: Json[]) => shuffled(e, seed), size: 1 })),
    { label: 'one shuffled batch', arrange: (e) => shuffled(e, 71), size: 1000 },
    { label: 'shuffled batches of three', arrange: (e) => shuffled(e, 83), size: 3 },
    // Replays included: one batch the door writes in several transactions (EVENTS_PER_WRITE each).
    { label: 'every event five times, shuffled, in one batch', arrange: (e) => shuffled(Array(5).fill(e).flat(), 97), size: 1000 },
  ];
  let reference: { label: string; state: Awaited<ReturnType<typeof snapshot>> } | undefined;
  for (const order of orders) {
    const ns = namespace('olord').platform;
    const { events, ids } = scenario(ns);
    const arranged = order.arrange(events);
    // The batch of five deliveries spans transactions, or it would test nothing new.
    if (arranged.length === 5 * events.length) expect(arranged.length).toBeGreaterThan(EVENTS_PER_WRITE);
    const urns = await deliver(arranged, order.size);
    const state = await snapshot(urns, ns, ids);
    if (!reference) {
      reference = { label: order.label, state };
      continue;
    }
    // Named, so a failure says which order differs from which.
    expect({ order: order.label, ...state }).toEqual({ order: order.label, ...reference.state });
  }

  // The two cases issue 30 found, by value: run 2's START keeps t3; run 1's x column survives run 2.
  const s = reference!.state;
  const job = Object.keys(s.aspects).find((k) => k.includes('orders_daily.transform') && k.endsWith(' dataJobInputOutput'))!;
  expect(s.aspects[job].inputDatasetEdges.map((e: any) => e.destinationUrn)).toEqual(
    ['t1', 't2', 't3'].map((t) => `urn:li:dataset:(urn:li:dataPlatform:postgres,analytics.public.${t},PROD)`),
  );
  const wide = 'urn:li:dataset:(urn:li:dataPlatform:hive,NS.wide,PROD)';
  const fine = s.aspects[`${wide} upstreamLineage`].fineGrainedLineages.map((f: any) => [
    f.downstreams[0].replace(/.*,/, ''),
    f.upstreams.map((u: string) =>
      u.replace(/^urn:li:schemaField:\(urn:li:dataset:\(urn:li:dataPlatform:hive,NS\.(\w+),PROD\),(\w+)\)$/, '$1.$2'),
    ),
  ]);
  expect(fine).toEqual([
    ['x)', ['src_a.x']],
    ['y)', ['src_b.y', 'src_c.y']],
    ['z)', ['src_c.z']],
  ]);
  // The failed Spark run left nothing: no src_d input, no w column, no src_d upstream of wide.
  const sparkJob = Object.keys(s.aspects).find((k) => k.includes('orders_wide') && k.endsWith(' dataJobInputOutput'))!;
  expect(JSON.stringify(s.aspects[sparkJob])).not.toContain('src_d');
  expect(JSON.stringify(s.aspects[`${wide} upstreamLineage`])).not.toContain('src_d');
  // The failed run did not change the load job's lineage; its error is the run's.
  const load = Object.keys(s.aspects).find((k) => k.includes('orders_daily.load') && k.endsWith(' dataJobInputOutput'))!;
  // (its START added fx_rates; its FAIL took that back, whichever arrived first)
  expect(s.aspects[load].inputDatasetEdges.map((e: any) => e.destinationUrn)).toEqual(
    ['orders'].map((t) => `urn:li:dataset:(urn:li:dataPlatform:postgres,analytics.public.${t},PROD)`),
  );
  const failed = Object.entries(s.aspects).filter(
    ([k, v]: [string, any]) => k.endsWith(' dataProcessInstanceRunEvent') && v.result?.type === 'FAILURE',
  );
  expect(failed).toHaveLength(2);
  // Newest documentation and schema of `orders` stand, whichever came last.
  const ordersUrn = 'urn:li:dataset:(urn:li:dataPlatform:postgres,analytics.public.orders,PROD)';
  expect(s.aspects[`${ordersUrn} datasetProperties`]).toEqual({ description: 'orders, one row each' });
  expect(s.aspects[`${ordersUrn} schemaMetadata`].fields.map((f: any) => f.fieldPath)).toEqual(['id', 'amount']);
}, 600_000);
