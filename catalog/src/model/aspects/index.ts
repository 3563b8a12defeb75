// Aspect validation and naming. Modelled aspects (docs/wire-contract.md §Rest.li, the lineage aspects and every
// registered key aspect) are checked against their zod schema; other well-named aspects are stored
// opaquely. Validation never changes the value: what was received is what gets stored and served.
import { checkPolicyNames, policyInfoSchema } from '../policies/policy-info.ts';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { EntityRegistry } from '../build-entity-registry.ts';
import { entityRegistry } from '../entity-registry.ts';
import { entityTypeOfKeyAspect, keyAspectNameOf } from '../entity-type-spec.ts';
import { keyAspectOf } from '../urn-key.ts';
import { FABRIC_TYPES, type KeyPart } from '../entity-types.ts';
import { validationFailed } from '../errors.ts';
import { isJsonRecord } from '../json.ts';
import type { Urn } from '../urn.ts';
import {
  browsePathsV2Schema,
  containerSchema,
  dataPlatformInstanceSchema,
  globalTagsSchema,
  glossaryTermsSchema,
  inputFieldsSchema,
  ownershipSchema,
  statusSchema,
  subTypesSchema,
  urnOf,
} from './common.ts';
import { DATAHUB_ASPECT_FQCNS, DATAHUB_SDK_VERSION } from './datahub-aspect-fqcns.ts';
import {
  chartInfoSchema,
  corpUserInfoSchema,
  dashboardInfoSchema,
  dataFlowInfoSchema,
  dataJobInfoSchema,
  dataPlatformInfoSchema,
  datasetPropertiesSchema,
  roleMembershipSchema,
  schemaMetadataSchema,
  telemetryClientIdSchema,
} from './info.ts';
import {
  dataJobInputOutputSchema,
  dataProcessInfoSchema,
  dataProcessInstanceInputSchema,
  dataProcessInstanceOutputSchema,
  upstreamLineageSchema,
} from './lineage.ts';
import {
  mlFeaturePropertiesSchema,
  mlFeatureTablePropertiesSchema,
  mlModelGroupPropertiesSchema,
  mlModelPropertiesSchema,
  mlPrimaryKeyPropertiesSchema,
} from './ml.ts';

export { DATAHUB_SDK_VERSION };

/** Aspect names as DataHub allows them for unmodelled aspects. */
export const ASPECT_NAME = /^[a-z][A-Za-z0-9]*$/;

const VALUE_SCHEMAS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['status', statusSchema],
  ['dataHubPolicyInfo', policyInfoSchema],
  ['subTypes', subTypesSchema],
  ['ownership', ownershipSchema],
  ['globalTags', globalTagsSchema],
  ['glossaryTerms', glossaryTermsSchema],
  ['browsePathsV2', browsePathsV2Schema],
  ['dataPlatformInstance', dataPlatformInstanceSchema],
  ['inputFields', inputFieldsSchema],
  ['container', containerSchema],
  ['upstreamLineage', upstreamLineageSchema],
  ['datasetProperties', datasetPropertiesSchema],
  ['schemaMetadata', schemaMetadataSchema],
  ['dataJobInputOutput', dataJobInputOutputSchema],
  ['dataJobInfo', dataJobInfoSchema],
  ['dataFlowInfo', dataFlowInfoSchema],
  ['chartInfo', chartInfoSchema],
  ['dashboardInfo', dashboardInfoSchema],
  ['mlFeatureProperties', mlFeaturePropertiesSchema],
  ['mlPrimaryKeyProperties', mlPrimaryKeyPropertiesSchema],
  ['mlModelProperties', mlModelPropertiesSchema],
  ['mlModelGroupProperties', mlModelGroupPropertiesSchema],
  ['mlFeatureTableProperties', mlFeatureTablePropertiesSchema],
  ['dataProcessInstanceInput', dataProcessInstanceInputSchema],
  ['dataProcessInstanceOutput', dataProcessInstanceOutputSchema],
  ['dataProcessInfo', dataProcessInfoSchema],
  ['corpUserInfo', corpUserInfoSchema],
  ['roleMembership', roleMembershipSchema],
  ['dataPlatformInfo', dataPlatformInfoSchema],
  ['telemetryClientId', telemetryClientIdSchema],
];

