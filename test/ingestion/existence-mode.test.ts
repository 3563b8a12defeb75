// The per-client existence mode over HTTP (docs/wire-contract.md §Existence mode): the header the
// datahub-rest sink sends through `extra_headers`, who may ask for relaxed (LINEAGE_RELAXED_ROLES),
// the 422 of a batch naming every refused record and saying how to choose, on a real Neo4j.
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

const ns = namespace('exm');
const HEADER = 'X-Lineage-Existence-Mode';

const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: urn.split(':')[2],
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});
const lineage = (urn: string, ...ups: string[]) =>
  mcp(urn, 'upstreamLineage', { upstreams: ups.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const props = (urn: string) => mcp(urn, 'datasetProperties', { name: urn });
/** Dataset urns of the test's namespace, one per name. */
const datasets = <const N extends readonly string[]>(...names: N) => names.map((n) => ns.dataset(n)) as { [K in keyof N]: string };

function client(svc: RunningIngestion) {
  return async (path: string, body: unknown, token: string, headers: Record<string, string> = {}) => {
    const res = await fetch(svc.baseUrl + path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0', Authorization: `Bearer ${token}`, ...headers },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

describe('default strict, relaxed for Admins (the defaults)', () => {
  let svc: RunningIngestion;
  let admin: string, editor: string;
  let post: ReturnType<typeof client>;
  beforeAll(async () => {
    svc = await startIngestion();
    post = client(svc);
    admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
    editor = await tokenFor(svc.store, ns.user('editor'), 'Editor');
  });
  afterAll(async () => {
    await svc.close();
  });

  test('a connector batch in its own order (lineage first) commits in full without any header', async () => {
    const [t1, t2, t3] = datasets('t1', 't2', 't3');
    const r = await post(
      '/aspects?action=ingestProposalBatch',
      { proposals: [lineage(t3, t2), lineage(t2, t1), props(t3), props(t2), props(t1)] },
      editor,
    );
    expect(r).toMatchObject({ status: 200, body: { value: 'success' } });
    const exists = await post('/entities?action=exists', { urn: t1 }, editor);
    expect(exists.body).toEqual({ value: true });
  });

  test('a batch naming never-ingested entities: 422 naming every such record and how to choose relaxed', async () => {
    const [x, y, g1, g2] = datasets('x', 'y', 'g1', 'g2');
    const batch = { proposals: [props(x), lineage(x, g1), props(y), lineage(y, g2, x)] };
    const r = await post('/aspects?action=ingestProposalBatch', batch, admin);
    expect(r.status).toBe(422);
    const m: string = r.body.message;
    expect(m).toContain(`[1] proposals[1]: Cannot ingest upstreamLineage for ${x}: referenced entity does not exist: ${g1}`);
    expect(m).toContain(`[3] proposals[3]: Cannot ingest upstreamLineage for ${y}: referenced entity does not exist: ${g2}`);
    expect(m).toContain(`'${HEADER}: relaxed'`);
    expect((await post('/entities?action=exists', { urn: x }, admin)).body).toEqual({ value: false });
    // The same batch, relaxed by header: everything is written, the ghosts stay ghosts.
    const relaxed = await post('/aspects?action=ingestProposalBatch', batch, admin, { [HEADER]: 'relaxed' });
    expect(relaxed.status).toBe(200);
    expect((await post('/entities?action=exists', { urn: x }, admin)).body).toEqual({ value: true });
    expect((await post('/entities?action=exists', { urn: g1 }, admin)).body).toEqual({ value: false });
  });

  test('an Editor may not ask for relaxed (403 naming the setting); the 422 tells it so', async () => {
    const [z, g] = [ns.dataset('z'), ns.dataset('zg')];
    const refused = await post('/aspects?action=ingestProposalBatch', { proposals: [props(z), lineage(z, g)] }, editor, {
      [HEADER]: 'relaxed',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('LINEAGE_RELAXED_ROLES');
    const strict = await post('/aspects?action=ingestProposalBatch', { proposals: [props(z), lineage(z, g)] }, editor);
    expect(strict.status).toBe(422);
    expect(strict.body.message).toContain('open to actors with the role Admin (LINEAGE_RELAXED_ROLES)');
    // Asking for strict is always allowed.
    expect((await post('/aspects?action=ingestProposalBatch', { proposals: [props(z)] }, editor, { [HEADER]: 'strict' })).status).toBe(200);
  });

  test('an unknown mode is a 400 naming the header', async () => {
    const r = await post('/aspects?action=ingestProposalBatch', { proposals: [props(ns.dataset('q'))] }, admin, { [HEADER]: 'lenient' });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(`Invalid ${HEADER} header 'lenient'`);
  });

  test('an MCE batch (batchIngest) is judged as one request too', async () => {
    const [m1, m2] = [ns.dataset('m1'), ns.dataset('m2')];
    const snap = (urn: string, aspects: unknown[]) => ({ value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn, aspects } } });
    const up = (u: string) => ({
      'com.linkedin.dataset.UpstreamLineage': {
        upstreams: [{ dataset: u, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } }],
      },
    });
    const dp = { 'com.linkedin.dataset.DatasetProperties': { name: 'm', customProperties: {} } };
    const r = await post('/entities?action=batchIngest', { entities: [snap(m2, [up(m1), dp]), snap(m1, [dp])] }, admin);
    expect(r.status).toBe(200);
    const bad = await post('/entities?action=batchIngest', { entities: [snap(ns.dataset('m3'), [dp, up(ns.dataset('never'))])] }, admin);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('[1] entities[0].aspects[1]: Cannot ingest upstreamLineage');
  });
});

describe('LINEAGE_RELAXED_ROLES=Editor', () => {
  let svc: RunningIngestion;
  beforeAll(async () => {
    svc = await startIngestion({ LINEAGE_RELAXED_ROLES: 'Editor' });
  });
  afterAll(async () => {
    await svc.close();
  });

  test('Editors (and so Admins) may ask for relaxed', async () => {
    const post = client(svc);
    const editor = await tokenFor(svc.store, ns.user('editor2'), 'Editor');
    const [w, g] = [ns.dataset('w'), ns.dataset('wg')];
    expect(
      (await post('/aspects?action=ingestProposalBatch', { proposals: [lineage(w, g)] }, editor, { [HEADER]: 'relaxed' })).status,
    ).toBe(200);
  });
});
