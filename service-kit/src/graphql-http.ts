// GraphQL over plain Node HTTP for the subgraph and the gateway (docs/wire-contract.md §GraphQL): what happens
// before Apollo runs is decided here. GET → 405; unparseable JSON or no `query` → bare 400; the
// caller is authenticated before any GraphQL processing (plain 401 with a Rest.li-style body);
// only then does Apollo execute, and the envelope plugin makes every executed request HTTP 200.
// A malformed X-Lineage-Bookmark is a bare 400 too; the presented bookmarks hold for everything the
// request reads, authentication included, and a request that committed a write answers its
// bookmark (docs/wire-contract.md §Read-your-writes).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import { isCatalogError, jsonDepthProblem } from '@lineage/catalog/model';
import { runCausally, type Logger } from '@lineage/catalog/runtime';
import { BOOKMARK_HEADER, formatBookmarkHeader, mergeBookmarkHeaders, parseBookmarkHeader } from './bookmarks.ts';
import { restStatusOf, UNKNOWN_ERROR_MESSAGE } from './error-codes.ts';
import { createFormatError, restliErrorBody } from './graphql-envelope.ts';
import { readBodyText } from './request-body.ts';
import {
  documentProblem,
  graphqlLimitsFromConfig,
  graphqlValidationRules,
  validationErrorEnvelope,
  type GraphqlLimits,
} from './graphql-limits.ts';

/**
 * The ApolloServer options the subgraph and the gateway share; each adds its schema or gateway and
 * its own plugins. Errors leave as DataHub's envelope without stack traces, documents meet the
 * GRAPHQL_MAX_* limits, and introspection stays on (DataHub's clients read the schema).
 */
export function sharedApolloOptions(config: Parameters<typeof graphqlLimitsFromConfig>[0], logger: Logger) {
  return {
    formatError: createFormatError(logger),
    includeStacktraceInErrorResponses: false,
    // main.ts owns the signals (runService also closes the store); Apollo's own handlers would race it.
    stopOnTerminationSignals: false,
    introspection: true,
    validationRules: graphqlValidationRules(graphqlLimitsFromConfig(config)),
  };
}

/** Where a subgraph serves GraphQL. */
export const GRAPHQL_PATH = '/graphql';

export interface GraphqlHttpOptions<C extends BaseContext> {
  server: ApolloServer<C>;
  maxBodyBytes: number;
  /** Authenticates the request and builds its context; throws CatalogError (unauthenticated → 401). */
  context(req: IncomingMessage): Promise<C>;
  logger: Logger;
  /** Document limits checked before parsing (a refusal is a ValidationError envelope). */
  limits?: GraphqlLimits;
}

export function sendPlain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(restliErrorBody(status, message));
}

/** The request body as a GraphQL request, or a reason to refuse it with a bare 400. */
function parseGraphqlBody(text: string): { body: Record<string, unknown> } | { error: string } {
  const tooDeep = jsonDepthProblem(text);
  if (tooDeep) return { error: `Request body is not acceptable: ${tooDeep}.` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: 'Request body is not valid JSON.' };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: 'Request body must be a JSON object.' };
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return { error: 'Request body is missing "query".' };
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return { error: '"variables" must be a JSON object.' };
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return { error: '"operationName" must be a string.' };
  }
  return { body: body as Record<string, unknown> };
}

export function graphqlHandler<C extends BaseContext>(options: GraphqlHttpOptions<C>) {
  const { server, maxBodyBytes, logger } = options;
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      sendPlain(res, 405, `Method ${req.method ?? ''} is not allowed; use POST.`, { allow: 'POST' });
      return;
    }
    const contentType = req.headers['content-type'];
    if (contentType && !/json/i.test(contentType)) {
      sendPlain(res, 400, `Unsupported content type '${contentType}': send application/json.`);
      return;
    }
    let parsed: ReturnType<typeof parseGraphqlBody>;
    try {
      parsed = parseGraphqlBody(await readBodyText(req, maxBodyBytes));
    } catch (e) {
      if (!isCatalogError(e)) throw e;
      sendPlain(res, restStatusOf[e.kind], e.message);
      return;
    }
    if ('error' in parsed) {
      sendPlain(res, 400, parsed.error);
      return;
    }
    const presented = parseBookmarkHeader(req.headers[BOOKMARK_HEADER]);
    if ('problem' in presented) {
      sendPlain(res, 400, presented.problem);
      return;
    }
    const body = parsed.body;
    await runCausally(presented.bookmarks, (chain) =>
      execute(req, res, body, () => (chain.wrote ? formatBookmarkHeader(chain.bookmarks) : undefined)),
    );
  };

  /** Authentication and execution; `written` = the bookmark header of this process's writes, once they are done. */
  async function execute(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    written: () => string | undefined,
  ): Promise<void> {
    let context: C;
    try {
      context = await options.context(req);
    } catch (e) {
      if (isCatalogError(e)) {
        if (e.kind === 'unavailable') logger.warn({ err: e.cause ?? e }, e.message);
        // A 503 says when to retry, as the REST doors' do.
        sendPlain(
          res,
          restStatusOf[e.kind],
          e.message,
          e.retryAfterSeconds === undefined ? {} : { 'retry-after': String(e.retryAfterSeconds) },
        );
      } else {
        logger.error({ err: e }, 'authentication failed unexpectedly');
        sendPlain(res, 500, UNKNOWN_ERROR_MESSAGE);
      }
      return;
    }
    const tooLarge = options.limits && documentProblem(body.query as string, options.limits);
    if (tooLarge) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(validationErrorEnvelope(tooLarge));
      return;
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // The body is already parsed (sent as JSON or without a type): tell Apollo so.
    headers.set('content-type', 'application/json');
    const result = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers, search: '', body },
      context: async () => context,
    });
    res.statusCode = result.status ?? 200;
    for (const [name, value] of result.headers) res.setHeader(name, value);
    // Resolvers are done (no incremental delivery here): what this process wrote is known. The
    // gateway writes nothing itself; its plugin has put the subgraphs' bookmarks in result.headers.
    const bookmarks = mergeBookmarkHeaders([result.headers.get(BOOKMARK_HEADER), written()]);
    if (bookmarks) res.setHeader(BOOKMARK_HEADER, bookmarks);
    if (result.body.kind === 'complete') {
      res.end(result.body.string);
      return;
    }
    for await (const chunk of result.body.asyncIterator) res.write(chunk);
    res.end();
  }

  return handler;
}

/** Stops an Apollo server behind a Node http server: listener first, then Apollo. */
export async function closeApolloHttp(httpServer: Server, apollo: { stop(): Promise<void> }): Promise<void> {
  const closed = new Promise<void>((resolve) => (httpServer.listening ? httpServer.close(() => resolve()) : resolve()));
  // close() waits for keep-alive sockets (the gateway's pooled connections) unless they are cut.
  httpServer.closeAllConnections();
  await closed;
  await apollo.stop();
}
