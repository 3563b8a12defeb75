// Records shared by many aspects (com.linkedin.common.*), the urn field types, and the common
// aspects of docs/wire-contract.md §Rest.li. Objects are loose: fields we do not model are tolerated and kept.
import { z } from 'zod';
import { urnKeyProblem } from '../urn-key.ts';
import { InvalidUrnError, parseUrn, type Urn } from '../urn.ts';

/** Why `text` is not an acceptable urn (of `entityType`, when given), or undefined. */
function urnProblem(text: string, entityTypes?: readonly string[]): string | undefined {
  let u: Urn;
  try {
    u = parseUrn(text);
  } catch (e) {
    if (e instanceof InvalidUrnError) return `'${text}' is not a valid urn (${e.reason})`;
    throw e;
  }
  if (entityTypes !== undefined && !entityTypes.includes(u.entityType)) {
    return `expected a ${entityTypes.join(' or ')} urn, got '${text}'`;
  }
  // A urn of a modelled type must also have a well-formed key: it becomes a node with
  // platform/name/origin derived from that key, even when nobody ingests it.
  return urnKeyProblem(u);
}

/** Any urn (syntax checked; keys of modelled types checked too). */
export const urnSchema = z.string().superRefine((text, ctx) => {
  const problem = urnProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A urn of one of these entity types: other kinds are rejected with the field and the urn named. */
export function urnOf(...entityTypes: string[]) {
  return z.string().superRefine((text, ctx) => {
    const problem = urnProblem(text, entityTypes);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** Pegasus `long`: a JSON integer. */
export const longSchema = z.number().int();
export const stringMapSchema = z.record(z.string(), z.string());

export const auditStampSchema = z.looseObject({
  time: longSchema,
  actor: urnSchema,
  impersonator: urnSchema.optional(),
  message: z.string().optional(),
});

export const timeStampSchema = z.looseObject({ time: longSchema, actor: urnSchema.optional() });

// created/lastModified have Pegasus defaults, so a client may omit them.
export const changeAuditStampsSchema = z.looseObject({
  created: auditStampSchema.optional(),
  lastModified: auditStampSchema.optional(),
  deleted: auditStampSchema.optional(),
});

export const edgeSchema = z.looseObject({
  sourceUrn: urnSchema.optional(),
  destinationUrn: urnSchema,
  created: auditStampSchema.optional(),
  lastModified: auditStampSchema.optional(),
  properties: stringMapSchema.optional(),
});

export const statusSchema = z.looseObject({
  removed: z.boolean().optional(),
  lifecycleStage: urnSchema.optional(),
  lifecycleLastUpdated: auditStampSchema.optional(),
});

export const subTypesSchema = z.looseObject({ typeNames: z.array(z.string()) });

// Owner.type is an enum in DataHub that grows; any string is accepted so new values never fail.
export const ownershipSchema = z.looseObject({
  owners: z.array(z.looseObject({ owner: urnSchema, type: z.string(), typeUrn: urnSchema.optional() })),
  lastModified: auditStampSchema.optional(),
});

export const globalTagsSchema = z.looseObject({ tags: z.array(z.looseObject({ tag: urnOf('tag') })) });

export const glossaryTermsSchema = z.looseObject({
  terms: z.array(z.looseObject({ urn: urnOf('glossaryTerm') })),
  auditStamp: auditStampSchema,
});

export const browsePathsV2Schema = z.looseObject({
  path: z.array(z.looseObject({ id: z.string(), urn: urnSchema.optional() })),
});

export const dataPlatformInstanceSchema = z.looseObject({
  platform: urnSchema,
  instance: urnSchema.optional(),
});

export const inputFieldsSchema = z.looseObject({
  fields: z.array(
    z.looseObject({
      schemaFieldUrn: urnOf('schemaField'),
      // The chart's or dashboard's own field, whose column lineage reads from schemaFieldUrn.
      schemaField: z.looseObject({ fieldPath: z.string() }).optional(),
    }),
  ),
});

export const containerSchema = z.looseObject({ container: urnSchema });
