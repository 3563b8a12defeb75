// Adding a modelled entity type is one descriptor plus its SDL (docs/CONTRIBUTING.md §Add an entity
// type). This file builds a registry of the built-in types plus a fictional `widget` — a platform's
// named artefact derived from datasets, with an aspect of its own — and installs it before anything
// reads the registry, and follows it through every door on a real Neo4j: REST ingestion with its key
// checked, the GraphQL `entity` and `widget` getters, search naming no type, the aspects the page's
// details sheet reads, lineage both ways, the Neo4j label analysts query, restoreIndices rebuilding
// its edges, and the strict existence rule reading a column its lineage names as the column's dataset.
import { describingAspectsOf } from '../../catalog/src/model/browser.ts';
import { buildEntityRegistry } from '../../catalog/src/model/build-entity-registry.ts';
import { defaultSearchTypes, entityTypeDescriptors, installEntityRegistry } from '../../catalog/src/model/entity-registry.ts';
import { BUILT_IN_ENTITY_TYPES } from '../../catalog/src/model/descriptors/built-in-entity-types.ts';
import type { EntityTypeDescriptor } from '../../catalog/src/model/entity-types.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { startStack, type Stack } from '../graphql/stack.ts';

const WIDGET: EntityTypeDescriptor = {
  name: 'widget',
  keyAspect: 'widgetKey',
  key: [
    { name: 'platform', kind: 'urn', urnTypes: ['dataPlatform'] },
    { name: 'name', kind: 'string', graphqlField: 'name' },
  ],
  graphqlType: 'WIDGET',
  graphqlTypename: 'Widget',
  modelled: {
    label: 'Widget',
    displayLabel: 'Widget',
    namePart: 'name',
    platformPart: 'platform',
    descriptive: { aspect: 'widgetProperties', name: ['title'], description: ['summary'], editable: 'editableWidgetProperties' },
    graphqlDescriptive: 'description',
    // Its SDL implements EntityWithRelationships: the page draws it.
    relationships: true,
  },
  aspects: {
    widgetProperties: {
      edges: [
        { field: 'sources', shape: 'urnList', type: 'DerivedFrom', to: ['dataset'], lineage: 'upstream' },
        // A table-level lineage edge to columns: no built-in type has one (their column lineage is
        // fine-grained), so this is where the existence rule's reading of a column is checked.
        { field: 'columns', shape: 'urnList', type: 'DerivedFrom', to: ['schemaField'], lineage: 'upstream' },
      ],
    },
  },
  graphqlSdl: `
    type Widget implements EntityWithRelationships & Entity @key(fields: "urn") {
      urn: String!
      type: EntityType!
      exists: Boolean
      status: Status
      relationships(input: RelationshipsInput!): EntityRelationshipsResult
      lineage(input: LineageInput!): EntityLineageResult
      aspects(input: AspectParams): [RawAspect!]
      name: String!
      platform: DataPlatform!
      description: String
    }
    extend type Query { widget(urn: String!): Widget }
    extend enum EntityType { WIDGET }
  `,
};

installEntityRegistry(buildEntityRegistry([...BUILT_IN_ENTITY_TYPES, WIDGET]));

let stack: Stack;
let admin: string;
const ns = namespace('wdg');
const source = ns.dataset('events');
const widget = `urn:li:widget:(urn:li:dataPlatform:${ns.platform},weekly_report)`;

async function rest(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.ingestion.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'X-RestLi-Protocol-Version': '2.0.0' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const proposal = (entityUrn: string, entityType: string, aspectName: string, value: unknown) => ({
  proposal: {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  },
});

const lineageUrns = async (urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM', types?: string[]) => {
  const r = await stack.graphql(
    `query q($input: ScrollAcrossLineageInput!) {
    scrollAcrossLineage(input: $input) { searchResults { degree entity { urn type } } } }`,
    admin,
    { variables: { input: { urn, direction, count: 100, ...(types ? { types } : {}) } } },
  );
  expect(r.body.errors).toBeUndefined();
  return r.body.data.scrollAcrossLineage.searchResults.map((x: { degree: number; entity: { urn: string; type: string } }) => [
    x.entity.urn,
    x.entity.type,
    x.degree,
  ]);
};

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, ns.user('admin'), 'Admin');
  expect((await rest('/aspects?action=ingestProposal', proposal(source, 'dataset', 'datasetProperties', { name: 'Events' }))).status).toBe(
    200,
  );
});
afterAll(async () => {
  await stack.close();
});

