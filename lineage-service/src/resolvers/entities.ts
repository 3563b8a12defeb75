// Entity reads (docs/wire-contract.md §GraphQL): the Query getters, the Entity interfaces, and the fields of every
// concrete type. Key-derived fields come from the urn; descriptive ones from the latest aspects.
import { Kind, type DocumentNode } from 'graphql';
import { entityTypeDescriptors, entityTypeToGraphql, nameOf, platformOf, type EntityTypeDescriptor, type JsonRecord, type Urn } from '@lineage/catalog/model';
import { getAspect, relatedEntities } from '@lineage/catalog/read';
import { requireRead, type RequestContext } from '../context.ts';
import { parseRequestUrn, requestedRef, storedRef, typenameOf, type EntityRef } from '../entity-ref.ts';
import { lineageField } from './lineage.ts';
import { MAX_PAGE_SIZE, pageArgument } from '../paging.ts';

type Args<T> = T;

const DEFAULT_RELATIONSHIP_COUNT = 100;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const part = (ref: EntityRef, i: number): string => ref.urn.parts[i] ?? '';

async function aspect(ctx: RequestContext, ref: EntityRef, name: string): Promise<JsonRecord | undefined> {
  return (await ctx.aspects.load(ref.urn.text)).get(name)?.value;
}

function customProperties(ref: EntityRef, value: unknown) {
  if (!value || typeof value !== 'object') return null;
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
    key, value: typeof v === 'string' ? v : JSON.stringify(v), associatedUrn: ref.urn.text,
  }));
}

export interface RelationshipsInput {
  types: string[];
  direction: 'INCOMING' | 'OUTGOING';
  start?: number | null;
  count?: number | null;
  includeSoftDelete?: boolean | null;
}

export async function relationshipsOf(ctx: RequestContext, urn: Urn, input: RelationshipsInput) {
  const start = pageArgument('start', input.start, 0);
  const count = pageArgument('count', input.count, DEFAULT_RELATIONSHIP_COUNT, MAX_PAGE_SIZE);
  const { total, rows } = await relatedEntities(ctx.store, urn, {
    direction: input.direction, types: input.types, includeRemoved: input.includeSoftDelete !== false, start, count,
  });
  return {
    start,
    count: rows.length,
    total,
    relationships: rows.map((r) => ({
      type: r.type,
      direction: input.direction,
      entity: storedRef(r.urn),
      created: r.createdOn ? { time: r.createdOn, actor: r.createdActor } : null,
    })),
  };
}

/** Fields every concrete entity type has. */
const entityFields = {
  urn: (ref: EntityRef) => ref.urn.text,
  type: (ref: EntityRef) => entityTypeToGraphql(ref.urn.entityType),
  exists: async (ref: EntityRef, _: unknown, ctx: RequestContext) => (await ctx.existence.load(ref.urn.text)).exists,
  status: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'status');
    return v ? { removed: v.removed === true } : null;
  },
  relationships: (ref: EntityRef, { input }: Args<{ input: RelationshipsInput }>, ctx: RequestContext) => relationshipsOf(ctx, ref.urn, input),
  aspects: async (ref: EntityRef, { input }: Args<{ input?: { aspectNames?: string[] | null } | null }>, ctx: RequestContext) => {
    const all = await ctx.aspects.load(ref.urn.text);
    const wanted = input?.aspectNames ? new Set(input.aspectNames) : undefined;
    return [...all.values()]
      .filter((a) => !wanted || wanted.has(a.name))
      .map((a) => ({ aspectName: a.name, payload: JSON.stringify(a.value) }));
  },
  __resolveReference: async (reference: { urn: string }, ctx: RequestContext) => {
    requireRead(ctx);
    return storedRef(reference.urn);
  },
};

function fineGrainedRef(urnText: unknown) {
  const ref = storedRef(str(urnText));
  if (!ref) return null;
  // schemaField urns become (parent, fieldPath); a whole-dataset upstream has path ''.
  return ref.urn.entityType === 'schemaField' ? { urn: part(ref, 0), path: part(ref, 1) } : { urn: ref.urn.text, path: '' };
}

/** The platform instance an entity names in its dataPlatformInstance aspect (none without an instance, as in DataHub). */
async function dataPlatformInstance(ref: EntityRef, _: unknown, ctx: RequestContext) {
  return storedRef(str((await aspect(ctx, ref, 'dataPlatformInstance'))?.instance));
}

