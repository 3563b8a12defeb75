// Issue 7 item 2: every endpoint × every kind of credential → 401 / 403 / 200 as docs/wire-contract.md §Auth
// says. Credentials: none, malformed, wrong signature, alg "none", expired, revoked (through the
// revokeAccessToken mutation), and real stored tokens of a Reader, an Editor and an Admin. Rest.li
// endpoints are called directly and through the front door's /api/gms proxy; GraphQL operations
// through the gateway and straight at the subgraph (which authenticates on its own). /config and
// /health are open to all. No response and no log line (the services log through the production
// logger into memory, at trace level) contains a token, the signing key, the salt or a stack trace.
import { signAccessToken, tokenId } from '../../catalog/src/operations/auth/tokens.ts';
import { issueAccessToken } from '../../catalog/src/operations/auth/access-tokens.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { namespace } from '../support/context.ts';
import { TEST_SECRETS, tokenFor } from '../support/services.ts';
import { fixturesOf } from './corpus/fixtures.ts';
import { mcp, snapshot as mce } from './corpus/rest.ts';
import { graphql, send, startHarness, type Harness, type Reply } from './corpus/harness.ts';

const ns = namespace('authm');
const fx = fixturesOf(ns);
const users = { Reader: ns.user('reader'), Editor: ns.user('editor'), Admin: ns.user('admin'), victim: ns.user('victim') };

type Credential = 'none' | 'malformed' | 'wrong signature' | 'alg none' | 'expired' | 'revoked' | 'Reader' | 'Editor' | 'Admin';
type Role = 'Reader' | 'Editor' | 'Admin';
const CREDENTIALS: Credential[] = ['none', 'malformed', 'wrong signature', 'alg none', 'expired', 'revoked', 'Reader', 'Editor', 'Admin'];
const ROLES: readonly Credential[] = ['Reader', 'Editor', 'Admin'];

let h: Harness;
const tokens = {} as Record<Credential, string | null>;
/** Every token string that ever existed in this test, for the leak checks. */
const allTokens: string[] = [];
const responses: Array<{ id: string; reply: Reply }> = [];

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const columnsDataset = `urn:li:dataset:(urn:li:dataPlatform:${ns.platform},cols,PROD)`;

