// The change log (issue 26; docs/change-events.md): events written in the transaction of the change
// they record, offsets in commit order that a consumer never sees skipped, DataHub's poll API with
// its bad input, and retention. Other test files write to the same database at the same time, so
// each test reads only its own namespace's events, and retention (which prunes everything) runs last.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { encodeOffset } from '../../catalog/src/model/change-events.ts';
import { writeAspects, writeAspectsInTx, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { parsePollRequest, pollChanges } from '../../catalog/src/read/change-events.ts';
import { readLogHead } from '../../catalog/src/store/change-log.ts';
import { decodeAspectRef, decodeChangeItem } from '../../catalog/src/store/change-batches.ts';
import { pruneChangeLog } from '../../catalog/src/operations/events/retention.ts';
import { restoreIndices } from '../../catalog/src/operations/restore/restore-indices.ts';
import { createStore, int, toPlain, type Store } from '../../catalog/src/store/store.ts';
import { namespace, testStore } from '../support/context.ts';
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';

let store: Store;
const ns = namespace('events');
const opts = { actor: 'urn:li:corpuser:tester', existenceMode: 'relaxed' as const };

beforeAll(() => {
  store = testStore();
});
afterAll(async () => {
  await store.close();
});

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const lineage = (down: string, ups: string[]) =>
  upsert(down, 'upstreamLineage', { upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });

interface Ece {
  entityUrn: string;
  category: string;
  operation: string;
  modifier: string;
  parameters: Record<string, string>;
  auditStamp: { actor: string; time: number };
  version: number;
}
interface Mcl {
  entityUrn: { string: string };
  aspectName: { string: string };
  changeType: string;
  aspect: unknown;
  previousAspectValue: unknown;
}

const eceOf = (value: string): Ece => {
  const envelope = JSON.parse(value) as { name: string; payload: { value: string; contentType: string } };
  expect(envelope.name).toBe('entityChangeEvent');
  return JSON.parse(envelope.payload.value) as Ece;
};

/** Everything a topic holds after `token` (one poll per page, no waiting). */
async function drain(topic: string, token: string): Promise<{ values: string[]; token: string }> {
  const values: string[] = [];
  for (;;) {
    const page = await pollChanges(store, parsePollRequest({ topic, offsetId: token, limit: '500', pollTimeoutSeconds: '0' }));
    values.push(...page.events.map((e) => e.value));
    token = page.offsetId;
    if (!page.count) return { values, token };
  }
}

const headToken = async (topic: 'PlatformEvent_v1' | 'MetadataChangeLog_Versioned_v1') =>
  encodeOffset(topic, (await readLogHead(store)).next);
const mine = (values: string[]) => values.filter((v) => v.includes(ns.platform));
const lineageOf = (values: string[]) =>
  mine(values)
    .map(eceOf)
    .map((e) => `${e.operation} ${e.parameters.upstreamUrn} -> ${e.parameters.downstreamUrn} @${e.entityUrn}`);

const a = ns.dataset('a'),
  b = ns.dataset('b'),
  c = ns.dataset('c'),
  d = ns.dataset('d');

test('a lineage write records one LINEAGE event per edge added or removed, and a MetadataChangeLog per aspect row', async () => {
  await writeAspects(
    store,
    [a, b, c].map((u) => upsert(u, 'datasetProperties', { name: u })),
    opts,
  );
  const pe = await headToken('PlatformEvent_v1');
  const mcl = await headToken('MetadataChangeLog_Versioned_v1');

  await writeAspects(store, [lineage(c, [a])], opts);
  await writeAspects(store, [lineage(c, [a])], opts); // the same again: nothing changed, nothing recorded
  await writeAspects(store, [lineage(c, [b])], opts);

  const events = (await drain('PlatformEvent_v1', pe)).values;
  expect(lineageOf(events)).toEqual([`ADD ${a} -> ${c} @${c}`, `REMOVE ${a} -> ${c} @${c}`, `ADD ${b} -> ${c} @${c}`]);
  const first = eceOf(mine(events)[0]!);
  expect(first).toMatchObject({
    entityType: 'dataset',
    category: 'LINEAGE',
    modifier: a,
    version: 0,
    auditStamp: { actor: opts.actor },
    parameters: { aspectName: 'upstreamLineage', relationshipType: 'DownstreamOf', direction: 'UPSTREAM' },
  });
  // ASCII only: the text survives DataHub's Latin-1 / UTF-8 round trip.
  expect(mine(events).every((v) => /^[\x20-\x7e]*$/.test(v))).toBe(true);

  const logs = mine((await drain('MetadataChangeLog_Versioned_v1', mcl)).values).map((v) => JSON.parse(v) as Mcl);
  expect(logs.map((l) => `${l.changeType} ${l.aspectName.string}`)).toEqual(['UPSERT upstreamLineage', 'UPSERT upstreamLineage']);
  const [, second] = logs;
  expect(
    JSON.parse(
      (second!.aspect as { 'com.linkedin.pegasus2avro.mxe.GenericAspect': { value: string } })[
        'com.linkedin.pegasus2avro.mxe.GenericAspect'
      ].value,
    ),
  ).toMatchObject({ upstreams: [{ dataset: b }] });
  expect(
    JSON.parse(
      (second!.previousAspectValue as { 'com.linkedin.pegasus2avro.mxe.GenericAspect': { value: string } })[
        'com.linkedin.pegasus2avro.mxe.GenericAspect'
      ].value,
    ),
  ).toMatchObject({ upstreams: [{ dataset: a }] });
});

const genericValue = (field: unknown) =>
  field === null
    ? null
    : (JSON.parse(
        (field as { 'com.linkedin.pegasus2avro.mxe.GenericAspect': { value: string } })['com.linkedin.pegasus2avro.mxe.GenericAspect']
          .value,
      ) as unknown);

test('a MetadataChangeLog refers to the rows it is about, and polls the same after later writes, a delete and a hard delete', async () => {
  const e = ns.dataset('versions');
  const props = (n: number) => upsert(e, 'datasetProperties', { name: `v${n}` });
  const start = (await readLogHead(store)).next;
  const mcl = encodeOffset('MetadataChangeLog_Versioned_v1', start);
  for (const n of [1, 2, 3]) await writeAspects(store, [props(n)], opts);
  // This entity's datasetProperties logs (its key aspect has its own).
  const read = async () =>
    mine((await drain('MetadataChangeLog_Versioned_v1', mcl)).values).filter((v) => {
      const l = JSON.parse(v) as Mcl;
      return l.entityUrn.string === e && l.aspectName.string === 'datasetProperties';
    });
  const early = await read();
  const summary = (values: string[]) =>
    values.map((v) => JSON.parse(v) as Mcl).map((l) => [l.changeType, genericValue(l.aspect), genericValue(l.previousAspectValue)]);
  expect(summary(early)).toEqual([
    ['UPSERT', { name: 'v1' }, null],
    ['UPSERT', { name: 'v2' }, { name: 'v1' }],
    ['UPSERT', { name: 'v3' }, { name: 'v2' }],
  ]);
  // Stored as references: the value text is not copied into the log.
  const stored = (
    await store.read((tx) =>
      tx.run<{ offset: number; entityUrn: string; item: string }>('events/poll', {
        topic: 'MetadataChangeLog_Versioned_v1',
        from: int(start),
        limit: int(100_000),
      }),
    )
  ).map((r) => decodeChangeItem(r.offset, r.entityUrn, r.item));
  const refs = stored.filter((r) => r.entityUrn === e && r.value === null).map((r) => decodeAspectRef(r.aspectKey!, r.ref!));
  expect(refs.filter((r) => r.aspectName === 'datasetProperties').map((r) => [r.sequence, r.previousSequence])).toEqual([
    [0, null],
    [1, 0],
    [2, 1],
  ]);

  await writeAspects(store, [props(4)], opts); // v3 moves from the latest row to an archived one
  await writeAspects(store, [{ urn: parseUrn(e), aspectName: 'datasetProperties', changeType: 'DELETE' }], opts);
  await writeAspects(store, [props(5)], opts); // a new first version: sequence 0 again
  const late = await read();
  expect(late.slice(0, early.length)).toEqual(early);
  expect(summary(late.slice(early.length))).toEqual([
    ['UPSERT', { name: 'v4' }, { name: 'v3' }],
    ['DELETE', null, { name: 'v4' }],
    ['UPSERT', { name: 'v5' }, null],
  ]);

  // A hard delete removes every row of the entity; written again, the aspect starts over at 0.
  await writeAspects(store, [{ urn: parseUrn(e), aspectName: 'datasetKey', changeType: 'DELETE' }], opts);
  await writeAspects(store, [props(6)], opts);
  const last = await read();
  expect(last.slice(0, late.length)).toEqual(late);
  expect(summary(last.slice(late.length))).toEqual([
    ['DELETE', null, { name: 'v5' }],
    ['UPSERT', { name: 'v6' }, null],
  ]);
});

test("a job's inputs and outputs, column lineage and a hard delete record their edges", async () => {
  const flow = ns.flow('f'),
    job = ns.job(flow, 'j');
  await writeAspects(
    store,
    [upsert(d, 'datasetProperties', { name: 'd' }), upsert(job, 'dataJobInfo', { name: 'j', type: 'BATCH' })],
    opts,
  );
  const pe = await headToken('PlatformEvent_v1');
  await writeAspects(store, [upsert(job, 'dataJobInputOutput', { inputDatasets: [a], outputDatasets: [d] })], opts);
  await writeAspects(
    store,
    [
      upsert(d, 'upstreamLineage', {
        upstreams: [{ dataset: a, type: 'TRANSFORMED' }],
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [ns.field(a, 'x')], downstreams: [ns.field(d, 'y')] },
        ],
      }),
    ],
    opts,
  );
  await writeAspects(store, [{ urn: parseUrn(job), aspectName: 'dataJobKey', changeType: 'DELETE' }], opts);
  const got = lineageOf((await drain('PlatformEvent_v1', pe)).values);
  expect(got).toEqual(
    [
      `ADD ${a} -> ${job} @${job}`,
      `ADD ${job} -> ${d} @${job}`,
      `ADD ${a} -> ${d} @${d}`,
      `ADD ${ns.field(a, 'x')} -> ${ns.field(d, 'y')} @${d}`,
      `REMOVE ${a} -> ${job} @${job}`,
      `REMOVE ${job} -> ${d} @${job}`,
    ].sort((x, y) => got.indexOf(x) - got.indexOf(y)),
  );
  expect(new Set(got).size).toBe(6);
  // The job's output edge: the job is upstream of the dataset it declared it on.
  const output = mine((await drain('PlatformEvent_v1', pe)).values)
    .map(eceOf)
    .find((e) => e.parameters.downstreamUrn === d && e.entityUrn === job)!;
  expect(output).toMatchObject({ modifier: d, parameters: { direction: 'DOWNSTREAM', aspectName: 'dataJobInputOutput' } });
});

