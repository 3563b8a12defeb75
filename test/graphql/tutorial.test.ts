// DataHub's lineage tutorial, verbatim, through the front door on a real Neo4j: updateLineage with
// two upstreams, then scrollAcrossLineage over a graph with a job at degree 1 and an ML primary key
// at degree 2; all-or-nothing failure; paging, facets and paths of the same search.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { hardDeleteEntity, writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { getAspect } from '../../catalog/src/read/aspect-reader.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from './stack.ts';

// The tutorial's documents, character for character.
const UPDATE_LINEAGE =
  'mutation updateLineage { updateLineage(input: { edgesToAdd: [{ downstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", upstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)" }, { downstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", upstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)" }], edgesToRemove: [] }) }';
const SCROLL =
  'query scrollAcrossLineage { scrollAcrossLineage(input: { query: "*", urn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", count: 10, direction: DOWNSTREAM, orFilters: [{ and: [{ condition: EQUAL, negated: false, field: "degree", values: ["1", "2", "3+"] }] }] }) { searchResults { degree entity { urn type } } } }';

let stack: Stack;
let admin: string, reader: string;
const T0 = 1_700_000_000_000;
const opts = { actor: 'urn:li:corpuser:seeder', existenceMode: 'strict' as const, now: T0 };
const upsert = (urn: string, aspectName: string, value: unknown): AspectChange => ({
  urn: parseUrn(urn),
  aspectName,
  changeType: 'UPSERT',
  value,
  systemMetadata: { lastObserved: T0 },
});

/** The tutorial's graph on some platform: three datasets, plus a job and a dataset downstream of logging_events and an ML key below that. */
function tutorialGraph(platform: string) {
  const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
  const flow = `urn:li:dataFlow:(${platform},tutorial_flow,PROD)`;
  const g = {
    deleted: dataset('fct_users_deleted'),
    created: dataset('fct_users_created'),
    events: dataset('logging_events'),
    sessions: dataset('user_sessions'),
    flow,
    job: `urn:li:dataJob:(${flow},aggregate_events)`,
    key: `urn:li:mlPrimaryKey:(${platform},session_id)`,
  };
  return g;
}
type Graph = ReturnType<typeof tutorialGraph>;

async function seed(g: Graph, platform: string) {
  await writeAspects(
    stack.store,
    [
      upsert(g.deleted, 'datasetProperties', { name: 'fct_users_deleted' }),
      upsert(g.created, 'datasetProperties', { name: 'fct_users_created' }),
      upsert(g.events, 'datasetProperties', { name: 'logging_events' }),
      upsert(g.flow, 'dataFlowInfo', { name: 'tutorial flow' }),
      upsert(g.key, 'mlPrimaryKeyKey', { featureNamespace: platform, name: 'session_id' }),
    ],
    opts,
  );
  await writeAspects(
    stack.store,
    [
      upsert(g.job, 'dataJobInfo', { name: 'aggregate events', type: 'COMMAND' }),
      upsert(g.job, 'dataJobInputOutput', { inputDatasets: [g.events], outputDatasets: [] }),
      upsert(g.sessions, 'datasetProperties', { name: 'user_sessions' }),
      upsert(g.sessions, 'upstreamLineage', { upstreams: [{ dataset: g.events, type: 'TRANSFORMED' }] }),
    ],
    opts,
  );
  await writeAspects(stack.store, [upsert(g.key, 'mlPrimaryKeyProperties', { sources: [g.sessions] })], opts);
}

const ns = namespace('tut');
const g = tutorialGraph(ns.platform);
const inNamespace = (doc: string) => doc.replaceAll('urn:li:dataPlatform:hive', `urn:li:dataPlatform:${ns.platform}`);

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  await seed(g, ns.platform);
});
afterAll(async () => {
  await stack.close();
});

test('two-upstream updateLineage returns exactly {"data":{"updateLineage":true},"extensions":{}}', async () => {
  const r = await stack.graphql(inNamespace(UPDATE_LINEAGE), admin);
  expect(r.status).toBe(200);
  expect(r.text.trim()).toBe('{"data":{"updateLineage":true},"extensions":{}}');
  const up = await stack.graphql(
    `{ dataset(urn: "${g.events}") { lineage(input: {direction: UPSTREAM}) { total relationships { type isManual entity { urn } } } } }`,
    reader,
  );
  const rels = up.body.data.dataset.lineage.relationships as Array<{ type: string; isManual: boolean; entity: { urn: string } }>;
  expect(rels.map((x) => x.entity.urn).sort()).toEqual([g.created, g.deleted].sort());
  expect(rels.every((x) => x.type === 'DownstreamOf' && x.isManual)).toBe(true);
  const stored = await getAspect(stack.store, parseUrn(g.events), 'upstreamLineage');
  expect(stored?.value.upstreams).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        dataset: g.deleted,
        type: 'TRANSFORMED',
        properties: { source: 'UI' },
        auditStamp: expect.objectContaining({ actor: 'urn:li:corpuser:datahub' }),
      }),
    ]),
  );
});

