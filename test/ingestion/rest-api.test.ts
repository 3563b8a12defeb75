// The Rest.li ingestion API over HTTP on a real Neo4j: DataHub's tutorial records round-trip,
// every endpoint's happy path and 4xx cases, versions, idempotence, existence rule, soft delete, auth.
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

let svc: RunningIngestion;
let admin: string, reader: string, editor: string;
const ns = namespace('rest');
const up = ns.dataset('fct_users_deleted');
const up2 = ns.dataset('fct_users_created');
const down = ns.dataset('logging_events');

beforeAll(async () => {
  svc = await startIngestion();
  admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(svc.store, ns.user('reader'), 'Reader');
  editor = await tokenFor(svc.store, ns.user('editor'), 'Editor');
});
afterAll(async () => {
  await svc.close();
});

async function call(method: string, path: string, body?: unknown, token: string | null = admin) {
  const headers: Record<string, string> = { 'X-RestLi-Protocol-Version': '2.0.0' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(svc.baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const mcp = (urn: string, aspectName: string, value: unknown, changeType = 'UPSERT', extra: Record<string, unknown> = {}) => ({
  proposal: {
    entityType: urn.split(':')[2],
    entityUrn: urn,
    changeType,
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json' },
    systemMetadata: {
      lastObserved: 1_700_000_000_000,
      runId: 'no-run-id-provided',
      lastRunId: 'no-run-id-provided',
      properties: { clientId: 'acryl-datahub', clientVersion: '1.0.0' },
    },
    ...extra,
  },
  async: 'false',
});
const enc = encodeURIComponent;

describe('setup entities', () => {
  test('datasets are created with datasetProperties', async () => {
    for (const u of [up, up2, down]) {
      const r = await call(
        'POST',
        '/aspects?action=ingestProposal',
        mcp(u, 'datasetProperties', { name: u.split(',')[1], description: 'tutorial table', customProperties: {} }),
      );
      expect(r).toMatchObject({ status: 200, body: { value: 'success' } });
    }
  });
});

describe('the tutorial column-level record', () => {
  const record = {
    upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: up, type: 'TRANSFORMED' }],
    fineGrainedLineages: [
      {
        upstreamType: 'FIELD_SET',
        upstreams: [ns.field(up, 'browser')],
        downstreamType: 'FIELD',
        downstreams: [ns.field(down, 'browser_id')],
        confidenceScore: 1.0,
      },
    ],
  };

  test('ingested as an MCP reads back identical through GET /aspects', async () => {
    expect((await call('POST', '/aspects?action=ingestProposal', mcp(down, 'upstreamLineage', record))).status).toBe(200);
    const r = await call('GET', `/aspects/${enc(down)}?aspect=upstreamLineage&version=0`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ aspect: { 'com.linkedin.dataset.UpstreamLineage': record }, version: 0 });
    expect(r.headers.get('x-restli-protocol-version')).toBe('2.0.0');
  });

  test('the /gms and /api/gms prefixes and a slash before the query string reach the same handlers', async () => {
    for (const p of ['/gms', '/api/gms']) {
      const r = await call('GET', `${p}/aspects/${enc(down)}?aspect=upstreamLineage`);
      expect(r.body.aspect['com.linkedin.dataset.UpstreamLineage']).toEqual(record);
    }
    expect((await call('POST', '/aspects/?action=ingestProposal', mcp(down, 'upstreamLineage', record))).status).toBe(200);
  });

  test('an identical re-ingest adds no version; a changed one does, oldest first', async () => {
    expect((await call('GET', `/aspects/${enc(down)}?aspect=upstreamLineage&version=1`)).status).toBe(404);
    const changed = {
      ...record,
      upstreams: [...record.upstreams, { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: up2, type: 'COPY' }],
    };
    expect((await call('POST', '/aspects?action=ingestProposal', mcp(down, 'upstreamLineage', changed))).status).toBe(200);
    expect(
      (await call('GET', `/aspects/${enc(down)}?aspect=upstreamLineage&version=1`)).body.aspect['com.linkedin.dataset.UpstreamLineage'],
    ).toEqual(record);
    expect((await call('GET', `/aspects/${enc(down)}?aspect=upstreamLineage`)).body.aspect['com.linkedin.dataset.UpstreamLineage']).toEqual(
      changed,
    );
  });
});

