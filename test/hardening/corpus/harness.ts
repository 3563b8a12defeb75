// The whole service set for the hardening suites: ingestion service, lineage subgraph and gateway,
// each a real factory on an ephemeral port against the run's Neo4j, wired as in production
// (gateway → subgraph, gateway /gms/* → ingestion, ingestion /api/graphql → gateway), every
// process logging through the production logger into one in-memory stream the tests can read.
// Also: HTTP helpers and a snapshot of everything a namespace owns, to prove "nothing written".
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '../../../catalog/src/runtime/logger.ts';
import { httpServerOptions } from '../../../service-kit/src/http-options.ts';
import type { Config } from '../../../catalog/src/runtime/config.ts';
import type { Store } from '../../../catalog/src/store/store.ts';
import { createIngestionApp } from '../../../ingestion-service/src/app.ts';
import { createLineageSubgraph, type LineageSubgraph } from '../../../lineage-service/src/app.ts';
import { GRAPHQL_PATH } from '../../../service-kit/src/graphql-http.ts';
import { createGateway, type Gateway } from '../../../gateway/src/app.ts';
import { listen, testConfig } from '../../support/services.ts';
import { createStore } from '../../../catalog/src/store/store.ts';

export interface Harness {
  ingestionUrl: string;
  gatewayUrl: string;
  subgraphUrl: string;
  store: Store;
  config: Config;
  /** Every log line written so far by the three services (JSON text). */
  logLines(): string[];
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  text: string;
  json: any;
  headers: Headers;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => (server.listening ? server.close(() => r()) : r()));
}

export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const config = testConfig(overrides);
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  // The production logger (redaction included) at its most verbose level.
  const logger = (name: string) => createLogger(name, 'trace', sink);
  // The run's Neo4j, with the one store option the configuration sets (as service-runtime does).
  const store = createStore({
    uri: process.env.TEST_NEO4J_URI!,
    user: process.env.TEST_NEO4J_USER,
    password: process.env.TEST_NEO4J_PASSWORD,
    database: 'neo4j',
    bookmarkWaitMs: config.BOOKMARK_WAIT_MS,
  });

  const subgraph: LineageSubgraph = await createLineageSubgraph({ store, config, logger: logger('lineage-service') });
  const subgraphUrl = `${await listen(subgraph.httpServer)}${GRAPHQL_PATH}`;

  // The ingestion server listens first (its handler is attached below) so the gateway can know its url.
  const ingestionServer = createServer(httpServerOptions(config));
  const ingestionUrl = await listen(ingestionServer);
  const gateway: Gateway = await createGateway({ config, logger: logger('gateway'), store, lineageUrl: subgraphUrl, ingestionUrl });
  const gatewayUrl = await listen(gateway.httpServer);
  const app = createIngestionApp({ store, config, logger: logger('ingestion-service'), graphqlUrl: `${gatewayUrl}/api/graphql` });
  ingestionServer.on('request', app.callback());

  return {
    ingestionUrl,
    gatewayUrl,
    subgraphUrl,
    store,
    config,
    logLines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    async close() {
      await gateway.close();
      await closeServer(gateway.httpServer);
      await subgraph.close();
      await closeServer(ingestionServer);
      await store.close();
    },
  };
}

export interface RequestSpec {
  method?: string;
  /** Object → JSON; string/Buffer → sent as is. */
  body?: unknown;
  /** Default application/json when there is a body; null = no Content-Type header. */
  contentType?: string | null;
  token?: string | null;
  /** Raw Authorization header (wins over token). */
  authorization?: string;
  headers?: Record<string, string>;
}

export async function send(url: string, spec: RequestSpec = {}): Promise<Reply> {
  const headers: Record<string, string> = { 'X-RestLi-Protocol-Version': '2.0.0', ...(spec.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (spec.body !== undefined) {
    body = typeof spec.body === 'string' || Buffer.isBuffer(spec.body) ? spec.body : JSON.stringify(spec.body);
  }
  const contentType = spec.contentType === undefined ? (body !== undefined ? 'application/json' : null) : spec.contentType;
  if (contentType) headers['Content-Type'] = contentType;
  if (spec.authorization !== undefined) headers.Authorization = spec.authorization;
  else if (spec.token) headers.Authorization = `Bearer ${spec.token}`;
  const res = await fetch(url, { method: spec.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, text, json, headers: res.headers };
}

/** POST a GraphQL request; `raw` replaces the JSON body entirely. */
export function graphql(
  url: string,
  token: string | null,
  doc: { query?: string; variables?: unknown; operationName?: unknown; raw?: string | Buffer; contentType?: string | null },
): Promise<Reply> {
  const body = doc.raw ?? {
    query: doc.query,
    ...(doc.variables !== undefined ? { variables: doc.variables } : {}),
    ...(doc.operationName !== undefined ? { operationName: doc.operationName } : {}),
  };
  return send(url, { body, token, ...(doc.contentType !== undefined ? { contentType: doc.contentType } : {}) });
}

export interface Snapshot {
  nodes: number;
  aspects: number;
  relationships: number;
  /** Rows and edges written by the watched actors anywhere in the database. */
  actorAspects: number;
  actorEdges: number;
  hash: string;
}

/**
 * Everything the namespace owns — entity nodes whose urn contains `marker`, their aspect rows and
 * every relationship touching them, all properties included — as counts plus a hash, and the
 * number of aspect rows / edges anywhere stamped with one of `actors` (catches writes outside the
 * namespace, e.g. under a urn an injection string made up).
 */
export async function snapshot(store: Store, marker: string, actors: string[]): Promise<Snapshot> {
  const q = async (cypher: string) =>
    (await store.driver.executeQuery(cypher, { marker, actors }, { database: store.database })).records.map((r) => r.toObject());
  const nodes = await q(
    'MATCH (n:Entity) WHERE n.urn CONTAINS $marker RETURN n.urn AS urn, properties(n) AS props, labels(n) AS labels ORDER BY urn',
  );
  const aspects = await q('MATCH (a:Aspect) WHERE a.urn CONTAINS $marker RETURN a.key AS key, properties(a) AS props ORDER BY key');
  const rels = await q(`MATCH (n:Entity)-[r]->(m) WHERE n.urn CONTAINS $marker OR m.urn CONTAINS $marker
    RETURN type(r) AS type, n.urn AS from, coalesce(m.urn, m.key) AS to, properties(r) AS props ORDER BY type, from, to, coalesce(r.key, '')`);
  const [actorAspects] = await q('MATCH (a:Aspect) WHERE a.createdBy IN $actors RETURN count(a) AS n');
  const [actorEdges] = await q('MATCH ()-[r]->() WHERE r.createdActor IN $actors OR r.updatedActor IN $actors RETURN count(r) AS n');
  const hash = createHash('sha256')
    .update(
      JSON.stringify([nodes, aspects, rels], (_k, v) =>
        typeof v === 'bigint' ? String(v) : v?.low !== undefined && v?.high !== undefined ? `${v.high}:${v.low}` : v,
      ),
    )
    .digest('hex');
  return {
    nodes: nodes.length,
    aspects: aspects.length,
    relationships: rels.length,
    actorAspects: toNumber(actorAspects!.n),
    actorEdges: toNumber(actorEdges!.n),
    hash,
  };
}

const toNumber = (v: unknown): number =>
  typeof v === 'object' && v !== null && 'toNumber' in v ? (v as { toNumber(): number }).toNumber() : Number(v);
