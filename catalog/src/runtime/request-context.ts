// The request a piece of code runs for, without threading it through every signature: an
// AsyncLocalStorage scope opened by the HTTP layer (service-runtime.ts) around each request. The
// logger stamps every line with its id and the store puts it into Neo4j transaction metadata, so
// one id follows a call from the gateway through the subgraph or ingestion service into Neo4j.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestScope {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const REQUEST_ID_HEADER = 'x-request-id';

// Ids come from clients and end up in log lines and Neo4j metadata: accept only short, plain ids
// (what tracing systems and load balancers generate) and mint a fresh one otherwise.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's request id when it is acceptable, else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && ACCEPTABLE_ID.test(value) ? value : randomUUID();
}

export function runInRequest<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
