// Replays through the OpenLineage door with the stamps' granularity (LINEAGE_STAMP_GRANULARITY_MS,
// docs/lineage-model.md §Aspect rows and §Order and repetition), over HTTP on a real Neo4j: events
// the store has already seen change nothing when they come again, in any order — an older night's
// runs replayed after a newer night's, everything replayed, the sample loaded twice. What is
// compared is what the store holds of everything one actor wrote: aspect rows (every version),
// relationships, nodes. Each test writes as its own user, so the counts are its own in the shared
// database.
import { randomUUID } from 'node:crypto';
import { loadSampleData } from '../../tools/sample-data.ts';
import { namespace } from '../support/context.ts';
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T02:00:00Z');
let svc: RunningIngestion;
const ns = namespace('olreplay');
const warehouse = `postgres://${ns.platform}.example.com:5432`;
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt';

type Json = Record<string, any>;

/** The run id of job `app`'s run on night `night`: a UUID, the same each time it is asked for. */
const runIds = new Map<string, string>();
const runIdOf = (app: string, night: number) => {
  const k = `${app} ${night}`;
  if (!runIds.has(k)) runIds.set(k, randomUUID());
  return runIds.get(k)!;
};

/** An event of job `app`'s run on night `night`, `minutes` past T0: reads `<app>_in`, writes `<app>_out` with column lineage. */
function event(app: string, night: number, eventType: 'START' | 'COMPLETE', minutes: number, description = `${app}, nightly`): Json {
  const table = (n: string) => ({ namespace: warehouse, name: `${ns.platform}.${app}_${n}` });
  return {
    eventType,
    eventTime: new Date(T0 + night * DAY + minutes * MINUTE).toISOString(),
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: runIdOf(app, night), facets: {} },
    job: {
      namespace: ns.platform,
      name: `${app}.model`,
      facets: { jobType: { processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' }, documentation: { description } },
    },
    inputs: [table('in')],
    outputs: [
      {
        ...table('out'),
        facets: { columnLineage: { fields: { id: { inputFields: [{ ...table('in'), field: 'id' }] } } } },
      },
    ],
  };
}

/** Two nights of job `app`: each night's run starts and completes three minutes later, within the granularity. */
const nights = (app: string) => [0, 1].map((night) => [event(app, night, 'START', 30), event(app, night, 'COMPLETE', 33)]);

async function post(token: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect({ status: res.status, body: text }).toEqual({ status: 200, body: expect.anything() });
}
/** One event per request, in order, as an OpenLineage client's HTTP transport sends them. */
const postEach = async (token: string, events: Json[]) => {
  for (const e of events) await post(token, '/api/v1/lineage', e);
};

/**
 * What the store holds of every entity `actor` wrote a row of: its aspect rows (every version), the
 * relationships from it and from its rows, and the nodes (the entities, their rows, the change
 * batches of their change events); with every row's value, to say what changed when a count does.
 */
async function footprint(actor: string) {
  const { records } = await svc.store.driver.executeQuery(
    `MATCH (w:Aspect {createdBy: $actor}) WITH collect(DISTINCT w.urn) AS urns
     CALL (urns) { MATCH (a:Aspect) WHERE a.urn IN urns RETURN count(a) AS aspects, collect([a.key, a.value]) AS rows }
     CALL (urns) { MATCH (n) WHERE (n:Entity OR n:Aspect) AND n.urn IN urns MATCH (n)-[r]->() RETURN count(r) AS relationships }
     CALL (urns) { MATCH (e:Entity) WHERE e.urn IN urns RETURN count(e) AS entities }
     CALL (urns) { MATCH (b:ChangeBatch) WHERE b.entityUrn IN urns RETURN count(b) AS batches }
     RETURN size(urns) AS urns, aspects, relationships, entities + aspects + batches AS nodes, rows`,
    { actor },
    { database: 'neo4j' },
  );
  const r = records[0]!.toObject();
  return {
    counts: { urns: Number(r.urns), aspects: Number(r.aspects), relationships: Number(r.relationships), nodes: Number(r.nodes) },
    rows: (r.rows as Array<[string, string]>).map(([key, value]) => `${key} ${value}`).sort(),
  };
}

/** A user of this file and a token of theirs: what they write is told apart by its rows' createdBy. */
async function loader(name: string): Promise<{ actor: string; token: string }> {
  const actor = ns.user(name);
  return { actor, token: await tokenFor(svc.store, actor, 'Admin') };
}

beforeAll(async () => {
  svc = await startIngestion();
}, 120_000);
afterAll(async () => {
  await svc?.close();
});

test('an older night replayed after a newer one changes nothing, and neither does replaying everything', async () => {
  expect(svc.config.LINEAGE_STAMP_GRANULARITY_MS).toBeGreaterThan(3 * MINUTE);
  const { actor, token } = await loader('nightly');
  const [night0, night1] = nights('nightly');
  await postEach(token, [...night0!, ...night1!]);
  const loaded = await footprint(actor);
  // The job, its two datasets and the output's column, both runs, and the flow.
  expect(loaded.counts.urns).toBeGreaterThanOrEqual(7);

  await postEach(token, night0!);
  expect(await footprint(actor)).toEqual(loaded);
  await postEach(token, [...night0!, ...night1!]);
  expect(await footprint(actor)).toEqual(loaded);
});

test('the same events in one batch: the replays, one request each or one batch, change nothing', async () => {
  const { actor, token } = await loader('batched');
  const [night0, night1] = nights('batched');
  await post(token, '/api/v1/lineage/batch', [...night0!, ...night1!]);
  const loaded = await footprint(actor);
  await postEach(token, night0!);
  expect(await footprint(actor)).toEqual(loaded);
  await postEach(token, [...night0!, ...night1!]);
  expect(await footprint(actor)).toEqual(loaded);
  await post(token, '/api/v1/lineage/batch', [...night1!, ...night0!]);
  expect(await footprint(actor)).toEqual(loaded);
});

test("what a newer event changes within the granularity is kept against an older one's replay: the job's description", async () => {
  const { actor, token } = await loader('described');
  const older = event('described', 0, 'COMPLETE', 30, 'the old description');
  const newer = { ...event('described', 0, 'COMPLETE', 40, 'the new description'), run: { runId: runIdOf('described', 1), facets: {} } };
  await postEach(token, [older, newer]);
  const loaded = await footprint(actor);
  const description = async () => {
    const { records } = await svc.store.driver.executeQuery(
      'MATCH (a:Aspect {name: "dataJobInfo", version: 0}) WHERE a.createdBy = $actor RETURN a.value AS value',
      { actor },
      { database: 'neo4j' },
    );
    return records.map((r) => JSON.parse(r.get('value') as string).description as string);
  };
  expect(await description()).toEqual(['the new description']);
  await postEach(token, [older]);
  expect(await description()).toEqual(['the new description']);
  expect(await footprint(actor)).toEqual(loaded);
});

test('the sample loaded twice through the ingestion service leaves the same graph', async () => {
  const { actor, token } = await loader('sample');
  const sample = await loadSampleData({ ingestionUrl: svc.baseUrl, token });
  const first = await footprint(actor);
  expect(first.counts.aspects).toBeGreaterThanOrEqual(sample.proposals);
  expect(await loadSampleData({ ingestionUrl: svc.baseUrl, token })).toEqual(sample);
  const again = await footprint(actor);
  expect(again.counts).toEqual(first.counts);
  expect(again.rows).toEqual(first.rows);
}, 180_000);