describe('the MCE form of the dataset-level record', () => {
  test('entities?action=ingest with explicit nulls stores the aspect', async () => {
    const target = ns.dataset('mce_target');
    await call('POST', '/aspects?action=ingestProposal', mcp(target, 'status', { removed: false }));
    const body = {
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn: target,
            aspects: [
              {
                'com.linkedin.dataset.UpstreamLineage': {
                  upstreams: [
                    {
                      auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' },
                      created: null,
                      dataset: up,
                      type: 'TRANSFORMED',
                      properties: null,
                      query: null,
                    },
                  ],
                  fineGrainedLineages: null,
                },
              },
            ],
          },
        },
      },
      systemMetadata: {
        lastObserved: 1_700_000_000_000,
        runId: 'no-run-id-provided',
        lastRunId: 'no-run-id-provided',
        pipelineName: null,
        registryName: null,
        registryVersion: null,
        properties: { clientId: 'acryl-datahub', clientVersion: '1.0.0' },
        version: null,
        aspectCreated: null,
        aspectModified: null,
      },
    };
    const r = await call('POST', '/entities?action=ingest', body);
    expect(r.status).toBe(200);
    const got = await call('GET', `/aspects/${enc(target)}?aspect=upstreamLineage`);
    expect(got.body.aspect['com.linkedin.dataset.UpstreamLineage']).toEqual({
      upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: up, type: 'TRANSFORMED' }],
    });
  });

  test('a non-dataset urn as a dataset upstream is a 422, not a 500', async () => {
    const body = {
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn: down,
            aspects: [
              {
                'com.linkedin.dataset.UpstreamLineage': {
                  upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: ns.chart('c1'), type: 'TRANSFORMED' }],
                },
              },
            ],
          },
        },
      },
    };
    const r = await call('POST', '/entities?action=ingest', body);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', status: 422 });
    expect(r.body.message).toMatch(/dataset/);
    expect(r.headers.get('x-restli-error-response')).toBe('true');
  });
});

