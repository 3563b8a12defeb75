// Re-runs of a scheduled job (LINEAGE_STAMP_GRANULARITY_MS, docs/lineage-model.md §Aspect rows), over
// HTTP on a real Neo4j: the next run of the same job, reporting the same lineage, writes its run and
// nothing else while the lineage stamps it would move stay within the granularity — no version of the
// job's or datasets' aspects, no edge restamped, no change event for them — and refreshes them once
// they would move by the granularity or more. Granularity 0 writes every re-run, as before. The
// window is in the stamps' own time (the events' times), so no test waits for it.
import { randomUUID } from 'node:crypto';
import { parseOpenLineageEvent } from '../../catalog/src/model/openlineage/events.ts';
import { jobEventNamesOf } from '../../catalog/src/model/openlineage/naming.ts';
import { namespace } from '../support/context.ts';
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
let hourly: RunningIngestion;
let everyWrite: RunningIngestion;
let admin: string;
const ns = namespace('olrerun');
const pg = `postgres://${ns.platform}.example.com:5432`;
const T0 = Date.parse('2026-11-01T10:00:00Z');
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/spark';
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${ns.platform}.${name},PROD)`;
const runOf = (runId: string) => `urn:li:dataProcessInstance:${runId}`;

type Json = Record<string, any>;

/** A COMPLETE of job `app`: reads `<app>_a` and `<app>_b`, writes `<app>_out` with a schema and column lineage. */
function runEvent(app: string, time: number, runId = randomUUID()): Json {
  const table = (n: string) => ({ namespace: pg, name: `${ns.platform}.${app}_${n}` });
  return {
    eventType: 'COMPLETE',
    eventTime: new Date(time).toISOString(),
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId, facets: {} },
    job: {
      namespace: ns.platform,
      name: `${app}.write`,
      facets: { jobType: { processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' } },
    },
    inputs: [table('a'), table('b')],
    outputs: [
      {
        ...table('out'),
        facets: {
          schema: { fields: [{ name: 'id', type: 'BIGINT' }] },
          columnLineage: {
            fields: {
              id: {
                inputFields: [
                  { ...table('a'), field: 'id' },
                  { ...table('b'), field: 'id' },
                ],
              },
            },
          },
        },
      },
    ],
  };
}

async function post(svc: RunningIngestion, path: string, body: unknown): Promise<void> {
  // Relaxed: the Rest.li upserts below name upstreams nobody ingested.
  const headers = {
    authorization: `Bearer ${admin}`,
    'content-type': 'application/json',
    'X-RestLi-Protocol-Version': '2.0.0',
    'X-Lineage-Existence-Mode': 'relaxed',
  };
  const res = await fetch(`${svc.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  expect({ status: res.status, body: text }).toEqual({ status: 200, body: expect.anything() });
}
/** The job's urn as the door names it. */
function jobOf(app: string): string {
  const e = parseOpenLineageEvent(runEvent(app, T0));
  if (e.kind !== 'run') throw new Error('a run event');
  return jobEventNamesOf(e).jobUrn;
}
const postEvents = (svc: RunningIngestion, events: Json[]) => post(svc, '/api/v1/lineage/batch', events);

/** Every aspect row of the urns (each version) and every edge they own, with the change events recorded for them. */
async function stateOf(urns: readonly string[]) {
  const rows = await hourly.store.driver.executeQuery(
    'MATCH (a:Aspect) WHERE a.urn IN $urns RETURN a.key AS key, a.value AS value, a.systemMetadata AS sm, a.createdOn AS createdOn ORDER BY key',
    { urns },
    { database: 'neo4j' },
  );
  const edges = await hourly.store.read((tx) =>
    tx.run<Record<string, unknown>>('edges/owned-by', { rows: urns.map((owner) => ({ owner, aspect: null })) }),
  );
  const events = await hourly.store.driver.executeQuery(
    'MATCH (b:ChangeBatch) WHERE b.entityUrn IN $urns RETURN coalesce(sum(size(b.items)), 0) AS n',
    { urns },
    { database: 'neo4j' },
  );
  return {
    rows: rows.records.map((r) => r.toObject()),
    edges: edges.map((e) => JSON.stringify(e)).sort(),
    events: Number(events.records[0]!.get('n')),
  };
}

/** The job's and its datasets' urns: what a re-run repeats. */
const repeated = (app: string) => [jobOf(app), ds(`${app}_a`), ds(`${app}_b`), ds(`${app}_out`)];

/** updatedOn of the job's Consumes and Produces edges and the output's dataset-level DownstreamOf. */
async function lineageStamps(app: string): Promise<number[]> {
  const edges = await hourly.store.read((tx) =>
    tx.run<{ type: string; updatedOn: unknown; destination: string }>('edges/owned-by', {
      rows: [
        { owner: jobOf(app), aspect: 'dataJobInputOutput' },
        { owner: ds(`${app}_out`), aspect: 'upstreamLineage' },
      ],
    }),
  );
  return edges.filter((e) => e.type !== 'LINEAGE' && !e.destination.startsWith('urn:li:schemaField:')).map((e) => Number(e.updatedOn));
}

const versionsOf = (state: Awaited<ReturnType<typeof stateOf>>, urn: string, aspect: string) =>
  state.rows.filter((r) => String(r.key).startsWith(`${urn}\u241f${aspect}\u241f`)).length;

beforeAll(async () => {
  hourly = await startIngestion();
  everyWrite = await startIngestion({ LINEAGE_STAMP_GRANULARITY_MS: '0' });
  admin = await tokenFor(hourly.store, 'urn:li:corpuser:datahub');
}, 120_000);
afterAll(async () => {
  await hourly?.close();
  await everyWrite?.close();
});

