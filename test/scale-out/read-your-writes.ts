// Read-your-writes across replicas (docs/wire-contract.md §Read-your-writes), as a client sees it:
// every kind of write answers X-Lineage-Bookmark — through the gateway as well as from the service
// that wrote — and a read on another replica that presents it sees the write. Shared by
// bookmarks.test.ts (two in-process replicas, part of npm test) and replicas.scale.ts (two replicas
// of every service as processes, npm run test:scale-out). Not a test file.
//
// Neo4j community is one server: there, a committed write is visible to every later transaction
// with or without a bookmark, so "B sees A's write" alone cannot show that bookmarks are used. What
// shows it is the header's effect inside Neo4j: a well-formed header that holds no Neo4j bookmark
// makes the read fail with Neo4j's InvalidBookmark (400) at every door — it only can if the door's
// reads start their transactions with the presented bookmarks.
import type { Store } from '../../catalog/src/store/store.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';

export const BOOKMARK = 'x-lineage-bookmark';

/** bolt://… → neo4j://… (the same server, through the routing driver). */
export function routingUri(uri: string): string {
  return uri.replace(/^bolt(\+s|\+ssc)?:\/\//, 'neo4j$1://');
}
const ITEMS = /^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/;

/** Where one replica of each service answers. */
export interface Replica {
  gatewayUrl: string;
  ingestionUrl: string;
  /** The subgraph's GraphQL endpoint (…/graphql). */
  lineageUrl: string;
}

export interface Target {
  /** At least two: writes go to one, reads to another. */
  replicas: Replica[];
  store: Store;
}

/**
 * The replicas accept these system client credentials (DATAHUB_SYSTEM_CLIENT_ID / _SECRET), with
 * which authentication reads nothing: the first read of such a request is past the gateway.
 */
export const SYSTEM_CLIENT = { id: 'scale_out_system', secret: 'scale-out-system-secret' };
const SYSTEM_AUTH = `Basic ${SYSTEM_CLIENT.id}:${SYSTEM_CLIENT.secret}`;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function send(
  url: string,
  init: { method?: string; token?: string | null; auth?: string; bookmark?: string; body?: unknown },
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.auth) headers.authorization = init.auth;
  if (init.bookmark !== undefined) headers[BOOKMARK] = init.bookmark;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** The bookmark a write answered; fails the test when there is none or it is not in the header's syntax. */
function bookmarkOf(r: Reply): string {
  expect(r.status).toBeLessThan(300);
  const b = r.headers.get(BOOKMARK);
  expect(b).toMatch(ITEMS);
  return b!;
}

const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: urn.split(':')[2],
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});

const SCROLL = `query q($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) { total searchResults { degree entity { urn } } } }`;