function keyPartSchema(field: KeyPart): z.ZodType {
  switch (field.kind) {
    case 'string':
      return z.string();
    case 'fabric':
      return z.enum(FABRIC_TYPES);
    case 'urn':
      return urnOf(...field.urnTypes);
  }
}

// A Map, not the object literal: aspect names like `constructor` must not hit Object.prototype.
const FQCN_BY_NAME: ReadonlyMap<string, string> = new Map(Object.entries(DATAHUB_ASPECT_FQCNS));
const NAME_BY_FQCN: ReadonlyMap<string, string> = new Map([...FQCN_BY_NAME].map(([n, f]) => [f, n]));

const VALUE_SCHEMA_OF: ReadonlyMap<string, z.ZodType> = new Map(VALUE_SCHEMAS);

// Key aspects of registered entity types, from their descriptors: `<type>Key` of an unknown type
// has no shape beyond {id}, and is checked by equality with the urn in validateAspect. A registry
// never changes, so its key schemas are built once per registry (not per validated write).
const KEY_SCHEMAS = new WeakMap<EntityRegistry, ReadonlyMap<string, z.ZodType>>();

function keySchemasOf(registry: EntityRegistry): ReadonlyMap<string, z.ZodType> {
  let schemas = KEY_SCHEMAS.get(registry);
  if (!schemas) {
    schemas = new Map(
      registry.descriptors.map(
        (d) => [d.keyAspect, z.strictObject(Object.fromEntries(d.key.map((k) => [k.name, keyPartSchema(k)])))] as const,
      ),
    );
    KEY_SCHEMAS.set(registry, schemas);
  }
  return schemas;
}

/** The schema of a modelled aspect, key aspects of registered entity types included. */
function schemaOf(aspectName: string): z.ZodType | undefined {
  return keySchemasOf(entityRegistry()).get(aspectName) ?? VALUE_SCHEMA_OF.get(aspectName);
}

/** Schema of every modelled aspect, key aspects of registered entity types included. */
export function aspectSchemas(): ReadonlyMap<string, z.ZodType> {
  return new Map([...VALUE_SCHEMAS, ...keySchemasOf(entityRegistry())]);
}

export function isModelledAspect(aspectName: string): boolean {
  return VALUE_SCHEMA_OF.has(aspectName) || entityTypeOfKeyAspect(aspectName) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Error messages. Clients show `message` to users, and the Python client reads one particular
// phrase about unrecognized fields as "upgrade your server": these messages never contain it.

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

const TYPE_NAMES: Readonly<Record<string, string>> = { int: 'integer', record: 'object', map: 'object' };
const typeName = (t: string) => (Object.hasOwn(TYPE_NAMES, t) ? TYPE_NAMES[t]! : t);

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isInteger(input)) return 'non-integer number';
  return typeof input;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join('|')}`;
    case 'invalid_type':
      if (issue.input === undefined) return `required field missing (expected ${typeName(issue.expected)})`;
      return `expected ${typeName(issue.expected)}, got ${describeInput(issue.input)}`;
    case 'unrecognized_keys':
      return `unexpected field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return issue.message;
  }
}

const MAX_REPORTED_ISSUES = 5;

function formatIssues(aspectName: string, issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const path = formatPath(issue.path);
    return path === '' ? describeIssue(issue) : `${path}: ${describeIssue(issue)}`;
  });
  const more = issues.length > MAX_REPORTED_ISSUES ? ` (and ${issues.length - MAX_REPORTED_ISSUES} more)` : '';
  return `Invalid ${aspectName}: ${shown.join('; ')}${more}`;
}

// ---------------------------------------------------------------------------------------------

/**
 * Validates an aspect value written on `urn` and returns it unchanged (zod defaults are never
 * applied to what is stored). Throws validationFailed naming the aspect and the failing field.
 */
/**
 * Whether an aspect of this name may be stored on this entity at all, whatever its value: a valid
 * aspect name, a valid urn key, and an aspect the entity type can hold (not another type's key
 * aspect, not an entity-specific aspect of another type). restoreIndices ignores rows that fail it.
 */
