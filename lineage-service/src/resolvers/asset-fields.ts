// Fields particular to one data-asset type (schema/entities.graphql, schema-metadata.graphql): a
// dataset's schema and column lineage, a flow's jobs, chart and dashboard properties, queries. The
// fields every entity shares and the aspect fields are generated (surface/); key parts and the
// descriptive aspect come from the descriptors (entities.ts).
import type { JsonRecord } from '@lineage/catalog/model';
import { getAspect } from '@lineage/catalog/read';
import type { RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import { schemaFieldEntityOf } from '../surface/aspect-fields.ts';
import {
  aspectOf,
  auditStamp,
  customProperties,
  oneOf,
  part,
  record,
  records,
  refsOf,
  str,
  strings,
  tagsOf,
  termsOf,
} from '../surface/values.ts';
import { relationshipsOf } from './relationships.ts';

type Resolver = (ref: EntityRef, args: never, ctx: RequestContext) => unknown;

// DataHub's SchemaFieldDataType by the record name of a field's type union.
const FIELD_TYPES: Readonly<Record<string, string>> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
};

function fieldType(type: unknown): string {
  const union = record(record(type)?.type);
  const name = union ? Object.keys(union)[0]?.split('.').at(-1) : undefined;
  return name !== undefined && Object.hasOwn(FIELD_TYPES, name) ? FIELD_TYPES[name]! : 'NULL';
}

/** One SchemaField of a schemaMetadata or inputFields aspect as DataHub's GraphQL renders it. */
function schemaFieldOf(f: JsonRecord, datasetUrn: string | null) {
  const fieldPath = str(f.fieldPath) ?? '';
  return {
    fieldPath,
    jsonPath: str(f.jsonPath),
    nullable: f.nullable === true,
    description: str(f.description),
    type: fieldType(f.type),
    nativeDataType: str(f.nativeDataType),
    recursive: f.recursive === true,
    isPartOfKey: typeof f.isPartOfKey === 'boolean' ? f.isPartOfKey : null,
    isPartitioningKey: typeof f.isPartitioningKey === 'boolean' ? f.isPartitioningKey : null,
    label: str(f.label),
    tags: datasetUrn ? tagsOf(f.globalTags, datasetUrn) : null,
    glossaryTerms: datasetUrn ? termsOf(f.glossaryTerms, datasetUrn) : null,
    schemaFieldEntity: datasetUrn ? schemaFieldEntityOf(datasetUrn, fieldPath) : null,
  };
}

/** The platform's own schema: a key/value pair (Kafka) or the table's text (every other kind). */
function platformSchemaOf(v: unknown) {
  const union = record(v);
  const inner = union ? record(Object.values(union)[0]) : undefined;
  if (!inner) return null;
  if (typeof inner.keySchema === 'string' || typeof inner.documentSchema === 'string') {
    return {
      __typename: 'KeyValueSchema',
      keySchema: str(inner.keySchema) ?? '',
      valueSchema: str(inner.documentSchema) ?? str(inner.valueSchema) ?? '',
    };
  }
  const text = Object.values(inner).find((x): x is string => typeof x === 'string');
  return { __typename: 'TableSchema', schema: text ?? '' };
}

/** Dataset.schemaMetadata(version): DataHub's SchemaMetadata of a stored version (0 = latest). */
async function schemaMetadata(ref: EntityRef, { version }: { version?: number | null }, ctx: RequestContext) {
  const wanted = version ?? 0;
  const value =
    wanted === 0
      ? await aspectOf(ctx, ref, 'schemaMetadata')
      : ((await getAspect(ctx.store, ref.urn, 'schemaMetadata', wanted))?.value as JsonRecord | undefined);
  if (!value) return null;
  return {
    aspectVersion: wanted,
    datasetUrn: str(value.dataset) ?? ref.urn.text,
    name: str(value.schemaName) ?? '',
    platformUrn: str(value.platform) ?? '',
    version: typeof value.version === 'number' ? value.version : 0,
    cluster: str(value.cluster),
    hash: str(value.hash) ?? '',
    platformSchema: platformSchemaOf(value.platformSchema),
    primaryKeys: Array.isArray(value.primaryKeys) ? strings(value.primaryKeys) : null,
    foreignKeys: Array.isArray(value.foreignKeys)
      ? records(value.foreignKeys).map((k) => ({
          name: str(k.name),
          foreignFields: refsOf(k.foreignFields, 'schemaField'),
          sourceFields: refsOf(k.sourceFields, 'schemaField'),
          foreignDataset: refsOf([k.foreignDataset], 'dataset')[0] ?? null,
        }))
      : null,
    createdAt: null,
    fields: records(value.fields).map((f) => schemaFieldOf(f, ref.urn.text)),
  };
}

function fineGrainedRef(urnText: unknown) {
  const ref = storedRef(str(urnText));
  if (!ref) return null;
  // schemaField urns become (parent, fieldPath); a whole-dataset upstream has path ''.
  return ref.urn.entityType === 'schemaField' ? { urn: part(ref, 0), path: part(ref, 1) } : { urn: ref.urn.text, path: '' };
}

const CHART_TYPES = ['BAR', 'PIE', 'SCATTER', 'TABLE', 'TEXT', 'LINE', 'AREA', 'HISTOGRAM', 'BOX_PLOT', 'WORD_CLOUD', 'COHORT'];
const ACCESS_LEVELS = ['PUBLIC', 'PRIVATE'];

/** The stamps of a chart's or dashboard's info (ChangeAuditStamps). */
function biStamps(v: JsonRecord) {
  const stamps = record(v.lastModified);
  return { lastModified: auditStamp(stamps?.lastModified, true), created: auditStamp(stamps?.created, true) };
}