beforeAll(async () => {
  h = await startHarness();
  await writeAspects(
    h.store,
    [
      { urn: parseUrn(fx.a), aspectName: 'status', changeType: 'UPSERT', value: { removed: false } },
      { urn: parseUrn(fx.b), aspectName: 'status', changeType: 'UPSERT', value: { removed: false } },
      // A dataset with a column: Marquez's column lineage starts from a dataset's columns.
      {
        urn: parseUrn(columnsDataset),
        aspectName: 'schemaMetadata',
        changeType: 'UPSERT',
        value: {
          schemaName: 'cols',
          platform: `urn:li:dataPlatform:${ns.platform}`,
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [{ fieldPath: 'c', nativeDataType: 'INTEGER', type: { type: { 'com.linkedin.schema.NumberType': {} } } }],
        },
      },
    ],
    { actor: 'urn:li:corpuser:__datahub_system', existenceMode: 'strict' },
  );
  for (const role of ['Reader', 'Editor', 'Admin'] as const) tokens[role] = await tokenFor(h.store, users[role], role);
  const adminId = users.Admin.slice('urn:li:corpuser:'.length);
  const claims = { actorType: 'USER', actorId: adminId, type: 'PERSONAL', version: '1', sub: adminId, iss: 'datahub-metadata-service' };
  tokens.none = null;
  tokens.malformed = 'not-a-jwt';
  tokens['wrong signature'] = (
    await signAccessToken({ signingKey: 'another-signing-key-0123456789abcdef', actorId: adminId, type: 'PERSONAL', version: '1' })
  ).token;
  tokens['alg none'] = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
  tokens.expired = (
    await signAccessToken({
      signingKey: TEST_SECRETS.signingKey,
      actorId: adminId,
      type: 'PERSONAL',
      version: '1',
      now: Date.now() - 7_200_000,
      expiresInMs: 3_600_000,
    })
  ).token;
  // An Admin's own stored token, revoked through the GraphQL mutation: revocation is the only reason to refuse it.
  const revoked = await tokenFor(h.store, users.Admin);
  const r = await graphql(`${h.gatewayUrl}/api/graphql`, tokens.Admin, {
    query: 'mutation r($id: String!) { revokeAccessToken(tokenId: $id) }',
    variables: { id: tokenId(revoked, TEST_SECRETS.salt) },
  });
  expect(r.json).toEqual({ data: { revokeAccessToken: true }, extensions: {} });
  tokens.revoked = revoked;
  for (const t of Object.values(tokens)) if (t) allTokens.push(t);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

// ---------------------------------------------------------------------------------------------
// The endpoints

interface RestEndpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** An OpenAPI door: errors are {"error": message} instead of a Rest.li body. */
  openapi?: true;
  /** Marquez's read API: errors are {code, message} (docs/marquez-compatibility.md §Errors). */
  marquez?: true;
  body?: () => unknown;
  /** Roles allowed (§Auth); the others get 403 with `denied` in the message. */
  allowed: readonly Role[];
  denied: RegExp;
}

const enc = encodeURIComponent;
/** An OpenLineage JobEvent naming one output table of this file's namespace. */
const olJobEvent = () => ({
  eventTime: '2026-11-01T10:00:00Z',
  producer: 'https://example.com/auth-matrix',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
  job: { namespace: ns.platform, name: 'matrix.job' },
  outputs: [{ namespace: `postgres://${ns.platform}:5432`, name: 'db.t' }],
});
const statusUnion = { 'com.linkedin.common.Status': { removed: false } };
const REST: RestEndpoint[] = [
  {
    name: 'ingestProposal',
    method: 'POST',
    path: '/aspects?action=ingestProposal',
    body: () => ({ proposal: mcp(fx.a, 'status', { removed: false }) }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'ingestProposalBatch',
    method: 'POST',
    path: '/aspects?action=ingestProposalBatch',
    body: () => ({ proposals: [mcp(fx.a, 'status', { removed: false })] }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'entities.ingest',
    method: 'POST',
    path: '/entities?action=ingest',
    body: () => ({ entity: mce(fx.a, [statusUnion]) }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'entities.batchIngest',
    method: 'POST',
    path: '/entities?action=batchIngest',
    body: () => ({ entities: [mce(fx.b, [statusUnion])] }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'entities.exists',
    method: 'POST',
    path: '/entities?action=exists',
    body: () => ({ urn: fx.a }),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'entities.delete',
    method: 'POST',
    path: '/entities?action=delete',
    body: () => ({ urn: fx.missing }),
    allowed: ['Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'getCount',
    method: 'POST',
    path: '/aspects?action=getCount',
    body: () => ({ aspect: 'status', urnLike: `%${ns.platform}%` }),
    allowed: ['Admin'],
    denied: /User is unauthorized to get aspect counts\./,
  },
  {
    name: 'aspects.restoreIndices',
    method: 'POST',
    path: '/aspects?action=restoreIndices',
    body: () => ({ urn: fx.a }),
    allowed: ['Admin'],
    denied: /User is unauthorized to update entities\./,
  },
  {
    name: 'operations.restoreIndices',
    method: 'POST',
    path: '/operations?action=restoreIndices',
    body: () => ({ urn: fx.a }),
    allowed: ['Admin'],
    denied: /User is unauthorized to restore indices\./,
  },
  // Issue 28: the export streams every stored row, so it takes restore's privilege.
  {
    name: 'GET /operations/backup',
    method: 'GET',
    path: `/operations/backup?urnLike=${enc(`%${ns.platform}%`)}`,
    allowed: ['Admin'],
    denied: /User is unauthorized to export the catalog\./,
  },
  {
    name: 'GET /aspects',
    method: 'GET',
    path: `/aspects/${enc(fx.a)}?aspect=status`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /entitiesV2',
    method: 'GET',
    path: `/entitiesV2/${enc(fx.a)}`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'POST /api/graphql (GMS relay)',
    method: 'POST',
    path: '/api/graphql',
    body: () => ({ query: `{ entityExists(urn: "${fx.a}") }` }),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /relationships',
    method: 'GET',
    path: `/relationships?urn=${enc(fx.a)}&types=List(DownstreamOf)&direction=INCOMING`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  // Issue 53: what a client probes to learn whether view authorization is on.
  {
    name: 'GET /openapi/v1/system-info/properties/simple',
    method: 'GET',
    openapi: true,
    path: '/openapi/v1/system-info/properties/simple',
    allowed: ['Admin'],
    denied: /is not authorized for system operations\./,
  },
  {
    name: 'POST /openapi/v3/entity',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/entity/dataset?async=false',
    body: () => [{ urn: fx.a, status: { value: { removed: false } } }],
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'PATCH /openapi/v3/entity',
    method: 'PATCH',
    openapi: true,
    path: '/openapi/v3/entity/dataset?async=false',
    body: () => [{ urn: fx.a, status: { value: { patch: [{ op: 'add', path: '/removed', value: false }] } } }],
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'POST /openapi/v3/entity/generic',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/entity/generic?async=false',
    body: () => ({ dataset: [{ urn: fx.a, status: { value: { removed: false } } }] }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  {
    name: 'POST /openapi/v3/entity/generic/batchGet',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/entity/generic/batchGet',
    body: () => ({ dataset: [{ urn: fx.a, status: {} }] }),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'POST /openapi/v3/entity/batchGet',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/entity/dataset/batchGet',
    body: () => [{ urn: fx.a, status: {} }],
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /openapi/relationships/v1',
    method: 'GET',
    openapi: true,
    path: `/openapi/relationships/v1/?urn=${enc(fx.a)}&direction=INCOMING&relationshipTypes=DownstreamOf`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'POST /api/v1/lineage (OpenLineage)',
    method: 'POST',
    openapi: true,
    path: '/api/v1/lineage',
    body: () => olJobEvent(),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to ingest OpenLineage events/,
  },
  {
    name: 'POST /api/v1/lineage/batch (OpenLineage)',
    method: 'POST',
    openapi: true,
    path: '/api/v1/lineage/batch',
    body: () => [olJobEvent()],
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to ingest OpenLineage events/,
  },
  {
    name: 'POST /openapi/v3/lineage/scroll',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/lineage/scroll?direction=DOWNSTREAM',
    body: () => ({ urns: [fx.a] }),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  // Issue 23: the v3 reads, per-aspect write and scrolls.
  {
    name: 'POST /openapi/v3/entity/scroll',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/entity/scroll',
    body: () => ({ entities: ['dataset'] }),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /is unauthorized to READ entities/,
  },
  {
    name: 'GET /openapi/v3/entity/{type}',
    method: 'GET',
    openapi: true,
    path: '/openapi/v3/entity/dataset?count=1',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /is unauthorized to READ entities/,
  },
  {
    name: 'GET /openapi/v3/entity/{type}/{urn}',
    method: 'GET',
    openapi: true,
    path: `/openapi/v3/entity/dataset/${enc(fx.a)}`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized to get aspect/,
  },
  {
    name: 'GET /openapi/v3/entity/{type}/{urn}/{aspect}',
    method: 'GET',
    openapi: true,
    path: `/openapi/v3/entity/dataset/${enc(fx.a)}/status`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized to get aspect/,
  },
  {
    name: 'POST /openapi/v3/entity/{type}/{urn}/{aspect}',
    method: 'POST',
    openapi: true,
    path: `/openapi/v3/entity/dataset/${enc(fx.a)}/status`,
    body: () => ({ value: { removed: false } }),
    allowed: ['Editor', 'Admin'],
    denied: /is unauthorized to modify entity/,
  },
  // Issue 54: Marquez's read API, a Reader's like every read.
  {
    name: 'GET /api/v1/namespaces (Marquez)',
    method: 'GET',
    marquez: true,
    path: '/api/v1/namespaces?limit=1',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/jobs (Marquez)',
    method: 'GET',
    marquez: true,
    path: '/api/v1/jobs?limit=1',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/lineage (Marquez)',
    method: 'GET',
    marquez: true,
    path: `/api/v1/lineage?nodeId=${enc(`dataset:${ns.platform}:a`)}`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/column-lineage (Marquez)',
    method: 'GET',
    marquez: true,
    path: `/api/v1/column-lineage?nodeId=${enc(`dataset:${ns.platform}:cols`)}`,
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/search (Marquez)',
    method: 'GET',
    marquez: true,
    path: '/api/v1/search?q=a',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/tags (Marquez)',
    method: 'GET',
    marquez: true,
    path: '/api/v1/tags?limit=1',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'GET /api/v1/sources (Marquez)',
    method: 'GET',
    marquez: true,
    path: '/api/v1/sources?limit=1',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /unauthorized/,
  },
  // Marquez's tag write goes through the write path: an Editor's, as any tag edit.
  {
    name: 'POST /api/v1/namespaces/{ns}/datasets/{name}/tags/{tag} (Marquez)',
    method: 'POST',
    marquez: true,
    path: `/api/v1/namespaces/${ns.platform}/datasets/a/tags/matrix`,
    allowed: ['Editor', 'Admin'],
    denied: /unauthorized/,
  },
  {
    name: 'POST /openapi/v3/relationship/scroll',
    method: 'POST',
    openapi: true,
    path: '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf',
    body: () => ({}),
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /is unauthorized to get relationships/,
  },
];

interface GraphqlOperation {
  name: string;
  /** Built per call: revocation needs a fresh victim token each time. */
  request(credential: Credential): Promise<{ query: string; variables?: Record<string, unknown> }>;
  allowed: readonly Role[];
  denied: RegExp;
  /** The field whose value proves success. */
  field: string;
}

const GRAPHQL: GraphqlOperation[] = [
  {
    name: 'updateLineage',
    field: 'updateLineage',
    allowed: ['Editor', 'Admin'],
    denied: /Unauthorized to edit dataset lineage\. Please contact your DataHub administrator\./,
    request: async () => ({
      query: 'mutation u($e: [LineageEdge]!) { updateLineage(input: {edgesToAdd: $e, edgesToRemove: []}) }',
      variables: { e: [{ downstreamUrn: fx.b, upstreamUrn: fx.a }] },
    }),
  },
  {
    name: 'scrollAcrossLineage',
    field: 'scrollAcrossLineage',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ scrollAcrossLineage(input: {urn: "${fx.b}", direction: UPSTREAM}) { total } }` }),
  },
  {
    name: 'searchAcrossLineage',
    field: 'searchAcrossLineage',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ searchAcrossLineage(input: {urn: "${fx.a}", direction: DOWNSTREAM}) { total } }` }),
  },
  {
    name: 'searchAcrossLineageCounts',
    field: 'searchAcrossLineageCounts',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ searchAcrossLineageCounts(input: {urn: "${fx.a}", direction: DOWNSTREAM}) { total } }` }),
  },
  {
    name: 'search',
    field: 'search',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ search(input: {type: DATASET, query: "${ns.platform}"}) { total } }` }),
  },
  {
    name: 'scrollAcrossEntities',
    field: 'scrollAcrossEntities',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ scrollAcrossEntities(input: {types: [DATASET], query: "${ns.platform}"}) { total } }` }),
  },
  {
    name: 'entity',
    field: 'entity',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ entity(urn: "${fx.a}") { urn } }` }),
  },
  {
    name: 'entityExists',
    field: 'entityExists',
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized/,
    request: async () => ({ query: `{ entityExists(urn: "${fx.a}") }` }),
  },
  {
    name: 'createAccessToken (for oneself)',
    field: 'createAccessToken',
    // DataHub's default "All Users - Base Platform Privileges" policy: every user may mint its own.
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized to perform this action\. Please contact your DataHub administrator\./,
    request: async (c) => ({
      query:
        'mutation c($u: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_HOUR, name: "matrix"}) { accessToken } }',
      variables: { u: ROLES.includes(c) ? users[c as Role] : users.Admin },
    }),
  },
  {
    name: "revokeAccessToken (someone else's token)",
    field: 'revokeAccessToken',
    allowed: ['Admin'],
    denied: /Unauthorized to perform this action\. Please contact your DataHub administrator\./,
    request: async () => {
      const victim = await issueAccessToken(h.store, TEST_SECRETS, {
        actorUrn: users.victim,
        ownerUrn: users.victim,
        name: 'victim',
        duration: 'ONE_DAY',
      });
      allTokens.push(victim.accessToken);
      return { query: 'mutation r($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id: victim.id } };
    },
  },
];

// Issue 53's identity and domain operations: each call creates something new, so every cell is a first write.
let created = 0;
const fresh = (what: string) => `${ns.platform}_${what}_${++created}`;
GRAPHQL.push(
  {
    name: 'createGroup',
    field: 'createGroup',
    allowed: ['Admin'],
    denied: /Unauthorized to perform this action\. Please contact your DataHub administrator\./,
    request: async () => ({
      query: 'mutation g($id: String!) { createGroup(input: {id: $id, name: "matrix"}) }',
      variables: { id: fresh('group') },
    }),
  },
  {
    name: 'batchAssignRole',
    field: 'batchAssignRole',
    allowed: ['Admin'],
    denied: /Unauthorized to assign roles\./,
    request: async () => ({
      query: 'mutation a($u: String!) { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Reader", actors: [$u]}) }',
      variables: { u: `urn:li:corpuser:${fresh('assignee')}` },
    }),
  },
  {
    name: 'createDomain',
    field: 'createDomain',
    allowed: ['Editor', 'Admin'],
    denied: /Unauthorized to perform this action\. Please contact your DataHub administrator\./,
    request: async () => {
      const id = fresh('domain');
      return { query: 'mutation d($id: String!) { createDomain(input: {id: $id, name: $id}) }', variables: { id } };
    },
  },
  {
    name: 'listAccessTokens (own)',
    field: 'listAccessTokens',
    // DataHub's default "All Users" policy 7 lets every user hold personal tokens, so list its own.
    allowed: ['Reader', 'Editor', 'Admin'],
    denied: /Unauthorized to perform this action\. Please contact your DataHub administrator\./,
    request: async (c) => ({
      query: 'query l($u: String!) { listAccessTokens(input: {filters: [{field: "ownerUrn", values: [$u]}]}) { total } }',
      variables: { u: ROLES.includes(c) ? users[c as Role] : users.Admin },
    }),
  },
);

const OPEN: Array<{ name: string; url: () => string }> = [
  { name: 'ingestion GET /config', url: () => `${h.ingestionUrl}/config` },
  { name: 'ingestion GET /health', url: () => `${h.ingestionUrl}/health` },
  { name: 'gateway GET /health', url: () => `${h.gatewayUrl}/health` },
  { name: 'subgraph GET /health', url: () => h.subgraphUrl.replace(/\/graphql$/, '/health') },
];

const isRole = (c: Credential): c is Role => ROLES.includes(c);

// ---------------------------------------------------------------------------------------------
// The matrix

const restRows = REST.flatMap((e) =>
  (['direct', 'front door /api/gms'] as const).flatMap((via) => CREDENTIALS.map((c) => [e.name, via, c, e] as const)),
);
const graphqlRows = GRAPHQL.flatMap((op) =>
  (['gateway', 'subgraph'] as const).flatMap((target) => CREDENTIALS.map((c) => [op.name, target, c, op] as const)),
);
const openRows = OPEN.flatMap((o) => CREDENTIALS.map((c) => [o.name, c, o] as const));

test('the matrix covers every endpoint with every credential', () => {
  expect(restRows.length + graphqlRows.length + openRows.length).toBe(
    (REST.length * 2 + GRAPHQL.length * 2 + OPEN.length) * CREDENTIALS.length,
  );
});

describe('Rest.li endpoints', () => {
  test.each(restRows)('%s via %s with %s', async (name, via, credential, e) => {
    const base = via === 'direct' ? h.ingestionUrl : `${h.gatewayUrl}/api/gms`;
    const r = await send(base + e.path, { method: e.method, body: e.body?.(), token: tokens[credential] });
    responses.push({ id: `${name} ${via} ${credential}`, reply: r });
    // The OpenAPI doors answer errors as DataHub's OpenAPI does: {"error": message}.
    const message = e.openapi ? r.json?.error : r.json?.message;
    if (!isRole(credential)) {
      const body401 = e.openapi
        ? { error: expect.any(String) }
        : e.marquez
          ? { code: 401, message: expect.any(String) }
          : expect.objectContaining({ status: 401, stackTrace: '' });
      expect({ status: r.status, json: r.json }).toEqual({ status: 401, json: body401 });
      expect(message).toMatch(
        credential === 'expired'
          ? /Token has expired/
          : credential === 'revoked'
            ? /Token has been revoked/
            : /Unauthorized to perform this action|Failed to validate DataHub token/,
      );
    } else if (e.allowed.includes(credential)) {
      expect(r.status).toBe(200);
      if (name.startsWith('POST /api/graphql')) expect(r.json).toEqual({ data: { entityExists: true }, extensions: {} });
    } else {
      expect({ status: r.status, message }).toEqual({ status: 403, message: expect.stringMatching(e.denied) });
    }
  });
});

describe('GraphQL operations', () => {
  test.each(graphqlRows)('%s via %s with %s', async (name, target, credential, op) => {
    const url = target === 'gateway' ? `${h.gatewayUrl}/api/graphql` : h.subgraphUrl;
    const r = await graphql(url, tokens[credential], await op.request(credential));
    responses.push({ id: `${name} ${target} ${credential}`, reply: r });
    if (!isRole(credential)) {
      // Plain HTTP 401 before any GraphQL processing, no envelope (§Auth).
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ status: 401 });
      expect(r.json).not.toHaveProperty('errors');
      return;
    }
    expect(r.status).toBe(200);
    if (op.allowed.includes(credential)) {
      expect(r.json.errors).toBeUndefined();
      expect(r.json.data[op.field]).toBeTruthy();
      if (op.field === 'createAccessToken') allTokens.push(r.json.data.createAccessToken.accessToken);
    } else {
      // A denied non-null field (revokeAccessToken: Boolean!) nulls the whole `data`.
      expect(r.json.data?.[op.field] ?? null).toBeNull();
      expect(r.json.errors[0]).toMatchObject({
        message: expect.stringMatching(op.denied),
        extensions: { code: 403, type: 'UNAUTHORIZED', classification: 'DataFetchingException' },
      });
    }
  });
});

