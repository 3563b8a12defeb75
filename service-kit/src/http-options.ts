// HTTP connection settings of every service: the servers' receive and keep-alive timeouts, and the
// connection pool for calls from one of our services to another (docs/wire-contract.md §Limits).
import { Agent, type ServerOptions } from 'node:http';

export interface HttpTimeoutConfig {
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
}

/**
 * Options for http.createServer: how long a client may take to send its headers and its whole
 * request (a slow or stalled upload gets 408 and is closed, instead of holding a socket forever),
 * and how long an idle connection waits for its next request. Node checks the receive limits on a
 * timer; it runs often enough that a limit is enforced within a quarter of the headers timeout (at
 * most every 30 s, node's default).
 */
export function httpServerOptions(config: HttpTimeoutConfig): ServerOptions {
  const requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(headersTimeout / 4))),
  };
}

/** How long a pooled connection to another of our services may stay idle before the caller closes it. */
export const SERVICE_CALL_IDLE_MS = 30_000;

/**
 * The connection pool for calls between our services (the gateway to the lineage subgraph and to the
 * ingestion service). A server closes an idle connection after its keep-alive timeout; if a caller
 * sends a request on it at that moment, the request dies with ECONNRESET although nothing is wrong —
 * and on a loaded machine, where either event loop may stall for seconds, that moment is wide.
 * Node's own pool keeps a socket until one second before the server's announced timeout (5 s by
 * default); this one closes it after SERVICE_CALL_IDLE_MS, half a minute before the services'
 * HTTP_KEEP_ALIVE_TIMEOUT_MS (a callee announcing a shorter timeout still wins: node takes the smaller).
 */
export function serviceCallAgent(): Agent {
  return new Agent({ keepAlive: true, timeout: SERVICE_CALL_IDLE_MS });
}