test("one write's events about one entity on one topic are stored as one batch; a poll may start inside it", async () => {
  const p = ns.dataset('bp'),
    q = ns.dataset('bq'),
    r = ns.dataset('br'),
    x = ns.dataset('bx'),
    y = ns.dataset('by');
  await writeAspects(
    store,
    [p, q, r, x, y].map((u) => upsert(u, 'datasetProperties', { name: u })),
    opts,
  );
  const start = (await readLogHead(store)).next;
  await writeAspects(store, [lineage(x, [p, q, r]), lineage(y, [p])], opts);
  const { records } = await store.driver.executeQuery(
    'MATCH (b:ChangeBatch {topic: $topic}) WHERE b.offset >= $start AND b.entityUrn IN $urns RETURN b.entityUrn AS urn, b.offset AS offset, b.last AS last, size(b.items) AS n ORDER BY b.offset',
    { topic: 'PlatformEvent_v1', start: int(start), urns: [x, y] },
    { database: store.database },
  );
  const batches = records.map((rec) => toPlain(rec.toObject()) as { urn: string; offset: number; last: number; n: number });
  expect(batches.map((b) => [b.urn, b.n, b.last - b.offset + 1])).toEqual([
    [x, 3, 3],
    [y, 1, 1],
  ]);
  // From the second event of x's batch: the rest of it, then y's.
  const rest = lineageOf((await drain('PlatformEvent_v1', encodeOffset('PlatformEvent_v1', batches[0]!.offset + 1))).values);
  expect(rest).toEqual([`ADD ${q} -> ${x} @${x}`, `ADD ${r} -> ${x} @${x}`, `ADD ${p} -> ${y} @${y}`]);
});

