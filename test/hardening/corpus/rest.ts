// The Rest.li half of the malformed-request corpus: every endpoint of the ingestion service, each
// case with the status DataHub's conventions give it (docs/wire-contract.md §Errors: 400 malformed request,
// 413 too large, 422 invalid metadata, 404 missing) and what the message must name.
import { INJECTIONS, invalidUrns, type Fixtures } from './fixtures.ts';

export interface RestCase {
  id: string;
  endpoint: string;
  category: string;
  method: 'GET' | 'POST';
  path: string;
  /** Object → JSON text; string/Buffer sent as is; undefined = no body. */
  body?: unknown;
  /** undefined = application/json when there is a body; null = none. */
  contentType?: string | null;
  status: number;
  message: RegExp;
}

/** POST endpoints taking a JSON body, with a minimal well-formed body of each. */
export const POST_ENDPOINTS = (fx: Fixtures): Array<{ endpoint: string; path: string; valid: unknown }> => [
  { endpoint: 'ingestProposal', path: '/aspects?action=ingestProposal', valid: { proposal: mcp(fx.a, 'status', { removed: false }) } },
  {
    endpoint: 'ingestProposalBatch',
    path: '/aspects?action=ingestProposalBatch',
    valid: { proposals: [mcp(fx.a, 'status', { removed: false })] },
  },
  {
    endpoint: 'entities.ingest',
    path: '/entities?action=ingest',
    valid: { entity: snapshot(fx.a, [{ 'com.linkedin.common.Status': { removed: false } }]) },
  },
  {
    endpoint: 'entities.batchIngest',
    path: '/entities?action=batchIngest',
    valid: { entities: [snapshot(fx.a, [{ 'com.linkedin.common.Status': { removed: false } }])] },
  },
  { endpoint: 'entities.exists', path: '/entities?action=exists', valid: { urn: fx.a } },
  { endpoint: 'entities.delete', path: '/entities?action=delete', valid: { urn: fx.missing } },
  { endpoint: 'getCount', path: '/aspects?action=getCount', valid: { aspect: 'status' } },
  { endpoint: 'aspects.restoreIndices', path: '/aspects?action=restoreIndices', valid: { urn: fx.a } },
  { endpoint: 'operations.restoreIndices', path: '/operations?action=restoreIndices', valid: { urn: fx.a } },
];

export function mcp(urn: string, aspectName: string, value: unknown, changeType = 'UPSERT', extra: Record<string, unknown> = {}) {
  return {
    entityType: urn.split(':')[2],
    entityUrn: urn,
    changeType,
    aspectName,
    aspect: {
      value: typeof value === 'string' ? value : JSON.stringify(value),
      contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
    },
    systemMetadata: { lastObserved: 1_700_000_000_000, runId: 'no-run-id-provided' },
    ...extra,
  };
}

export function snapshot(urn: string, aspects: unknown[], cls = 'DatasetSnapshot') {
  return { value: { [`com.linkedin.metadata.snapshot.${cls}`]: { urn, aspects } } };
}

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
/** A JSON object body just over 16 MiB. */
export const OVERSIZED_BODY = `{"x":"${'a'.repeat(16 * 1024 * 1024 + 10)}"}`;

