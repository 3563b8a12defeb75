// Marquez 0.51's soft deletes and tag writes (docs/marquez-compatibility.md §Writes) over a graph
// written through the OpenLineage door: DELETE of a dataset, a job, a namespace is DataHub's soft
// delete; tags on datasets and jobs are their globalTags; each through the write path's
// authorization (a Reader is refused and nothing is written), each answering Marquez's JSON.
//
//   <u>_src ──► [<u>_load] ──► <u>_dst        <u>_gone ──► [<u>_drop] (namespace <u>gone)
import { randomUUID } from 'node:crypto';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

type Json = Record<string, any>;

let stack: Stack;
let editor: string;
let reader: string;
const ns = namespace('mqwrite');
const u = ns.platform;
const jobNs = `${u}jobs`;
const goneNs = `${u}gone`;
const dsNs = `${u}db`;
const goneDsNs = `${u}gonedb`;
const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow';
const enc = encodeURIComponent;
const schema = {
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
  fields: [
    { name: 'a', type: 'INTEGER' },
    { name: 'b', type: 'TEXT' },
  ],
};

const complete = (jobNamespace: string, job: string, inputs: Json[], outputs: Json[]): Json => ({
  eventType: 'COMPLETE',
  eventTime: '2026-11-02T08:00:00.000Z',
  producer,
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: randomUUID(), facets: {} },
  job: { namespace: jobNamespace, name: job, facets: {} },
  inputs,
  outputs,
});

async function call(method: string, path: string, token: string | null = editor) {
  const res = await fetch(`${stack.ingestion.baseUrl}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
}

beforeAll(async () => {
  stack = await startStack();
  editor = await tokenFor(stack.store, `urn:li:corpuser:${u}_editor`, 'Editor');
  reader = await tokenFor(stack.store, `urn:li:corpuser:${u}_reader`, 'Reader');
  const events = [
    complete(jobNs, `${u}_load`, [{ namespace: dsNs, name: `${u}_src`, facets: { schema } }], [{ namespace: dsNs, name: `${u}_dst` }]),
    complete(goneNs, `${u}_drop`, [{ namespace: goneDsNs, name: `${u}_gone` }], []),
  ];
  const res = await fetch(`${stack.ingestion.baseUrl}/api/v1/lineage/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' },
    body: JSON.stringify(events),
  });
  expect(await res.json()).toMatchObject({ status: 'success' });
}, 300_000);
afterAll(async () => {
  await stack.close();
});

const dataset = (name: string) => `/api/v1/namespaces/${dsNs}/datasets/${name}`;
const job = (name: string) => `/api/v1/namespaces/${jobNs}/jobs/${name}`;

describe('tags', () => {
  test("a dataset's tags: added once however often, listed, removed; the answer is the dataset", async () => {
    const added = await call('POST', `${dataset(`${u}_src`)}/tags/${u}_PII`);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: { namespace: dsNs, name: `${u}_src` }, tags: [`${u}_PII`] });
    expect((await call('POST', `${dataset(`${u}_src`)}/tags/${u}_PII`)).body.tags).toEqual([`${u}_PII`]);
    expect((await call('POST', `${dataset(`${u}_src`)}/tags/${u}_SENSITIVE`)).body.tags).toEqual([`${u}_PII`, `${u}_SENSITIVE`]);
    expect((await call('GET', dataset(`${u}_src`))).body.tags).toEqual([`${u}_PII`, `${u}_SENSITIVE`]);
    const tags = (await call('GET', '/api/v1/tags?limit=100000')).body.tags.map((t: Json) => t.name);
    expect(tags.filter((t: string) => t.startsWith(`${u}_`))).toEqual([`${u}_PII`, `${u}_SENSITIVE`]);
    const removed = await call('DELETE', `${dataset(`${u}_src`)}/tags/${u}_PII`);
    expect(removed).toMatchObject({ status: 200, body: { tags: [`${u}_SENSITIVE`] } });
  });

  test("a column's tags: upper-cased as Marquez does, added once, removed; the answer is the dataset", async () => {
    const field = `${dataset(`${u}_src`)}/fields/a/tags`;
    const added = await call('POST', `${field}/${u}_pii`);
    expect(added.status).toBe(200);
    const fieldTags = (body: Json) => body.fields.map((f: Json) => [f.name, f.tags]);
    expect(fieldTags(added.body)).toEqual([
      ['a', [`${u}_PII`.toUpperCase()]],
      ['b', []],
    ]);
    expect(fieldTags((await call('POST', `${field}/${u}_pii`)).body)[0]).toEqual(['a', [`${u}_PII`.toUpperCase()]]);
    expect(await call('POST', `${dataset(`${u}_src`)}/fields/zz/tags/x`)).toMatchObject({
      status: 404,
      body: { code: 404, message: `Field 'zz' not found for dataset '${u}_src'.` },
    });
    expect(await call('POST', `${field}/other`, reader)).toMatchObject({ status: 403, body: { code: 403 } });
    expect(fieldTags((await call('DELETE', `${field}/${u}_pii`)).body)[0]).toEqual(['a', []]);
    expect(fieldTags((await call('GET', dataset(`${u}_src`))).body)).toEqual([
      ['a', []],
      ['b', []],
    ]);
  });

  test("a job's tags likewise", async () => {
    expect((await call('POST', `${job(`${u}_load`)}/tags/${u}_core`)).body).toMatchObject({ name: `${u}_load`, tags: [`${u}_core`] });
    expect((await call('DELETE', `${job(`${u}_load`)}/tags/${u}_core`)).body.tags).toEqual([]);
  });

  test('a Reader may not tag, an unknown dataset or a bad tag name is refused, nothing written', async () => {
    expect(await call('POST', `${dataset(`${u}_dst`)}/tags/${u}_X`, reader)).toMatchObject({
      status: 403,
      body: { code: 403, message: expect.stringMatching(/unauthorized/) },
    });
    expect(await call('POST', `${dataset(`${u}_nope`)}/tags/${u}_X`)).toMatchObject({
      status: 404,
      body: { code: 404, message: `Dataset '${u}_nope' not found.` },
    });
    expect(await call('POST', `${dataset(`${u}_dst`)}/tags/${enc('bad(')}`)).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringMatching(/Tag name 'bad\(' is not a valid tag name/) },
    });
    expect((await call('POST', `${dataset(`${u}_dst`)}/tags/${u}_X`, null)).status).toBe(401);
    expect((await call('GET', dataset(`${u}_dst`))).body.tags).toEqual([]);
  });
});

