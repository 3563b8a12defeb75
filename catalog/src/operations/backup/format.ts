// DataHub's file format as the backup writes and reads it (docs/operations.md §File format): a
// JSON array of MetadataChangeProposals, the shape `datahub ingest`'s `file` sink writes and its
// `file` source reads. Every stored aspect row is one UPSERT proposal; what DataHub's proposal has
// no field for — the row's version, its write stamp and writer — travels in the proposal's
// `headers` (string → string, which DataHub's tools carry and ignore). A record without those
// headers is a foreign proposal (a DataHub file): it goes through the write path like any write.
import { ASPECT_NAME, aspectNameOfFqcn, snapshotEntityType, validateAspect } from '../../model/aspects/index.ts';
import { badRequest, CatalogError } from '../../model/errors.ts';
import { isJsonRecord } from '../../model/json.ts';
import { parseUrn, type Urn } from '../../model/urn.ts';
import { changeTypeOf, type AspectChange } from '../../write/changes.ts';
import type { StoredAspectRow } from '../../store/bulk-csv.ts';

/** Header names of a backup record (values are strings, as DataHub's headers map requires). */
export const HEADERS = {
  version: 'lineageCatalog.version',
  maxVersion: 'lineageCatalog.maxVersion',
  createdOn: 'lineageCatalog.createdOn',
  createdBy: 'lineageCatalog.createdBy',
  asOf: 'lineageCatalog.asOf',
} as const;

/** One stored aspect row, as the export reads it and the import writes it (the key is derived). */
export interface BackupRow extends Omit<StoredAspectRow, 'key'> {
  entityType: string;
}

/** The proposal of one row, in the field order DataHub's sink writes. */
export function recordOfRow(row: BackupRow, asOf: number): Record<string, unknown> {
  const headers: Record<string, string> = { [HEADERS.version]: String(row.version) };
  if (row.maxVersion !== null) headers[HEADERS.maxVersion] = String(row.maxVersion);
  if (row.createdOn !== null) headers[HEADERS.createdOn] = String(row.createdOn);
  if (row.createdBy !== null) headers[HEADERS.createdBy] = row.createdBy;
  headers[HEADERS.asOf] = String(asOf);
  return {
    entityType: row.entityType,
    entityUrn: row.urn,
    changeType: 'UPSERT',
    aspectName: row.name,
    // DataHub's nested form (the sink's legacy_nested_json_string): the stored text, unparsed.
    aspect: { value: row.value, contentType: 'application/json' },
    systemMetadata: JSON.parse(row.systemMetadata),
    headers,
  };
}

export type ImportItem = { kind: 'row'; row: BackupRow; urn: Urn } | { kind: 'changes'; changes: AspectChange[] };

const fail = (index: number, message: string): never => {
  throw badRequest(`record ${index}: ${message}`);
};

function urnOf(index: number, text: unknown, what: string): Urn {
  if (typeof text !== 'string' || !text) return fail(index, `${what} is missing`);
  try {
    return parseUrn(text);
  } catch (e) {
    return fail(index, `${what} '${text}' is not a urn: ${(e as Error).message}`);
  }
}