export function checkAspectPlacement(aspectName: string, urn: Urn): void {
  if (typeof aspectName !== 'string' || !ASPECT_NAME.test(aspectName)) {
    throw validationFailed(`Invalid aspect name '${String(aspectName)}'`);
  }
  // The entity's own key must be valid whatever aspect is written: the write creates it.
  keyAspectOf(urn);
  if (aspectName === keyAspectNameOf(urn.entityType)) return;
  const keyOwner = entityTypeOfKeyAspect(aspectName);
  if (keyOwner !== undefined) {
    throw validationFailed(`Aspect ${aspectName} is the key aspect of ${keyOwner}, not of ${urn.entityType} (${urn.text})`);
  }
  const owners = entityRegistry().aspectOwners.get(aspectName);
  if (owners && !owners.includes(urn.entityType)) {
    throw validationFailed(`Aspect ${aspectName} is not supported for entity type ${urn.entityType} (${urn.text})`);
  }
}

export function validateAspect(aspectName: string, value: unknown, urn: Urn): unknown {
  checkAspectPlacement(aspectName, urn);
  const key = keyAspectOf(urn);
  if (!isJsonRecord(value)) {
    throw validationFailed(`Invalid ${aspectName}: expected a JSON object, got ${describeInput(value)}`);
  }

  if (aspectName === keyAspectNameOf(urn.entityType)) {
    const schema = schemaOf(aspectName);
    const shape = schema?.safeParse(value, { reportInput: true });
    if (shape && !shape.success) throw validationFailed(formatIssues(aspectName, shape.error.issues));
    if (!isDeepStrictEqual(value, key.value)) {
      throw validationFailed(`Invalid ${aspectName}: does not match urn ${urn.text} (expected ${JSON.stringify(key.value)})`);
    }
    return value;
  }
  const schema = schemaOf(aspectName);
  if (schema) {
    const result = schema.safeParse(value, { reportInput: true });
    if (!result.success) throw validationFailed(formatIssues(aspectName, result.error.issues));
  }
  // A well-formed policy that names a privilege or filter field we do not know is a 400.
  if (aspectName === 'dataHubPolicyInfo') checkPolicyNames(urn.text, value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Names on the wire

/**
 * FQCN of an aspect (`upstreamLineage` → `com.linkedin.dataset.UpstreamLineage`), for every aspect
 * the DataHub SDK knows (so GET /aspects can answer with the union key the Python client checks),
 * not just the modelled ones; undefined for names DataHub does not know.
 */
export function aspectFqcn(aspectName: string): string | undefined {
  return FQCN_BY_NAME.get(aspectName);
}

/**
 * The aspect a request names, as the catalog stores it: DataHub's generated OpenAPI spec writes
 * aspect names lower-cased in paths (`…/datasetproperties`), and its controllers look them up
 * case-insensitively. A name the catalog knows (DataHub's aspects, the modelled ones, the key
 * aspects of registered types) in another case is that name; any other name is kept as sent.
 */
export function canonicalAspectName(name: string): string {
  if (FQCN_BY_NAME.has(name) || schemaOf(name) !== undefined) return name;
  const lower = name.toLowerCase();
  for (const known of [...FQCN_BY_NAME.keys(), ...aspectSchemas().keys()]) if (known.toLowerCase() === lower) return known;
  return name;
}

/** Aspect name of an FQCN (the union key of an MCE aspect); undefined when unknown. */
export function aspectNameOfFqcn(fqcn: string): string | undefined {
  return NAME_BY_FQCN.get(fqcn);
}

// The Snapshot union members of MetadataChangeEvent: the descriptors' snapshot classes.

/** `com.linkedin.metadata.snapshot.DatasetSnapshot` → `dataset`; undefined when unknown. */
export function snapshotEntityType(snapshotFqcn: string): string | undefined {
  return entityRegistry().snapshotEntityTypes.get(snapshotFqcn);
}

/** `dataset` → `com.linkedin.metadata.snapshot.DatasetSnapshot`; undefined when DataHub has none. */
export function snapshotFqcnOf(entityType: string): string | undefined {
  return entityRegistry().snapshotFqcns.get(entityType);
}
