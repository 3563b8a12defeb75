// GraphQL request limits shared by the subgraph and the gateway (issue 7 item 5): document size,
// selection depth and alias count. Depth and aliases are validation rules, so a document over a
// limit is a GraphQL error with classification ValidationError (docs/wire-contract.md §GraphQL) and never executes;
// the document size is checked before parsing, since parsing is what a huge document costs.
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

export interface GraphqlLimits {
  /** GRAPHQL_MAX_DEPTH: deepest field nesting of an operation (fragments expanded). */
  maxDepth: number;
  /** GRAPHQL_MAX_ALIASES: aliased fields in an operation (fragments expanded). */
  maxAliases: number;
  /** GRAPHQL_MAX_DOCUMENT_BYTES: UTF-8 size of the `query` text. */
  maxDocumentBytes: number;
}

export function graphqlLimitsFromConfig(config: {
  GRAPHQL_MAX_DEPTH: number;
  GRAPHQL_MAX_ALIASES: number;
  GRAPHQL_MAX_DOCUMENT_BYTES: number;
}): GraphqlLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDocumentBytes: config.GRAPHQL_MAX_DOCUMENT_BYTES,
  };
}

/** Why the document is too large, or undefined when it is within the limit. */
function documentSizeProblem(query: string, maxBytes: number): string | undefined {
  // Cheap bound first: a UTF-8 encoding takes at most 3 bytes per UTF-16 unit.
  if (query.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.byteLength(query, 'utf8');
  return bytes > maxBytes
    ? `Query document is ${bytes} bytes, over the limit of ${maxBytes} bytes (GRAPHQL_MAX_DOCUMENT_BYTES)`
    : undefined;
}

/**
 * How deeply the document nests `{`, `[` and `(` (strings and comments skipped), refused before
 * parsing: graphql-js parses recursively, so a document nested thousands of levels would overflow
 * the stack instead of reaching the depth rule. Real documents stay far below this bound.
 */
function documentNestingProblem(query: string, maxDepth: number): string | undefined {
  const bound = Math.max(100, 5 * maxDepth);
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (c === '"') {
      if (query.startsWith('"""', i)) {
        const end = query.indexOf('"""', i + 3);
        i = end < 0 ? query.length : end + 2;
      } else {
        for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > bound) return `Query document nests more than ${bound} levels of brackets (GRAPHQL_MAX_DEPTH is ${maxDepth})`;
    } else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return undefined;
}

/** Size, then bracket nesting: what must be refused before the document is parsed at all. */
export function documentProblem(query: string, limits: GraphqlLimits): string | undefined {
  return documentSizeProblem(query, limits.maxDocumentBytes) ?? documentNestingProblem(query, limits.maxDepth);
}

/** The envelope of a request refused before execution: HTTP 200, a ValidationError, no data. */
export function validationErrorEnvelope(message: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { classification: 'ValidationError' } }], extensions: {} });
}

/** What a limit counts: a field's own value given its sub-selection's, and how siblings combine. */
interface Measure {
  field(node: FieldNode, inner: number): number;
  combine(a: number, b: number): number;
}

/**
 * A rule measuring each operation's selection set with fragment spreads expanded (memoised per
 * fragment). A spread already being expanded counts 0: cycles are NoFragmentCyclesRule's to report.
 */
function limitRule(name: string, m: Measure, message: (value: number) => string, max: number) {
  const rule = (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const memo = new Map<string, number>();
    const visiting = new Set<string>();
    const spread = (fragmentName: string): number => {
      const known = memo.get(fragmentName);
      if (known !== undefined) return known;
      const fragment = fragments.get(fragmentName);
      if (!fragment || visiting.has(fragmentName)) return 0;
      visiting.add(fragmentName);
      const value = measure(fragment.selectionSet);
      visiting.delete(fragmentName);
      memo.set(fragmentName, value);
      return value;
    };
    const measure = (set: SelectionSetNode): number =>
      set.selections.reduce(
        (acc, sel) =>
          m.combine(
            acc,
            sel.kind === Kind.FIELD
              ? m.field(sel, sel.selectionSet ? measure(sel.selectionSet) : 0)
              : sel.kind === Kind.INLINE_FRAGMENT
                ? measure(sel.selectionSet)
                : spread(sel.name.value),
          ),
        0,
      );
    return {
      OperationDefinition(node) {
        const value = measure(node.selectionSet);
        if (value > max) context.reportError(new GraphQLError(message(value), { nodes: [node] }));
        return false;
      },
    };
  };
  Object.defineProperty(rule, 'name', { value: name });
  return rule;
}

/** Deepest field nesting: `{ a { b } }` is 2. Fragments add no depth of their own. */
function maxDepthRule(maxDepth: number) {
  return limitRule(
    'MaxDepthRule',
    { field: (_, inner) => 1 + inner, combine: Math.max },
    (depth) => `Query depth ${depth} exceeds the limit of ${maxDepth} (GRAPHQL_MAX_DEPTH)`,
    maxDepth,
  );
}

/** Aliased fields, counting each fragment once per spread (what execution would resolve). */
function maxAliasesRule(maxAliases: number) {
  return limitRule(
    'MaxAliasesRule',
    { field: (node, inner) => (node.alias ? 1 : 0) + inner, combine: (a, b) => a + b },
    (count) => `Query uses ${count} aliases, more than the limit of ${maxAliases} (GRAPHQL_MAX_ALIASES)`,
    maxAliases,
  );
}

/**
 * graphql-js 16 does not validate the operation type against the schema; the gateway's executor
 * then throws on a `subscription` (no such root type here), which would surface as a 500.
 */
function KnownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      const root =
        node.operation === 'query'
          ? schema.getQueryType()
          : node.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) context.reportError(new GraphQLError(`This schema does not support ${node.operation} operations`, { nodes: [node] }));
      return false;
    },
  };
}

/** The validation rules every GraphQL server of this project adds to graphql-js's own. */
export function graphqlValidationRules(limits: GraphqlLimits) {
  return [KnownOperationTypesRule, maxDepthRule(limits.maxDepth), maxAliasesRule(limits.maxAliases)];
}

/**
 * An `operationName` the document does not define (or several operations without one) is a
 * client mistake. Apollo reports it itself for a schema, but the gateway's executor throws a bare
 * error instead (a 500): refuse it once the operation is resolved, with Apollo's own code, which
 * the envelope classifies as ValidationError.
 */
export function operationResolutionPlugin<T extends BaseContext>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          if (rc.operation) return;
          const name = rc.request.operationName;
          throw new GraphQLError(
            name ? `Unknown operation named "${name}".` : 'Must provide operation name if query contains multiple operations.',
            {
              extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
            },
          );
        },
      };
    },
  };
}