/** A chart's or dashboard's properties beyond the descriptive name and description. */
const biProperties = (extra: (v: JsonRecord) => JsonRecord) => async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
  const v = await aspectOf(ctx, ref, ref.urn.entityType === 'chart' ? 'chartInfo' : 'dashboardInfo');
  if (!v) return null;
  return {
    name: str(v.title) ?? part(ref, 1),
    description: str(v.description),
    externalUrl: str(v.externalUrl) ?? str(v.chartUrl) ?? str(v.dashboardUrl),
    customProperties: customProperties(ref, v.customProperties),
    ...biStamps(v),
    ...extra(v),
  };
};

const inputFields: Resolver = async (ref, _, ctx) => {
  const v = await aspectOf(ctx, ref, 'inputFields');
  if (!v) return null;
  return {
    fields: records(v.fields).map((f) => {
      const field = record(f.schemaField);
      const parent = storedRef(str(f.schemaFieldUrn));
      return { schemaFieldUrn: str(f.schemaFieldUrn), schemaField: field ? schemaFieldOf(field, parent ? part(parent, 0) : null) : null };
    }),
  };
};

const QUERY_LANGUAGES = ['SQL', 'UNKNOWN'];

/** A query's properties as DataHub's QueryProperties. */
async function queryProperties(ref: EntityRef, _: unknown, ctx: RequestContext) {
  const v = await aspectOf(ctx, ref, 'queryProperties');
  const statement = record(v?.statement);
  if (!v || !statement || typeof statement.value !== 'string') return null;
  return {
    statement: { value: statement.value, language: oneOf(statement.language, QUERY_LANGUAGES) ?? 'SQL' },
    source: str(v.source) === 'MANUAL' ? 'MANUAL' : 'SYSTEM',
    name: str(v.name),
    description: str(v.description),
    customProperties: customProperties(ref, v.customProperties),
    origin: storedRef(str(v.origin)),
    created: auditStamp(v.created, true),
    lastModified: auditStamp(v.lastModified, true),
  };
}

async function querySubjects(ref: EntityRef, ctx: RequestContext): Promise<{ dataset: EntityRef; schemaField: EntityRef | null }[]> {
  const v = await aspectOf(ctx, ref, 'querySubjects');
  return records(v?.subjects).flatMap((s): { dataset: EntityRef; schemaField: EntityRef | null }[] => {
    const subject = storedRef(str(s.entity));
    if (!subject) return [];
    if (subject.urn.entityType === 'dataset') return [{ dataset: subject, schemaField: null }];
    const dataset = subject.urn.entityType === 'schemaField' ? storedRef(part(subject, 0)) : null;
    return dataset ? [{ dataset, schemaField: subject }] : [];
  });
}

/** Fields of particular types that no descriptor describes. */
export const ASSET_FIELDS: Readonly<Record<string, Record<string, unknown>>> = {
  Dataset: {
    schemaMetadata,
    fineGrainedLineages: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, 'upstreamLineage');
      if (!Array.isArray(v?.fineGrainedLineages)) return null;
      return records(v.fineGrainedLineages).map((e) => ({
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
  Chart: {
    properties: biProperties((v) => ({ type: oneOf(v.type, CHART_TYPES), access: oneOf(v.access, ACCESS_LEVELS) })),
    inputFields,
  },
  Dashboard: { properties: biProperties((v) => ({ access: oneOf(v.access, ACCESS_LEVELS) })), inputFields },
  MLFeatureTable: {
    properties: mlFeatureTableProperties,
    featureTableProperties: mlFeatureTableProperties,
  },
  DataPlatformInstance: {
    platform: (ref: EntityRef) => storedRef(part(ref, 0)),
    instanceId: (ref: EntityRef) => part(ref, 1),
  },
  QueryEntity: {
    properties: queryProperties,
    subjects: async (ref: EntityRef, _: unknown, ctx: RequestContext) => querySubjects(ref, ctx),
    platform: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const first = (await querySubjects(ref, ctx))[0]?.dataset;
      return first ? storedRef(part(first, 0)) : null;
    },
  },
  Container: {
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, 'containerProperties');
      return v
        ? {
            name: str(v.name) ?? part(ref, 0),
            description: str(v.description),
            qualifiedName: str(v.qualifiedName),
            externalUrl: str(v.externalUrl),
            customProperties: customProperties(ref, v.customProperties),
          }
        : null;
    },
    // DataHub reads it off dataPlatformInstance too; a container without one names no platform, which
    // DataHub's schema cannot say (DataPlatform!), so it answers the `unknown` platform.
    platform: async (ref: EntityRef, _: unknown, ctx: RequestContext) =>
      storedRef(str((await aspectOf(ctx, ref, 'dataPlatformInstance'))?.platform)) ?? storedRef('urn:li:dataPlatform:unknown'),
  },
  DataPlatform: {
    properties: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, 'dataPlatformInfo');
      return v
        ? { displayName: str(v.displayName), logoUrl: str(v.logoUrl), datasetNameDelimiter: str(v.datasetNameDelimiter) ?? '.' }
        : null;
    },
  },
};

async function mlFeatureTableProperties(ref: EntityRef, _: unknown, ctx: RequestContext) {
  const v = await aspectOf(ctx, ref, 'mlFeatureTableProperties');
  return v
    ? {
        description: str(v.description),
        customProperties: customProperties(ref, v.customProperties),
        mlFeatures: refsOf(v.mlFeatures, 'mlFeature'),
        mlPrimaryKeys: refsOf(v.mlPrimaryKeys, 'mlPrimaryKey'),
      }
    : null;
}
