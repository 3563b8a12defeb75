// Rest.li envelopes → aspect changes: MetadataChangeProposal (ingestProposal, ingestProposalBatch)
// and MetadataChangeEvent snapshots (entities?action=ingest). Envelope problems are 422 with a
// message naming the field, as DataHub's model validation answers.
import { z } from 'zod';
import { changeTypeOf, type AspectChange } from '@lineage/catalog/write';
import { aspectNameOfFqcn, snapshotEntityType, validationFailed, jsonDepthProblem, parseUrnOrThrow } from '@lineage/catalog/model';

function zodMessage(prefix: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.join('.') : '(root)';
  return `${prefix}: ${path}: ${issue.message}`;
}

/** systemMetadata may be absent, hold explicit nulls, or (datahub put --run-id) be a JSON string. */
export function parseSystemMetadata(raw: unknown, where: string): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    const tooDeep = jsonDepthProblem(raw);
    if (tooDeep) throw validationFailed(`${where}.systemMetadata: ${tooDeep}`);
    try {
      value = JSON.parse(raw);
    } catch {
      throw validationFailed(`${where}.systemMetadata is a string but not JSON`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw validationFailed(`${where}.systemMetadata must be an object`);
  const sm = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
  if (sm.lastObserved !== undefined && (typeof sm.lastObserved !== 'number' || !Number.isFinite(sm.lastObserved))) {
    throw validationFailed(`${where}.systemMetadata.lastObserved must be a number (epoch ms)`);
  }
  return sm;
}

const proposalSchema = z.looseObject({
  entityType: z.string().min(1),
  entityUrn: z.string().optional().nullable(),
  entityKeyAspect: z.unknown().optional(),
  changeType: z.string(),
  aspectName: z.string().optional().nullable(),
  aspect: z.looseObject({ value: z.string(), contentType: z.string().optional() }).optional().nullable(),
  systemMetadata: z.unknown().optional(),
});

export function proposalToChange(raw: unknown, where = 'proposal'): AspectChange {
  const parsed = proposalSchema.safeParse(raw);
  if (!parsed.success) throw validationFailed(zodMessage(`Invalid ${where}`, parsed.error));
  const p = parsed.data;
  if (!p.entityUrn) {
    throw validationFailed(
      p.entityKeyAspect !== undefined
        ? `Invalid ${where}: entityKeyAspect without entityUrn is not supported`
        : `Invalid ${where}: entityUrn is required`,
    );
  }
  const urn = parseUrnOrThrow(p.entityUrn);
  if (p.entityType !== urn.entityType) {
    throw validationFailed(`Invalid ${where}: entityType '${p.entityType}' does not match the urn's entity type '${urn.entityType}'`);
  }
  const changeType = changeTypeOf(p.changeType, where);
  if (!p.aspectName) throw validationFailed(`Invalid ${where}: aspectName is required`);
  const systemMetadata = parseSystemMetadata(p.systemMetadata, where);
  const change: AspectChange = { urn, aspectName: p.aspectName, changeType, systemMetadata, source: where };
  if (changeType === 'DELETE' || changeType === 'RESTATE') return change;
  if (!p.aspect) throw validationFailed(`Invalid ${where}: aspect is required for ${changeType}`);
  if (changeType === 'PATCH') {
    change.patchText = p.aspect.value;
    return change;
  }
  if (p.aspect.contentType && !/^application\/json$/i.test(p.aspect.contentType)) {
    throw validationFailed(`Invalid ${where}: aspect.contentType '${p.aspect.contentType}' is not supported for ${changeType}`);
  }
  const tooDeep = jsonDepthProblem(p.aspect.value);
  if (tooDeep) throw validationFailed(`Invalid ${where}: aspect.value: ${tooDeep}`);
  try {
    change.value = JSON.parse(p.aspect.value);
  } catch (e) {
    throw validationFailed(`Invalid ${where}: aspect.value is not valid JSON: ${(e as Error).message}`);
  }
  return change;
}

/** Pegasus treats an explicit null field as absent; Python's MCE serialisation sends them. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  }
  return value;
}

const snapshotUnion = z.record(z.string(), z.looseObject({ urn: z.string(), aspects: z.array(z.record(z.string(), z.unknown())) }));

/** One MCE snapshot → UPSERTs of each of its aspects, in order. */
export function snapshotToChanges(entity: unknown, systemMetadataRaw: unknown, where = 'entity'): AspectChange[] {
  const value = (entity as { value?: unknown } | null)?.value;
  const parsed = snapshotUnion.safeParse(value);
  if (!parsed.success) throw validationFailed(zodMessage(`Invalid ${where}.value`, parsed.error));
  const entries = Object.entries(parsed.data);
  if (entries.length !== 1) throw validationFailed(`Invalid ${where}.value: expected exactly one snapshot, got ${entries.length}`);
  const [fqcn, snapshot] = entries[0]!;
  const entityType = snapshotEntityType(fqcn);
  if (!entityType) throw validationFailed(`Invalid ${where}.value: unknown snapshot type '${fqcn}'`);
  const urn = parseUrnOrThrow(snapshot.urn);
  if (urn.entityType !== entityType) {
    throw validationFailed(`Invalid ${where}: ${fqcn} cannot hold urn ${snapshot.urn} (entity type ${urn.entityType})`);
  }
  const systemMetadata = parseSystemMetadata(systemMetadataRaw, where);
  return snapshot.aspects.map((union, i) => {
    const keys = Object.keys(union);
    if (keys.length !== 1) throw validationFailed(`Invalid ${where}.aspects[${i}]: expected a single-key union, got ${keys.length} keys`);
    const aspectFqcn = keys[0]!;
    const aspectName = aspectNameOfFqcn(aspectFqcn);
    if (!aspectName) throw validationFailed(`Invalid ${where}.aspects[${i}]: unknown aspect type '${aspectFqcn}'`);
    return {
      urn,
      aspectName,
      changeType: 'UPSERT',
      value: dropNulls(union[aspectFqcn]),
      systemMetadata,
      source: `${where}.aspects[${i}]`,
    } satisfies AspectChange;
  });
}