test('the default granularity is one hour', () => {
  expect(hourly.config.LINEAGE_STAMP_GRANULARITY_MS).toBe(HOUR);
  expect(everyWrite.config.LINEAGE_STAMP_GRANULARITY_MS).toBe(0);
});

test('a re-run within the granularity writes its run and leaves the job, the datasets, their edges and their change events as they were', async () => {
  await postEvents(hourly, [runEvent('within', T0)]);
  const first = await stateOf(repeated('within'));
  expect(await lineageStamps('within')).toEqual([T0, T0, T0, T0, T0]);

  const runId = randomUUID();
  await postEvents(hourly, [runEvent('within', T0 + 10 * MINUTE, runId)]);
  expect(await stateOf(repeated('within'))).toEqual(first);
  // The run is new and written whole.
  const run = await stateOf([runOf(runId)]);
  expect(run.rows.map((r) => String(r.key).split('\u241f')[1]).sort()).toEqual([
    'dataProcessInstanceKey',
    'dataProcessInstanceProperties',
    'dataProcessInstanceRelationships',
    'dataProcessInstanceRunEvent',
    'openLineage',
  ]);
  expect(run.events).toBeGreaterThan(0);
});

test('a re-run past the granularity refreshes the stamps: a version of each stamped aspect, edges restamped, change events', async () => {
  await postEvents(hourly, [runEvent('past', T0)]);
  const first = await stateOf(repeated('past'));
  await postEvents(hourly, [runEvent('past', T0 + 2 * HOUR)]);
  const later = await stateOf(repeated('past'));
  for (const [urn, aspect] of [
    [jobOf('past'), 'dataJobInputOutput'],
    [jobOf('past'), 'openLineage'],
    [ds('past_out'), 'upstreamLineage'],
    [ds('past_out'), 'openLineage'],
  ] as const) {
    expect({ urn, aspect, versions: versionsOf(later, urn, aspect) }).toEqual({
      urn,
      aspect,
      versions: versionsOf(first, urn, aspect) + 1,
    });
  }
  // What the re-run does not stamp keeps its version: the job's info, the output's schema.
  expect(versionsOf(later, jobOf('past'), 'dataJobInfo')).toBe(versionsOf(first, jobOf('past'), 'dataJobInfo'));
  expect(versionsOf(later, ds('past_out'), 'schemaMetadata')).toBe(versionsOf(first, ds('past_out'), 'schemaMetadata'));
  expect(await lineageStamps('past')).toEqual(Array(5).fill(T0 + 2 * HOUR));
  expect(later.events).toBeGreaterThan(first.events);
});

test('stamps are judged against what is stored, never against the run before in the same batch: they move at most one granularity behind', async () => {
  await postEvents(hourly, [runEvent('batch', T0)]);
  const first = await stateOf(repeated('batch'));
  // Two runs 40 minutes apart in one request: each within an hour of the one before it, the second not of what is stored.
  await postEvents(hourly, [runEvent('batch', T0 + 20 * MINUTE), runEvent('batch', T0 + 40 * MINUTE)]);
  expect(await stateOf(repeated('batch'))).toEqual(first);
  await postEvents(hourly, [runEvent('batch', T0 + 50 * MINUTE), runEvent('batch', T0 + 90 * MINUTE)]);
  expect(await lineageStamps('batch')).toEqual(Array(5).fill(T0 + 90 * MINUTE));
});

test('granularity 0: every re-run writes its stamps, as before', async () => {
  await postEvents(everyWrite, [runEvent('every', T0)]);
  const first = await stateOf(repeated('every'));
  await postEvents(everyWrite, [runEvent('every', T0 + 10 * MINUTE)]);
  const later = await stateOf(repeated('every'));
  expect(versionsOf(later, jobOf('every'), 'dataJobInputOutput')).toBe(versionsOf(first, jobOf('every'), 'dataJobInputOutput') + 1);
  expect(versionsOf(later, ds('every_out'), 'upstreamLineage')).toBe(versionsOf(first, ds('every_out'), 'upstreamLineage') + 1);
  expect(await lineageStamps('every')).toEqual(Array(5).fill(T0 + 10 * MINUTE));
  expect(later.events).toBeGreaterThan(first.events);
});

test('the same rule through the Rest.li door: an upstreamLineage whose auditStamp moved by a minute is written only without a granularity', async () => {
  const down = ds('rest_down');
  const upsert = (svc: RunningIngestion, time: number) =>
    post(svc, '/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'dataset',
        entityUrn: down,
        changeType: 'UPSERT',
        aspectName: 'upstreamLineage',
        aspect: {
          contentType: 'application/json',
          value: JSON.stringify({
            upstreams: [{ dataset: ds('rest_up'), type: 'TRANSFORMED', auditStamp: { time, actor: 'urn:li:corpuser:datahub' } }],
          }),
        },
      },
    });
  const versions = async () => versionsOf(await stateOf([down]), down, 'upstreamLineage');
  await upsert(hourly, T0);
  expect(await versions()).toBe(1);
  await upsert(hourly, T0 + MINUTE);
  expect(await versions()).toBe(1);
  await upsert(everyWrite, T0 + 2 * MINUTE);
  expect(await versions()).toBe(2);
  // Another upstream is a change at any granularity.
  await post(hourly, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: down,
      changeType: 'UPSERT',
      aspectName: 'upstreamLineage',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({
          upstreams: [
            { dataset: ds('rest_other'), type: 'TRANSFORMED', auditStamp: { time: T0 + 2 * MINUTE, actor: 'urn:li:corpuser:datahub' } },
          ],
        }),
      },
    },
  });
  expect(await versions()).toBe(3);
});