test('a store recording only PlatformEvent_v1 writes lineage events and no MetadataChangeLog', async () => {
  const lineageOnly = createStore({ uri: process.env.TEST_NEO4J_URI!, database: 'neo4j', changeLog: ['PlatformEvent_v1'] });
  try {
    const pe = await headToken('PlatformEvent_v1');
    const mcl = await headToken('MetadataChangeLog_Versioned_v1');
    await writeAspects(lineageOnly, [lineage(c, [a])], opts);
    expect(lineageOf((await drain('PlatformEvent_v1', pe)).values)).toEqual([`REMOVE ${b} -> ${c} @${c}`, `ADD ${a} -> ${c} @${c}`]);
    expect(mine((await drain('MetadataChangeLog_Versioned_v1', mcl)).values)).toEqual([]);
  } finally {
    await lineageOnly.close();
  }
});

test('a write that rolls back leaves no event; nothing commits without its events', async () => {
  const pe = await headToken('PlatformEvent_v1');
  const mcl = await headToken('MetadataChangeLog_Versioned_v1');
  await expect(
    store.write(async (tx) => {
      await writeAspectsInTx(tx, [lineage(d, [b])], opts);
      throw new Error('the door failed after the write');
    }),
  ).rejects.toThrow('the door failed');
  // The strict existence rule refuses a write naming an entity that does not exist: nothing recorded either.
  await expect(writeAspects(store, [lineage(d, [ns.dataset('missing')])], { ...opts, existenceMode: 'strict' })).rejects.toThrow(
    /do(es)? not exist/,
  );
  expect(mine((await drain('PlatformEvent_v1', pe)).values)).toEqual([]);
  expect(mine((await drain('MetadataChangeLog_Versioned_v1', mcl)).values)).toEqual([]);
  // A later write takes the offsets the rolled-back one had been handed: the log has no gap.
  const before = (await readLogHead(store)).next;
  await writeAspects(store, [lineage(d, [b])], opts);
  const page = await pollChanges(
    store,
    parsePollRequest({
      topic: 'MetadataChangeLog_Versioned_v1',
      offsetId: encodeOffset('MetadataChangeLog_Versioned_v1', before),
      pollTimeoutSeconds: '0',
    }),
  );
  expect(page.count).toBeGreaterThan(0);
});

