// Request limits every process shares (issue 7 item 5): JSON nesting depth and the HTTP servers'
// receive timeouts. GraphQL's own limits live in service-kit/src/graphql-limits.ts.
import type { ServerOptions } from 'node:http';

/**
 * Deepest nesting accepted in JSON bodies, aspect values and patches. Jackson (DataHub's parser)
 * refuses deeper documents by default too; deeper values would overflow the stack of every
 * recursive walk after parsing (JSON.stringify, validation, patching) and turn into 500s.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether a JSON text nests arrays/objects deeper than `max`, checked before parsing: one linear
 * pass without recursion (safe on hostile input) that stops at the first level over the limit.
 * Strings are skipped, escapes honoured. Returns the problem, or undefined when within the limit.
 */
export function jsonDepthProblem(text: string, max: number = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return `JSON nesting is deeper than ${max} levels`;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

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