// DataHub's SchemaFieldDataType by the record name of a field's type union.
const FIELD_TYPES: Readonly<Record<string, string>> = {
  BooleanType: 'BOOLEAN', FixedType: 'FIXED', StringType: 'STRING', BytesType: 'BYTES', NumberType: 'NUMBER',
  DateType: 'DATE', TimeType: 'TIME', EnumType: 'ENUM', NullType: 'NULL', MapType: 'MAP', ArrayType: 'ARRAY',
  UnionType: 'UNION', RecordType: 'STRUCT',
};

function fieldType(type: unknown): string {
  const union = (type as JsonRecord | undefined)?.type;
  const fqcn = union && typeof union === 'object' ? Object.keys(union as JsonRecord)[0] : undefined;
  const name = fqcn?.split('.').at(-1);
  return name !== undefined && Object.hasOwn(FIELD_TYPES, name) ? FIELD_TYPES[name]! : 'NULL';
}

/** Dataset.schemaMetadata(version): DataHub's SchemaMetadata of a stored version (0 = latest). */
async function schemaMetadata(ref: EntityRef, { version }: { version?: number | null }, ctx: RequestContext) {
  const wanted = version ?? 0;
  const value = wanted === 0
    ? await aspect(ctx, ref, 'schemaMetadata')
    : (await getAspect(ctx.store, ref.urn, 'schemaMetadata', wanted))?.value as JsonRecord | undefined;
  if (!value) return null;
  const fields = Array.isArray(value.fields) ? (value.fields as JsonRecord[]) : [];
  return {
    aspectVersion: wanted,
    datasetUrn: str(value.dataset) ?? ref.urn.text,
    name: str(value.schemaName) ?? '',
    platformUrn: str(value.platform) ?? '',
    version: typeof value.version === 'number' ? value.version : 0,
    cluster: str(value.cluster),
    hash: str(value.hash) ?? '',
    primaryKeys: Array.isArray(value.primaryKeys) ? value.primaryKeys.filter((k) => typeof k === 'string') : null,
    createdAt: null,
    fields: fields.map(schemaFieldOf),
  };
}

/** One SchemaField of a schemaMetadata or inputFields aspect as DataHub's GraphQL renders it. */
function schemaFieldOf(f: JsonRecord) {
  return {
    fieldPath: str(f.fieldPath) ?? '',
    jsonPath: str(f.jsonPath),
    nullable: f.nullable === true,
    description: str(f.description),
    type: fieldType(f.type),
    nativeDataType: str(f.nativeDataType),
    recursive: f.recursive === true,
    isPartOfKey: typeof f.isPartOfKey === 'boolean' ? f.isPartOfKey : null,
    label: str(f.label),
  };
}

const records = (v: unknown): JsonRecord[] => (Array.isArray(v) ? v.filter((x): x is JsonRecord => !!x && typeof x === 'object' && !Array.isArray(x)) : []);

const OWNERSHIP_TYPES = new Set(['TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD', 'NONE', 'CUSTOM', 'DATAOWNER', 'PRODUCER', 'DEVELOPER', 'DELEGATE', 'CONSUMER', 'STAKEHOLDER']);

/**
 * tags, glossaryTerms, ownership, domain, container: from the stored aspects of the same names
 * (globalTags, glossaryTerms, ownership, domains, container), null when the aspect is absent.
 * Entries naming a urn that cannot be rendered (unparseable, or an owner that is neither user nor
 * group) are left out rather than failing the whole field.
 */