describe('soft delete', () => {
  test('a Reader may not delete: 403 in Marquez shape, the dataset and job still there', async () => {
    expect(await call('DELETE', dataset(`${u}_dst`), reader)).toMatchObject({ status: 403, body: { code: 403 } });
    expect(await call('DELETE', job(`${u}_load`), reader)).toMatchObject({ status: 403, body: { code: 403 } });
    expect(await call('DELETE', `/api/v1/namespaces/${goneNs}`, reader)).toMatchObject({ status: 403, body: { code: 403 } });
    expect((await call('DELETE', dataset(`${u}_dst`), null)).status).toBe(401);
    expect((await call('GET', dataset(`${u}_dst`))).status).toBe(200);
    expect((await call('GET', job(`${u}_load`))).status).toBe(200);
    expect((await call('GET', `/api/v1/namespaces/${goneNs}/jobs/${u}_drop`)).status).toBe(200);
  });

  test('DELETE of a dataset answers it as it was, then it is gone from reads and search', async () => {
    const before = await call('GET', dataset(`${u}_dst`));
    const deleted = await call('DELETE', dataset(`${u}_dst`));
    expect(deleted).toEqual({ status: 200, body: before.body });
    expect(await call('GET', dataset(`${u}_dst`))).toMatchObject({ status: 404, body: { message: `Dataset '${u}_dst' not found.` } });
    expect((await call('GET', `/api/v1/namespaces/${dsNs}/datasets`)).body.datasets.map((d: Json) => d.name)).toEqual([`${u}_src`]);
    expect((await call('GET', `/api/v1/search?q=${u}_dst`)).body).toEqual({ totalCount: 0, results: [] });
    // Marquez's lineage shows no deleted dataset: no node, no edge.
    const graph = (await call('GET', `/api/v1/lineage?nodeId=${enc(`job:${jobNs}:${u}_load`)}`)).body.graph;
    expect(graph.map((n: Json) => [n.id, n.inEdges.length, n.outEdges.length])).toEqual([
      [`dataset:${dsNs}:${u}_src`, 0, 1],
      [`job:${jobNs}:${u}_load`, 1, 0],
    ]);
    expect(await call('DELETE', dataset(`${u}_dst`))).toMatchObject({ status: 404, body: { code: 404 } });
  });

  test('DELETE of a job answers it, then it is gone', async () => {
    const before = await call('GET', job(`${u}_load`));
    expect(await call('DELETE', job(`${u}_load`))).toEqual({ status: 200, body: before.body });
    // It was its namespace's only job: a namespace is derived from what it holds, so it goes too
    // (Marquez keeps an empty namespace).
    expect(await call('GET', job(`${u}_load`))).toMatchObject({ status: 404, body: { message: `Namespace '${jobNs}' not found.` } });
    expect((await call('GET', '/api/v1/jobs?limit=100000')).body.jobs.map((j: Json) => j.name)).not.toContain(`${u}_load`);
  });

  test('DELETE of a namespace removes its datasets and jobs and answers the namespace', async () => {
    const jobs = await call('GET', `/api/v1/namespaces/${goneNs}`);
    expect(await call('DELETE', `/api/v1/namespaces/${goneNs}`)).toEqual({ status: 200, body: jobs.body });
    expect((await call('GET', `/api/v1/namespaces/${goneNs}/jobs/${u}_drop`)).status).toBe(404);
    expect(await call('GET', `/api/v1/namespaces/${goneNs}`)).toMatchObject({
      status: 404,
      body: { message: `Namespace '${goneNs}' not found.` },
    });
    // The datasets' namespace is another one: still there until deleted too.
    expect((await call('GET', `/api/v1/namespaces/${goneDsNs}/datasets/${u}_gone`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/namespaces/${goneDsNs}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/namespaces/${goneDsNs}/datasets/${u}_gone`)).status).toBe(404);
    expect(await call('DELETE', `/api/v1/namespaces/${u}nope`)).toMatchObject({
      status: 404,
      body: { message: `Namespace '${u}nope' not found.` },
    });
  });
});
