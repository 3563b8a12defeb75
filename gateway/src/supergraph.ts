// The supergraph the front door serves: the lineage subgraph, composed from its own SDL (no call to
// it at start), and every extra subgraph GATEWAY_EXTRA_SUBGRAPHS lists, whose SDL is read from the
// subgraph itself (`{ _service { sdl } }`, federation's own query) while it comes up. Composition is
// static: the supergraph is fixed once the gateway has started (docs/configuration.md §Extra subgraphs).
import { parse, Source, type DocumentNode, type GraphQLError } from 'graphql';
import { composeServices } from '@apollo/composition';
import type { GatewayConfig } from '@lineage/catalog/runtime';
import { subgraphTypeDefs } from '@lineage/lineage-service';
import type { Fetcher } from './subgraph-fetch.ts';

/** The catalog's own subgraph, under the name composition gives it. */
export const LINEAGE_SUBGRAPH = 'lineage';

type ExtraSubgraph = NonNullable<GatewayConfig['GATEWAY_EXTRA_SUBGRAPHS']>[number];
export interface SubgraphDefinition extends ExtraSubgraph {
  typeDefs: DocumentNode;
}

/** Why the gateway refuses to start: the supergraph cannot be built from what is configured. */
export class SupergraphError extends Error {}

/** Where a composition error points: the subgraphs whose SDL its nodes come from. */
function subgraphsOf(error: GraphQLError, names: readonly string[]): string[] {
  const sources = (error.nodes ?? []).flatMap((n) => (n.loc?.source.name ? [n.loc.source.name] : []));
  return names.filter((name) => sources.includes(name));
}

/**
 * Composes the supergraph of the lineage subgraph and `extras`. Throws a SupergraphError listing
 * every composition error, each with its code and the subgraphs it involves.
 */
export function composeSupergraph(lineageUrl: string, extras: readonly SubgraphDefinition[] = []): string {
  const services = [{ name: LINEAGE_SUBGRAPH, url: lineageUrl, typeDefs: subgraphTypeDefs() }, ...extras];
  const result = composeServices(services);
  if (!result.errors) return result.supergraphSdl;
  const names = services.map((s) => s.name);
  const lines = result.errors.map((e) => {
    const code = typeof e.extensions.code === 'string' ? `[${e.extensions.code}] ` : '';
    const involved = subgraphsOf(e, names);
    return `  ${code}${e.message}${involved.length ? ` (in subgraph ${involved.map((n) => `"${n}"`).join(', ')})` : ''}`;
  });
  const of = extras.length ? ` of subgraphs ${names.map((n) => `"${n}"`).join(', ')}` : '';
  throw new SupergraphError(`Supergraph composition${of} failed with ${result.errors.length} error(s):\n${lines.join('\n')}`);
}

/** One look at a subgraph's SDL: the answer, or why there is none yet and whether to look again. */
type SdlAnswer = { sdl: string } | { retry: boolean; saw: string };

interface SdlReadOptions {
  /** How the gateway calls its subgraphs (subgraph-fetch.ts). */
  fetcher: Fetcher;
  /** The whole wait, GATEWAY_SUBGRAPH_WAIT_MS. */
  waitMs: number;
  /** Pause between looks; default 500 ms. */
  intervalMs?: number;
}

const SDL_QUERY = JSON.stringify({ query: '{ _service { sdl } }' });
/** The longest one look may take, so a subgraph that accepts but never answers is looked at again. */
const LOOK_MS = 10_000;

async function lookAtSdl(fetcher: Fetcher, url: string, timeoutMs: number): Promise<SdlAnswer> {
  let res: Awaited<ReturnType<Fetcher>>;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: SDL_QUERY,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    // No connection yet (ECONNREFUSED), or no answer within the look.
    const err = e as Error & { code?: string };
    return { retry: true, saw: err.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : (err.code ?? err.message) };
  }
  const text = await res.text().catch((e: Error) => `(body unreadable: ${e.message})`);
  // A subgraph still starting (or a proxy before it) answers 5xx or 429: look again.
  if (res.status >= 500 || res.status === 429) return { retry: true, saw: `HTTP ${res.status}` };
  let body: { data?: { _service?: { sdl?: unknown } }; errors?: Array<{ message?: string }> } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const sdl = body?.data?._service?.sdl;
  if (res.status === 200 && typeof sdl === 'string') return { sdl };
  const why = body?.errors?.map((e) => e.message).join('; ') || text.slice(0, 200) || '(empty body)';
  return { retry: false, saw: `HTTP ${res.status} without _service.sdl: ${why}` };
}

/**
 * The SDL `subgraph` serves, parsed (its nodes name the subgraph, so composition errors can). Looks
 * again while the subgraph is not up yet (no connection, a 5xx), until `waitMs` has passed; an answer
 * that is not a federation subgraph's is final. Throws a SupergraphError naming the subgraph, its
 * URL and what it answered last.
 */
async function readSubgraphSdl(subgraph: ExtraSubgraph, options: SdlReadOptions): Promise<SubgraphDefinition> {
  const started = Date.now();
  const intervalMs = options.intervalMs ?? 500;
  const fail = (why: string) => new SupergraphError(`Subgraph "${subgraph.name}" (${subgraph.url}, GATEWAY_EXTRA_SUBGRAPHS) ${why}`);
  for (let looks = 1; ; looks++) {
    const remaining = options.waitMs - (Date.now() - started);
    const answer = await lookAtSdl(options.fetcher, subgraph.url, Math.max(1, Math.min(LOOK_MS, remaining)));
    if ('sdl' in answer) {
      try {
        return { ...subgraph, typeDefs: parse(new Source(answer.sdl, subgraph.name)) };
      } catch (e) {
        throw fail(`served SDL that does not parse: ${(e as Error).message}`);
      }
    }
    if (!answer.retry) throw fail(`is not a federation subgraph: ${answer.saw}`);
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(intervalMs, options.waitMs - (Date.now() - started)))));
    if (Date.now() - started >= options.waitMs)
      throw fail(
        `did not answer { _service { sdl } } within ${options.waitMs} ms (GATEWAY_SUBGRAPH_WAIT_MS; ${looks} looks); last seen: ${answer.saw}`,
      );
  }
}

/**
 * The supergraph of `config`: the lineage subgraph alone when no extra subgraph is configured (no
 * call to anything), else every extra subgraph's SDL read (all at once) and composed with it. Every
 * subgraph whose SDL cannot be read is named in the one error.
 */
export async function supergraphOf(config: GatewayConfig, lineageUrl: string, fetcher: Fetcher): Promise<string> {
  const extras = config.GATEWAY_EXTRA_SUBGRAPHS ?? [];
  if (!extras.length) return composeSupergraph(lineageUrl);
  const read = await Promise.allSettled(extras.map((s) => readSubgraphSdl(s, { fetcher, waitMs: config.GATEWAY_SUBGRAPH_WAIT_MS })));
  const failed = read.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
  if (failed.length)
    throw new SupergraphError(`The gateway cannot read the SDL of every configured subgraph:\n${failed.map((m) => `  ${m}`).join('\n')}`);
  return composeSupergraph(
    lineageUrl,
    read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
  );
}
