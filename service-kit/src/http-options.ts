// Receive timeouts of every service's HTTP server (docs/wire-contract.md §Limits).
import type { ServerOptions } from 'node:http';

export interface HttpTimeoutConfig {
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_HEADERS_TIMEOUT_MS: number;
}

/**
 * Options for http.createServer: how long a client may take to send its headers and its whole
 * request (a slow or stalled upload gets 408 and is closed, instead of holding a socket forever).
 * Node checks these on a timer; it runs often enough that a limit is enforced within a quarter of
 * the headers timeout (at most every 30 s, node's default).
 */
export function httpServerOptions(config: HttpTimeoutConfig): ServerOptions {
  const requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    headersTimeout,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(headersTimeout / 4))),
  };
}