export function restCases(fx: Fixtures): RestCase[] {
  const cases: RestCase[] = [];
  const add = (c: Omit<RestCase, 'method'> & { method?: 'GET' | 'POST' }) => cases.push({ method: 'POST', ...c });
  const p = fx.ns.platform;

  // --- Transport, for every POST endpoint -------------------------------------------------------
  for (const e of POST_ENDPOINTS(fx)) {
    const t = (id: string, body: unknown, status: number, message: RegExp, contentType?: string | null) =>
      add({
        id: `${e.endpoint}: ${id}`,
        endpoint: e.endpoint,
        category: 'transport',
        path: e.path,
        body,
        status,
        message,
        ...(contentType !== undefined ? { contentType } : {}),
      });
    t('truncated JSON', '{"urn": ', 400, /not valid JSON/);
    t('trailing garbage after JSON', `${JSON.stringify(e.valid)} }`, 400, /not valid JSON/);
    t('single-quoted JSON', "{'urn': 'x'}", 400, /not valid JSON/);
    t('text/plain content type', JSON.stringify(e.valid), 400, /content type 'text\/plain'/, 'text/plain');
    t('form-encoded content type', 'urn=x', 400, /content type 'application\/x-www-form-urlencoded'/, 'application/x-www-form-urlencoded');
    t('empty body', '', 400, /empty/);
    t('JSON array body', '[]', 400, /must be a JSON object/);
    t('JSON null body', 'null', 400, /must be a JSON object/);
    t('deeply nested JSON (100k levels)', `{"x": ${nested(100_000)}}`, 400, /nesting is deeper than 1000/);
    t('invalid UTF-8 outside a string', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, /not valid UTF-8 \(first invalid byte at offset 1\)/);
    // Issue 30: a lenient decoder stored these as U+FFFD, merging different names into one urn.
    const valid = Buffer.from(JSON.stringify(e.valid));
    // Inside the namespace's name where the body has one, else inside its first string value.
    const at = valid.includes(p) ? valid.indexOf(p) + p.length : valid.indexOf(':"') + 3;
    t(
      'invalid UTF-8 (0xFF 0xFE) inside a name',
      Buffer.concat([valid.subarray(0, at), Buffer.from([0xff, 0xfe]), valid.subarray(at)]),
      400,
      /not valid UTF-8/,
    );
  }

  // --- ingestProposal: the envelope ---------------------------------------------------------------
  const ip = (id: string, body: unknown, status: number, message: RegExp, category = 'envelope') =>
    add({
      id: `ingestProposal: ${id}`,
      endpoint: 'ingestProposal',
      category,
      path: '/aspects?action=ingestProposal',
      body,
      status,
      message,
    });
  const good = mcp(fx.a, 'status', { removed: false });
  const without = (k: string) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== k));
  ip('no proposal', { async: 'false' }, 422, /proposal/);
  ip('proposal is a string', { proposal: 'x' }, 422, /Invalid proposal/);
  ip('proposal is an array', { proposal: [good] }, 422, /Invalid proposal/);
  ip('proposal is null', { proposal: null }, 422, /Invalid proposal/);
  ip('missing entityType', { proposal: without('entityType') }, 422, /entityType/);
  ip('entityType is a number', { proposal: { ...good, entityType: 7 } }, 422, /entityType/);
  ip('empty entityType', { proposal: { ...good, entityType: '' } }, 422, /entityType/);
  ip('missing entityUrn', { proposal: without('entityUrn') }, 422, /entityUrn is required/);
  ip('entityUrn is a number', { proposal: { ...good, entityUrn: 42 } }, 422, /entityUrn/);
  ip('entityUrn is an object', { proposal: { ...good, entityUrn: { urn: fx.a } } }, 422, /entityUrn/);
  ip(
    'entityKeyAspect without entityUrn',
    { proposal: { ...without('entityUrn'), entityKeyAspect: { value: '{}', contentType: 'application/json' } } },
    422,
    /entityKeyAspect without entityUrn/,
  );
  ip('missing changeType', { proposal: without('changeType') }, 422, /changeType/);
  ip('changeType is a number', { proposal: { ...good, changeType: 1 } }, 422, /changeType/);
  ip('unknown changeType', { proposal: { ...good, changeType: 'MERGE' } }, 422, /unsupported changeType 'MERGE'/);
  ip('lowercase changeType', { proposal: { ...good, changeType: 'upsert' } }, 422, /unsupported changeType 'upsert'/);
  ip('UPDATE changeType', { proposal: { ...good, changeType: 'UPDATE' } }, 422, /UPDATE change type not supported/);
  ip('missing aspectName', { proposal: without('aspectName') }, 422, /aspectName is required/);
  ip('aspectName is a number', { proposal: { ...good, aspectName: 3 } }, 422, /aspectName/);
  ip('aspectName not an aspect name', { proposal: { ...good, aspectName: 'Status-Aspect' } }, 422, /Invalid aspect name 'Status-Aspect'/);
  ip('missing aspect for UPSERT', { proposal: without('aspect') }, 422, /aspect is required for UPSERT/);
  ip(
    'aspect.value is an object',
    { proposal: { ...good, aspect: { value: { removed: false }, contentType: 'application/json' } } },
    422,
    /aspect\.value/,
  );
  ip('aspect.value missing', { proposal: { ...good, aspect: { contentType: 'application/json' } } }, 422, /aspect\.value/);
  ip(
    'aspect.value not JSON',
    { proposal: { ...good, aspect: { value: '{removed: false}', contentType: 'application/json' } } },
    422,
    /aspect\.value is not valid JSON/,
  );
  ip('aspect.value a JSON string', { proposal: mcp(fx.a, 'status', '"removed"') }, 422, /expected a JSON object/);
  ip('aspect.value a JSON array', { proposal: mcp(fx.a, 'status', '[]') }, 422, /expected a JSON object/);
  ip(
    'aspect.contentType unsupported',
    { proposal: { ...good, aspect: { value: '{}', contentType: 'application/xml' } } },
    422,
    /contentType 'application\/xml'/,
  );
  ip(
    'systemMetadata a non-JSON string',
    { proposal: { ...good, systemMetadata: 'run-1' } },
    422,
    /systemMetadata is a string but not JSON/,
  );
  ip('systemMetadata a number', { proposal: { ...good, systemMetadata: 5 } }, 422, /systemMetadata must be an object/);
  ip('systemMetadata an array', { proposal: { ...good, systemMetadata: [] } }, 422, /systemMetadata must be an object/);
  ip(
    'lastObserved a string',
    { proposal: { ...good, systemMetadata: { lastObserved: 'yesterday' } } },
    422,
    /lastObserved must be a number/,
  );

  // Entity type vs urn.
  ip(
    "entityType not the urn's",
    { proposal: { ...good, entityType: 'chart' } },
    422,
    /entityType 'chart' does not match the urn's entity type 'dataset'/,
    'entity type mismatch',
  );
  ip(
    'entityType differs only in case',
    { proposal: { ...good, entityType: 'Dataset' } },
    422,
    /entityType 'Dataset' does not match/,
    'entity type mismatch',
  );
  ip(
    'key aspect of another entity type',
    { proposal: mcp(fx.a, 'chartKey', { dashboardTool: p, chartId: 'x' }) },
    422,
    /chartKey is the key aspect of chart/,
    'entity type mismatch',
  );
  ip(
    'aspect of another entity type',
    {
      proposal: mcp(fx.a, 'chartInfo', {
        title: 't',
        description: 'd',
        lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
      }),
    },
    422,
    /chartInfo is not supported for entity type dataset/,
    'entity type mismatch',
  );
  // A key aspect that disagrees with its urn is no longer a client mistake: the urn's key is kept, as
  // DataHub does (docs/wire-contract.md, key aspects; test/catalog/existence-per-request.test.ts).

  // Every urn grammar rule as the entityUrn.
  for (const u of invalidUrns(p)) {
    ip(
      `invalid urn (${u.rule})`,
      { proposal: { ...good, entityUrn: u.urn, entityType: u.urn.split(':')[2] || 'dataset' } },
      422,
      u.reason,
      'invalid urn',
    );
  }

  // Aspect values that fail their model.
  const lineage = (upstreams: unknown) => ({ proposal: mcp(fx.b, 'upstreamLineage', { upstreams }) });
  ip('upstreams not an array', lineage('x'), 422, /upstreams/, 'aspect model');
  ip('upstream type not a DatasetLineageType', lineage([{ dataset: fx.a, type: 'SIDEWAYS' }]), 422, /type/, 'aspect model');
  ip('upstream without dataset', lineage([{ type: 'COPY' }]), 422, /dataset/, 'aspect model');
  ip('upstream dataset not a urn', lineage([{ dataset: 'fct_users', type: 'COPY' }]), 422, /fct_users/, 'aspect model');
  ip('upstream dataset a chart urn', lineage([{ dataset: fx.chart, type: 'COPY' }]), 422, /dataset/, 'aspect model');
  ip(
    'upstream dataset does not exist',
    lineage([{ dataset: fx.missing, type: 'COPY' }]),
    422,
    new RegExp(escape(fx.missing)),
    'aspect model',
  );
  ip(
    'auditStamp.time a string',
    lineage([{ dataset: fx.a, type: 'COPY', auditStamp: { time: 'now', actor: 'urn:li:corpuser:x' } }]),
    422,
    /time/,
    'aspect model',
  );
  ip('status.removed a string', { proposal: mcp(fx.a, 'status', { removed: 'yes' }) }, 422, /removed/, 'aspect model');
  ip(
    'fineGrainedLineage without upstreamType',
    { proposal: mcp(fx.b, 'upstreamLineage', { upstreams: [], fineGrainedLineages: [{ downstreamType: 'FIELD' }] }) },
    422,
    /upstreamType/,
    'aspect model',
  );
  ip(
    'huge array of invalid upstreams (50k)',
    lineage(Array.from({ length: 50_000 }, (_, i) => ({ dataset: `not-a-urn-${i}`, type: 'COPY' }))),
    422,
    /not-a-urn-0/,
    'huge array',
  );
  ip(
    'deeply nested opaque aspect value (5000 levels)',
    { proposal: mcp(fx.a, 'customThing', `{"v": ${nested(5000)}}`) },
    422,
    /nesting is deeper than 1000/,
    'nesting',
  );
  ip(
    'deeply nested modelled aspect value',
    { proposal: mcp(fx.a, 'status', `{"removed": ${nested(5000, 'false')}}`) },
    422,
    /nesting is deeper than 1000/,
    'nesting',
  );

  // CREATE / CREATE_ENTITY on what exists.
  ip(
    'CREATE of an existing aspect',
    { proposal: mcp(fx.b, 'upstreamLineage', { upstreams: [{ dataset: fx.a, type: 'COPY' }] }, 'CREATE') },
    422,
    /already exists/,
    'conflict',
  );
  ip(
    'CREATE_ENTITY of an existing entity',
    { proposal: mcp(fx.a, 'status', { removed: false }, 'CREATE_ENTITY') },
    422,
    /already exists/,
    'conflict',
  );

  // PATCH.
  const patch = (ops: unknown, aspect = 'upstreamLineage', urn = fx.b) => ({ proposal: mcp(urn, aspect, ops, 'PATCH') });
  ip('PATCH value not JSON', patch('[{op: add}]'), 422, /patch/i, 'patch');
  ip('PATCH value a number', patch('5'), 422, /patch/i, 'patch');
  ip('PATCH op unknown', patch([{ op: 'merge', path: `/upstreams/${fx.a}`, value: {} }]), 422, /merge/, 'patch');
  ip('PATCH op missing', patch([{ path: `/upstreams/${fx.a}` }]), 422, /op/, 'patch');
  ip('PATCH path without leading slash', patch([{ op: 'add', path: 'upstreams', value: [] }]), 422, /path/, 'patch');
  ip('PATCH add without value', patch([{ op: 'add', path: `/upstreams/${fx.a}` }]), 422, /value/, 'patch');
  ip(
    'PATCH upstream key not a urn',
    patch([{ op: 'add', path: '/upstreams/not-a-urn', value: { dataset: 'not-a-urn', type: 'COPY' } }]),
    422,
    /not-a-urn/,
    'patch',
  );
  ip(
    'PATCH path /__proto__',
    patch([{ op: 'add', path: '/__proto__/polluted', value: 'yes' }], 'customThing', fx.a),
    422,
    /__proto__/,
    'injection',
  );
  ip(
    'PATCH path /constructor/prototype',
    patch([{ op: 'add', path: '/constructor/prototype/polluted', value: 'yes' }], 'customThing', fx.a),
    422,
    /constructor/,
    'injection',
  );
  ip(
    'PATCH upstreams /__proto__ key',
    patch([{ op: 'add', path: '/upstreams/__proto__', value: { polluted: true } }]),
    422,
    /__proto__/,
    'injection',
  );
  ip('PATCH path with an invalid ~ escape', patch([{ op: 'add', path: '/a~2b', value: 1 }], 'customThing', fx.a), 422, /~/, 'injection');
  ip('PATCH path ending in ~', patch([{ op: 'add', path: '/a~', value: 1 }], 'customThing', fx.a), 422, /~/, 'injection');
  ip('PATCH wrapper with patch not an array', patch({ patch: { op: 'add' } }), 422, /patch/i, 'patch');

  // Odd Unicode where the grammar forbids it.
  ip('RTL mark in entityType', { proposal: { ...good, entityType: 'data\u200fset' } }, 422, /does not match/, 'unicode');
  ip('RTL override in changeType', { proposal: { ...good, changeType: 'UPSERT\u202e' } }, 422, /unsupported changeType/, 'unicode');
  ip(
    'emoji in the entity type of the urn',
    { proposal: { ...good, entityUrn: `urn:li:dataset\u{1F600}:(urn:li:dataPlatform:${p},t,PROD)`, entityType: 'dataset\u{1F600}' } },
    422,
    /invalid entity type/,
    'unicode',
  );
  ip('emoji in aspectName', { proposal: { ...good, aspectName: 'status\u{1F600}' } }, 422, /Invalid aspect name/, 'unicode');
  ip('lone surrogate in aspectName', { proposal: { ...good, aspectName: 'status\udc00' } }, 422, /Invalid aspect name/, 'unicode');
  ip('NUL in aspectName', { proposal: { ...good, aspectName: 'sta\u0000tus' } }, 422, /Invalid aspect name/, 'unicode');
  ip(
    'lone surrogate in an upstream urn',
    lineage([{ dataset: `urn:li:dataset:(urn:li:dataPlatform:${p},\ud83d,PROD)`, type: 'COPY' }]),
    422,
    /unpaired surrogate/,
    'unicode',
  );
  ip(
    'zero-width space in the platform namespace',
    { proposal: { ...good, entityUrn: `urn:l\u200bi:dataset:(urn:li:dataPlatform:${p},t,PROD)` } },
    422,
    /invalid namespace/,
    'unicode',
  );

  // Injection strings where they are malformed.
  for (const s of INJECTIONS) {
    ip(
      `injection as entity type: ${s}`,
      { proposal: { ...good, entityUrn: `urn:li:${s}:${p}`, entityType: s } },
      422,
      /Invalid urn/,
      'injection',
    );
    ip(`injection as aspectName: ${s}`, { proposal: { ...good, aspectName: `status${s}` } }, 422, /Invalid aspect name/, 'injection');
  }
  ip(
    'injection closing the urn tuple',
    { proposal: { ...good, entityUrn: `urn:li:dataset:(urn:li:dataPlatform:${p},t'}) DETACH DELETE n //` } },
    422,
    /mismatched paren nesting/,
    'injection',
  );
  ip('__proto__ as the body key', `{"__proto__": {"proposal": ${JSON.stringify(good)}}}`, 422, /proposal/, 'injection');

  // --- ingestProposalBatch -------------------------------------------------------------------------
  const ib = (id: string, body: unknown, status: number, message: RegExp, category = 'envelope') =>
    add({
      id: `ingestProposalBatch: ${id}`,
      endpoint: 'ingestProposalBatch',
      category,
      path: '/aspects?action=ingestProposalBatch',
      body,
      status,
      message,
    });
  ib('no proposals', {}, 400, /'proposals' is required/);
  ib('proposals an object', { proposals: { 0: good } }, 400, /'proposals' is required and must be an array/);
  ib('proposals a string', { proposals: 'x' }, 400, /must be an array/);
  ib('a null proposal', { proposals: [good, null] }, 422, /proposals\[1\]/);
  ib(
    'one invalid proposal after valid ones (all-or-nothing)',
    { proposals: [mcp(fx.a, 'status', { removed: true }), mcp(fx.b, 'status', { removed: true }), { ...good, changeType: 'NOPE' }] },
    422,
    /proposals\[2\].*NOPE/,
  );
  ib(
    'valid proposals then an invalid urn',
    { proposals: [mcp(fx.a, 'status', { removed: true }), { ...good, entityUrn: 'urn:li:dataset:(' }] },
    422,
    /Invalid urn/,
  );
  ib(
    'valid proposals then a missing upstream',
    {
      proposals: [
        mcp(fx.a, 'status', { removed: true }),
        mcp(fx.b, 'upstreamLineage', { upstreams: [{ dataset: fx.missing, type: 'COPY' }] }),
      ],
    },
    422,
    new RegExp(escape(fx.missing)),
  );
  ib(
    'more proposals than MAX_BATCH_PROPOSALS (10,001)',
    { proposals: Array.from({ length: 10_001 }, () => good) },
    422,
    /Too many proposals in one batch: 10001 > 10000/,
    'huge array',
  );

  // --- entities?action=ingest / batchIngest ---------------------------------------------------------
  const ei = (id: string, body: unknown, status: number, message: RegExp, category = 'snapshot') =>
    add({ id: `entities.ingest: ${id}`, endpoint: 'entities.ingest', category, path: '/entities?action=ingest', body, status, message });
  const statusUnion = { 'com.linkedin.common.Status': { removed: true } };
  ei('no entity', { systemMetadata: {} }, 400, /'entity' is required/);
  ei('entity without value', { entity: {} }, 422, /entity\.value/);
  ei('entity.value a string', { entity: { value: 'x' } }, 422, /entity\.value/);
  ei(
    'two snapshots in one value',
    { entity: { value: { ...snapshot(fx.a, [statusUnion]).value, ...snapshot(fx.chart, [], 'ChartSnapshot').value } } },
    422,
    /exactly one snapshot, got 2/,
  );
  ei(
    'unknown snapshot type',
    { entity: snapshot(fx.a, [statusUnion], 'TableSnapshot') },
    422,
    /unknown snapshot type 'com\.linkedin\.metadata\.snapshot\.TableSnapshot'/,
  );
  ei(
    '__proto__ as the snapshot type',
    { entity: { value: JSON.parse(`{"__proto__": {"urn": "${fx.a}", "aspects": []}}`) } },
    422,
    /expected exactly one snapshot, got 0/,
    'injection',
  );
  ei('urn not a string', { entity: snapshot(12 as unknown as string, [statusUnion]) }, 422, /urn/);
  ei(
    'urn invalid',
    { entity: snapshot(`urn:li:dataset:(urn:li:dataPlatform:${p},,PROD)`, [statusUnion]) },
    422,
    /empty part disallowed/,
    'invalid urn',
  );
  ei(
    "snapshot type not the urn's",
    { entity: snapshot(fx.chart, [statusUnion]) },
    422,
    /DatasetSnapshot cannot hold urn/,
    'entity type mismatch',
  );
  ei(
    'aspects not an array',
    { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: fx.a, aspects: {} } } } },
    422,
    /aspects/,
  );
  ei(
    'aspect union with two members',
    { entity: snapshot(fx.a, [{ ...statusUnion, 'com.linkedin.dataset.DatasetProperties': {} }]) },
    422,
    /single-key union, got 2 keys/,
  );
  ei('aspect union with no member', { entity: snapshot(fx.a, [{}]) }, 422, /single-key union, got 0 keys/);
  ei(
    'unknown aspect FQCN',
    { entity: snapshot(fx.a, [{ 'com.linkedin.common.Nope': {} }]) },
    422,
    /unknown aspect type 'com\.linkedin\.common\.Nope'/,
  );
  ei(
    '__proto__ as the aspect FQCN',
    { entity: snapshot(fx.a, [JSON.parse('{"__proto__": {"removed": true}}')]) },
    422,
    /single-key union, got 0 keys/,
    'injection',
  );
  ei(
    'constructor as the aspect FQCN',
    { entity: snapshot(fx.a, [{ constructor: { removed: true } }]) },
    422,
    /unknown aspect type 'constructor'/,
    'injection',
  );
  ei(
    'aspect failing its model',
    { entity: snapshot(fx.b, [{ 'com.linkedin.dataset.UpstreamLineage': { upstreams: [{ dataset: fx.chart, type: 'COPY' }] } }]) },
    422,
    /dataset/,
    'aspect model',
  );
  ei(
    'valid aspect then an invalid one',
    { entity: snapshot(fx.a, [statusUnion, { 'com.linkedin.common.Status': { removed: 'no' } }]) },
    422,
    /removed/,
    'aspect model',
  );
  ei('systemMetadata a number', { entity: snapshot(fx.a, [statusUnion]), systemMetadata: 3 }, 422, /systemMetadata must be an object/);
  const eb = (id: string, body: unknown, status: number, message: RegExp, category = 'snapshot') =>
    add({
      id: `entities.batchIngest: ${id}`,
      endpoint: 'entities.batchIngest',
      category,
      path: '/entities?action=batchIngest',
      body,
      status,
      message,
    });
  eb('no entities', {}, 400, /'entities' is required/);
  eb('entities an object', { entities: { a: 1 } }, 400, /must be an array/);
  eb('systemMetadata length differs', { entities: [snapshot(fx.a, [statusUnion])], systemMetadata: [{}, {}] }, 422, /same length/);
  eb('systemMetadata not an array', { entities: [snapshot(fx.a, [statusUnion])], systemMetadata: {} }, 422, /same length/);
  eb(
    'valid entity then an invalid one (all-or-nothing)',
    { entities: [snapshot(fx.a, [statusUnion]), snapshot(fx.b, [{ 'com.linkedin.common.Nope': {} }])] },
    422,
    /entities\[1\]/,
  );
  eb('a null entity', { entities: [snapshot(fx.a, [statusUnion]), null] }, 422, /entities\[1\]/);

  // --- exists / delete ----------------------------------------------------------------------------------
  for (const [endpoint, action] of [
    ['entities.exists', 'exists'],
    ['entities.delete', 'delete'],
  ] as const) {
    const x = (id: string, body: unknown, status: number, message: RegExp, category = 'parameters') =>
      add({ id: `${endpoint}: ${id}`, endpoint, category, path: `/entities?action=${action}`, body, status, message });
    x('no urn', {}, 400, /'urn' is required/);
    x('urn a number', { urn: 5 }, 400, /'urn' is required and must be a string/);
    x('urn an array of 100k urns', { urn: Array.from({ length: 100_000 }, () => fx.a) }, 400, /must be a string/, 'huge array');
    x('urn empty', { urn: '' }, 400, /'urn' is required/);
    x('urn invalid (empty part)', { urn: `urn:li:dataset:(urn:li:dataPlatform:${p},,PROD)` }, 422, /empty part disallowed/, 'invalid urn');
    x('urn with a lone surrogate', { urn: `urn:li:corpuser:${p}\udfff` }, 422, /unpaired surrogate/, 'unicode');
    x('injection urn', { urn: `urn:li:dataset:${INJECTIONS[0]}` }, 422, /mismatched paren nesting/, 'injection');
    if (action === 'exists') x('includeSoftDelete a string', { urn: fx.a, includeSoftDelete: 'yes' }, 400, /includeSoftDelete/);
  }

  // --- getCount -----------------------------------------------------------------------------------------
  const gc = (id: string, body: unknown, status: number, message: RegExp, category = 'parameters') =>
    add({ id: `getCount: ${id}`, endpoint: 'getCount', category, path: '/aspects?action=getCount', body, status, message });
  gc('no aspect', {}, 400, /'aspect' is required/);
  gc('aspect a number', { aspect: 1 }, 400, /'aspect' is required and must be a string/);
  gc('aspect empty', { aspect: '' }, 400, /'aspect'/);
  gc('urnLike a number', { aspect: 'status', urnLike: 5 }, 400, /'urnLike' must be a string/);
  gc('urnLike an object', { aspect: 'status', urnLike: { $regex: '.*' } }, 400, /'urnLike' must be a string/, 'injection');

  // --- restoreIndices, both paths ----------------------------------------------------------------------
  for (const [endpoint, path] of [
    ['aspects.restoreIndices', '/aspects?action=restoreIndices'],
    ['operations.restoreIndices', '/operations?action=restoreIndices'],
  ] as const) {
    const r = (id: string, body: unknown, message: RegExp, category = 'parameters') =>
      add({ id: `${endpoint}: ${id}`, endpoint, category, path, body, status: 400, message });
    r('start negative', { urn: fx.a, start: -1 }, /Invalid parameter start/);
    r('start a float', { urn: fx.a, start: 1.5 }, /Invalid parameter start/);
    r('batchSize zero', { urn: fx.a, batchSize: 0 }, /Invalid parameter batchSize/);
    r('batchSize a word', { urn: fx.a, batchSize: 'ten' }, /Invalid parameter batchSize/);
    r('limit an array', { urn: fx.a, limit: [1] }, /Invalid parameter limit/);
    r('gePitEpochMs a date string', { urn: fx.a, gePitEpochMs: '2024-01-01' }, /Invalid parameter gePitEpochMs/);
    r('urn invalid', { urn: `urn:li:dataset:(urn:li:dataPlatform:${p},t,PROD))` }, /Invalid parameter urn/, 'invalid urn');
    r('urn a number', { urn: 7 }, /Invalid parameter urn/);
    r('aspect not an aspect name', { aspect: 'Up-Stream' }, /Invalid parameter aspect/);
    r('aspect injection', { aspect: `status${INJECTIONS[0]}` }, /Invalid parameter aspect/, 'injection');
  }

  // --- GET /aspects/{urn} --------------------------------------------------------------------------------
  const enc = encodeURIComponent;
  const ga = (id: string, path: string, status: number, message: RegExp, category = 'parameters') =>
    add({ id: `GET /aspects: ${id}`, endpoint: 'GET /aspects', category, method: 'GET', path, status, message });
  ga('no aspect parameter', `/aspects/${enc(fx.a)}`, 400, /'aspect' is required/);
  ga('version negative', `/aspects/${enc(fx.a)}?aspect=status&version=-1`, 400, /'version' must be a non-negative integer/);
  ga('version a word', `/aspects/${enc(fx.a)}?aspect=status&version=latest`, 400, /'version'/);
  ga('version a float', `/aspects/${enc(fx.a)}?aspect=status&version=1.5`, 400, /'version'/);
  ga(
    'version beyond 2^53 (no such version)',
    `/aspects/${enc(fx.a)}?aspect=status&version=99999999999999999999`,
    404,
    /No status \(version 1e\+?20|No status \(version 100000000000000000000/,
  );
  ga('bad percent-encoding', `/aspects/urn%3Ali%3Adataset%3A%28%E0%A4%A`, 400, /percent-encoding/);
  ga(
    'percent-encoded lone surrogate (invalid UTF-8)',
    `/aspects/urn%3Ali%3Acorpuser%3A${p}%ED%A0%80?aspect=status`,
    400,
    /percent-encoding/,
    'unicode',
  );
  ga(
    'aspect an injection string (no such aspect)',
    `/aspects/${enc(fx.a)}?aspect=${enc("status'}) DETACH DELETE n //")}`,
    404,
    /No status'\}\) DETACH DELETE n \/\/ \(version 0\)/,
    'injection',
  );
  for (const u of invalidUrns(p).filter((x, i) => !x.keyShape && x.urn.isWellFormed() && i % 2 === 0)) {
    ga(`invalid urn (${u.rule})`, `/aspects/${enc(u.urn)}?aspect=status`, 422, u.reason, 'invalid urn');
  }

  // --- GET /entitiesV2/{urn} -----------------------------------------------------------------------------
  const ge = (id: string, path: string, status: number, message: RegExp, category = 'parameters') =>
    add({ id: `GET /entitiesV2: ${id}`, endpoint: 'GET /entitiesV2', category, method: 'GET', path, status, message });
  ge('aspects not a Rest.li list', `/entitiesV2/${enc(fx.a)}?aspects=status`, 400, /expected List/);
  ge('aspects list unclosed', `/entitiesV2/${enc(fx.a)}?aspects=List(status`, 400, /expected List/);
  ge('bad percent-encoding', `/entitiesV2/urn%3Ali%3A%ZZ`, 400, /percent-encoding/);
  for (const u of invalidUrns(p).filter((x, i) => !x.keyShape && x.urn.isWellFormed() && i % 2 === 1)) {
    ge(`invalid urn (${u.rule})`, `/entitiesV2/${enc(u.urn)}`, 422, u.reason, 'invalid urn');
  }

  // --- Oversized bodies (> 16 MiB) on every POST endpoint --------------------------------------------------
  for (const e of POST_ENDPOINTS(fx)) {
    add({
      id: `${e.endpoint}: body over 16 MiB`,
      endpoint: e.endpoint,
      category: 'oversized',
      path: e.path,
      body: OVERSIZED_BODY,
      status: 413,
      message: /larger than 16777216 bytes \(MAX_BODY_BYTES\)/,
    });
  }
  return cases;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