describe('existence rule', () => {
  test('strict: lineage naming a missing upstream is a 422 naming it, and nothing is written', async () => {
    const missing = ns.dataset('never_ingested');
    const r = await call(
      'POST',
      '/aspects?action=ingestProposal',
      mcp(up2, 'upstreamLineage', { upstreams: [{ dataset: missing, type: 'TRANSFORMED' }] }),
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toContain(missing);
    expect((await call('GET', `/aspects/${enc(up2)}?aspect=upstreamLineage`)).status).toBe(404);
  });

  test('strict: an earlier proposal of the same batch counts as existing; the batch is all-or-nothing', async () => {
    const fresh = ns.dataset('fresh_in_batch');
    const fresh2 = ns.dataset('fresh_in_batch2');
    const bad = await call('POST', '/aspects?action=ingestProposalBatch', {
      proposals: [
        mcp(fresh2, 'status', { removed: false }).proposal,
        mcp(fresh2, 'upstreamLineage', { upstreams: [{ dataset: ns.dataset('nope'), type: 'TRANSFORMED' }] }).proposal,
      ],
    });
    expect(bad.status).toBe(422);
    expect((await call('POST', '/entities?action=exists', { urn: fresh2 })).body).toEqual({ value: false });
    const ok = await call('POST', '/aspects?action=ingestProposalBatch', {
      proposals: [
        mcp(fresh, 'status', { removed: false }).proposal,
        mcp(fresh, 'upstreamLineage', { upstreams: [{ dataset: up, type: 'TRANSFORMED' }] }).proposal,
      ],
    });
    expect(ok.status).toBe(200);
  });

  test('relaxed: missing upstreams become placeholders that do not exist', async () => {
    const relaxed = await startIngestion({ LINEAGE_EXISTENCE_MODE: 'relaxed' });
    try {
      const ghost = ns.dataset('placeholder');
      const target = ns.dataset('relaxed_target');
      const res = await fetch(`${relaxed.baseUrl}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(mcp(target, 'upstreamLineage', { upstreams: [{ dataset: ghost, type: 'TRANSFORMED' }] })),
      });
      expect(res.status).toBe(200);
      expect((await call('POST', '/entities?action=exists', { urn: ghost })).body).toEqual({ value: false });
      expect((await call('GET', `/aspects/${enc(ghost)}?aspect=datasetKey`)).status).toBe(404);
    } finally {
      await relaxed.close();
    }
  });
});

describe('reads and other actions', () => {
  test('key aspects are served (Python exists() reads datasetKey)', async () => {
    const r = await call('GET', `/aspects/${enc(down)}?aspect=datasetKey&version=0`);
    expect(r.body).toEqual({
      aspect: {
        'com.linkedin.metadata.key.DatasetKey': { platform: `urn:li:dataPlatform:${ns.platform}`, name: 'logging_events', origin: 'PROD' },
      },
      version: 0,
    });
  });

  test('entitiesV2 lists aspects and always includes the key aspect', async () => {
    const r = await call('GET', `/entitiesV2/${enc(down)}?aspects=List(upstreamLineage,datasetKey)`);
    expect(r.status).toBe(200);
    expect(r.body.entityName).toBe('dataset');
    expect(Object.keys(r.body.aspects).sort()).toEqual(['datasetKey', 'upstreamLineage']);
    expect(r.body.aspects.upstreamLineage).toMatchObject({ name: 'upstreamLineage', type: 'VERSIONED', version: 0 });
    const ghost = await call('GET', `/entitiesV2/${enc(ns.dataset('nothing'))}`);
    expect(Object.keys(ghost.body.aspects)).toEqual(['datasetKey']);
  });

  test('exists, getCount, soft delete and hard delete', async () => {
    const t = ns.dataset('to_delete');
    await call('POST', '/aspects?action=ingestProposal', mcp(t, 'datasetProperties', { name: 'x' }));
    expect((await call('POST', '/entities?action=exists', { urn: t })).body).toEqual({ value: true });
    expect(
      (await call('POST', '/aspects?action=getCount', { aspect: 'datasetProperties', urnLike: `%${ns.platform}%` })).body.value,
    ).toBeGreaterThanOrEqual(4);
    await call('POST', '/aspects?action=ingestProposal', mcp(t, 'status', { removed: true }));
    expect((await call('POST', '/entities?action=exists', { urn: t })).body).toEqual({ value: true });
    expect((await call('POST', '/entities?action=exists', { urn: t, includeSoftDelete: false })).body).toEqual({ value: false });
    const del = await call('POST', '/entities?action=delete', { urn: t });
    expect(del.body).toEqual({ value: { urn: t, rows: 3, timeseriesRows: 0 } });
    expect((await call('POST', '/entities?action=delete', { urn: t })).body.value.rows).toBe(0);
    expect((await call('POST', '/entities?action=exists', { urn: t })).body).toEqual({ value: false });
  });

  test('PATCH adds an upstream through the template', async () => {
    const patch = [
      {
        op: 'add',
        path: `/upstreams/${up2.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        value: { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: up2, type: 'TRANSFORMED' },
      },
    ];
    const target = ns.dataset('patched');
    await call('POST', '/aspects?action=ingestProposal', mcp(target, 'status', { removed: false }));
    expect((await call('POST', '/aspects?action=ingestProposal', mcp(target, 'upstreamLineage', patch, 'PATCH'))).status).toBe(200);
    expect((await call('POST', '/aspects?action=ingestProposal', mcp(target, 'upstreamLineage', patch, 'PATCH'))).status).toBe(200);
    const r = await call('GET', `/aspects/${enc(target)}?aspect=upstreamLineage`);
    expect(r.body.aspect['com.linkedin.dataset.UpstreamLineage'].upstreams.map((u: { dataset: string }) => u.dataset)).toEqual([up2]);
  });
});

describe('client mistakes are 4xx with a message, never 5xx', () => {
  test.each([
    ['malformed JSON', '/aspects?action=ingestProposal', '{"proposal":', 400],
    ['missing proposals', '/aspects?action=ingestProposalBatch', {}, 400],
    ['unknown action', '/aspects?action=frobnicate', {}, 400],
    [
      'malformed urn',
      '/aspects?action=ingestProposal',
      mcp('urn:li:dataset:(urn:li:dataPlatform:x,,PROD)', 'status', { removed: false }),
      422,
    ],
    [
      'entity type mismatch',
      '/aspects?action=ingestProposal',
      { proposal: { ...mcp(down, 'status', { removed: false }).proposal, entityType: 'chart' } },
      422,
    ],
    ['unknown change type', '/aspects?action=ingestProposal', mcp(down, 'status', { removed: false }, 'FROB'), 422],
    ['UPDATE change type', '/aspects?action=ingestProposal', mcp(down, 'status', { removed: false }, 'UPDATE'), 422],
    ['bad enum', '/aspects?action=ingestProposal', mcp(down, 'upstreamLineage', { upstreams: [{ dataset: up, type: 'SIDEWAYS' }] }), 422],
    [
      'aspect value not JSON',
      '/aspects?action=ingestProposal',
      { proposal: { ...mcp(down, 'status', {}).proposal, aspect: { value: '{nope', contentType: 'application/json' } } },
      422,
    ],
    ['CREATE of an existing aspect', '/aspects?action=ingestProposal', mcp(down, 'datasetProperties', { name: 'again' }, 'CREATE'), 422],
  ])('%s', async (_name, path, body, status) => {
    const r = await call('POST', path, body);
    expect(r.status).toBe(status);
    expect(typeof r.body.message).toBe('string');
    expect(r.body.message.length).toBeGreaterThan(5);
  });

  test('GET of a missing aspect is 404 and a bad version is 400', async () => {
    expect((await call('GET', `/aspects/${enc(down)}?aspect=ownership`)).status).toBe(404);
    expect((await call('GET', `/aspects/${enc(down)}?aspect=ownership&version=-1`)).status).toBe(400);
  });
});

describe('authentication and authorization', () => {
  test('/config and /health are open; everything else needs a token', async () => {
    const cfg = await call('GET', '/config', undefined, null);
    expect(cfg.status).toBe(200);
    expect(cfg.body.noCode).toBe('true');
    // The version DataHub's MCP server gates its aspect-history, me and document tools on (docs/ai-agents.md).
    expect(cfg.body.versions['acryldata/datahub'].version).toBe('v1.4.0');
    expect((await call('GET', '/health', undefined, null)).status).toBe(200);
    expect((await call('GET', `/aspects/${enc(down)}?aspect=datasetKey`, undefined, null)).status).toBe(401);
    expect((await call('GET', `/aspects/${enc(down)}?aspect=datasetKey`, undefined, 'not.a.jwt')).status).toBe(401);
  });

  test('a Reader can read but not write; an Editor can write but not delete', async () => {
    expect((await call('GET', `/aspects/${enc(down)}?aspect=datasetKey`, undefined, reader)).status).toBe(200);
    const w = await call('POST', '/aspects?action=ingestProposal', mcp(down, 'status', { removed: false }), reader);
    expect(w.status).toBe(403);
    expect(w.body.message).toContain('is unauthorized to modify entity');
    expect((await call('POST', '/aspects?action=ingestProposal', mcp(down, 'status', { removed: false }), editor)).status).toBe(200);
    expect((await call('POST', '/entities?action=delete', { urn: down }, editor)).status).toBe(403);
    expect((await call('POST', '/operations?action=restoreIndices', { urn: down }, editor)).status).toBe(403);
  });
});

describe('restoreIndices over HTTP', () => {
  test("needs a token (401) and RESTORE_INDICES_PRIVILEGE (403 with DataHub's message per path)", async () => {
    expect((await call('POST', '/operations?action=restoreIndices', { urn: down }, null)).status).toBe(401);
    const ops = await call('POST', '/operations?action=restoreIndices', { urn: down }, editor);
    expect(ops).toMatchObject({ status: 403, body: { message: 'User is unauthorized to restore indices.' } });
    const aspects = await call('POST', '/aspects?action=restoreIndices', { urn: down }, editor);
    expect(aspects).toMatchObject({ status: 403, body: { message: 'User is unauthorized to update entities.' } });
  });

  test('an Admin restores one urn and gets a summary plus counts, through every prefix', async () => {
    for (const p of ['', '/gms', '/api/gms']) {
      const r = await call('POST', `${p}/operations?action=restoreIndices`, { urn: down });
      expect(r.status).toBe(200);
      expect(r.body.value).toContain('RestoreIndicesResult');
      expect(r.body.rowsMigrated).toBeGreaterThan(0);
      expect(r.body.edgesAdded).toBe(0);
    }
    expect((await call('POST', '/operations?action=restoreIndices', { batchSize: 'many' })).status).toBe(400);
  });
});
