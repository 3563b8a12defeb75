// GET /operations/backup over HTTP: restoreIndices' privilege (401 / 403 / 200), the same file the
// CLI writes, streamed, with the moment it is consistent as of in a header; a bad urnLike is a 400.
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { HEADERS } from '../../catalog/src/operations/backup/format.ts';
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

const ns = namespace('bkr');
let svc: RunningIngestion;
let admin: string;
let editor: string;
const a = ns.dataset('a');
const b = ns.dataset('b');

beforeAll(async () => {
  svc = await startIngestion();
  admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
  editor = await tokenFor(svc.store, ns.user('editor'), 'Editor');
  await writeAspects(
    svc.store,
    [
      { urn: parseUrn(a), aspectName: 'datasetProperties', changeType: 'UPSERT', value: { name: 'a' } },
      {
        urn: parseUrn(b),
        aspectName: 'upstreamLineage',
        changeType: 'UPSERT',
        value: { upstreams: [{ dataset: a, type: 'TRANSFORMED' }] },
      },
    ],
    { actor: 'urn:li:corpuser:datahub', existenceMode: 'relaxed' },
  );
});
afterAll(async () => {
  await svc.close();
});

const get = (path: string, token: string | null) =>
  fetch(svc.baseUrl + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

test('needs a token (401) and the restore privilege (403)', async () => {
  expect((await get(`/operations/backup?urnLike=${encodeURIComponent(`%${ns.platform}%`)}`, null)).status).toBe(401);
  const denied = await get(`/operations/backup?urnLike=${encodeURIComponent(`%${ns.platform}%`)}`, editor);
  expect(denied.status).toBe(403);
  expect(await denied.json()).toMatchObject({ message: 'User is unauthorized to export the catalog.' });
});

test('an Admin gets every stored row of the scope as a JSON list of proposals', async () => {
  const res = await get(`/operations/backup?urnLike=${encodeURIComponent(`urn:li:dataset:%${ns.platform}%`)}`, admin);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const asOf = res.headers.get('x-lineage-export-as-of');
  expect(asOf).toMatch(/^\d+$/);
  const records = (await res.json()) as Array<{
    entityUrn: string;
    aspectName: string;
    changeType: string;
    headers: Record<string, string>;
  }>;
  expect(records.map((r) => `${r.entityUrn} ${r.aspectName}`).sort()).toEqual(
    [`${a} datasetKey`, `${a} datasetProperties`, `${b} datasetKey`, `${b} upstreamLineage`].sort(),
  );
  for (const r of records) expect(r).toMatchObject({ changeType: 'UPSERT', headers: { [HEADERS.version]: '0', [HEADERS.asOf]: asOf } });
});

test('a bad urnLike is a 400', async () => {
  expect((await get('/operations/backup?urnLike=', admin)).status).toBe(400);
  expect((await get('/operations/backup?urnLike=a&urnLike=b', admin)).status).toBe(400);
});