test('concurrent writers: a consumer that has read up to offset N never later finds an event at or below N', async () => {
  const writers = 6,
    writesEach = 15;
  const ups = Array.from({ length: 4 }, (_, i) => ns.dataset(`cu${i}`));
  const downs = Array.from({ length: writers }, (_, i) => ns.dataset(`cd${i}`));
  await writeAspects(
    store,
    [...ups, ...downs].map((u) => upsert(u, 'datasetProperties', { name: u })),
    opts,
  );
  const start = await headToken('PlatformEvent_v1');

  let done = false;
  let token = start;
  let lastOffset = -1;
  const streamed: string[] = [];
  const consumer = (async () => {
    for (;;) {
      const finished = done;
      const page = await pollChanges(
        store,
        parsePollRequest({ topic: 'PlatformEvent_v1', offsetId: token, limit: '7', pollTimeoutSeconds: '0' }),
      );
      const next = JSON.parse(Buffer.from(page.offsetId, 'base64').toString()) as Record<string, number>;
      const offset = next['PlatformEvent_v1-0']!;
      expect(offset).toBeGreaterThanOrEqual(lastOffset);
      lastOffset = offset;
      streamed.push(...page.events.map((e) => e.value));
      token = page.offsetId;
      if (finished && !page.count) return;
    }
  })();
  // Each writer moves its own downstream's upstream around the four upstreams: every write removes
  // one edge and adds one, and the same entity's writes commit in order.
  await Promise.all(
    downs.map(async (down, w) => {
      for (let i = 0; i < writesEach; i++) await writeAspects(store, [lineage(down, [ups[(w + i) % ups.length]!])], opts);
    }),
  );
  done = true;
  await consumer;

  // What the consumer streamed while writes committed equals the whole log read afterwards, in the same order.
  const after = (await drain('PlatformEvent_v1', start)).values;
  expect(mine(streamed)).toEqual(mine(after));
  expect(mine(streamed)).toHaveLength(writers * (2 * writesEach - 1));
  // Per downstream, the events replay its writes in order.
  for (const [w, down] of downs.entries()) {
    const seq = mine(streamed)
      .map(eceOf)
      .filter((e) => e.entityUrn === down)
      .map((e) => `${e.operation} ${e.modifier}`);
    const expected = [`ADD ${ups[w % ups.length]}`];
    for (let i = 1; i < writesEach; i++) expected.push(`REMOVE ${ups[(w + i - 1) % ups.length]}`, `ADD ${ups[(w + i) % ups.length]}`);
    expect(seq).toEqual(expected);
  }
});

