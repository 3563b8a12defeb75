// Entity reads (docs/wire-contract.md §GraphQL): the Query getters, the Entity interfaces and the
// resolvers of every entity type. Which fields a type has is what its generated SDL declares
// (surface/entity-sdl.ts plus the extensions in schema/*.graphql); this file wires, for each type,
// the fields every entity shares, its aspect fields (surface/aspect-fields.ts), what its descriptor
// says (key parts, platform, descriptive aspect) and the few fields particular to it.
import { Kind, type DocumentNode } from 'graphql';
import {
  entityTypeDescriptors,
  entityTypeToGraphql,
  nameOf,
  platformOf,
  type EntityTypeDescriptor,
  type JsonRecord,
} from '@lineage/catalog/model';
import { maskUrns } from '@lineage/catalog/read';
import { requireRead, requireView, type RequestContext } from '../context.ts';
import { parseRequestUrn, requestedRef, storedRef, typenameOf, type EntityRef } from '../entity-ref.ts';
import { aspectFieldResolvers } from '../surface/aspect-fields.ts';
import { aspectOf, customProperties, part, str } from '../surface/values.ts';
import { ASSET_FIELDS } from './asset-fields.ts';
import { GOVERNANCE_FIELDS } from './governance-fields.ts';
import { lineageField } from './lineage.ts';
import { listQueries, relatedDocuments } from './listing.ts';
import { relationshipsOf } from './relationships.ts';
import type {
  AspectParams,
  EntityRelationshipsArgs,
  RelatedDocumentsInput,
  QueryEntityArgs,
  QueryResolvers,
} from '../generated/schema-types.ts';

/** Fields every entity type has (the generated common block). */
const entityFields = {
  urn: (ref: EntityRef) => ref.urn.text,
  type: (ref: EntityRef) => entityTypeToGraphql(ref.urn.entityType),
  exists: async (ref: EntityRef, _: unknown, ctx: RequestContext) => (await ctx.existence.load(ref.urn.text)).exists,
  relationships: (ref: EntityRef, { input }: EntityRelationshipsArgs, ctx: RequestContext) => relationshipsOf(ctx, ref.urn, input),
  aspects: async (ref: EntityRef, { input }: { input?: AspectParams | null }, ctx: RequestContext) => {
    const all = await ctx.aspects.load(ref.urn.text);
    const wanted = input?.aspectNames ? new Set(input.aspectNames) : undefined;
    return [...all.values()]
      .filter((a) => !wanted || wanted.has(a.name))
      .map((a) => ({ aspectName: a.name, payload: JSON.stringify(a.value) }));
  },
  relatedDocuments: (ref: EntityRef, { input }: { input: RelatedDocumentsInput | null }, ctx: RequestContext) =>
    relatedDocuments(ctx, ref, input),
  lineage: lineageField,
  __resolveReference: async (reference: { urn: string }, ctx: RequestContext) => {
    requireRead(ctx);
    return storedRef(reference.urn);
  },
};

/** The key parts a descriptor exposes as GraphQL fields: strings as they are, urns as entities. */
function keyPartFields(d: EntityTypeDescriptor): Record<string, (ref: EntityRef) => unknown> {
  return Object.fromEntries(
    d.key.flatMap((k, i) => {
      if (k.graphqlField === undefined) return [];
      return [[k.graphqlField, k.kind === 'urn' ? (ref: EntityRef) => storedRef(part(ref, i)) : (ref: EntityRef) => part(ref, i)]];
    }),
  );
}

/** `properties` and `description` from the descriptive aspect (the stored value, named and described). */
function descriptiveFields(d: EntityTypeDescriptor): Record<string, unknown> {
  const descriptive = d.modelled?.descriptive;
  if (!descriptive) return {};
  const descriptionOf = (v: JsonRecord | undefined) => descriptive.description.map((f) => str(v?.[f])).find((x) => x !== null) ?? null;
  return {
    description: async (ref: EntityRef, _: unknown, ctx: RequestContext) => descriptionOf(await aspectOf(ctx, ref, descriptive.aspect)),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, descriptive.aspect);
      if (!v) return null;
      return {
        ...v,
        name: descriptive.name.map((f) => str(v[f])).find((x) => x !== null) ?? nameOf(ref.urn) ?? '',
        description: descriptionOf(v),
        externalUrl: str(v.externalUrl),
        customProperties: customProperties(ref, v.customProperties),
      };
    },
  };
}

