// DataHub's managed ingestion, as far as a catalog without an executor keeps it: secrets
// (dataHubSecret + dataHubSecretValue, the value sealed as DataHub's SecretService encrypts it) and
// ingestion sources (dataHubIngestionSource + dataHubIngestionSourceInfo, a recipe and a schedule),
// created, changed, listed and deleted as DataHub's resolvers do, behind MANAGE_SECRETS and
// MANAGE_INGESTION. The catalog stores sources but runs none: recipes run with `datahub ingest`
// pointed at the catalog (docs/wire-contract.md §Managed ingestion).
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../model/errors.ts';
import { assertCan, graphqlDenied, type Actor } from '../../model/privileges.ts';
import type { Urn } from '../../model/urn.ts';
import { loadLatestOfAspect } from '../../store/access-rows.ts';
import type { Store } from '../../store/store.ts';
import type { TokenSecrets } from '../auth/access-tokens.ts';
import { seal, unseal } from '../auth/secret-box.ts';
import {
  deleteAs,
  exists,
  latestValue,
  listWindow,
  requestUrn,
  requiredName,
  stamp,
  upsert,
  writeAs,
  type Value,
} from '../identity/principal-writes.ts';

const SECRET = 'dataHubSecretValue';
const SOURCE = 'dataHubIngestionSourceInfo';

export interface ListInput {
  start?: number | null;
  count?: number | null;
  query?: string | null;
}

/** A page of the stored values of one aspect, matching the query on their name, by name. */
async function listed(
  store: Store,
  aspect: string,
  input: ListInput,
): Promise<{ start: number; total: number; items: Array<{ urn: string; value: Value }> }> {
  const { start, count } = listWindow(input);
  const query = (input.query ?? '').trim().toLowerCase();
  const all = (await loadLatestOfAspect(store, aspect))
    .map((r) => ({ urn: r.urn, value: JSON.parse(r.value) as Value }))
    .filter(
      (r) =>
        query === '' ||
        query === '*' ||
        String(r.value.name ?? '')
          .toLowerCase()
          .includes(query),
    )
    .sort((a, b) => String(a.value.name ?? '').localeCompare(String(b.value.name ?? '')) || a.urn.localeCompare(b.urn));
  return { start, total: all.length, items: all.slice(start, start + count) };
}

async function existing(store: Store, urn: Urn, what: string): Promise<void> {
  if (!(await exists(store, urn))) throw notFound(`${what} ${urn.text} doesn't exist!`);
}

// ------------------------------------------------------------------------------------ secrets

export interface SecretInput {
  name: string;
  value: string;
  description?: string | null;
}

function secretValue(actor: Actor, secrets: TokenSecrets, input: SecretInput, created: unknown, now: number): Value {
  const name = requiredName(input.name, 'name');
  if (typeof input.value !== 'string') throw badRequest('value: must be a string');
  return {
    name,
    value: seal(input.value, secrets.signingKey, SECRET),
    description: input.description ?? null,
    created: created ?? stamp(actor, now),
  };
}

/** createSecret: urn:li:dataHubSecret:<name>; 409 when it exists. */
export async function createSecret(
  store: Store,
  actor: Actor,
  secrets: TokenSecrets,
  input: SecretInput,
  now = Date.now(),
): Promise<string> {
  assertCan(actor, 'MANAGE_SECRETS', graphqlDenied());
  const urn = requestUrn(`urn:li:dataHubSecret:${requiredName(input.name, 'name')}`, 'dataHubSecret', 'name');
  if (await exists(store, urn)) throw conflict('This Secret already exists!');
  await writeAs(
    store,
    actor,
    [upsert(urn, SECRET, secretValue(actor, secrets, input, undefined, now), { precondition: { noneMatch: true } })],
    now,
  );
  return urn.text;
}

/** updateSecret: a new name, value and description for an existing secret (its creation stamp kept). */
export async function updateSecret(
  store: Store,
  actor: Actor,
  secrets: TokenSecrets,
  input: SecretInput & { urn: string },
  now = Date.now(),
) {
  assertCan(actor, 'MANAGE_SECRETS', graphqlDenied());
  const urn = requestUrn(input.urn, 'dataHubSecret', 'urn');
  await existing(store, urn, 'Secret for urn');
  const created = (await latestValue(store, urn, SECRET))?.created;
  await writeAs(store, actor, [upsert(urn, SECRET, secretValue(actor, secrets, input, created, now))], now);
  return urn.text;
}

export const deleteSecret = (store: Store, actor: Actor, urn: string) =>
  deleteAs(store, actor, 'MANAGE_SECRETS', urn, 'dataHubSecret').then((u) => u.text);

/** listSecrets: names and descriptions, never values. */
export async function listSecrets(store: Store, actor: Actor, input: ListInput) {
  assertCan(actor, 'MANAGE_SECRETS', graphqlDenied());
  const page = await listed(store, SECRET, input);
  const secrets = page.items.map((s) => ({
    urn: s.urn,
    name: String(s.value.name),
    description: (s.value.description as string | null) ?? null,
  }));
  return { start: page.start, count: secrets.length, total: page.total, secrets };
}