test('the tutorial scroll returns the job at degree 1 and the ML primary key at degree 2', async () => {
  const r = await stack.graphql(inNamespace(SCROLL), reader);
  expect(r.body.errors).toBeUndefined();
  expect(r.body.extensions).toEqual({});
  expect(r.body.data.scrollAcrossLineage.searchResults).toEqual(
    [
      { degree: 1, entity: { urn: g.job, type: 'DATA_JOB' } },
      { degree: 1, entity: { urn: g.sessions, type: 'DATASET' } },
      { degree: 2, entity: { urn: g.key, type: 'MLPRIMARY_KEY' } },
    ].sort((a, b) => a.degree - b.degree || (a.entity.urn < b.entity.urn ? -1 : 1)),
  );
});

test('degree filters bound the walk; facets count; paths and flags are rendered; scroll pages cover everything once', async () => {
  const first = await stack.graphql(
    `{ scrollAcrossLineage(input: { urn: "${g.events}", direction: DOWNSTREAM, count: 1,
    orFilters: [{ and: [{ field: "degree", values: ["2"] }] }] }) {
    nextScrollId count total isPartial freshness { cached }
    facets { field displayName aggregations { value count entity { urn } } }
    searchResults { degree degrees explored truncatedChildren ignoredAsHop insights { text } matchedFields { name }
      entity { urn } paths { path { urn } } } } }`,
    reader,
  );
  expect(first.body.errors).toBeUndefined();
  const page = first.body.data.scrollAcrossLineage;
  expect(page).toMatchObject({ nextScrollId: null, count: 1, total: 1, isPartial: false, freshness: null });
  expect(page.searchResults).toEqual([
    {
      degree: 2,
      degrees: [2],
      explored: false,
      truncatedChildren: false,
      ignoredAsHop: false,
      insights: [],
      matchedFields: [],
      entity: { urn: g.key },
      paths: [{ path: [{ urn: g.events }, { urn: g.sessions }, { urn: g.key }] }],
    },
  ]);
  expect(page.facets[0]).toEqual({
    field: 'degree',
    displayName: 'Degree of Dependencies',
    aggregations: [
      { value: '1', count: 2, entity: null },
      { value: '2', count: 1, entity: null },
      { value: '3+', count: 0, entity: null },
    ],
  });
  // An ML primary key has no platform; the job (its flow's orchestrator) and the dataset do.
  expect(page.facets.find((f: { field: string }) => f.field === 'platform').aggregations).toEqual([]);
  const hop1 = await stack.graphql(
    `{ scrollAcrossLineage(input: { urn: "${g.events}", direction: DOWNSTREAM,
    orFilters: [{ and: [{ field: "degree", values: ["1"] }] }] }) { total facets { field aggregations { value count entity { urn } } } } }`,
    reader,
  );
  expect(hop1.body.data.scrollAcrossLineage.total).toBe(2);
  expect(hop1.body.data.scrollAcrossLineage.facets.find((f: { field: string }) => f.field === 'platform').aggregations).toEqual([
    { value: `urn:li:dataPlatform:${ns.platform}`, count: 2, entity: { urn: `urn:li:dataPlatform:${ns.platform}` } },
  ]);

  const seen: string[] = [];
  let scrollId: string | null = null;
  do {
    const r: {
      body: { data: { scrollAcrossLineage: { nextScrollId: string | null; searchResults: Array<{ entity: { urn: string } }> } } };
    } = await stack.graphql(
      `query s($id: String) { scrollAcrossLineage(input: { urn: "${g.events}", direction: DOWNSTREAM, count: 1, scrollId: $id }) {
        nextScrollId searchResults { entity { urn } } } }`,
      reader,
      { variables: { id: scrollId } },
    );
    seen.push(...r.body.data.scrollAcrossLineage.searchResults.map((x) => x.entity.urn));
    scrollId = r.body.data.scrollAcrossLineage.nextScrollId;
  } while (scrollId && seen.length < 10);
  expect(seen.sort()).toEqual([g.job, g.sessions, g.key].sort());

  const search = await stack.graphql(
    `{ searchAcrossLineage(input: { urn: "${g.events}", direction: DOWNSTREAM, start: 1, count: 5, types: [DATASET, MLPRIMARY_KEY] }) {
    start count total lineageSearchPath searchResults { degree entity { urn } } } }`,
    reader,
  );
  expect(search.body.data.searchAcrossLineage).toEqual({
    // count is the requested page size, as DataHub's results mapper sets it.
    start: 1,
    count: 5,
    total: 2,
    lineageSearchPath: null,
    searchResults: [{ degree: 2, entity: { urn: g.key } }],
  });
});