function integerHeader(index: number, headers: Record<string, unknown>, name: string, required: boolean): number | null {
  const v = headers[name];
  if (v === undefined || v === null) return required ? fail(index, `header ${name} is missing`) : null;
  if (typeof v !== 'string' || !/^\d+$/.test(v))
    return fail(index, `header ${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** The aspect's JSON text: DataHub's nested form {value, contentType} or the simplified {json}. */
function aspectText(index: number, aspect: unknown): string {
  if (!isJsonRecord(aspect)) return fail(index, 'aspect is missing');
  if (typeof aspect.value === 'string') {
    const ct = aspect.contentType;
    if (ct !== undefined && ct !== null && !/^application\/json/i.test(String(ct)))
      fail(index, `aspect.contentType '${String(ct)}' is not JSON`);
    return aspect.value;
  }
  if ('json' in aspect) return JSON.stringify(aspect.json);
  return fail(index, 'aspect has neither value nor json');
}

function parseValue(index: number, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    return fail(index, `aspect value is not JSON: ${(e as Error).message}`);
  }
}

/** Checks what the write path would check, naming the record instead of a request. */
function checked<T>(index: number, what: string, work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof CatalogError) return fail(index, `${what}: ${e.message}`);
    throw e;
  }
}

/** A DataHub MCE (proposedSnapshot) as UPSERTs of its aspects; union keys may use pegasus2avro names. */
function snapshotChanges(index: number, obj: Record<string, unknown>): AspectChange[] {
  const union = obj.proposedSnapshot;
  if (!isJsonRecord(union) || Object.keys(union).length !== 1) return fail(index, 'proposedSnapshot must hold exactly one snapshot');
  const [fqcnRaw, snapshot] = Object.entries(union)[0]!;
  const fqcn = fqcnRaw.replace('.pegasus2avro.', '.');
  const entityType = snapshotEntityType(fqcn);
  if (!entityType) return fail(index, `unknown snapshot type '${fqcnRaw}'`);
  if (!isJsonRecord(snapshot) || !Array.isArray(snapshot.aspects)) return fail(index, `${fqcnRaw} has no aspects list`);
  const urn = urnOf(index, snapshot.urn, `${fqcnRaw}.urn`);
  if (urn.entityType !== entityType) fail(index, `${fqcnRaw} cannot hold ${urn.text}`);
  const systemMetadata = isJsonRecord(obj.systemMetadata) ? obj.systemMetadata : undefined;
  return snapshot.aspects.map((member, i) => {
    if (!isJsonRecord(member) || Object.keys(member).length !== 1) return fail(index, `aspects[${i}] must be a single-key union`);
    const [aspectFqcn, value] = Object.entries(member)[0]!;
    const aspectName = aspectNameOfFqcn(aspectFqcn.replace('.pegasus2avro.', '.'));
    if (!aspectName) return fail(index, `aspects[${i}]: unknown aspect type '${aspectFqcn}'`);
    const clean = JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v)));
    checked(index, `${aspectName} of ${urn.text}`, () => validateAspect(aspectName, clean, urn));
    return { urn, aspectName, changeType: 'UPSERT', value: clean, systemMetadata } satisfies AspectChange;
  });
}

/**
 * What one record of a file imports as: a backup row (records with our headers), or write-path
 * changes (DataHub proposals and MCEs). Every check names the record; nothing is written here.
 */
export function importItemOf(index: number, obj: Record<string, unknown>): ImportItem {
  if ('proposedSnapshot' in obj) return { kind: 'changes', changes: snapshotChanges(index, obj) };
  const urn = urnOf(index, obj.entityUrn, 'entityUrn');
  if (typeof obj.entityType !== 'string' || obj.entityType !== urn.entityType) {
    fail(index, `entityType ${JSON.stringify(obj.entityType)} does not match the urn's entity type '${urn.entityType}'`);
  }
  const aspectName = obj.aspectName;
  if (typeof aspectName !== 'string' || !ASPECT_NAME.test(aspectName))
    fail(index, `aspectName ${JSON.stringify(aspectName)} is not an aspect name`);
  const name = aspectName as string;
  const headers = isJsonRecord(obj.headers) ? obj.headers : {};
  const systemMetadata = obj.systemMetadata === undefined || obj.systemMetadata === null ? undefined : obj.systemMetadata;
  if (systemMetadata !== undefined && !isJsonRecord(systemMetadata)) fail(index, 'systemMetadata must be an object');

  if (headers[HEADERS.version] !== undefined) {
    if (obj.changeType !== 'UPSERT') fail(index, `a backup record must be an UPSERT, got ${JSON.stringify(obj.changeType)}`);
    const version = integerHeader(index, headers, HEADERS.version, true)!;
    const text = aspectText(index, obj.aspect);
    const value = parseValue(index, text);
    checked(index, `${name} of ${urn.text}`, () => validateAspect(name, value, urn));
    if (systemMetadata === undefined) fail(index, 'systemMetadata is missing');
    const createdBy = headers[HEADERS.createdBy];
    if (createdBy !== undefined && typeof createdBy !== 'string') fail(index, `header ${HEADERS.createdBy} must be a string`);
    return {
      kind: 'row',
      urn,
      row: {
        urn: urn.text,
        entityType: urn.entityType,
        name,
        version,
        maxVersion: version === 0 ? integerHeader(index, headers, HEADERS.maxVersion, true) : null,
        value: text,
        systemMetadata: JSON.stringify(systemMetadata),
        createdOn: integerHeader(index, headers, HEADERS.createdOn, false),
        createdBy: (createdBy as string | undefined) ?? null,
      },
    };
  }

  const changeType = checked(index, 'changeType', () => changeTypeOf(obj.changeType, 'changeType'));
  const change: AspectChange = { urn, aspectName: name, changeType, systemMetadata: systemMetadata as Record<string, unknown> | undefined };
  if (changeType === 'PATCH') {
    const aspect = obj.aspect;
    if (!isJsonRecord(aspect)) fail(index, 'aspect is missing');
    const a = aspect as Record<string, unknown>;
    change.patchText = typeof a.value === 'string' ? a.value : JSON.stringify(a.json);
  } else if (changeType !== 'DELETE' && changeType !== 'RESTATE') {
    change.value = parseValue(index, aspectText(index, obj.aspect));
    checked(index, `${name} of ${urn.text}`, () => validateAspect(name, change.value, urn));
  }
  return { kind: 'changes', changes: [change] };
}
