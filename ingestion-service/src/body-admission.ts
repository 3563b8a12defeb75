// Requests admitted by the bytes of their bodies (docs/wire-contract.md §Body limits). While a write
// is handled the service holds its body, the parsed records, their derived edges and the statements'
// parameters: about seven times the body's bytes for hub lineage. Three 15 MiB batches of it at once
// (what DataHub's emitter sends at its payload cap, and what a sink with several threads sends
// together) took the service past its 160 MB heap and V8 ended the process, failing every request
// in flight. So the bodies handled at once add up to at most MAX_INFLIGHT_BODY_BYTES; a request
// past it waits, its body unread in the socket, in arrival order, for at most BODY_WAIT_MS, and then
// gets a 503 with Retry-After, which DataHub's emitter retries.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Next } from 'koa';
import { declaredBodyLength } from '@lineage/service-kit';
import { CatalogError } from '@lineage/catalog/model';

/** Seconds a client is asked to wait after a request found no room. */
const RETRY_AFTER_SECONDS = 2;

export interface ByteGate {
  /**
   * Resolves with a release once `bytes` fit beside the bytes admitted before (a request asking more
   * than the whole budget is admitted alone); null when `waitMs` passed or `abandoned` fired first.
   */
  admit(bytes: number, waitMs: number, abandoned?: (leave: () => void) => void): Promise<(() => void) | null>;
  /** Bytes admitted now, and requests waiting. */
  load(): { admitted: number; waiting: number };
}

interface Waiter {
  bytes: number;
  admit: () => void;
}

/** A first-come, first-served budget of bytes. */
export function createByteGate(budget: number): ByteGate {
  let admitted = 0;
  const queue: Waiter[] = [];
  const fits = (bytes: number) => admitted === 0 || admitted + bytes <= budget;
  // The head goes first even if a later, smaller request would fit: a large body is not starved.
  const admitWaiting = () => {
    while (queue.length && fits(queue[0]!.bytes)) queue.shift()!.admit();
  };
  const grant = (bytes: number) => {
    admitted += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      admitted -= bytes;
      admitWaiting();
    };
  };
  return {
    admit(requested, waitMs, abandoned) {
      const bytes = Math.min(requested, budget);
      if (bytes === 0) return Promise.resolve(() => {});
      if (!queue.length && fits(bytes)) return Promise.resolve(grant(bytes));
      return new Promise((resolve) => {
        const leave = () => {
          const i = queue.indexOf(waiter);
          if (i < 0) return;
          queue.splice(i, 1);
          clearTimeout(timer);
          resolve(null);
          // A waiter that leaves the head may unblock the smaller ones behind it.
          admitWaiting();
        };
        const waiter: Waiter = {
          bytes,
          admit: () => {
            clearTimeout(timer);
            resolve(grant(bytes));
          },
        };
        const timer = setTimeout(leave, waitMs);
        queue.push(waiter);
        abandoned?.(leave);
      });
    },
    load: () => ({ admitted, waiting: queue.length }),
  };
}

/**
 * The bytes a request's body may take once read: its declared length when it is sent as is, the cap
 * when its length is unknown (chunked) or it is compressed (the cap counts inflated bytes). A body
 * declared over the cap is refused before it is read, so it takes nothing.
 */
export function bodyWeight(headers: IncomingHttpHeaders, limitBytes: number): number {
  const declared = declaredBodyLength(headers);
  if (declared !== null && headers['transfer-encoding'] === undefined) return declared > limitBytes ? 0 : declared;
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined ? limitBytes : 0;
}

/** Holds each request with a body until its bytes fit the budget, for the whole of its handling. */
export function bodyAdmissionMiddleware(options: { budgetBytes: number; limitBytes: number; waitMs: number }) {
  const gate = createByteGate(options.budgetBytes);
  return async (ctx: Context, next: Next) => {
    const bytes = bodyWeight(ctx.req.headers, options.limitBytes);
    const release = await gate.admit(bytes, options.waitMs, (leave) => ctx.res.once('close', leave));
    if (!release) {
      // The upload is read and dropped, so the client sees the 503 rather than a reset connection.
      ctx.req.resume();
      throw new CatalogError(
        'unavailable',
        `The service is handling ${gate.load().admitted} bytes of requests (MAX_INFLIGHT_BODY_BYTES ${options.budgetBytes}); ` +
          `this request waited ${options.waitMs} ms (BODY_WAIT_MS) without its turn. Retry later.`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}