test("a missing entity fails updateLineage with DataHub's message and writes nothing", async () => {
  const missing = ns.dataset('does_not_exist');
  const before = await getAspect(stack.store, parseUrn(g.sessions), 'upstreamLineage');
  const r = await stack.graphql(
    `mutation { updateLineage(input: { edgesToAdd: [
    { downstreamUrn: "${g.sessions}", upstreamUrn: "${g.created}" },
    { downstreamUrn: "${missing}", upstreamUrn: "${g.deleted}" }], edgesToRemove: [] }) }`,
    admin,
  );
  expect(r.status).toBe(200);
  expect(r.body).toEqual({
    errors: [
      {
        message: `Cannot upsert lineage as downstream urn ${missing} doesn't exist`,
        locations: [{ line: 1, column: 12 }],
        path: ['updateLineage'],
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
      },
    ],
    data: { updateLineage: null },
    extensions: {},
  });
  const after = await getAspect(stack.store, parseUrn(g.sessions), 'upstreamLineage');
  expect(after).toEqual(before);
  const exists = await stack.graphql(`{ entityExists(urn: "${missing}") }`, reader);
  expect(exists.body.data).toEqual({ entityExists: false });
});

test('updateLineage needs EDIT_LINEAGE or EDIT_ENTITY', async () => {
  const r = await stack.graphql(
    `mutation { updateLineage(input: { edgesToAdd: [], edgesToRemove: [{ downstreamUrn: "${g.sessions}", upstreamUrn: "${g.events}" }] }) }`,
    reader,
  );
  expect(r.body.data).toEqual({ updateLineage: null });
  expect(r.body.errors[0]).toMatchObject({
    message: 'Unauthorized to edit dataset lineage. Please contact your DataHub administrator.',
    extensions: { code: 403, type: 'UNAUTHORIZED', classification: 'DataFetchingException' },
  });
});

test('the literal tutorial documents work on the literal hive urns (cleaned up afterwards)', async () => {
  const hive = tutorialGraph('hive');
  const all = [hive.key, hive.job, hive.sessions, hive.events, hive.deleted, hive.created, hive.flow];
  const cleanup = async () => {
    for (const urn of all) await hardDeleteEntity(stack.store, parseUrn(urn), opts);
  };
  await cleanup();
  try {
    await seed(hive, 'hive');
    const update = await stack.graphql(UPDATE_LINEAGE, admin);
    expect(update.text.trim()).toBe('{"data":{"updateLineage":true},"extensions":{}}');
    const scroll = await stack.graphql(SCROLL, admin);
    const results = scroll.body.data.scrollAcrossLineage.searchResults as Array<{ degree: number; entity: { urn: string; type: string } }>;
    expect(results).toContainEqual({ degree: 1, entity: { urn: hive.job, type: 'DATA_JOB' } });
    expect(results).toContainEqual({ degree: 2, entity: { urn: hive.key, type: 'MLPRIMARY_KEY' } });
  } finally {
    await cleanup();
  }
});

test("lineage search input errors are 400s with DataHub's messages", async () => {
  const cases: Array<[string, string]> = [
    ['direction: DOWNSTREAM', 'urn is required'],
    ['urn: "not-a-urn", direction: DOWNSTREAM', 'Invalid urn: not-a-urn'],
    [`urn: "${g.events}", direction: DOWNSTREAM, scrollId: "bm90LWEtY3Vyc29y"`, 'Invalid scrollId'],
    [
      `urn: "${g.events}", direction: DOWNSTREAM, orFilters: [{ and: [{ field: "degree", values: ["4"] }] }]`,
      '4 is not a valid filter value for degree filters',
    ],
  ];
  for (const [input, message] of cases) {
    const r = await stack.graphql(`{ scrollAcrossLineage(input: { ${input} }) { total } }`, reader);
    expect(r.body.data).toEqual({ scrollAcrossLineage: null });
    expect(r.body.errors[0]).toMatchObject({
      message,
      extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
    });
  }
});