/** What a descriptor gives its GraphQL type; the SDL decides which of these the type declares. */
function fieldsOf(d: EntityTypeDescriptor, typename: string): Record<string, unknown> {
  return {
    ...entityFields,
    ...(d.modelled?.platformPart !== undefined ? { platform: (ref: EntityRef) => storedRef(platformOf(ref.urn)) } : {}),
    ...keyPartFields(d),
    ...descriptiveFields(d),
    ...aspectFieldResolvers(typename),
    ...ASSET_FIELDS[typename],
    ...GOVERNANCE_FIELDS[typename],
  };
}

/** Field names each object type (and Query) declares in the SDL, extensions included. */
function declaredFields(typeDefs: DocumentNode): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const def of typeDefs.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const fields = out.get(def.name.value) ?? new Set<string>();
    for (const f of def.fields ?? []) fields.add(f.name.value);
    out.set(def.name.value, fields);
  }
  return out;
}

function pick(fields: Record<string, unknown>, names: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => names.has(name) || name.startsWith('__')));
}

/** Requested urns as the caller may see them: the entity, or a Restricted one under its opaque urn. */
async function viewedRefs(ctx: RequestContext, urns: readonly string[]): Promise<Array<EntityRef | null>> {
  requireRead(ctx);
  const refs = urns.map((u) => requestedRef(u));
  const as = await maskUrns(
    ctx.viewer,
    refs.flatMap((r) => (r ? [r.urn.text] : [])),
  );
  return refs.map((r) => (r && as(r.urn.text) !== r.urn.text ? storedRef(as(r.urn.text)) : r));
}

const byTypename = (value: { __typename?: string }) => value.__typename ?? null;
const refType = (ref: EntityRef) => typenameOf(ref) ?? null;

/**
 * The entity resolvers for the subgraph's SDL: one object type per descriptor with a
 * graphqlTypename, and a `Query` getter named after the entity type (DataHub's spelling, case aside:
 * `corpUser` for corpuser) wherever the SDL declares one.
 */
export function entityResolvers(typeDefs: DocumentNode) {
  const declared = declaredFields(typeDefs);
  const getters = new Map([...(declared.get('Query') ?? [])].map((name) => [name.toLowerCase(), name]));
  const resolvers: Record<string, Record<string, unknown>> = {
    Query: {
      // An entity the caller may not view comes back as a Restricted one (DataHub's batch loads).
      entity: async (_, { urn }, ctx) => (await viewedRefs(ctx, [urn]))[0],
      entities: (_, { urns }, ctx) => viewedRefs(ctx, urns),
      entityExists: async (_, { urn }, ctx) => {
        requireRead(ctx);
        return (await ctx.existence.load(parseRequestUrn(urn).text)).exists;
      },
      listQueries: (_, { input }, ctx) => listQueries(ctx, input),
    } satisfies QueryResolvers,
    Entity: { __resolveType: refType },
    EntityWithRelationships: { __resolveType: refType },
    OwnerType: { __resolveType: refType },
    PlatformSchema: { __resolveType: byTypename },
    PropertyValue: { __resolveType: byTypename },
  };
  for (const d of entityTypeDescriptors()) {
    const typename = d.graphqlTypename;
    if (typename === undefined) continue;
    const fields = declared.get(typename);
    if (!fields) throw new Error(`Entity type ${d.name} names GraphQL type ${typename}, which the SDL does not declare`);
    resolvers[typename] = pick(fieldsOf(d, typename), fields);
    const getter = getters.get(d.name.toLowerCase());
    if (getter !== undefined && !(getter in resolvers.Query!)) {
      resolvers.Query![getter] = async (_: unknown, { urn }: QueryEntityArgs, ctx: RequestContext) => {
        const ref = requestedRef(urn, d.name);
        if (ref) await requireView(ctx, ref.urn.text);
        else requireRead(ctx);
        return ref;
      };
    }
  }
  return resolvers;
}
