// How stored aspect values render as DataHub's GraphQL values: the small pieces every entity type's
// fields share (strings, lists of records, custom properties, audit stamps, tags, terms, owners).
// Entries naming a urn that cannot be rendered are left out rather than failing the whole field.
import type { JsonRecord } from '@lineage/catalog/model';
import type { RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
export const records = (v: unknown): JsonRecord[] =>
  Array.isArray(v) ? v.filter((x): x is JsonRecord => !!x && typeof x === 'object' && !Array.isArray(x)) : [];
/** A string that is one of DataHub's enum values, else the fallback (an unknown stored value is not an error). */
export const oneOf = (v: unknown, values: readonly string[], fallback: string | null = null): string | null =>
  typeof v === 'string' && values.includes(v) ? v : fallback;
export const record = (v: unknown): JsonRecord | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonRecord) : undefined;

/** The i-th key part of an entity's urn. */
export const part = (ref: EntityRef, i: number): string => ref.urn.parts[i] ?? '';

/** The latest stored value of one aspect of an entity (batched per request). */
export async function aspectOf(ctx: RequestContext, ref: EntityRef, name: string): Promise<JsonRecord | undefined> {
  return (await ctx.aspects.load(ref.urn.text)).get(name)?.value;
}

/** Entities of the given types named by urns; others left out. */
export function refsOf(urns: unknown, ...types: string[]): EntityRef[] {
  return strings(urns).flatMap((u) => {
    const ref = storedRef(u);
    return ref && (types.length === 0 || types.includes(ref.urn.entityType)) ? [ref] : [];
  });
}

export function customProperties(ref: EntityRef, value: unknown) {
  const map = record(value);
  if (!map) return null;
  return Object.entries(map).map(([key, v]) => ({
    key,
    value: typeof v === 'string' ? v : JSON.stringify(v),
    associatedUrn: ref.urn.text,
  }));
}

/** A `{time, actor}` stamp as DataHub's AuditStamp; a missing one is time 0 where GraphQL needs a value. */
export function auditStamp(v: unknown, required: true): { time: number; actor: string | null };
export function auditStamp(v: unknown, required?: false): { time: number; actor: string | null } | null;
export function auditStamp(v: unknown, required = false) {
  const s = record(v);
  if (!s) return required ? { time: 0, actor: null } : null;
  return { time: num(s.time) ?? 0, actor: str(s.actor) };
}

/** ResolvedAuditStamp: the actor as a CorpUser. */
export function resolvedStamp(v: unknown) {
  const s = record(v);
  return s ? { time: num(s.time) ?? 0, actor: refsOf([s.actor], 'corpuser')[0] ?? null } : null;
}

export function tagsOf(v: unknown, associatedUrn: string) {
  const value = record(v);
  if (!value) return null;
  return {
    tags: records(value.tags).flatMap((t) => {
      const tag = refsOf([t.tag], 'tag')[0];
      return tag ? [{ tag, associatedUrn, context: str(t.context) }] : [];
    }),
  };
}

export function termsOf(v: unknown, associatedUrn: string) {
  const value = record(v);
  if (!value) return null;
  return {
    terms: records(value.terms).flatMap((t) => {
      const term = refsOf([t.urn], 'glossaryTerm')[0];
      return term ? [{ term, associatedUrn, context: str(t.context), actor: refsOf([t.actor], 'corpuser')[0] ?? null }] : [];
    }),
  };
}

const OWNERSHIP_TYPES = new Set([
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'CUSTOM',
  'DATAOWNER',
  'PRODUCER',
  'DEVELOPER',
  'DELEGATE',
  'CONSUMER',
  'STAKEHOLDER',
]);

export function ownershipOf(v: unknown, associatedUrn: string) {
  const value = record(v);
  if (!value) return null;
  return {
    owners: records(value.owners).flatMap((o) => {
      const owner = refsOf([o.owner], 'corpuser', 'corpGroup')[0];
      if (!owner) return [];
      const type = str(o.type);
      return [
        {
          owner,
          type: type && OWNERSHIP_TYPES.has(type) ? type : null,
          ownershipType: refsOf([o.typeUrn], 'ownershipType')[0] ?? null,
          associatedUrn,
        },
      ];
    }),
    lastModified: auditStamp(value.lastModified),
  };
}

/** A structured property value (`{string}` or `{double}`) as DataHub's PropertyValue union member. */
export function propertyValue(v: unknown) {
  const value = record(v);
  if (typeof value?.string === 'string') return { __typename: 'StringValue', stringValue: value.string };
  if (typeof value?.double === 'number') return { __typename: 'NumberValue', numberValue: value.double };
  return null;
}
