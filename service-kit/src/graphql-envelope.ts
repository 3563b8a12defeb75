// DataHub's GraphQL error envelope (docs/wire-contract.md §GraphQL, §Errors), rendered in ONE place
// and used by both the subgraph and the gateway: HTTP 200 for every executed request,
// `extensions: {}` at the top level always, resolver errors carrying DataHub's integer code / type /
// classification, parse and validation errors only a classification, anything unexpected logged
// with its cause and masked.
// Apollo's string codes, `stacktrace` and the gateway's `serviceName` never leave the process.
import { Kind, type DocumentNode, type FieldNode, type GraphQLFormattedError, type SelectionSetNode, type SourceLocation } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import { isCatalogError } from '@lineage/catalog/model';
import type { Logger } from '@lineage/catalog/runtime';
import { graphqlCodeOf, UNKNOWN_ERROR_MESSAGE } from './error-codes.ts';

export interface DataHubErrorExtensions {
  code?: number;
  type?: string;
  classification: 'DataFetchingException' | 'ValidationError' | 'InvalidSyntax';
}

const SERVER_ERROR = { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' } as const;

// Apollo's codes for documents that never executed: graphql-java reports them as InvalidSyntax
// (parse) or ValidationError (validation, variable coercion, unknown operation name).
const PRE_EXECUTION: Readonly<Record<string, DataHubErrorExtensions['classification']>> = {
  GRAPHQL_PARSE_FAILED: 'InvalidSyntax',
  GRAPHQL_VALIDATION_FAILED: 'ValidationError',
  BAD_USER_INPUT: 'ValidationError',
  OPERATION_RESOLUTION_FAILURE: 'ValidationError',
  PERSISTED_QUERY_NOT_SUPPORTED: 'ValidationError',
  PERSISTED_QUERY_NOT_FOUND: 'ValidationError',
};

function isRendered(ext: Record<string, unknown> | undefined): ext is Record<string, unknown> & DataHubErrorExtensions {
  return !!ext && Number.isInteger(ext.code) && typeof ext.type === 'string' && ext.classification === 'DataFetchingException';
}

/**
 * Apollo `formatError`: maps one error onto the envelope. Errors already rendered by our subgraph
 * (integer code) pass through with only DataHub's keys; a CatalogError gets its kind's code.
 */
export function createFormatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const base = {
      message: formatted.message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
    };
    const original = unwrapResolverError(error);
    if (isCatalogError(original)) {
      const { code, type } = graphqlCodeOf[original.kind];
      if (original.kind === 'unavailable' || original.kind === 'deadline')
        logger.warn({ err: original.cause ?? original }, original.message);
      return { ...base, message: original.message, extensions: { code, type, classification: 'DataFetchingException' } };
    }
    const ext = formatted.extensions as Record<string, unknown> | undefined;
    if (isRendered(ext)) {
      return { ...base, extensions: { code: ext.code, type: ext.type, classification: ext.classification } };
    }
    const apolloCode = typeof ext?.code === 'string' ? ext.code : undefined;
    const classification = apolloCode ? PRE_EXECUTION[apolloCode] : undefined;
    if (classification) {
      return { ...base, extensions: { classification } };
    }
    // A pre-execution error the subgraph already rendered (e.g. a variable its Long scalar refused,
    // which the gateway cannot check itself), relayed by the gateway: keep its classification.
    if (
      (!apolloCode || apolloCode === 'DOWNSTREAM_SERVICE_ERROR') &&
      (ext?.classification === 'ValidationError' || ext?.classification === 'InvalidSyntax')
    ) {
      return { ...base, extensions: { classification: ext.classification } };
    }
    logger.error({ err: original, path: formatted.path }, `unexpected GraphQL error: ${formatted.message}`);
    return { ...base, message: UNKNOWN_ERROR_MESSAGE, extensions: { ...SERVER_ERROR } };
  };
}

/** Location of the field an error path names, for errors that lost theirs (subgraph errors at the gateway). */
function locateErrorPath(
  document: DocumentNode,
  operationName: string | null | undefined,
  path: ReadonlyArray<string | number>,
): SourceLocation | undefined {
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return undefined;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  let location: SourceLocation | undefined;
  let selections: SelectionSetNode | undefined = operation.selectionSet;
  for (const key of path) {
    if (typeof key === 'number') continue;
    if (!selections) return location;
    const field = findField(selections, key, fragments);
    if (!field) return location;
    if (field.loc) location = { line: field.loc.startToken.line, column: field.loc.startToken.column };
    selections = field.selectionSet;
  }
  return location;
}

function findField(
  set: SelectionSetNode,
  responseKey: string,
  fragments: ReadonlyMap<string, SelectionSetNode>,
  depth = 0,
): FieldNode | undefined {
  if (depth > 20) return undefined;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === responseKey) return s;
    const nested =
      s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : s.kind === Kind.FRAGMENT_SPREAD ? fragments.get(s.name.value) : undefined;
    const hit: FieldNode | undefined = nested && findField(nested, responseKey, fragments, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Every executed request answers HTTP 200 with `extensions: {}`; errors without locations (those
 * the gateway relays from a subgraph) get the location of the field their path names.
 */
export function dataHubEnvelopePlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(rc: GraphQLRequestContextWillSendResponse<T>) {
          rc.response.http.status = 200;
          if (rc.response.body.kind !== 'single') return;
          const result = rc.response.body.singleResult;
          result.extensions = {};
          if (result.errors && rc.document) {
            const doc = rc.document;
            result.errors = result.errors.map((e) => {
              if (e.locations || !e.path) return e;
              const at = locateErrorPath(doc, rc.operationName ?? rc.request.operationName, e.path);
              // Keep DataHub's key order: message, locations, path, extensions.
              return at ? { message: e.message, locations: [at], path: e.path, ...(e.extensions ? { extensions: e.extensions } : {}) } : e;
            });
          }
        },
      };
    },
  };
}

/** The Rest.li-style JSON error body of plain HTTP failures (401 before any GraphQL processing). */
export function restliErrorBody(status: number, message: string): string {
  return JSON.stringify({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', stackTrace: '', message, status });
}
