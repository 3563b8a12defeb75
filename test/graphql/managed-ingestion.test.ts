// Secrets and ingestion sources through the front door on a real Neo4j (schema/ingestion.graphql):
// what each stores, who may, and bad input.
import { startStack, type Stack } from './stack.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';
import { getAspect } from '../../catalog/src/read/aspect-reader.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';

let stack: Stack;
let admin: string, editor: string;
const ns = namespace('mig');

beforeAll(async () => {
  stack = await startStack();
  admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
  editor = await tokenFor(stack.store, ns.user('editor'), 'Editor');
});
afterAll(async () => {
  await stack.close();
});

const gql = (query: string, token: string, variables: Record<string, unknown>) => stack.graphql(query, token, { variables });
const firstError = (r: { body: any }) => r.body.errors?.[0] as { message: string; extensions: { code: number } } | undefined;

const CREATE_SECRET = 'mutation($i: CreateSecretInput!) { createSecret(input: $i) }';
const RECIPE = JSON.stringify({ source: { type: 'snowflake', config: { password: '${SNOWFLAKE_PASSWORD}' } } });
const SOURCE_INPUT = {
  name: `${ns.platform} source`,
  type: 'snowflake',
  schedule: { interval: '0 5 * * *', timezone: 'UTC' },
  config: { recipe: RECIPE, executorId: 'default', debugMode: false, extraArgs: [{ key: 'k', value: 'v' }] },
};

test('a secret is stored sealed, listed without its value, read back by getSecretValues, updated and deleted', async () => {
  const name = `${ns.platform}_pw`;
  const created = await gql(CREATE_SECRET, admin, { i: { name, value: 'hunter2', description: 'db password' } });
  expect(created.body.data).toEqual({ createSecret: `urn:li:dataHubSecret:${name}` });
  const stored = JSON.stringify((await getAspect(stack.store, parseUrn(`urn:li:dataHubSecret:${name}`), 'dataHubSecretValue'))?.value);
  expect(stored).toContain('db password');
  expect(stored).not.toContain('hunter2');
  const listed = await gql('query($i: ListSecretsInput!) { listSecrets(input: $i) { total secrets { urn name description } } }', admin, {
    i: { query: ns.platform },
  });
  expect(listed.body.data.listSecrets).toEqual({
    total: 1,
    secrets: [{ urn: `urn:li:dataHubSecret:${name}`, name, description: 'db password' }],
  });
  const values = 'query($i: GetSecretValuesInput!) { getSecretValues(input: $i) { name value } }';
  expect((await gql(values, admin, { i: { secrets: [name, `${name}_absent`] } })).body.data.getSecretValues).toEqual([
    { name, value: 'hunter2' },
  ]);
  expect(firstError(await gql(CREATE_SECRET, admin, { i: { name, value: 'x' } }))).toMatchObject({
    message: 'This Secret already exists!',
    extensions: { code: 409 },
  });
  const update = 'mutation($i: UpdateSecretInput!) { updateSecret(input: $i) }';
  await gql(update, admin, { i: { urn: `urn:li:dataHubSecret:${name}`, name, value: 'correct horse' } });
  expect((await gql(values, admin, { i: { secrets: [name] } })).body.data.getSecretValues).toEqual([{ name, value: 'correct horse' }]);
  const deleted = await gql('mutation($u: String!) { deleteSecret(urn: $u) }', admin, { u: `urn:li:dataHubSecret:${name}` });
  expect(deleted.body.data).toEqual({ deleteSecret: `urn:li:dataHubSecret:${name}` });
  expect((await gql(values, admin, { i: { secrets: [name] } })).body.data.getSecretValues).toEqual([]);
});

test('secrets need MANAGE_SECRETS: an Editor gets a 403 and nothing is stored', async () => {
  const name = `${ns.platform}_denied`;
  const denied = await gql(CREATE_SECRET, editor, { i: { name, value: 'v' } });
  expect(denied.body.data).toEqual({ createSecret: null });
  expect(firstError(denied)?.extensions.code).toBe(403);
  expect(await getAspect(stack.store, parseUrn(`urn:li:dataHubSecret:${name}`), 'dataHubSecretValue')).toBeUndefined();
});

test('an ingestion source is created, read, listed, updated and deleted; a bad recipe or schedule is a 400', async () => {
  const created = await gql('mutation($i: UpdateIngestionSourceInput!) { createIngestionSource(input: $i) }', admin, { i: SOURCE_INPUT });
  const urn = created.body.data.createIngestionSource as string;
  expect(urn).toMatch(/^urn:li:dataHubIngestionSource:[0-9a-f-]{36}$/);
  const read =
    'query($u: String!) { ingestionSource(urn: $u) { urn type name schedule { interval timezone } config { recipe executorId debugMode extraArgs { key value } } } }';
  expect((await gql(read, admin, { u: urn })).body.data.ingestionSource).toEqual({
    urn,
    type: 'snowflake',
    name: SOURCE_INPUT.name,
    schedule: SOURCE_INPUT.schedule,
    config: { ...SOURCE_INPUT.config },
  });
  const update = 'mutation($u: String!, $i: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $u, input: $i) }';
  expect((await gql(update, admin, { u: urn, i: { ...SOURCE_INPUT, name: `${ns.platform} renamed` } })).body.data).toEqual({
    updateIngestionSource: urn,
  });
  const list = 'query($i: ListIngestionSourcesInput!) { listIngestionSources(input: $i) { total ingestionSources { urn name } } }';
  expect((await gql(list, admin, { i: { query: ns.platform } })).body.data.listIngestionSources).toEqual({
    total: 1,
    ingestionSources: [{ urn, name: `${ns.platform} renamed` }],
  });
  const badRecipe = await gql(update, admin, { u: urn, i: { ...SOURCE_INPUT, config: { ...SOURCE_INPUT.config, recipe: '{not json' } } });
  expect(firstError(badRecipe)).toMatchObject({ message: 'config.recipe: must be a JSON recipe', extensions: { code: 400 } });
  const badCron = await gql(update, admin, { u: urn, i: { ...SOURCE_INPUT, schedule: { interval: 'daily', timezone: 'UTC' } } });
  expect(firstError(badCron)?.extensions.code).toBe(400);
  expect((await gql(list, admin, { i: { query: ns.platform } })).body.data.listIngestionSources.ingestionSources[0].name).toBe(
    `${ns.platform} renamed`,
  );
  expect(firstError(await gql(update, admin, { u: `${urn}x`, i: SOURCE_INPUT }))?.extensions.code).toBe(404);
  expect((await gql('mutation($u: String!) { deleteIngestionSource(urn: $u) }', admin, { u: urn })).body.data).toEqual({
    deleteIngestionSource: urn,
  });
  expect((await gql(read, admin, { u: urn })).body.data.ingestionSource).toBeNull();
});

test('ingestion sources need MANAGE_INGESTION', async () => {
  const denied = await gql('mutation($i: UpdateIngestionSourceInput!) { createIngestionSource(input: $i) }', editor, { i: SOURCE_INPUT });
  expect(denied.body.data).toEqual({ createIngestionSource: null });
  expect(firstError(denied)?.extensions.code).toBe(403);
});
