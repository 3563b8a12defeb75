// DataHub's custom scalars with real input validation. Without a parser a custom scalar accepts any
// JSON value, so `startTimeMillis: "yesterday"` reached the domain; graphql-java's Long (which
// DataHub uses) accepts integral numbers and numeric strings only, and so does this one.
import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';

function toLong(value: unknown, shown: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim()) && Number.isSafeInteger(Number(value))) return Number(value);
  throw new GraphQLError(`Long cannot represent non-integer value: ${shown}`);
}

const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'A 64-bit integer as a JSON number (epoch milliseconds, counts); limited to ±2^53 here.',
  serialize: (value) => value,
  parseValue: (value) => toLong(value, JSON.stringify(value) ?? String(value)),
  parseLiteral: (ast: ValueNode) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return toLong(ast.kind === Kind.INT ? Number(ast.value) : ast.value, print(ast));
    throw new GraphQLError(`Long cannot represent non-integer value: ${print(ast)}`, { nodes: [ast] });
  },
});

export const scalarResolvers = { Long: LongScalar };