export function readYourWritesSuite(target: () => Target): void {
  const ns = namespace('ryw');
  const src = ns.dataset('src');
  const mid = ns.dataset('mid');
  const added = ns.dataset('added_by_update_lineage');
  const viaOpenApi = ns.dataset('via_openapi');
  let admin: string;
  // A = where a write goes, B = where the next read goes.
  const A = () => target().replicas[0]!;
  const B = () => target().replicas[1]!;

  const graphql = (
    replica: Replica,
    query: string,
    variables: Record<string, unknown>,
    options: { bookmark?: string; token?: string; direct?: boolean } = {},
  ) =>
    send(options.direct ? replica.lineageUrl : `${replica.gatewayUrl}/api/graphql`, {
      token: options.token ?? admin,
      bookmark: options.bookmark,
      body: { query, variables },
    });
  const downstream = async (replica: Replica, urn: string, bookmark: string) => {
    const r = await graphql(replica, SCROLL, { input: { urn, direction: 'DOWNSTREAM', count: 100 } }, { bookmark });
    expect(r.body?.errors).toBeUndefined();
    return (r.body.data.scrollAcrossLineage.searchResults as Array<{ degree: number; entity: { urn: string } }>)
      .map((h) => `${h.degree} ${h.entity.urn}`)
      .sort();
  };

  beforeAll(async () => {
    admin = await tokenFor(target().store, 'urn:li:corpuser:datahub');
  });

  test('an ingest through one gateway answers its bookmark; with it, the other replica reads the write', async () => {
    const w = await send(`${A().gatewayUrl}/api/gms/aspects?action=ingestProposalBatch`, {
      token: admin,
      body: {
        proposals: [
          mcp(src, 'datasetProperties', { name: 'src', customProperties: {} }),
          mcp(mid, 'datasetProperties', { name: 'mid', customProperties: {} }),
          mcp(mid, 'upstreamLineage', {
            upstreams: [{ dataset: src, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' } }],
          }),
        ],
      },
    });
    expect(w.body).toEqual({ value: 'success' });
    const bookmark = bookmarkOf(w);
    expect(await downstream(B(), src, bookmark)).toEqual([`1 ${mid}`]);
    const entity = await graphql(
      B(),
      `
        query q($urn: String!) {
          entityExists(urn: $urn)
          dataset(urn: $urn) {
            urn
          }
        }
      `,
      { urn: mid },
      { bookmark },
    );
    expect(entity.body).toEqual({ data: { entityExists: true, dataset: { urn: mid } }, extensions: {} });
    const aspect = await send(`${B().gatewayUrl}/api/gms/aspects/${encodeURIComponent(mid)}?aspect=upstreamLineage&version=0`, {
      token: admin,
      bookmark,
    });
    expect(aspect.status).toBe(200);
    // A read answers no bookmark: only writes do.
    expect(aspect.headers.get(BOOKMARK)).toBeNull();
    expect(entity.headers.get(BOOKMARK)).toBeNull();
  });

  test('OpenAPI and updateLineage: each answers its bookmark, the next step on the other replica presents it', async () => {
    // Created on B by OpenAPI, edited on A by updateLineage (whose existence check must see it), read on B.
    const first = bookmarkOf(
      await send(`${A().gatewayUrl}/api/gms/aspects?action=ingestProposal`, {
        token: admin,
        body: { proposal: mcp(added, 'datasetProperties', { name: 'added' }) },
      }),
    );
    const created = await send(`${B().gatewayUrl}/api/gms/openapi/v3/entity/dataset?async=false`, {
      token: admin,
      bookmark: first,
      body: [{ urn: viaOpenApi, datasetProperties: { value: { name: 'via_openapi', customProperties: {} } } }],
    });
    const second = bookmarkOf(created);
    const update = await graphql(
      A(),
      `
        mutation m($input: UpdateLineageInput!) {
          updateLineage(input: $input)
        }
      `,
      {
        input: {
          edgesToAdd: [
            { upstreamUrn: src, downstreamUrn: added },
            { upstreamUrn: mid, downstreamUrn: viaOpenApi },
          ],
          edgesToRemove: [],
        },
      },
      { bookmark: second },
    );
    expect(update.body).toEqual({ data: { updateLineage: true }, extensions: {} });
    // The subgraph wrote; the gateway passed its bookmark on.
    const third = bookmarkOf(update);
    expect(await downstream(B(), src, third)).toEqual([`1 ${added}`, `1 ${mid}`, `2 ${viaOpenApi}`].sort());
  });

  test('the gateway answers the bookmark the subgraph answered; the ingestion service relays it from /api/graphql', async () => {
    const mutation = `mutation m($input: UpdateLineageInput!) { updateLineage(input: $input) }`;
    const input = { input: { edgesToAdd: [{ upstreamUrn: src, downstreamUrn: added }], edgesToRemove: [] } };
    const direct = await graphql(A(), mutation, input, { direct: true });
    expect(direct.body).toEqual({ data: { updateLineage: true }, extensions: {} });
    bookmarkOf(direct);
    const relayed = await send(`${A().ingestionUrl}/api/graphql`, { token: admin, body: { query: mutation, variables: input } });
    expect(relayed.body).toEqual({ data: { updateLineage: true }, extensions: {} });
    bookmarkOf(relayed);
  });

  test('OpenLineage: an event answers its bookmark; the other replica sees the job it wrote', async () => {
    const pg = `postgres://${ns.platform}.example.com:5432`;
    const event = {
      eventType: 'COMPLETE',
      eventTime: new Date().toISOString(),
      producer: 'https://example.com/test',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId: '0196f3a1-6a4e-7d6b-9c3f-2f3b1f0a9e11' },
      job: { namespace: ns.platform, name: 'ol_job' },
      inputs: [{ namespace: pg, name: `${ns.platform}.ol_in` }],
      outputs: [{ namespace: pg, name: `${ns.platform}.ol_out` }],
    };
    const w = await send(`${A().gatewayUrl}/api/v1/lineage`, { token: admin, body: event });
    const bookmark = bookmarkOf(w);
    const olIn = `urn:li:dataset:(urn:li:dataPlatform:postgres,${ns.platform}.ol_in,PROD)`;
    const hits = await downstream(B(), olIn, bookmark);
    expect(hits).toContain(`2 urn:li:dataset:(urn:li:dataPlatform:postgres,${ns.platform}.ol_out,PROD)`);
  });

  test('restoreIndices answers its bookmark; with it, the other replica reads the restored edge', async () => {
    // Drift by hand (the one place tests may write Cypher): mid's :LINEAGE edge from src is gone.
    const { store } = target();
    await store.driver.executeQuery(
      'MATCH (:Entity {urn: $src})-[r:LINEAGE]->(:Entity {urn: $mid}) DELETE r',
      { src, mid },
      { database: store.database },
    );
    const restored = await send(`${B().gatewayUrl}/api/gms/operations?action=restoreIndices`, {
      token: admin,
      body: { urn: mid, batchSize: 10 },
    });
    expect(restored.body).toMatchObject({ edgesAdded: expect.any(Number) });
    expect(restored.body.edgesAdded).toBeGreaterThan(0);
    const bookmark = bookmarkOf(restored);
    expect(await downstream(A(), src, bookmark)).toContain(`1 ${mid}`);
  });

  test('a token created on one replica authenticates on the other with its bookmark', async () => {
    const created = await graphql(
      A(),
      `
        mutation m($input: CreateAccessTokenInput!) {
          createAccessToken(input: $input) {
            accessToken
          }
        }
      `,
      { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:datahub', duration: 'ONE_HOUR', name: `${ns.platform} replica token` } },
    );
    expect(created.body?.errors).toBeUndefined();
    const bookmark = bookmarkOf(created);
    const fresh = created.body.data.createAccessToken.accessToken as string;
    const r = await graphql(
      B(),
      `
        query q($urn: String!) {
          entityExists(urn: $urn)
        }
      `,
      { urn: mid },
      { token: fresh, bookmark },
    );
    expect(r.body).toEqual({ data: { entityExists: true }, extensions: {} });
  });

  test('the bookmarks of several writes may be presented together', async () => {
    const one = bookmarkOf(
      await send(`${A().gatewayUrl}/api/gms/aspects?action=ingestProposal`, {
        token: admin,
        body: { proposal: mcp(src, 'status', { removed: false }) },
      }),
    );
    const two = bookmarkOf(
      await send(`${B().gatewayUrl}/api/gms/aspects?action=ingestProposal`, {
        token: admin,
        body: { proposal: mcp(mid, 'status', { removed: false }) },
      }),
    );
    expect(await downstream(A(), src, `${one},${two}`)).toContain(`1 ${mid}`);
  });

  describe('presented bookmarks reach Neo4j at every door', () => {
    // Valid header syntax, but no Neo4j bookmark inside: only Neo4j can refuse it.
    const notNeo4j = Buffer.from('not-a-neo4j-bookmark').toString('base64url');
    const exists = { query: `query q($urn: String!) { entityExists(urn: $urn) }`, variables: { urn: mid } };

    test('gateway GraphQL, subgraph, ingestion (Rest.li, OpenAPI, through the gateway and directly): 400 naming the header', async () => {
      const replies = {
        gateway: await send(`${A().gatewayUrl}/api/graphql`, { token: admin, bookmark: notNeo4j, body: exists }),
        subgraph: await send(A().lineageUrl, { token: admin, bookmark: notNeo4j, body: exists }),
        gms: await send(`${B().gatewayUrl}/api/gms/aspects/${encodeURIComponent(mid)}?aspect=datasetProperties`, {
          token: admin,
          bookmark: notNeo4j,
        }),
        ingestion: await send(`${B().ingestionUrl}/aspects/${encodeURIComponent(mid)}?aspect=datasetProperties`, {
          token: admin,
          bookmark: notNeo4j,
        }),
        openapi: await send(`${B().ingestionUrl}/openapi/v3/entity/dataset/batchGet`, {
          token: admin,
          bookmark: notNeo4j,
          body: [{ urn: mid, datasetProperties: {} }],
        }),
      };
      for (const [door, r] of Object.entries(replies)) {
        expect([door, r.status]).toEqual([door, 400]);
        expect([door, r.text]).toEqual([door, expect.stringContaining('x-lineage-bookmark is not a bookmark of this database')]);
      }
      expect(replies.openapi.body).toEqual({ error: expect.any(String) });
      // Nothing is left broken: the same requests without the header succeed.
      expect((await send(`${A().gatewayUrl}/api/graphql`, { token: admin, body: exists })).body).toEqual({
        data: { entityExists: true },
        extensions: {},
      });
      expect((await send(`${B().ingestionUrl}/aspects/${encodeURIComponent(mid)}?aspect=datasetProperties`, { token: admin })).status).toBe(
        200,
      );
    });

    test("the gateway and the ingestion service's GraphQL relay pass the presented header on to the subgraph", async () => {
      // Authentication reads nothing here, so the first read to present the header is the subgraph's
      // resolver: its refusal is a GraphQL error with code 400 (DataHub's envelope, HTTP 200).
      for (const url of [`${A().gatewayUrl}/api/graphql`, `${B().ingestionUrl}/api/graphql`]) {
        const r = await send(url, { auth: SYSTEM_AUTH, bookmark: notNeo4j, body: exists });
        expect([url, r.status]).toEqual([url, 200]);
        expect([url, r.body?.errors?.[0]]).toEqual([
          url,
          expect.objectContaining({
            message: expect.stringContaining('x-lineage-bookmark is not a bookmark of this database'),
            extensions: expect.objectContaining({ code: 400 }),
          }),
        ]);
        const plain = await send(url, { auth: SYSTEM_AUTH, body: exists });
        expect(plain.body).toEqual({ data: { entityExists: true }, extensions: {} });
      }
    });

    test('a malformed header is a 400 before anything runs, at every door', async () => {
      const write = { proposal: mcp(src, 'status', { removed: true }) };
      const replies = {
        gateway: await send(`${A().gatewayUrl}/api/graphql`, { token: admin, bookmark: 'FB:raw+bookmark=', body: exists }),
        subgraph: await send(A().lineageUrl, { token: admin, bookmark: '%%%', body: exists }),
        gms: await send(`${B().gatewayUrl}/api/gms/aspects?action=ingestProposal`, { token: admin, bookmark: 'a', body: write }),
        ingestion: await send(`${B().ingestionUrl}/aspects?action=ingestProposal`, {
          token: admin,
          bookmark: Array(17).fill('YWJj').join(','),
          body: write,
        }),
      };
      for (const [door, r] of Object.entries(replies)) {
        expect([door, r.status]).toEqual([door, 400]);
        expect([door, r.text]).toEqual([door, expect.stringMatching(/x-lineage-bookmark (is malformed|holds 17 bookmarks)/)]);
      }
      // The refused write changed nothing.
      const status = await send(`${A().ingestionUrl}/aspects/${encodeURIComponent(src)}?aspect=status`, { token: admin });
      expect(status.body.aspect).toEqual({ 'com.linkedin.common.Status': { removed: false } });
    });
  });
}
