// Entity reads (wire-compat §3.3): the Query getters, the Entity interfaces, and the fields of every
// concrete type. Key-derived fields come from the urn; descriptive ones from the latest aspects.
import { entityTypeToGraphql, platformOf, type Urn } from '@lineage/catalog/model';
import { getAspect } from '@lineage/catalog/read';
import { int } from '@lineage/catalog/store';
import { requireRead, type RequestContext } from '../context.ts';
import { GRAPHQL_TYPENAME, parseRequestUrn, requestedRef, storedRef, typenameOf, type EntityRef } from '../entity-ref.ts';
import { lineageField } from './lineage.ts';
import { MAX_PAGE_SIZE, pageArgument } from '../paging.ts';

type Args<T> = T;
type Json = Record<string, unknown>;

const DEFAULT_RELATIONSHIP_COUNT = 100;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const part = (ref: EntityRef, i: number): string => ref.urn.parts[i] ?? '';

async function aspect(ctx: RequestContext, ref: EntityRef, name: string): Promise<Json | undefined> {
  return (await ctx.aspects.load(ref.urn.text)).get(name)?.value;
}

function customProperties(ref: EntityRef, value: unknown) {
  if (!value || typeof value !== 'object') return null;
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
    key, value: typeof v === 'string' ? v : JSON.stringify(v), associatedUrn: ref.urn.text,
  }));
}

/** `{name, description, …}` of an info/properties aspect, with DataHub's name fallbacks. */
function properties(aspectName: string, nameKey: string, fallbackName: (ref: EntityRef) => string) {
  return async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
    const v = await aspect(ctx, ref, aspectName);
    if (!v) return null;
    return {
      ...v,
      name: str(v[nameKey]) ?? fallbackName(ref),
      description: str(v.description),
      externalUrl: str(v.externalUrl),
      customProperties: customProperties(ref, v.customProperties),
    };
  };
}

function platformRef(urnText: string | undefined): EntityRef | null {
  return storedRef(urnText);
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
  // LINEAGE is the derived traversal edge, not a DataHub relationship; HAS_ASPECT never ends at an Entity.
  const types = input.types.filter((t) => t !== 'LINEAGE');
  const statement = input.direction === 'INCOMING' ? 'relationships/related-incoming' : 'relationships/related-outgoing';
  const [result] = await ctx.store.read((tx) =>
    tx.run<{ total: number; rows: Array<{ type: string; urn: string; createdOn: number | null; createdActor: string | null }> }>(
      statement, { urn: urn.text, types, includeRemoved: input.includeSoftDelete !== false, start: int(start), count: int(count) }));
  const rows = result?.rows ?? [];
  return {
    start,
    count: rows.length,
    total: result?.total ?? 0,
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

const withLineage = { ...entityFields, lineage: lineageField };

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
  const union = (type as Json | undefined)?.type;
  const fqcn = union && typeof union === 'object' ? Object.keys(union as Json)[0] : undefined;
  const name = fqcn?.split('.').at(-1);
  return name !== undefined && Object.hasOwn(FIELD_TYPES, name) ? FIELD_TYPES[name]! : 'NULL';
}

/** Dataset.schemaMetadata(version): DataHub's SchemaMetadata of a stored version (0 = latest). */
async function schemaMetadata(ref: EntityRef, { version }: { version?: number | null }, ctx: RequestContext) {
  const wanted = version ?? 0;
  const value = wanted === 0
    ? await aspect(ctx, ref, 'schemaMetadata')
    : (await getAspect(ctx.store, ref.urn, 'schemaMetadata', wanted))?.value as Json | undefined;
  if (!value) return null;
  const fields = Array.isArray(value.fields) ? (value.fields as Json[]) : [];
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
    fields: fields.map((f) => ({
      fieldPath: str(f.fieldPath) ?? '',
      jsonPath: str(f.jsonPath),
      nullable: f.nullable === true,
      description: str(f.description),
      type: fieldType(f.type),
      nativeDataType: str(f.nativeDataType),
      recursive: f.recursive === true,
      isPartOfKey: typeof f.isPartOfKey === 'boolean' ? f.isPartOfKey : null,
      label: str(f.label),
    })),
  };
}

const description = (aspectName: string) => async (ref: EntityRef, _: unknown, ctx: RequestContext) =>
  str((await aspect(ctx, ref, aspectName))?.description);