const metadataFields = {
  tags: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'globalTags');
    if (!v) return null;
    return { tags: records(v.tags).flatMap((t) => {
      const tag = storedRef(str(t.tag));
      return tag && tag.urn.entityType === 'tag' ? [{ tag, associatedUrn: ref.urn.text, context: str(t.context) }] : [];
    }) };
  },
  glossaryTerms: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'glossaryTerms');
    if (!v) return null;
    return { terms: records(v.terms).flatMap((t) => {
      const term = storedRef(str(t.urn));
      return term && term.urn.entityType === 'glossaryTerm' ? [{ term, associatedUrn: ref.urn.text, context: str(t.context) }] : [];
    }) };
  },
  ownership: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'ownership');
    if (!v) return null;
    return { owners: records(v.owners).flatMap((o) => {
      const owner = storedRef(str(o.owner));
      if (!owner || (owner.urn.entityType !== 'corpuser' && owner.urn.entityType !== 'corpGroup')) return [];
      const type = str(o.type);
      return [{ owner, type: type && OWNERSHIP_TYPES.has(type) ? type : null, associatedUrn: ref.urn.text }];
    }) };
  },
  domain: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'domains');
    const domain = Array.isArray(v?.domains) ? storedRef(str(v.domains[0])) : null;
    return domain && domain.urn.entityType === 'domain' ? { domain, associatedUrn: ref.urn.text } : null;
  },
  container: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const container = storedRef(str((await aspect(ctx, ref, 'container'))?.container));
    return container && container.urn.entityType === 'container' ? container : null;
  },
  inputFields: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, 'inputFields');
    if (!v) return null;
    return { fields: records(v.fields).map((f) => {
      const field = f.schemaField && typeof f.schemaField === 'object' ? schemaFieldOf(f.schemaField as JsonRecord) : null;
      return { schemaFieldUrn: str(f.schemaFieldUrn), schemaField: field };
    }) };
  },
};

/** A name from an aspect field, else the urn's first key part. */
const nameFrom = (ref: EntityRef, v: JsonRecord | undefined, field: string) => str(v?.[field]) ?? part(ref, 0);

/** The key parts a descriptor exposes as GraphQL fields: strings as they are, urns as entities. */
function keyPartFields(d: EntityTypeDescriptor): Record<string, (ref: EntityRef) => unknown> {
  return Object.fromEntries(d.key.flatMap((k, i) => {
    if (k.graphqlField === undefined) return [];
    return [[k.graphqlField, k.kind === 'urn' ? (ref: EntityRef) => storedRef(part(ref, i)) : (ref: EntityRef) => part(ref, i)]];
  }));
}

