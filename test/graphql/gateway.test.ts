// The front door over HTTP, end to end on a real Neo4j: DataHub's GraphQL paths, the error envelope,
// authentication before execution, READ authorization, access tokens, and the /gms proxy to a real
// ingestion service.
import { createServer, request as httpRequest } from 'node:http';
import { startStack, type Stack } from './stack.ts';
import { namespace } from '../support/context.ts';
import { listen, testConfig, tokenFor } from '../support/services.ts';
import { createGateway } from '../../gateway/src/app.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { createFormatError } from '../../service-kit/src/graphql-envelope.ts';

let stack: Stack;
let admin: string, reader: string, nobody: string, editor: string;
const ns = namespace('gw');
const ghost = ns.dataset('never_ingested');

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  reader = await tokenFor(stack.store, ns.user('reader'), 'Reader');
  editor = await tokenFor(stack.store, ns.user('editor'), 'Editor');
  nobody = await tokenFor(stack.store, ns.user('nobody'));
});
afterAll(async () => {
  await stack.close();
});

const existsQuery = `{ entityExists(urn: "${ghost}") }`;

describe('transport', () => {
  test.each(['/api/graphql', '/api/v2/graphql', '/api/gms/api/graphql', '/gms/api/graphql'])(
    'POST %s runs the supergraph; success carries "extensions": {}',
    async (path) => {
      const r = await stack.graphql(existsQuery, admin, { path });
      expect(r.status).toBe(200);
      expect(r.text.trim()).toBe('{"data":{"entityExists":false},"extensions":{}}');
    },
  );

  test('GET /api/graphql is 405', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/graphql?query=${encodeURIComponent(existsQuery)}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(405);
  });

  test('unparseable JSON and a missing query are bare 400s, without a GraphQL envelope', async () => {
    for (const body of ['{"query": ', '{"variables": {}}', '[]']) {
      const res = await fetch(`${stack.gatewayUrl}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body,
      });
      expect(res.status).toBe(400);
      const json = (await res.json()) as Record<string, unknown>;
      expect(json).not.toHaveProperty('errors');
      expect(json).not.toHaveProperty('data');
    }
  });

  test("X-Lineage-Plan: true shows each lineage field's plan in extensions, through the gateway; without it extensions stay {}", async () => {
    const query = `{ a: scrollAcrossLineage(input: { urn: "${ghost}", direction: DOWNSTREAM, count: 5 }) { total }
      b: searchAcrossLineage(input: { urn: "${ghost}", direction: UPSTREAM, query: "x", count: 5,
        lineageFlags: { entitiesExploredPerHopLimit: 3 } }) { total } }`;
    const ask = (headers: Record<string, string>) =>
      fetch(`${stack.gatewayUrl}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, ...headers },
        body: JSON.stringify({ query }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { data: unknown; extensions: { lineagePlans?: any[] } } }));
    const shown = await ask({ 'x-lineage-plan': 'true' });
    expect(shown.status).toBe(200);
    const plans = shown.body.extensions.lineagePlans!;
    expect(plans.map((p) => p.field).sort()).toEqual(['a', 'b']);
    const byField = Object.fromEntries(plans.map((p) => [p.field, p]));
    expect(byField.a.plan).toMatchObject({ streamed: 'fast-then-hops', database: { counts: 'lineage/select-counts-down-max' } });
    expect(byField.b.plan).toMatchObject({
      streamed: 'hops',
      database: { counts: 'lineage/select-counts-judged-up-max', fanout: 'lineage/fanout-up-max' },
    });
    expect(byField.b.plan.reasons.join('\n')).toMatch(/per-hop limit 3/);
    expect(typeof byField.a.strategy).toBe('string');
    const plain = await ask({});
    expect(plain.body.extensions).toEqual({});
    expect(plain.body.data).toEqual(shown.body.data);
  });

  test('health is open', async () => {
    for (const path of ['/health', '/api/health']) {
      const res = await fetch(`${stack.gatewayUrl}${path}`);
      expect(res.status).toBe(200);
    }
  });
});

