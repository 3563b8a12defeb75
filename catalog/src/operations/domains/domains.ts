// Domains and data products as DataHub's CreateDomainResolver, CreateDataProductResolver,
// SetDomainResolver and UnsetDomainResolver write them: domainProperties on a new domain,
// dataProductProperties plus its domain and its creator as owner on a new data product, and an
// entity's `domains` aspect holding at most one domain.
import { badRequest, conflict } from '../../model/errors.ts';
import { assertCan, graphqlDenied, type Actor } from '../../model/privileges.ts';
import type { Urn } from '../../model/urn.ts';
import type { Store } from '../../store/store.ts';
import { latestRowsNaming } from '../../read/aspect-reader.ts';
import { exists, newEntityUrn, requestUrn, requiredName, stamp, upsert, writeAs, type Value } from '../identity/principal-writes.ts';

export interface CreateDomainInput {
  id?: string | null;
  name: string;
  description?: string | null;
  parentDomain?: string | null;
}

/** How many same-named domains the name-conflict check reads (text match first, then compared exactly). */
const NAME_MATCH_LIMIT = 1000;

async function nameTaken(store: Store, name: string, parent: Urn | undefined): Promise<boolean> {
  const rows = await latestRowsNaming(store, 'domainProperties', name, NAME_MATCH_LIMIT);
  return rows.some((r) => r.value.name === name && (r.value.parentDomain ?? undefined) === parent?.text);
}

/** createDomain: the new domain's urn (CREATE_DOMAINS or MANAGE_DOMAINS). */
export async function createDomain(store: Store, actor: Actor, input: CreateDomainInput, now = Date.now()): Promise<string> {
  assertCan(actor, 'CREATE_DOMAIN', graphqlDenied());
  const name = requiredName(input.name, 'name');
  const urn = newEntityUrn('domain', input.id, 'id');
  const parent = input.parentDomain == null ? undefined : requestUrn(input.parentDomain, 'domain', 'parentDomain');
  if (await exists(store, urn)) throw conflict('This Domain already exists!');
  if (parent && !(await exists(store, parent))) throw badRequest('Parent Domain does not exist!');
  if (await nameTaken(store, name, parent)) throw conflict(`"${name}" already exists in this domain. Please pick a unique name.`);
  const properties: Value = { name, created: stamp(actor, now) };
  if (input.description != null) properties.description = input.description;
  if (parent) properties.parentDomain = parent.text;
  await writeAs(store, actor, [upsert(urn, 'domainProperties', properties, { precondition: { noneMatch: true } })], now);
  return urn.text;
}

export interface CreateDataProductInput {
  id?: string | null;
  domainUrn: string;
  properties: { name: string; description?: string | null };
}

/** DataHub's addCreatorAsOwner: the creator as a technical owner. */
function creatorOwnership(actor: Actor, now: number): Value {
  return {
    owners: [{ owner: actor.urn, type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner' }],
    lastModified: stamp(actor, now),
  };
}

/** createDataProduct: the new data product's urn, in its domain and owned by its creator. */
export async function createDataProduct(store: Store, actor: Actor, input: CreateDataProductInput, now = Date.now()): Promise<string> {
  const domain = requestUrn(input.domainUrn, 'domain', 'domainUrn');
  if (!(await exists(store, domain))) throw badRequest('The Domain provided dos not exist');
  // DataHub: MANAGE_DATA_PRODUCTS on the domain, or EDIT_ENTITY; privileges here are global.
  assertCan(actor, 'INGEST', graphqlDenied());
  const name = requiredName(input.properties?.name, 'properties.name');
  const urn = newEntityUrn('dataProduct', input.id, 'id');
  if (await exists(store, urn)) throw conflict('This Data product already exists!');
  const properties: Value = { name };
  if (input.properties.description != null) properties.description = input.properties.description;
  await writeAs(
    store,
    actor,
    [
      upsert(urn, 'dataProductProperties', properties, { precondition: { noneMatch: true } }),
      upsert(urn, 'domains', { domains: [domain.text] }),
      upsert(urn, 'ownership', creatorOwnership(actor, now)),
    ],
    now,
  );
  return urn.text;
}

/** setDomain: the entity's only domain is this one (EDIT_ENTITY; DataHub also accepts EDIT_ENTITY_DOMAINS). */
export async function setDomain(store: Store, actor: Actor, entityUrn: string, domainUrn: string): Promise<true> {
  const domain = requestUrn(domainUrn, 'domain', 'domainUrn');
  const entity = requestUrn(entityUrn, null, 'entityUrn');
  assertCan(actor, 'INGEST', graphqlDenied());
  if (!(await exists(store, domain)))
    throw badRequest(`Failed to add Entity ${entity.text} to Domain ${domain.text}. Domain does not exist.`);
  if (!(await exists(store, entity)))
    throw badRequest(`Failed to add Entity ${entity.text} to Domain ${domain.text}. Entity does not exist.`);
  await writeAs(store, actor, [upsert(entity, 'domains', { domains: [domain.text] })]);
  return true;
}

/** unsetDomain: the entity belongs to no domain. */
export async function unsetDomain(store: Store, actor: Actor, entityUrn: string): Promise<true> {
  const entity = requestUrn(entityUrn, null, 'entityUrn');
  assertCan(actor, 'INGEST', graphqlDenied());
  if (!(await exists(store, entity))) throw badRequest(`Failed to remove Entity ${entity.text} from Domain. Entity does not exist.`);
  await writeAs(store, actor, [upsert(entity, 'domains', { domains: [] })]);
  return true;
}
