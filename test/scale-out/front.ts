// A round-robin HTTP front, the load balancer of the scale-out test: each request goes to the next
// target in turn, whatever connection it came on, and is relayed unchanged (method, path, headers,
// body; the answer likewise). The target's index is added to the answer in `x-front-target`, so a
// test can see which replica served a request. Test code, not a product proxy.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FRONT_TARGET_HEADER = 'x-front-target';

export interface RoundRobinFront {
  url: string;
  /** Requests relayed to each target so far. */
  counts: number[];
  close(): Promise<void>;
}

/** `targets` are origins (http://host:port); a request's path and query are kept. */
export async function startRoundRobinFront(targets: readonly string[]): Promise<RoundRobinFront> {
  const origins = targets.map((t) => new URL(t));
  const counts = origins.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next;
    next = (next + 1) % origins.length;
    counts[i]!++;
    const target = origins[i]!;
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [FRONT_TARGET_HEADER]: String(i) });
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', [FRONT_TARGET_HEADER]: String(i) });
      res.end(`front: target ${i} failed: ${e.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