test('restoreIndices records the lineage it repairs', async () => {
  const down = ns.dataset('repaired');
  await writeAspects(store, [upsert(down, 'datasetProperties', { name: 'r' }), lineage(down, [a])], opts);
  await store.driver.executeQuery(
    'MATCH ()-[r]->(:Entity {urn: $down}) WHERE type(r) <> "HAS_ASPECT" DELETE r',
    { down },
    { database: store.database },
  );
  await store.driver.executeQuery(
    'MATCH (:Entity {urn: $down})-[r]->() WHERE type(r) <> "HAS_ASPECT" DELETE r',
    { down },
    { database: store.database },
  );
  const pe = await headToken('PlatformEvent_v1');
  await restoreIndices(store, { urn: down });
  const got = mine((await drain('PlatformEvent_v1', pe)).values)
    .map(eceOf)
    .filter((e) => e.entityUrn === down);
  expect(got.map((e) => `${e.operation} ${e.modifier}`)).toEqual([`ADD ${a}`]);
  expect(got[0]!.auditStamp.actor).toBe('urn:li:corpuser:__datahub_system');
});

describe('GET /openapi/v1/events/poll', () => {
  let svc: RunningIngestion;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    svc = await startIngestion();
    admin = await tokenFor(svc.store, ns.user('admin'), 'Admin');
    reader = await tokenFor(svc.store, ns.user('reader'), 'Reader');
  });
  afterAll(async () => {
    await svc.close();
  });
  const poll = (query: string, token = admin) =>
    fetch(`${svc.baseUrl}/openapi/v1/events/poll?${query}`, { headers: { Authorization: `Bearer ${token}` } });

  test("answers DataHub's shape; without offsetId it starts at the latest event and its offsetId is a string", async () => {
    const res = await poll('topic=PlatformEvent_v1&pollTimeoutSeconds=0');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { offsetId: unknown; count: number; events: unknown[] };
    expect(body).toEqual({ offsetId: expect.any(String), count: 0, events: [] });
  });

  test('a waiting poll returns as soon as an event commits', async () => {
    const first = (await (await poll('topic=PlatformEvent_v1&pollTimeoutSeconds=0')).json()) as { offsetId: string };
    const t0 = Date.now();
    const waiting = poll(`topic=PlatformEvent_v1&pollTimeoutSeconds=20&offsetId=${encodeURIComponent(first.offsetId)}`);
    await new Promise((r) => setTimeout(r, 300));
    await writeAspects(store, [lineage(d, [c])], opts);
    const body = (await (await waiting).json()) as { count: number; events: Array<{ value: string; contentType: string }> };
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(body.count).toBeGreaterThan(0);
    expect(body.events[0]!.contentType).toBe('application/json');
  });

  test('403 without GET_PLATFORM_EVENTS', async () => {
    const res = await poll('topic=PlatformEvent_v1', reader);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('GET_PLATFORM_EVENTS');
  });

  test.each([
    ['topic=Nope_v1', 'topic'],
    ['', 'topic'],
    ['topic=PlatformEvent_v1&limit=0', 'limit'],
    ['topic=PlatformEvent_v1&limit=ten', 'limit'],
    ['topic=PlatformEvent_v1&pollTimeoutSeconds=-1', 'pollTimeoutSeconds'],
    ['topic=PlatformEvent_v1&offsetId=%25%25%25', 'offsetId'],
    [`topic=PlatformEvent_v1&offsetId=${encodeURIComponent(encodeOffset('MetadataChangeLog_Versioned_v1', 0))}`, 'offsetId'],
    [
      `topic=PlatformEvent_v1&offsetId=${encodeURIComponent(Buffer.from('{"PlatformEvent_v1-0":999999999999}').toString('base64'))}`,
      'offsetId',
    ],
    [`topic=PlatformEvent_v1&offsetId=${encodeURIComponent(Buffer.from('[1,2]').toString('base64'))}`, 'offsetId'],
  ])('400 naming the parameter: %s', async (query, name) => {
    const res = await poll(query);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(name);
  });

  test("limit and timeout above DataHub's bounds are clamped, not refused", async () => {
    expect((await poll('topic=MetadataChangeLog_Versioned_v1&limit=999999&pollTimeoutSeconds=0')).status).toBe(200);
    expect(parsePollRequest({ topic: 'PlatformEvent_v1', limit: '999999', pollTimeoutSeconds: '600' })).toMatchObject({
      limit: 5000,
      timeoutMs: 60_000,
    });
  });

  test('a topic the catalog does not record (EVENTS_TOPICS) is a 400 naming it', async () => {
    const lineageOnly = await startIngestion({ EVENTS_TOPICS: 'PlatformEvent_v1' });
    try {
      const get = (topic: string) =>
        fetch(`${lineageOnly.baseUrl}/openapi/v1/events/poll?topic=${topic}&pollTimeoutSeconds=0`, {
          headers: { Authorization: `Bearer ${admin}` },
        });
      expect((await get('PlatformEvent_v1')).status).toBe(200);
      const res = await get('MetadataChangeLog_Versioned_v1');
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('EVENTS_TOPICS');
    } finally {
      await lineageOnly.close();
    }
  });

  test('404 when the change log is off', async () => {
    const off = await startIngestion({ EVENTS_API_ENABLED: 'false' });
    try {
      const res = await fetch(`${off.baseUrl}/openapi/v1/events/poll?topic=PlatformEvent_v1`, {
        headers: { Authorization: `Bearer ${admin}` },
      });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

// Last: retention prunes the whole log (every other test of this file is done with it).
test('retention prunes old events; an offset behind what it pruned answers a 400, never a silent skip', async () => {
  await writeAspects(store, [lineage(d, [a])], opts);
  const oldOffset = (await readLogHead(store)).next - 1;
  const old = encodeOffset('PlatformEvent_v1', oldOffset);
  await writeAspects(store, [lineage(d, [b])], opts);
  // Nothing is old enough at 7 days.
  expect((await pruneChangeLog(store, 7)).deleted).toBe(0);
  // Seen from 8 days on, everything is.
  const pruned = await pruneChangeLog(store, 7, Date.now() + 8 * 86_400_000);
  expect(pruned.deleted).toBeGreaterThan(0);
  expect(pruned.prunedBelow).toBeGreaterThan(oldOffset);
  await expect(pollChanges(store, parsePollRequest({ topic: 'PlatformEvent_v1', offsetId: old, pollTimeoutSeconds: '0' }))).rejects.toThrow(
    /Expired offsetId.*retention/,
  );
  // A consumer at the head goes on.
  const head = await headToken('PlatformEvent_v1');
  await writeAspects(store, [lineage(d, [c])], opts);
  expect(mine((await drain('PlatformEvent_v1', head)).values).length).toBeGreaterThan(0);
});
