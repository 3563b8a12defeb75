// Every entity type's GraphQL declaration, generated: one object type per descriptor with a
// graphqlTypename, made of the block every entity shares (written once, here), lineage for the
// types the explorer draws, and the aspect fields ASPECT_FIELDS gives the type. What is particular
// to a type (its key parts, its properties) is an `extend type` in schema/entities.graphql.
import { parse, type DocumentNode } from 'graphql';
import { entityTypeDescriptors, type EntityTypeDescriptor } from '@lineage/catalog/model';
import { ASPECT_FIELDS } from './aspect-fields.ts';

const COMMON_FIELDS = `
  urn: String!
  type: EntityType!
  "False when nothing was ingested for this urn (a well-formed urn always resolves)."
  exists: Boolean
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
  "The stored aspects, raw."
  aspects(input: AspectParams): [RawAspect!]
  "Documents that name this entity as a related asset."
  relatedDocuments(input: RelatedDocumentsInput!): RelatedDocumentsResult`;

const LINEAGE_FIELD = `
  lineage(input: LineageInput!): EntityLineageResult`;

/** The descriptors whose GraphQL type is generated here (a registry installed at start-up brings its own SDL). */
function generatedEntityTypes(): EntityTypeDescriptor[] {
  return entityTypeDescriptors().filter((d) => d.graphqlTypename !== undefined && d.graphqlSdl === undefined);
}

function declaration(d: EntityTypeDescriptor): string {
  const typename = d.graphqlTypename!;
  const drawn = d.modelled?.relationships === true;
  const fields = ASPECT_FIELDS.filter((f) => f.on.includes(typename)).map((f) => {
    const type = typeof f.type === 'function' ? f.type(typename) : f.type;
    return `${f.doc ? `\n  ${JSON.stringify(f.doc)}` : ''}\n  ${f.name}: ${type}`;
  });
  const interfaces = drawn ? 'EntityWithRelationships & Entity' : 'Entity';
  return `type ${typename} implements ${interfaces} @key(fields: "urn") {${COMMON_FIELDS}${drawn ? LINEAGE_FIELD : ''}${fields.join('')}\n}`;
}

export function entityTypeDefs(): DocumentNode {
  return parse(generatedEntityTypes().map(declaration).join('\n\n'));
}
