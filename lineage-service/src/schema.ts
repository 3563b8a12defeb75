// The subgraph's SDL: the .graphql files beside the resolvers, parsed once. The gateway composes
// the supergraph from the same documents, so what is served and what is composed cannot drift.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type DocumentNode } from 'graphql';

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), 'schema');

export const SCHEMA_FILES = ['common', 'entities', 'lineage', 'tokens', 'search'] as const;
export type SchemaFile = (typeof SCHEMA_FILES)[number];

export function loadTypeDefs(): Record<SchemaFile, DocumentNode> {
  return Object.fromEntries(
    SCHEMA_FILES.map((f) => [f, parse(readFileSync(join(schemaDir, `${f}.graphql`), 'utf8'))]),
  ) as Record<SchemaFile, DocumentNode>;
}

/** All SDL as one document (for composition). */
export function subgraphTypeDefs(): DocumentNode {
  const docs = Object.values(loadTypeDefs());
  return { kind: docs[0]!.kind, definitions: docs.flatMap((d) => d.definitions) };
}
