// An entity's recent lineage changes (issue 26 item 5; docs/change-events.md §An entity's recent
// lineage changes): the change log's LINEAGE events about an entity, newest first — who, when, what —
// through the domain read and GraphQL `recentLineageChanges`, the answer when the log does not record
// them (never an empty list), and a bad count refused as the client's mistake.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { recentLineageChanges } from '../../catalog/src/read/recent-lineage-changes.ts';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

let stack: Stack;
let store: Store;
let editor: string;
const ns = namespace('recentlin');
const alice = ns.user('alice'),
  bob = ns.user('bob');
const src = ns.dataset('src'),
  other = ns.dataset('other'),
  out = ns.dataset('out');
const flow = ns.flow('f'),
  job = ns.job(flow, 'load');
const ALL = ['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1'] as const;

const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
});
const lineage = (down: string, ups: string[]) =>
  upsert(down, 'upstreamLineage', { upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const as = (actor: string) => ({ actor, existenceMode: 'relaxed' as const });
/** What a person reads: who, added/removed, which side, the other end. */
const summary = (changes: Array<{ actor: string; operation: string; direction: string; other: string }>) =>
  changes.map((c) => `${c.actor} ${c.operation} ${c.direction} ${c.other}`);

const QUERY = `query($urn: String!, $count: Int) { recentLineageChanges(urn: $urn, count: $count) {
  recorded reason more changes { offset time actor operation direction other otherEntity { urn type } relationshipType aspectName via } } }`;

beforeAll(async () => {
  stack = await startStack();
  store = stack.store;
  editor = await tokenFor(store, alice, 'Editor');
  await writeAspects(
    store,
    [src, other, out].map((u) => upsert(u, 'datasetProperties', { name: u })),
    as(bob),
  );
  await writeAspects(store, [upsert(job, 'dataJobInfo', { name: 'load', type: 'BATCH' })], as(bob));
  // alice adds src → out through GraphQL; bob then replaces it by other → out; the job writes out.
  const add = await stack.graphql(
    `mutation { updateLineage(input: { edgesToAdd: [{ upstreamUrn: "${src}", downstreamUrn: "${out}" }], edgesToRemove: [] }) }`,
    editor,
  );
  expect(add.body.errors).toBeUndefined();
  await writeAspects(store, [lineage(out, [other])], as(bob));
  await writeAspects(store, [upsert(job, 'dataJobInputOutput', { inputDatasets: [src], outputDatasets: [out] })], as(bob));
}, 180_000);
afterAll(async () => {
  await stack.close();
});

test('the domain read: newest first, who and when, added and removed, the other end', async () => {
  const before = Date.now();
  const r = await recentLineageChanges(store, out, 10, ALL);
  if (!r.recorded) throw new Error(r.reason);
  expect(summary(r.changes)).toEqual([`${bob} ADD UPSTREAM ${other}`, `${bob} REMOVE UPSTREAM ${src}`, `${alice} ADD UPSTREAM ${src}`]);
  expect(r.more).toBe(false);
  expect(r.changes.map((c) => c.offset)).toEqual([...r.changes.map((c) => c.offset)].sort((a, b) => b - a));
  expect(r.changes.every((c) => c.time <= before && c.time > before - 600_000)).toBe(true);
  expect(r.changes[0]).toMatchObject({ relationshipType: 'DownstreamOf', aspectName: 'upstreamLineage', via: null });
  // The job's output edge is recorded on the job, whose aspect declared it, not on the dataset.
  const onJob = await recentLineageChanges(store, job, 10, ALL);
  if (!onJob.recorded) throw new Error(onJob.reason);
  expect(summary(onJob.changes).sort()).toEqual([`${bob} ADD DOWNSTREAM ${out}`, `${bob} ADD UPSTREAM ${src}`]);
  expect(onJob.changes[0]).toMatchObject({ aspectName: 'dataJobInputOutput' });
  // An entity that declared nothing has no changes recorded about it: recorded, and empty.
  expect(await recentLineageChanges(store, src, 10, ALL)).toEqual({ recorded: true, changes: [], more: false });
});

test('count takes the newest and says older ones are kept', async () => {
  const r = await recentLineageChanges(store, out, 2, ALL);
  expect(r.recorded && { changes: summary(r.changes), more: r.more }).toEqual({
    changes: [`${bob} ADD UPSTREAM ${other}`, `${bob} REMOVE UPSTREAM ${src}`],
    more: true,
  });
});

test('when the log does not record lineage events the answer says so, with no list', async () => {
  expect(await recentLineageChanges(store, out, 10, [])).toEqual({
    recorded: false,
    reason: expect.stringMatching(/change log is off.*EVENTS_API_ENABLED=false/),
  });
  expect(await recentLineageChanges(store, out, 10, ['MetadataChangeLog_Versioned_v1'])).toEqual({
    recorded: false,
    reason: expect.stringMatching(/does not record lineage changes.*EVENTS_TOPICS/),
  });
});

test('the statement reads the entity index in offset order, backwards, without sorting', async () => {
  interface PlanNode {
    operatorType: string;
    arguments: Record<string, unknown>;
    children: PlanNode[];
  }
  const operators = (p: PlanNode): PlanNode[] => [p, ...p.children.flatMap(operators)];
  const text = store.statements.all.get('events/recent-for-entity')!;
  const plan = await store.driver.executeQuery(
    `EXPLAIN ${text}`,
    { urn: out, topic: 'PlatformEvent_v1', limit: 5 },
    { database: store.database },
  );
  const ops = operators(plan.summary.plan as unknown as PlanNode);
  expect(ops.map((o) => o.operatorType).filter((t) => /Sort|Top/.test(t))).toEqual([]);
  expect(
    ops.some((o) => o.operatorType.startsWith('NodeIndexSeek') && String(o.arguments.Details).includes('ChangeBatch(entityUrn, offset)')),
  ).toBe(true);
});

describe('GraphQL recentLineageChanges', () => {
  test('a reader sees the changes, the other end as an entity', async () => {
    const reader = await tokenFor(store, ns.user('reader'), 'Reader');
    const r = await stack.graphql(QUERY, reader, { variables: { urn: out, count: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const got = r.body.data.recentLineageChanges;
    expect(got).toMatchObject({ recorded: true, reason: null, more: true });
    expect(summary(got.changes)).toEqual([`${bob} ADD UPSTREAM ${other}`, `${bob} REMOVE UPSTREAM ${src}`]);
    expect(got.changes[1]).toMatchObject({
      otherEntity: { urn: src, type: 'DATASET' },
      relationshipType: 'DownstreamOf',
      aspectName: 'upstreamLineage',
      via: null,
    });
    expect(typeof got.changes[0].time).toBe('number');
  });

  test('a count out of 1..100 and a malformed urn are 400s naming them', async () => {
    const reader = await tokenFor(store, ns.user('reader2'), 'Reader');
    for (const count of [0, 101]) {
      const r = await stack.graphql(QUERY, reader, { variables: { urn: out, count } });
      expect(r.body.errors?.[0]?.message).toMatch(new RegExp(`count must be an integer from 1 to 100, got ${count}`));
      expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
    }
    const bad = await stack.graphql(QUERY, reader, { variables: { urn: 'not-a-urn' } });
    expect(bad.body.errors?.[0]?.message).toMatch(/Invalid urn: not-a-urn/);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe(400);
  });

  test('without a token: a 401 before execution, as every read', async () => {
    const r = await stack.graphql(QUERY, null, { variables: { urn: out } });
    expect(r.status).toBe(401);
    expect(r.body?.data?.recentLineageChanges).toBeUndefined();
  });

  test('a catalog with the change log off answers recorded: false and no list', async () => {
    const off = await startStack({ EVENTS_API_ENABLED: 'false' });
    try {
      const reader = await tokenFor(off.store, ns.user('reader3'), 'Reader');
      const r = await off.graphql(QUERY, reader, { variables: { urn: out } });
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.recentLineageChanges).toEqual({
        recorded: false,
        reason: 'The change log is off on this catalog (EVENTS_API_ENABLED=false).',
        changes: null,
        more: false,
      });
    } finally {
      await off.close();
    }
  }, 120_000);
});

test('MetadataChangeLogs about the entity, newer than its lineage events, are skipped, not counted', async () => {
  const mclOnly = createStore({ uri: process.env.TEST_NEO4J_URI!, database: 'neo4j', changeLog: ['MetadataChangeLog_Versioned_v1'] });
  try {
    await writeAspects(mclOnly, [lineage(out, [src, other])], as(bob));
    // That catalog's own answer: not recorded. Read where lineage events are recorded, the entity's
    // newest events are now that write's MetadataChangeLogs, and the newest lineage change is still bob's.
    expect((await recentLineageChanges(mclOnly, out, 1, ['MetadataChangeLog_Versioned_v1'])).recorded).toBe(false);
    const r = await recentLineageChanges(store, out, 1, ALL);
    expect(r.recorded && summary(r.changes)).toEqual([`${bob} ADD UPSTREAM ${other}`]);
  } finally {
    await mclOnly.close();
  }
});