describe('error envelope', () => {
  test("a resolver error carries DataHub's code, type and classification; the field is null", async () => {
    const r = await stack.graphql('query q {\n  entity(urn: "not-a-urn") { urn }\n}', admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      errors: [
        {
          message: 'Invalid urn: not-a-urn',
          locations: [{ line: 2, column: 3 }],
          path: ['entity'],
          extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
        },
      ],
      data: { entity: null },
      extensions: {},
    });
    expect(r.text).not.toMatch(/stacktrace|serviceName|INTERNAL_SERVER_ERROR|DOWNSTREAM/);
  });

  test('a syntax error is classified InvalidSyntax, without a code', async () => {
    const r = await stack.graphql('{ entity(urn: ', admin);
    expect(r.status).toBe(200);
    expect(r.body.extensions).toEqual({});
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].extensions).toEqual({ classification: 'InvalidSyntax' });
    expect(r.body.errors[0].locations).toBeDefined();
  });

  test('a validation error is classified ValidationError, without a code', async () => {
    for (const q of ['{ noSuchField }', '{ scrollAcrossLineage(input: {direction: SIDEWAYS}) { total } }']) {
      const r = await stack.graphql(q, admin);
      expect(r.status).toBe(200);
      expect(r.body.extensions).toEqual({});
      expect(r.body.errors[0].extensions).toEqual({ classification: 'ValidationError' });
    }
    const v = await stack.graphql('query q($u: String!) { entityExists(urn: $u) }', admin, { variables: {} });
    expect(v.status).toBe(200);
    expect(v.body.errors[0].extensions).toEqual({ classification: 'ValidationError' });
  });

  test('a subgraph that cannot be reached is 503 SERVICE_UNAVAILABLE (retry later), not an unknown error', async () => {
    const dead = createServer();
    const deadUrl = await listen(dead);
    await new Promise<void>((r) => dead.close(() => r()));
    const gw = await createGateway({
      config: testConfig(),
      logger: createLogger('t', 'silent'),
      store: stack.store,
      lineageUrl: `${deadUrl}/graphql`,
      ingestionUrl: stack.ingestion.baseUrl,
    });
    const url = await listen(gw.httpServer);
    try {
      const res = await fetch(`${url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ query: existsQuery }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { errors: Array<{ message: string; extensions: unknown }>; extensions: unknown };
      expect(body.extensions).toEqual({});
      expect(body.errors[0]!.message).toBe('The lineage service could not be reached; retry later.');
      expect(body.errors[0]!.extensions).toEqual({ code: 503, type: 'SERVICE_UNAVAILABLE', classification: 'DataFetchingException' });
    } finally {
      await gw.close();
    }
  });

  test('a subgraph answering a bare 5xx (a replica draining) is 503 too; its next answer goes through', async () => {
    // A stand-in subgraph that answers 503 to its first request and the real subgraph's answer after.
    let calls = 0;
    const real = new URL(stack.subgraphUrl);
    const sub = createServer((req, res) => {
      calls++;
      if (calls === 1) {
        req.resume();
        res.writeHead(503, { 'content-type': 'text/plain' }).end('draining');
        return;
      }
      const relay = httpRequest(
        { host: real.hostname, port: real.port, path: real.pathname, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(relay);
    });
    const subUrl = await listen(sub);
    const gw = await createGateway({
      config: testConfig(),
      logger: createLogger('t', 'silent'),
      store: stack.store,
      lineageUrl: `${subUrl}/graphql`,
      ingestionUrl: stack.ingestion.baseUrl,
    });
    const url = await listen(gw.httpServer);
    const ask = async () => {
      const res = await fetch(`${url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ query: existsQuery }),
      });
      return (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: unknown }>; extensions?: unknown };
    };
    try {
      const first = await ask();
      expect(first.errors?.[0]).toEqual(
        expect.objectContaining({
          message: 'The lineage service answered 503; retry later.',
          extensions: { code: 503, type: 'SERVICE_UNAVAILABLE', classification: 'DataFetchingException' },
        }),
      );
      expect(await ask()).toEqual({ data: { entityExists: expect.any(Boolean) }, extensions: {} });
    } finally {
      await gw.close();
      await new Promise<void>((r) => sub.close(() => r()));
    }
  });

  test('formatError masks a plain Error and logs it with its cause', () => {
    const logged: unknown[] = [];
    const logger = {
      ...createLogger('t', 'silent'),
      error: (...args: unknown[]) => {
        logged.push(args);
      },
    } as unknown as ReturnType<typeof createLogger>;
    const cause = new Error('neo4j said no');
    const formatted = createFormatError(logger)(
      { message: 'neo4j said no', path: ['x'], extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['…'] } },
      cause,
    );
    expect(formatted).toEqual({
      message: 'An unknown error occurred.',
      path: ['x'],
      extensions: { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' },
    });
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).toContain('neo4j said no');
  });
});

