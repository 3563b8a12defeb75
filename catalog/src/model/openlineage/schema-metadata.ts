// The schema facet → DataHub's schemaMetadata aspect, as DataHub's OpenLineage converter maps it.
import type { JsonRecord } from '../json.ts';
import type { SchemaFacetField } from './events.ts';

// DataHub's SchemaFieldDataType families for native type names (lower-cased), as its converter maps them.
const TYPE_FAMILY: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(string|varchar|char|text|nvarchar|nchar|character varying|uuid)\b/, 'StringType'],
  [/^(boolean|bool)\b/, 'BooleanType'],
  [/^(bytes|binary|varbinary|blob|bytea)\b/, 'BytesType'],
  [/^enum\b/, 'EnumType'],
  [/^(byte|tinyint|smallint|short|long|bigint|int|integer|int64|int32|hugeint|double|float|real|decimal|numeric|number)\b/, 'NumberType'],
  [/^(date)\b/, 'DateType'],
  [/^(timestamp|datetime|time)\b/, 'TimeType'],
  [/^(struct|record|map|object|json)\b/, 'MapType'],
  [/^(array|list)\b/, 'ArrayType'],
];

function fieldType(native: string | undefined): JsonRecord {
  const lower = (native ?? '').toLowerCase();
  const family = TYPE_FAMILY.find(([re]) => re.test(lower))?.[1] ?? 'NullType';
  return { type: { [`com.linkedin.schema.${family}`]: {} } };
}

/** The schema facet's fields, nested ones flattened with dotted paths (as DataHub's converter does). */
function schemaFields(fields: readonly SchemaFacetField[], parent?: string): JsonRecord[] {
  return fields.flatMap((f) => {
    const fieldPath = parent === undefined ? f.name : `${parent}.${f.name}`;
    const own: JsonRecord = {
      fieldPath,
      nativeDataType: f.type ?? 'unknown',
      type: fieldType(f.type),
      nullable: true,
      ...(f.description !== undefined ? { description: f.description } : {}),
    };
    return [own, ...schemaFields(f.fields ?? [], fieldPath)];
  });
}

export function schemaMetadataOf(datasetUrn: string, fields: readonly SchemaFacetField[]): JsonRecord {
  const platform = /^urn:li:dataset:\((urn:li:dataPlatform:[^,]+),/.exec(datasetUrn)?.[1] ?? 'urn:li:dataPlatform:unknown';
  return {
    schemaName: '',
    platform,
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: JSON.stringify(fields) } },
    fields: schemaFields(fields),
  };
}
