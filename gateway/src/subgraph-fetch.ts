// How the gateway calls its subgraph: over our own connection pool (service-kit serviceCallAgent),
// and with a subgraph that cannot answer reported as what it is — unavailable, retry later — instead
// of an unknown error.
import { request, type Agent, type IncomingMessage } from 'node:http';
import { request as secureRequest } from 'node:https';
import type { RemoteGraphQLDataSource } from '@apollo/gateway';
import { isCatalogError, unavailable } from '@lineage/catalog/model';

export type Fetcher = RemoteGraphQLDataSource['fetcher'];
type FetcherResponse = Awaited<ReturnType<Fetcher>>;

/**
 * A fetch for RemoteGraphQLDataSource that sends through `agent`. Apollo's default fetch keeps idle
 * connections until a second before the subgraph closes them, which a loaded machine can outlast:
 * the request then dies with ECONNRESET (service-kit/src/http-options.ts). An https:// subgraph (an
 * extra one, GATEWAY_EXTRA_SUBGRAPHS) is called over Node's own TLS pool.
 */
export function subgraphFetcher(agent: Agent): Fetcher {
  return (url, init) =>
    new Promise<FetcherResponse>((resolve, reject) => {
      const options = {
        method: init?.method ?? 'GET',
        headers: init?.headers ?? {},
        ...(init?.signal ? { signal: init.signal as AbortSignal } : {}),
      };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of [value ?? []].flat()) headers.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const bodyless = status === 204 || status === 205 || status === 304;
          resolve(new Response(bodyless ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
        });
      };
      const req = url.startsWith('https:') ? secureRequest(url, options, onResponse) : request(url, { ...options, agent }, onResponse);
      req.on('error', reject);
      req.end(init?.body);
    });
}

/**
 * What a failed subgraph call becomes at the gateway (RemoteGraphQLDataSource.didEncounterError).
 * The subgraph answers every request it executed with HTTP 200 and its own rendered errors, so a
 * call that got no answer (connection refused or reset) or a 5xx (a replica draining or overloaded)
 * is the subgraph being unavailable: 503 with Retry-After, which DataHub's clients retry. Anything
 * else is left as it was. `subgraph` names the one called in the message.
 */
export function subgraphFailure(error: unknown, response: FetcherResponse | undefined, subgraph = 'The lineage service'): unknown {
  if (isCatalogError(error)) return error;
  if (!response) return unavailable(`${subgraph} could not be reached; retry later.`, error);
  if (response.status >= 500) return unavailable(`${subgraph} answered ${response.status}; retry later.`, error);
  return error;
}
