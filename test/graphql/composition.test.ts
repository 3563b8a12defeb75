// The supergraph composes from the subgraph's own SDL, and the SDL agrees with the domain: a schema
// change that breaks composition, drops an operation DataHub clients send, or lets an enum drift
// from the domain's lists fails here.
import { buildSchema, isEnumType, isObjectType, parse, validate, type GraphQLSchema } from 'graphql';
import { composeSupergraph } from '../../gateway/src/supergraph.ts';
import { buildLineageSchema } from '../../lineage-service/src/app.ts';
import { entityTypeDescriptors } from '../../catalog/src/model/entity-registry.ts';
import { FABRIC_TYPES, GRAPHQL_ENTITY_TYPES } from '../../catalog/src/model/entity-types.ts';
import * as explorerQueries from '../../explorer/src/queries.ts';

const RENDERED_TYPENAMES = entityTypeDescriptors().flatMap((d) => (d.graphqlTypename ? [d.graphqlTypename] : []));

let supergraph: GraphQLSchema;
let supergraphSdl: string;

beforeAll(() => {
  supergraphSdl = composeSupergraph('http://127.0.0.1:1/graphql');
  // The API schema clients see: federation's join__/link__ machinery stripped by buildSchema's tolerance.
  supergraph = buildSchema(supergraphSdl, { assumeValidSDL: true });
});

test('the supergraph composes and routes the lineage subgraph', () => {
  expect(supergraphSdl).toContain('join__Graph');
  expect(supergraphSdl).toMatch(/LINEAGE @join__graph\(name: "lineage", url: "http:\/\/127\.0\.0\.1:1\/graphql"\)/);
});

test('every operation listed in docs/wire-contract.md §GraphQL is in the supergraph', () => {
  const query = supergraph.getQueryType()!.getFields();
  for (const f of [
    'searchAcrossLineage',
    'scrollAcrossLineage',
    'entity',
    'entities',
    'entityExists',
    'dataset',
    'dataJob',
    'dataFlow',
    'chart',
    'dashboard',
    'mlFeature',
    'mlPrimaryKey',
    'mlFeatureTable',
    'mlModel',
    'mlModelGroup',
    'schemaField',
    'getInviteToken',
    'listAccessTokens',
    'getAccessTokenMetadata',
    'listPolicies',
    'getGrantedPrivileges',
    'listUsers',
    'listSecrets',
    'getSecretValues',
    'listIngestionSources',
    'ingestionSource',
  ]) {
    expect(query[f]).toBeDefined();
  }
  const mutation = supergraph.getMutationType()!.getFields();
  expect(Object.keys(mutation).sort()).toEqual([
    'addGroupMembers',
    'batchAssignRole',
    'createAccessToken',
    'createDataProduct',
    'createDomain',
    'createGroup',
    'createIngestionSource',
    'createInviteToken',
    'createPolicy',
    'createSecret',
    'deleteIngestionSource',
    'deletePolicy',
    'deleteSecret',
    'removeGroup',
    'removeGroupMembers',
    'removeUser',
    'revokeAccessToken',
    'setDomain',
    'unsetDomain',
    'updateIngestionSource',
    'updateLineage',
    'updatePolicy',
    'updateSecret',
  ]);
  expect(String(mutation.updateLineage!.type)).toBe('Boolean');
  expect(String(mutation.revokeAccessToken!.type)).toBe('Boolean!');
  expect(supergraph.getType('Long')).toBeDefined();
  for (const t of ['GroupingSpec', 'SearchSortInput', 'LineageSearchPath', 'FacetMetadata', 'SearchFlags', 'LineageFlags']) {
    expect(supergraph.getType(t)).toBeDefined();
  }
});

test('EntityType and FabricType enums are exactly the domain lists, in order', () => {
  const schema = buildLineageSchema();
  const values = (name: string) => {
    const t = schema.getType(name);
    if (!isEnumType(t)) throw new Error(`${name} is not an enum`);
    return t.getValues().map((v) => v.name);
  };
  expect(values('EntityType')).toEqual([...GRAPHQL_ENTITY_TYPES]);
  expect(values('FabricType')).toEqual([...FABRIC_TYPES]);
});

test('every rendered entity type is a federation entity implementing Entity, with exists', () => {
  const schema = buildLineageSchema();
  expect(RENDERED_TYPENAMES.length).toBeGreaterThan(10);
  for (const typename of RENDERED_TYPENAMES) {
    const t = schema.getType(typename);
    expect(isObjectType(t)).toBe(true);
    if (!isObjectType(t)) continue;
    expect(t.getInterfaces().map((i) => i.name)).toContain('Entity');
    expect(t.getFields().exists).toBeDefined();
    expect(t.astNode?.directives?.some((d) => d.name.value === 'key')).toBe(true);
  }
});

test('every field an entity type declares resolves from its descriptor or a type-specific resolver', () => {
  // The parent value is only the urn, so a field left to the default resolver would read nothing.
  const schema = buildLineageSchema();
  const unresolved: string[] = [];
  for (const typename of RENDERED_TYPENAMES) {
    const t = schema.getType(typename);
    if (!isObjectType(t)) continue;
    for (const field of Object.values(t.getFields())) if (!field.resolve) unresolved.push(`${typename}.${field.name}`);
  }
  expect(unresolved).toEqual([]);
  const query = schema.getQueryType()!.getFields();
  for (const name of Object.keys(query)) expect([name, query[name]!.resolve !== undefined]).toEqual([name, true]);
});

test('the types whose descriptor says relationships are exactly those implementing EntityWithRelationships', () => {
  const implementing = Object.values(supergraph.getTypeMap()).flatMap((t) =>
    isObjectType(t) && t.getInterfaces().some((i) => i.name === 'EntityWithRelationships') ? [t.name] : [],
  );
  const flagged = entityTypeDescriptors().flatMap((d) => (d.modelled?.relationships && d.graphqlTypename ? [d.graphqlTypename] : []));
  // Restricted is no entity type: it stands in for an entity the caller may not view (DataHub's, in lineage answers).
  expect([...flagged, 'Restricted'].sort()).toEqual(implementing.sort());
  expect(flagged.length).toBeGreaterThan(10);
});

test('every document the page sends (its entity fragment derived from the descriptors) is valid against the supergraph', () => {
  const documents = Object.entries(explorerQueries).filter(([name, v]) => name.endsWith('_QUERY') && typeof v === 'string');
  expect(documents.length).toBeGreaterThan(8);
  for (const [name, text] of documents)
    expect([name, validate(supergraph, parse(text as string)).map((e) => e.message)]).toEqual([name, []]);
});
