// The GraphQL stack for HTTP-level tests: ingestion service, lineage subgraph and gateway, each a
// factory on an ephemeral port against the run's Neo4j, wired as in production (gateway → subgraph
// by URL, /gms/* → ingestion). Not a test file: the suites import it. In the scale-out run the
// stack is the replicas behind their fronts instead (test/support/external-stack.ts).
import type { Server } from 'node:http';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { createLineageSubgraph, type LineageSubgraph } from '../../lineage-service/src/app.ts';
import { GRAPHQL_PATH } from '../../service-kit/src/graphql-http.ts';
import { createGateway, type Gateway } from '../../gateway/src/app.ts';
import { listen, startIngestion, testConfig, type RunningIngestion } from '../support/services.ts';
import { testStore } from '../support/context.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { externalFront } from '../support/external-stack.ts';

export interface Stack {
  gatewayUrl: string;
  subgraphUrl: string;
  ingestion: RunningIngestion;
  store: Store;
  /** POST a GraphQL document to the front door (default path /api/graphql). */
  graphql(query: string, token: string | null, options?: { path?: string; variables?: Record<string, unknown> }): Promise<GraphqlReply>;
  close(): Promise<void>;
}

export interface GraphqlReply {
  status: number;
  text: string;
  body: any;
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((r) => (server.listening ? server.close(() => r()) : r()));
}

export async function startStack(overrides: Record<string, string> = {}): Promise<Stack> {
  const config = testConfig(overrides);
  const logger = createLogger('graphql-test', 'silent');
  const ingestion = await startIngestion(overrides);
  const store = testStore();
  const front = externalFront(overrides);
  let gatewayUrl: string, subgraphUrl: string, close: () => Promise<void>;
  if (front) {
    ({ gatewayUrl, subgraphUrl } = front);
    close = async () => {
      await ingestion.close();
      await store.close();
    };
  } else {
    const subgraph: LineageSubgraph = await createLineageSubgraph({ store, config, logger });
    subgraphUrl = `${await listen(subgraph.httpServer)}${GRAPHQL_PATH}`;
    const gateway: Gateway = await createGateway({ config, logger, store, lineageUrl: subgraphUrl, ingestionUrl: ingestion.baseUrl });
    gatewayUrl = await listen(gateway.httpServer);
    close = async () => {
      await gateway.close();
      await closeServer(gateway.httpServer);
      await subgraph.close();
      await ingestion.close();
      await store.close();
    };
  }
  return {
    gatewayUrl,
    subgraphUrl,
    ingestion,
    store,
    close,
    async graphql(query, token, options = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await fetch(`${gatewayUrl}${options.path ?? '/api/graphql'}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, ...(options.variables ? { variables: options.variables } : {}) }),
      });
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      return { status: res.status, text, body };
    },
  };
}