describe('authentication and authorization', () => {
  test('no token, a malformed token and a forged token are plain 401s before execution', async () => {
    const forged = admin.slice(0, -4) + (admin.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of [null, 'not-a-jwt', forged]) {
      const r = await stack.graphql(existsQuery, token);
      expect(r.status).toBe(401);
      expect(r.body.status).toBe(401);
      expect(r.body).not.toHaveProperty('data');
      expect(r.body).not.toHaveProperty('errors');
    }
  });

  test('a caller without the privilege gets 403 UNAUTHORIZED; any user reads (DataHub\'s "All Users" view policy)', async () => {
    const doc = `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${ns.user('someone-else')}", duration: ONE_HOUR, name: "x"}) { accessToken } }`;
    const denied = await stack.graphql(doc, nobody);
    expect(denied.status).toBe(200);
    expect(denied.body.data).toEqual({ createAccessToken: null });
    expect(denied.body.errors[0].extensions).toEqual({ code: 403, type: 'UNAUTHORIZED', classification: 'DataFetchingException' });
    expect(denied.body.errors[0].message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
    for (const caller of [nobody, reader]) {
      const allowed = await stack.graphql(`{ dataset(urn: "${ghost}") { urn exists } }`, caller);
      expect(allowed.body).toEqual({ data: { dataset: { urn: ghost, exists: false } }, extensions: {} });
    }
  });

  test("the caller's identity reaches the subgraph: createAccessToken owns the token by the caller", async () => {
    const me = ns.user('editor');
    const r = await stack.graphql(
      `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${me}", duration: ONE_HOUR, name: "mine"}) {
      accessToken metadata { urn type id name actorUrn ownerUrn createdAt expiresAt } } }`,
      editor,
    );
    expect(r.body.errors).toBeUndefined();
    const t = r.body.data.createAccessToken;
    expect(t.metadata).toMatchObject({ type: 'ACCESS_TOKEN', name: 'mine', actorUrn: me, ownerUrn: me });
    expect(t.metadata.expiresAt - t.metadata.createdAt).toBe(3_600_000);
    // The new token works, then stops working once revoked.
    expect((await stack.graphql(existsQuery, t.accessToken)).status).toBe(200);
    const revoked = await stack.graphql(`mutation { revokeAccessToken(tokenId: "${t.metadata.id}") }`, editor);
    expect(revoked.body).toEqual({ data: { revokeAccessToken: true }, extensions: {} });
    expect((await stack.graphql(existsQuery, t.accessToken)).status).toBe(401);
    // Revoking again is fine.
    expect((await stack.graphql(`mutation { revokeAccessToken(tokenId: "${t.metadata.id}") }`, editor)).body.data).toEqual({
      revokeAccessToken: true,
    });
  });

  test('tokens for someone else need MANAGE_ACCESS_TOKENS; a Reader mints its own (the "All Users" policy)', async () => {
    const other = ns.user('other');
    const doc = (actor: string) =>
      `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${actor}", duration: ONE_DAY, name: "x"}) { accessToken } }`;
    const byEditor = await stack.graphql(doc(other), editor);
    expect(byEditor.body.data).toEqual({ createAccessToken: null });
    expect(byEditor.body.errors[0].extensions.code).toBe(403);
    const byReader = await stack.graphql(doc(ns.user('reader')), reader);
    expect(byReader.body.errors).toBeUndefined();
    expect(typeof byReader.body.data.createAccessToken.accessToken).toBe('string');
    const byAdmin = await stack.graphql(doc(other), admin);
    expect(byAdmin.body.errors).toBeUndefined();
    expect(typeof byAdmin.body.data.createAccessToken.accessToken).toBe('string');
  });

  test("someone else's token can only be revoked with MANAGE_ACCESS_TOKENS", async () => {
    const minted = await stack.graphql(
      `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_DAY, name: "adm"}) { metadata { id } } }`,
      admin,
    );
    const id = minted.body.data.createAccessToken.metadata.id as string;
    const byEditor = await stack.graphql(`mutation { revokeAccessToken(tokenId: "${id}") }`, editor);
    expect(byEditor.body.errors[0].extensions.code).toBe(403);
    const byAdmin = await stack.graphql(`mutation { revokeAccessToken(tokenId: "${id}") }`, admin);
    expect(byAdmin.body.data).toEqual({ revokeAccessToken: true });
  });
});

describe('proxy to the ingestion service', () => {
  test("/api/gms/config and /gms/config are the ingestion service's /config, unauthenticated", async () => {
    const direct = await (await fetch(`${stack.ingestion.baseUrl}/config`)).json();
    for (const path of ['/api/gms/config', '/gms/config']) {
      const res = await fetch(`${stack.gatewayUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(direct);
    }
  });

  test('requests pass unchanged: method, query string, headers and body, both ways', async () => {
    const urn = ns.dataset('proxied');
    const proposal = {
      proposal: {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: {
          value: JSON.stringify({ name: 'proxied', description: 'via the front door', customProperties: {} }),
          contentType: 'application/json',
        },
      },
    };
    const post = await fetch(`${stack.gatewayUrl}/api/gms/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'X-RestLi-Protocol-Version': '2.0.0' },
      body: JSON.stringify(proposal),
    });
    expect(post.status).toBe(200);
    const got = await fetch(`${stack.gatewayUrl}/gms/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties&version=0`, {
      headers: { authorization: `Bearer ${admin}`, 'X-RestLi-Protocol-Version': '2.0.0' },
    });
    expect(got.status).toBe(200);
    expect(JSON.stringify(await got.json())).toContain('via the front door');
    // The ingestion service still does its own authentication behind the proxy.
    const anonymous = await fetch(`${stack.gatewayUrl}/gms/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties`);
    expect(anonymous.status).toBe(401);
    // …and what was ingested through the proxy is readable through GraphQL.
    const r = await stack.graphql(`{ dataset(urn: "${urn}") { exists properties { name description } } }`, reader);
    expect(r.body.data.dataset).toEqual({ exists: true, properties: { name: 'proxied', description: 'via the front door' } });
  });

  test('a path that is neither GraphQL, health nor /gms is 404', async () => {
    expect((await fetch(`${stack.gatewayUrl}/aspects?action=x`, { method: 'POST' })).status).toBe(404);
  });
});

test('an unreachable ingestion service is a prompt 5xx at the proxy, not a hang', async () => {
  const dead = createServer();
  const deadUrl = await listen(dead);
  await new Promise<void>((r) => dead.close(() => r()));
  const gw = await createGateway({
    config: testConfig(),
    logger: createLogger('t', 'silent'),
    store: stack.store,
    lineageUrl: `${stack.subgraphUrl}`,
    ingestionUrl: deadUrl,
  });
  const url = await listen(gw.httpServer);
  try {
    const res = await fetch(`${url}/gms/config`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBeGreaterThanOrEqual(502);
    expect(res.status).toBeLessThanOrEqual(504);
  } finally {
    await gw.close();
  }
});
