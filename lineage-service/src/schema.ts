// The subgraph's SDL: the .graphql files beside the resolvers, parsed once, the entity types'
// declarations generated from the descriptors (surface/entity-sdl.ts), plus the SDL of entity types
// of the process's registry (their descriptors carry it). The gateway composes the supergraph
// from the same documents, so what is served and what is composed cannot drift.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type DocumentNode } from 'graphql';
import { entityTypeDescriptors } from '@lineage/catalog/model';
import { entityTypeDefs } from './surface/entity-sdl.ts';
import { twinDefinitions } from './surface/twin-types.ts';

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), 'schema');

const SCHEMA_FILES = [
  'common',
  'entities',
  'metadata',
  'governance',
  'schema-metadata',
  'quality',
  'documents',
  'lineage',
  'tokens',
  'identity',
  'ingestion',
  'policies',
  'search',
  'details',
] as const;
export type SchemaModule = (typeof SCHEMA_FILES)[number] | 'generated' | 'registered';

/** The SDL the process registry's descriptors carry (an installed registry's extra types), as one document. */
function registeredTypeDefs(): DocumentNode {
  const docs = entityTypeDescriptors().flatMap((d) => (d.graphqlSdl ? [parse(d.graphqlSdl)] : []));
  return { kind: Kind.DOCUMENT, definitions: docs.flatMap((d) => d.definitions) };
}

function withTwins(doc: DocumentNode): DocumentNode {
  return { ...doc, definitions: [...doc.definitions, ...twinDefinitions(doc.definitions)] };
}

export function loadTypeDefs(): Record<SchemaModule, DocumentNode> {
  const files = Object.fromEntries(SCHEMA_FILES.map((f) => [f, withTwins(parse(readFileSync(join(schemaDir, `${f}.graphql`), 'utf8')))]));
  return { ...files, generated: entityTypeDefs(), registered: registeredTypeDefs() } as Record<SchemaModule, DocumentNode>;
}

/** All SDL as one document (for composition, and for the resolvers that follow the declared fields). */
export function subgraphTypeDefs(typeDefs: Record<SchemaModule, DocumentNode> = loadTypeDefs()): DocumentNode {
  return { kind: Kind.DOCUMENT, definitions: Object.values(typeDefs).flatMap((d) => d.definitions) };
}