describe('open endpoints', () => {
  test.each(openRows)('%s with %s', async (_name, credential, o) => {
    const r = await send(o.url(), { token: tokens[credential] });
    responses.push({ id: `${o.name} ${credential}`, reply: r });
    expect(r.status).toBe(200);
  });
});

describe('nothing leaks', () => {
  const STACK = /\n\s+at |\bat [\w.<>]+ \(.*:\d+:\d+\)|node:internal|\/work\/|"stack"/;
  const secrets = () => [TEST_SECRETS.signingKey, TEST_SECRETS.salt];

  test('no response carries a token it was not asked to mint, the signing key, the salt or a stack trace', () => {
    expect(responses.length).toBe(restRows.length + graphqlRows.length + openRows.length);
    for (const { id, reply } of responses) {
      const minted = id.startsWith('createAccessToken') && reply.json?.data?.createAccessToken?.accessToken;
      for (const t of allTokens) if (t !== minted) expect({ id, leaked: reply.text.includes(t) }).toEqual({ id, leaked: false });
      for (const s of secrets()) expect({ id, leaked: reply.text.includes(s) }).toEqual({ id, leaked: false });
      expect({ id, stack: STACK.test(reply.text) }).toEqual({ id, stack: false });
    }
  });

  test('no log line carries a token, the signing key, the salt or a stack trace', () => {
    const lines = h.logLines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      for (const t of allTokens) expect(line.includes(t) ? line : null).toBeNull();
      for (const s of secrets()) expect(line.includes(s) ? line : null).toBeNull();
      // Also not the parts of a JWT (a logged payload or signature would still identify the token).
      for (const t of allTokens)
        for (const part of t.split('.').filter((p) => p.length > 20)) expect(line.includes(part) ? line : null).toBeNull();
      expect(STACK.test(line) ? line : null).toBeNull();
    }
  });
});