/** `properties` or `description` from the descriptive aspect, as the descriptor says GraphQL shows it. */
function descriptiveFields(d: EntityTypeDescriptor): Record<string, unknown> {
  const descriptive = d.modelled?.descriptive;
  if (!descriptive) return {};
  const fromAspect = async (ref: EntityRef, ctx: RequestContext) => aspect(ctx, ref, descriptive.aspect);
  const descriptionOf = (v: JsonRecord | undefined) => descriptive.description.map((f) => str(v?.[f])).find((x) => x !== null) ?? null;
  const description = async (ref: EntityRef, _: unknown, ctx: RequestContext) => descriptionOf(await fromAspect(ref, ctx));
  if (d.modelled?.graphqlDescriptive !== 'properties') return { description };
  return {
    description,
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await fromAspect(ref, ctx);
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

/** What every descriptor gives its GraphQL type; the SDL decides which of these the type declares. */
function generatedFields(d: EntityTypeDescriptor): Record<string, unknown> {
  return {
    ...entityFields,
    ...metadataFields,
    lineage: lineageField,
    dataPlatformInstance,
    ...(d.modelled?.platformPart !== undefined ? { platform: (ref: EntityRef) => storedRef(platformOf(ref.urn)) } : {}),
    ...keyPartFields(d),
    ...descriptiveFields(d),
  };
}

/** Fields of particular types that no descriptor describes: nested aspects, their own relationships. */
const TYPE_SPECIFIC_FIELDS: Readonly<Record<string, Record<string, unknown>>> = {
  Dataset: {
    schemaMetadata,
    fineGrainedLineages: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'upstreamLineage');
      const entries = Array.isArray(v?.fineGrainedLineages) ? (v.fineGrainedLineages as JsonRecord[]) : null;
      if (!entries) return null;
      return entries.map((e) => ({
        upstreams: Array.isArray(e.upstreams) ? e.upstreams.map(fineGrainedRef).filter((r) => r !== null) : [],
        downstreams: Array.isArray(e.downstreams) ? e.downstreams.map(fineGrainedRef).filter((r) => r !== null) : [],
        query: str(e.query),
        transformOperation: str(e.transformOperation),
      }));
    },
  },
  DataFlow: {
    childJobs: (ref: EntityRef, args: { start?: number | null; count?: number | null }, ctx: RequestContext) =>
      relationshipsOf(ctx, ref.urn, { types: ['IsPartOf'], direction: 'INCOMING', start: args.start, count: args.count }),
  },
  DataPlatformInstance: {
    platform: (ref: EntityRef) => storedRef(part(ref, 0)),
    instanceId: (ref: EntityRef) => part(ref, 1),
  },
  QueryEntity: {
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'queryProperties');
      const statement = v?.statement as JsonRecord | undefined;
      if (!v || !statement || typeof statement.value !== 'string') return null;
      return { statement: { value: statement.value, language: str(statement.language) }, source: str(v.source), name: str(v.name), description: str(v.description) };
    },
  },
  Tag: {
    name: async (ref: EntityRef, _: unknown, ctx: RequestContext) => nameFrom(ref, await aspect(ctx, ref, 'tagProperties'), 'name'),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'tagProperties');
      return v ? { name: nameFrom(ref, v, 'name'), description: str(v.description), colorHex: str(v.colorHex) } : null;
    },
  },
  GlossaryTerm: {
    name: (ref: EntityRef) => part(ref, 0),
    hierarchicalName: (ref: EntityRef) => part(ref, 0),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'glossaryTermInfo');
      if (!v) return null;
      const definition = str(v.definition) ?? '';
      return { name: nameFrom(ref, v, 'name'), description: str(v.description) ?? definition, definition, termSource: str(v.termSource) };
    },
  },
  CorpGroup: {
    name: (ref: EntityRef) => part(ref, 0),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'corpGroupInfo');
      return v ? { displayName: str(v.displayName), email: str(v.email), description: str(v.description) } : null;
    },
  },
  Domain: {
    id: (ref: EntityRef) => part(ref, 0),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'domainProperties');
      return v ? { name: nameFrom(ref, v, 'name'), description: str(v.description) } : null;
    },
  },
  Container: {
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'containerProperties');
      return v ? { name: nameFrom(ref, v, 'name'), description: str(v.description), qualifiedName: str(v.qualifiedName) } : null;
    },
    platform: async (ref: EntityRef, _: unknown, ctx: RequestContext) => storedRef(str((await aspect(ctx, ref, 'dataPlatformInstance'))?.platform)),
  },
  DataPlatform: {
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'dataPlatformInfo');
      return v ? { displayName: str(v.displayName), logoUrl: str(v.logoUrl) } : null;
    },
  },
};

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

/**
 * The entity resolvers for the subgraph's SDL: one object type per descriptor with a
 * graphqlTypename, its fields generated from the descriptor (plus the few type-specific ones), and
 * a `Query` getter named after the entity type wherever the SDL declares one.
 */
export function entityResolvers(typeDefs: DocumentNode) {
  const declared = declaredFields(typeDefs);
  const query = declared.get('Query') ?? new Set<string>();
  const resolvers: Record<string, Record<string, unknown>> = {
    Query: {
      entity: (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => {
        requireRead(ctx);
        return requestedRef(urn);
      },
      entities: (_: unknown, { urns }: { urns: string[] }, ctx: RequestContext) => {
        requireRead(ctx);
        return urns.map((u) => requestedRef(u));
      },
      entityExists: async (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => {
        requireRead(ctx);
        const parsed = parseRequestUrn(urn);
        return (await ctx.existence.load(parsed.text)).exists;
      },
    },
    Entity: { __resolveType: (ref: EntityRef) => typenameOf(ref) ?? null },
    EntityWithRelationships: { __resolveType: (ref: EntityRef) => typenameOf(ref) ?? null },
    OwnerType: { __resolveType: (ref: EntityRef) => typenameOf(ref) ?? null },
  };
  for (const d of entityTypeDescriptors()) {
    const typename = d.graphqlTypename;
    if (typename === undefined) continue;
    const fields = declared.get(typename);
    if (!fields) throw new Error(`Entity type ${d.name} names GraphQL type ${typename}, which the SDL does not declare`);
    resolvers[typename] = pick({ ...generatedFields(d), ...TYPE_SPECIFIC_FIELDS[typename] }, fields);
    if (query.has(d.name)) {
      resolvers.Query![d.name] = (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => {
        requireRead(ctx);
        return requestedRef(urn, d.name);
      };
    }
  }
  return resolvers;
}