test('REST ingestion checks the new key and derives the declared lineage edge', async () => {
  const badKey = await rest(
    '/aspects?action=ingestProposal',
    proposal('urn:li:widget:only_one_part', 'widget', 'widgetProperties', { title: 'x' }),
  );
  expect(badKey.status).toBe(422);
  expect(badKey.body.message).toMatch(/expected 2 key parts \(platform, name\), got 1/);
  // Its own aspect on another type is refused, like any entity-specific aspect.
  const misplaced = await rest('/aspects?action=ingestProposal', proposal(source, 'dataset', 'widgetProperties', { title: 'x' }));
  expect(misplaced.status).toBe(422);
  expect(misplaced.body.message).toMatch(/widgetProperties is not supported for entity type dataset/);

  const ok = await rest(
    '/aspects?action=ingestProposal',
    proposal(widget, 'widget', 'widgetProperties', { title: 'Weekly report', summary: 'what happened this week', sources: [source] }),
  );
  expect(ok.status).toBe(200);
  const key = await fetch(`${stack.ingestion.baseUrl}/aspects/${encodeURIComponent(widget)}?aspect=widgetKey&version=0`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(await key.json()).toMatchObject({
    aspect: { widgetKey: { platform: `urn:li:dataPlatform:${ns.platform}`, name: 'weekly_report' } },
  });
});

test('GraphQL renders it through entity and its own getter, fields from the descriptor', async () => {
  const r = await stack.graphql(
    `{
    entity(urn: "${widget}") { urn type ... on Widget { exists name description platform { name } } }
    widget(urn: "${widget}") { name relationships(input: { types: ["DerivedFrom"], direction: OUTGOING }) { total relationships { entity { urn } } } }
  }`,
    admin,
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.entity).toEqual({
    urn: widget,
    type: 'WIDGET',
    exists: true,
    name: 'weekly_report',
    description: 'what happened this week',
    platform: { name: ns.platform },
  });
  expect(r.body.data.widget).toEqual({ name: 'weekly_report', relationships: { total: 1, relationships: [{ entity: { urn: source } }] } });
});

test('a search naming no type finds it, and the page reads its own aspects, from its descriptor alone', async () => {
  // Derived from the descriptor: it takes part in lineage and has an EntityType of its own.
  expect(defaultSearchTypes()).toContain('WIDGET');
  const r = await stack.graphql(
    `query q($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) { searchResults { entity { urn type } } } }`,
    admin,
    { variables: { input: { query: `${ns.platform} weekly_report`, start: 0, count: 10 } } },
  );
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.searchAcrossEntities.searchResults).toEqual([{ entity: { urn: widget, type: 'WIDGET' } }]);
  // What the details sheet asks for and describes it by, from the registry holding it (the page
  // itself is built with the built-in types).
  expect(describingAspectsOf(entityTypeDescriptors())).toContainEqual({ aspect: 'widgetProperties', editable: 'editableWidgetProperties' });
  expect(describingAspectsOf()).not.toContainEqual(expect.objectContaining({ aspect: 'widgetProperties' }));
});

test('lineage runs through it in both directions, and its new EntityType value filters', async () => {
  expect(await lineageUrns(source, 'DOWNSTREAM')).toEqual([[widget, 'WIDGET', 1]]);
  expect(await lineageUrns(widget, 'UPSTREAM')).toEqual([[source, 'DATASET', 1]]);
  expect(await lineageUrns(source, 'DOWNSTREAM', ['WIDGET'])).toEqual([[widget, 'WIDGET', 1]]);
  expect(await lineageUrns(source, 'DOWNSTREAM', ['DATASET'])).toEqual([]);
});

test('analysts find it under its own label; restoreIndices rebuilds its edges and search fields', async () => {
  const run = (cypher: string) => stack.store.driver.executeQuery(cypher, { urn: widget }, { database: stack.store.database });
  const labels = await run('MATCH (w:Entity {urn: $urn}) RETURN labels(w) AS labels, w.name AS name');
  expect(labels.records[0]!.get('labels')).toEqual(expect.arrayContaining(['Entity', 'Widget']));
  expect(labels.records[0]!.get('name')).toBe('Weekly report');

  await run('MATCH (w:Entity {urn: $urn})-[r:DerivedFrom|LINEAGE]-() DELETE r');
  await run('MATCH (w:Entity {urn: $urn}) SET w.name = null');
  expect(await lineageUrns(widget, 'UPSTREAM')).toEqual([]);

  const restored = await rest('/operations?action=restoreIndices', { urn: widget });
  expect(restored.status).toBe(200);
  expect(await lineageUrns(widget, 'UPSTREAM')).toEqual([[source, 'DATASET', 1]]);
  expect((await run('MATCH (w:Entity {urn: $urn}) RETURN w.name AS name')).records[0]!.get('name')).toBe('Weekly report');
});

test('strict mode: a column named by a table-level lineage edge exists when its dataset does, before or in the same request', async () => {
  const table = ns.dataset('by_column');
  const column = `urn:li:schemaField:(${table},amount)`;
  const byColumn = `urn:li:widget:(urn:li:dataPlatform:${ns.platform},by_column)`;
  const widgetProposal = proposal(byColumn, 'widget', 'widgetProperties', { title: 'By column', columns: [column] }).proposal;
  const refused = await rest('/aspects?action=ingestProposalBatch', { proposals: [widgetProposal] });
  expect(refused.status).toBe(422);
  // The entity named is the column's dataset: that is what a client has to ingest.
  expect(refused.body.message).toContain(`referenced entity does not exist: ${table}`);

  const withTable = await rest('/aspects?action=ingestProposalBatch', {
    proposals: [proposal(table, 'dataset', 'datasetProperties', { name: 'By column' }).proposal, widgetProposal],
  });
  expect(withTable.status).toBe(200);
  const edge = await stack.store.driver.executeQuery(
    'MATCH (:Entity {urn: $from})-[r:DerivedFrom]->(:Entity {urn: $to}) RETURN count(r) AS n',
    { from: byColumn, to: column },
    { database: stack.store.database },
  );
  expect(edge.records[0]!.get('n').toNumber()).toBe(1);
});
