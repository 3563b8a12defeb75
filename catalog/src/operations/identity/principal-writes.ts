// What the identity, role, domain and managed-ingestion operations share: writing through the one write path (validated,
// one transaction, in the change log) as the caller, and reading what they build on.
import { randomUUID } from 'node:crypto';
import { getAspect, entityExistence } from '../../read/aspect-reader.ts';
import { hardDeleteEntity, writeAspects, type AspectChange } from '../../write/aspect-writer.ts';
import { badRequest, validationFailed } from '../../model/errors.ts';
import { parseUrn, InvalidUrnError, type Urn } from '../../model/urn.ts';
import { validateUrnKey } from '../../model/urn-key.ts';
import { assertCan, graphqlDenied, type Actor, type Operation } from '../../model/privileges.ts';
import type { Store } from '../../store/store.ts';

export type Value = Record<string, unknown>;

/** An UPSERT of one aspect (the GraphQL mutations never PATCH: they send the whole new value). */
export const upsert = (urn: Urn, aspectName: string, value: Value, extra: Partial<AspectChange> = {}): AspectChange => ({
  urn,
  aspectName,
  changeType: 'UPSERT',
  value,
  ...extra,
});

/** One transaction as the caller. None of these aspects carries lineage, so the existence rule has nothing to judge. */
export async function writeAs(store: Store, actor: Actor, changes: AspectChange[], now?: number): Promise<void> {
  await writeAspects(store, changes, { actor: actor.urn, existenceMode: 'relaxed', ...(now === undefined ? {} : { now }) });
}

/** A urn named by the request, of the entity type the field requires (null: any): 422 naming the field otherwise. */
export function requestUrn(text: unknown, entityType: string | readonly string[] | null, field: string): Urn {
  const types = typeof entityType === 'string' ? [entityType] : entityType;
  let urn: Urn;
  try {
    if (typeof text !== 'string') throw new InvalidUrnError(String(text), 'not a string');
    urn = parseUrn(text);
    validateUrnKey(urn);
  } catch {
    throw validationFailed(`${field}: not a valid urn: ${String(text)}`);
  }
  if (types && !types.includes(urn.entityType)) throw validationFailed(`${field}: expected a ${types.join(' or ')} urn, got ${urn.text}`);
  return urn;
}

/** The urn of a new entity from an optional client id (DataHub: a random UUID when absent). */
export function newEntityUrn(entityType: string, id: string | null | undefined, field: string): Urn {
  if (id === '') throw validationFailed(`${field}: must not be empty`);
  return requestUrn(`urn:li:${entityType}:${id ?? randomUUID()}`, entityType, field);
}

/** A required display name: 422 when missing or blank. */
export function requiredName(name: unknown, field: string): string {
  if (typeof name !== 'string' || name.trim() === '') throw validationFailed(`${field}: must be a non-empty string`);
  return name;
}

/** Whether the entity exists, soft-deleted or not (DataHub's exists(urn, includeSoftDeleted = true)). */
export async function exists(store: Store, urn: Urn): Promise<boolean> {
  return (await entityExistence(store, [urn])).get(urn.text)?.exists === true;
}

export async function latestValue(store: Store, urn: Urn, aspectName: string): Promise<Value | undefined> {
  return (await getAspect(store, urn, aspectName))?.value;
}

/** DataHub's AuditStamp of a write by the caller. */
export const stamp = (actor: Actor, now: number) => ({ time: now, actor: actor.urn });

/** A urn list of an aspect value, or [] when the field is absent or not a list. */
export function urnList(value: Value | undefined, field: string): string[] {
  const list = value?.[field];
  return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string') : [];
}

/** A whole entity of the type, deleted as the caller if it holds the privilege (deleting one that does not exist succeeds too). */
export async function deleteAs(store: Store, actor: Actor, op: Operation, urnText: string, entityType: string): Promise<Urn> {
  assertCan(actor, op, graphqlDenied());
  const urn = requestUrn(urnText, entityType, 'urn');
  await hardDeleteEntity(store, urn, { actor: actor.urn, existenceMode: 'relaxed' });
  return urn;
}

/** The window a list answers: start (default 0) and count (default 20, at most 1000); 400 naming a bad one. */
export function listWindow(input: { start?: number | null; count?: number | null }): { start: number; count: number } {
  const start = input.start ?? 0;
  const count = input.count ?? 20;
  if (!Number.isInteger(start) || start < 0) throw badRequest('start must be a non-negative integer');
  if (!Number.isInteger(count) || count < 0 || count > 1000) throw badRequest('count must be an integer from 0 to 1000');
  return { start, count };
}