/** getSecretValues: the named secrets' plain values (a secret that does not exist, or no longer opens, is left out). */
export async function getSecretValues(store: Store, actor: Actor, secrets: TokenSecrets, names: readonly string[]) {
  assertCan(actor, 'MANAGE_SECRETS', graphqlDenied());
  const values = await Promise.all(
    names.map(async (name) => {
      const stored = await latestValue(store, requestUrn(`urn:li:dataHubSecret:${name}`, 'dataHubSecret', 'secrets'), SECRET);
      const value = typeof stored?.value === 'string' ? unseal(stored.value, secrets.signingKey, SECRET) : undefined;
      return value === undefined ? [] : [{ name, value }];
    }),
  );
  return values.flat();
}

// ---------------------------------------------------------------------------- ingestion sources

export interface IngestionSourceInput {
  name: string;
  type: string;
  description?: string | null;
  schedule?: { interval: string; timezone: string } | null;
  config: {
    recipe: string;
    version?: string | null;
    executorId: string;
    debugMode?: boolean | null;
    extraArgs?: Array<{ key: string; value?: string | null }> | null;
  };
  source?: { type: string } | null;
}

function sourceInfo(input: IngestionSourceInput): Value {
  const name = requiredName(input.name, 'name');
  const type = requiredName(input.type, 'type');
  const config = input.config;
  requiredName(config?.recipe, 'config.recipe');
  requiredName(config.executorId, 'config.executorId');
  // DataHub accepts any recipe text; a recipe that is not JSON (or YAML DataHub's UI turns into JSON) is a client mistake here.
  try {
    JSON.parse(config.recipe);
  } catch {
    throw badRequest('config.recipe: must be a JSON recipe');
  }
  if (input.schedule && !/^(\S+\s+){4}\S+$/.test(input.schedule.interval.trim()))
    throw badRequest(`schedule.interval: not a cron expression: ${input.schedule.interval}`);
  const extraArgs = Object.fromEntries((config.extraArgs ?? []).map((a) => [a.key, a.value ?? '']));
  return {
    name,
    type,
    ...(input.description ? { description: input.description } : {}),
    ...(input.schedule ? { schedule: { interval: input.schedule.interval, timezone: input.schedule.timezone } } : {}),
    config: {
      recipe: config.recipe,
      executorId: config.executorId,
      debugMode: config.debugMode ?? false,
      extraArgs,
      ...(config.version ? { version: config.version } : {}),
    },
    ...(input.source ? { source: { type: input.source.type } } : {}),
  };
}

/** createIngestionSource: a new source (random id), stored; answers its urn. */
export async function createIngestionSource(
  store: Store,
  actor: Actor,
  input: IngestionSourceInput & { id?: string | null },
  now = Date.now(),
) {
  assertCan(actor, 'MANAGE_INGESTION', graphqlDenied());
  const urn = requestUrn(`urn:li:dataHubIngestionSource:${input.id ?? randomUUID()}`, 'dataHubIngestionSource', 'id');
  await writeAs(store, actor, [upsert(urn, SOURCE, sourceInfo(input), { precondition: { noneMatch: true } })], now);
  return urn.text;
}

/** updateIngestionSource: the source's whole info replaced. */
export async function updateIngestionSource(store: Store, actor: Actor, urnText: string, input: IngestionSourceInput, now = Date.now()) {
  assertCan(actor, 'MANAGE_INGESTION', graphqlDenied());
  const urn = requestUrn(urnText, 'dataHubIngestionSource', 'urn');
  await existing(store, urn, 'Ingestion source');
  await writeAs(store, actor, [upsert(urn, SOURCE, sourceInfo(input))], now);
  return urn.text;
}

export const deleteIngestionSource = (store: Store, actor: Actor, urn: string) =>
  deleteAs(store, actor, 'MANAGE_INGESTION', urn, 'dataHubIngestionSource').then((u) => u.text);

/** An ingestion source as DataHub's GraphQL renders it (extraArgs as key/value entries). */
function renderedSource(urn: string, v: Value) {
  const config = (v.config ?? {}) as Value;
  const extraArgs = Object.entries((config.extraArgs ?? {}) as Record<string, string>).map(([key, value]) => ({ key, value }));
  return {
    urn,
    type: v.type,
    name: v.name,
    description: v.description ?? null,
    schedule: v.schedule ?? null,
    config: { ...config, extraArgs },
  };
}

export async function listIngestionSources(store: Store, actor: Actor, input: ListInput) {
  assertCan(actor, 'MANAGE_INGESTION', graphqlDenied());
  const page = await listed(store, SOURCE, input);
  const ingestionSources = page.items.map((s) => renderedSource(s.urn, s.value));
  return { start: page.start, count: ingestionSources.length, total: page.total, ingestionSources };
}

export async function ingestionSource(store: Store, actor: Actor, urnText: string) {
  assertCan(actor, 'MANAGE_INGESTION', graphqlDenied());
  const urn = requestUrn(urnText, 'dataHubIngestionSource', 'urn');
  const value = await latestValue(store, urn, SOURCE);
  return value ? renderedSource(urn.text, value) : null;
}