export const entityResolvers = {
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
    ...Object.fromEntries(
      (['dataset', 'dataJob', 'dataFlow', 'chart', 'dashboard', 'mlFeature', 'mlPrimaryKey', 'mlFeatureTable', 'mlModel', 'mlModelGroup', 'schemaField'] as const)
        .map((entityType) => [entityType, (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => {
          requireRead(ctx);
          return requestedRef(urn, entityType);
        }]),
    ),
  },
  Entity: { __resolveType: (ref: EntityRef) => typenameOf(ref) ?? null },
  EntityWithRelationships: { __resolveType: (ref: EntityRef) => typenameOf(ref) ?? null },
  Dataset: {
    ...withLineage,
    platform: (ref: EntityRef) => platformRef(part(ref, 0)),
    name: (ref: EntityRef) => part(ref, 1),
    origin: (ref: EntityRef) => part(ref, 2),
    properties: properties('datasetProperties', 'name', (ref) => part(ref, 1)),
    description: description('datasetProperties'),
    schemaMetadata,
    dataPlatformInstance,
    fineGrainedLineages: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'upstreamLineage');
      const entries = Array.isArray(v?.fineGrainedLineages) ? (v.fineGrainedLineages as Json[]) : null;
      if (!entries) return null;
      return entries.map((e) => ({
        upstreams: Array.isArray(e.upstreams) ? e.upstreams.map(fineGrainedRef).filter((r) => r !== null) : [],
        downstreams: Array.isArray(e.downstreams) ? e.downstreams.map(fineGrainedRef).filter((r) => r !== null) : [],
        query: str(e.query),
        transformOperation: str(e.transformOperation),
      }));
    },
  },
  DataJob: {
    ...withLineage,
    jobId: (ref: EntityRef) => part(ref, 1),
    dataFlow: (ref: EntityRef) => storedRef(part(ref, 0)),
    properties: properties('dataJobInfo', 'name', (ref) => part(ref, 1)),
    dataPlatformInstance,
  },
  DataFlow: {
    ...withLineage,
    orchestrator: (ref: EntityRef) => part(ref, 0),
    flowId: (ref: EntityRef) => part(ref, 1),
    cluster: (ref: EntityRef) => part(ref, 2),
    platform: (ref: EntityRef) => platformRef(platformOf(ref.urn)),
    properties: properties('dataFlowInfo', 'name', (ref) => part(ref, 1)),
    dataPlatformInstance,
    childJobs: (ref: EntityRef, args: { start?: number | null; count?: number | null }, ctx: RequestContext) =>
      relationshipsOf(ctx, ref.urn, { types: ['IsPartOf'], direction: 'INCOMING', start: args.start, count: args.count }),
  },
  Chart: {
    ...withLineage,
    tool: (ref: EntityRef) => part(ref, 0),
    chartId: (ref: EntityRef) => part(ref, 1),
    platform: (ref: EntityRef) => platformRef(platformOf(ref.urn)),
    properties: properties('chartInfo', 'title', (ref) => part(ref, 1)),
    dataPlatformInstance,
  },
  Dashboard: {
    ...withLineage,
    tool: (ref: EntityRef) => part(ref, 0),
    dashboardId: (ref: EntityRef) => part(ref, 1),
    platform: (ref: EntityRef) => platformRef(platformOf(ref.urn)),
    properties: properties('dashboardInfo', 'title', (ref) => part(ref, 1)),
    dataPlatformInstance,
  },
  MLFeature: {
    ...withLineage,
    featureNamespace: (ref: EntityRef) => part(ref, 0),
    name: (ref: EntityRef) => part(ref, 1),
    description: description('mlFeatureProperties'),
  },
  MLPrimaryKey: {
    ...withLineage,
    featureNamespace: (ref: EntityRef) => part(ref, 0),
    name: (ref: EntityRef) => part(ref, 1),
    description: description('mlPrimaryKeyProperties'),
  },
  MLFeatureTable: {
    ...withLineage,
    platform: (ref: EntityRef) => platformRef(part(ref, 0)),
    name: (ref: EntityRef) => part(ref, 1),
    description: description('mlFeatureTableProperties'),
  },
  MLModel: {
    ...withLineage,
    platform: (ref: EntityRef) => platformRef(part(ref, 0)),
    name: (ref: EntityRef) => part(ref, 1),
    origin: (ref: EntityRef) => part(ref, 2),
    description: description('mlModelProperties'),
  },
  MLModelGroup: {
    ...withLineage,
    platform: (ref: EntityRef) => platformRef(part(ref, 0)),
    name: (ref: EntityRef) => part(ref, 1),
    origin: (ref: EntityRef) => part(ref, 2),
    description: description('mlModelGroupProperties'),
  },
  SchemaFieldEntity: {
    ...withLineage,
    parent: (ref: EntityRef) => storedRef(part(ref, 0)),
    fieldPath: (ref: EntityRef) => part(ref, 1),
  },
  DataProcessInstance: { ...withLineage },
  DataPlatformInstance: {
    ...entityFields,
    platform: (ref: EntityRef) => platformRef(part(ref, 0)),
    instanceId: (ref: EntityRef) => part(ref, 1),
  },
  QueryEntity: {
    ...entityFields,
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'queryProperties');
      const statement = v?.statement as Json | undefined;
      if (!v || !statement || typeof statement.value !== 'string') return null;
      return { statement: { value: statement.value, language: str(statement.language) }, source: str(v.source), name: str(v.name), description: str(v.description) };
    },
  },
  CorpUser: {
    ...entityFields,
    username: (ref: EntityRef) => part(ref, 0),
  },
  DataPlatform: {
    ...entityFields,
    name: (ref: EntityRef) => part(ref, 0),
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspect(ctx, ref, 'dataPlatformInfo');
      return v ? { displayName: str(v.displayName), logoUrl: str(v.logoUrl) } : null;
    },
  },
};

// Every object type the ref map names has resolvers above (checked by the schema test).
export const RENDERED_TYPENAMES: readonly string[] = Object.values(GRAPHQL_TYPENAME);
