// Descriptive aspects the service reads (names, titles, schema) plus the chart and dashboard info
// records, whose legacy urn lists and Edge lists carry lineage. Only required fields and the
// fields the service interprets are checked; everything else is kept as received.
import { z } from 'zod';
import {
  auditStampSchema,
  changeAuditStampsSchema,
  edgeSchema,
  longSchema,
  stringMapSchema,
  timeStampSchema,
  urnOf,
  urnSchema,
} from './common.ts';

/** A Pegasus union member as JSON: one key (member name or FQCN) and its value. */
const singleMemberUnion = <T extends z.ZodType>(member: T) =>
  z.record(z.string(), member).refine((o) => Object.keys(o).length === 1, {
    message: 'expected a union object with exactly one member',
  });

export const datasetPropertiesSchema = z.looseObject({
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
  name: z.string().optional(),
  qualifiedName: z.string().optional(),
  description: z.string().optional(),
  uri: z.string().optional(),
  created: timeStampSchema.optional(),
  lastModified: timeStampSchema.optional(),
  tags: z.array(z.string()).optional(),
});

const schemaFieldSchema = z.looseObject({
  fieldPath: z.string(),
  type: z.looseObject({ type: z.record(z.string(), z.unknown()) }),
  nativeDataType: z.string(),
});

export const schemaMetadataSchema = z.looseObject({
  schemaName: z.string(),
  platform: urnOf('dataPlatform'),
  version: longSchema,
  hash: z.string(),
  platformSchema: z.record(z.string(), z.unknown()),
  fields: z.array(schemaFieldSchema),
  created: auditStampSchema.optional(),
  lastModified: auditStampSchema.optional(),
  dataset: urnOf('dataset').optional(),
});

export const dataFlowInfoSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  project: z.string().optional(),
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
});

export const dataJobInfoSchema = z.looseObject({
  name: z.string(),
  // union[AzkabanJobType, string]: Python sends {"string": "COMMAND"}.
  type: z.union([z.string(), singleMemberUnion(z.string())]),
  description: z.string().optional(),
  flowUrn: urnOf('dataFlow').optional(),
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
});

// The fields a chart and a dashboard share (DataHub's ChartInfo and DashboardInfo).
const visualisationInfo = {
  title: z.string(),
  description: z.string(),
  lastModified: changeAuditStampsSchema,
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
  lastRefreshed: longSchema.optional(),
};

export const chartInfoSchema = z.looseObject({
  ...visualisationInfo,
  // ChartDataSourceType is a union of one typeref'd string: {"string": "<dataset urn>"}.
  inputs: z.array(z.strictObject({ string: urnOf('dataset') })).optional(),
  inputEdges: z.array(edgeSchema).optional(),
  chartUrl: z.string().optional(),
});

export const dashboardInfoSchema = z.looseObject({
  ...visualisationInfo,
  charts: z.array(urnOf('chart')).optional(),
  chartEdges: z.array(edgeSchema).optional(),
  datasets: z.array(urnOf('dataset')).optional(),
  datasetEdges: z.array(edgeSchema).optional(),
  dashboards: z.array(edgeSchema).optional(),
  dashboardUrl: z.string().optional(),
});

export const corpUserInfoSchema = z.looseObject({
  active: z.boolean(),
  displayName: z.string().optional(),
  email: z.string().optional(),
  title: z.string().optional(),
  managerUrn: urnOf('corpuser').optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  fullName: z.string().optional(),
  customProperties: stringMapSchema.optional(),
});

export const roleMembershipSchema = z.looseObject({ roles: z.array(urnSchema) });

export const dataPlatformInfoSchema = z.looseObject({
  name: z.string(),
  // PlatformType is an enum that grows; any string is accepted.
  type: z.string(),
  datasetNameDelimiter: z.string(),
  displayName: z.string().optional(),
  logoUrl: z.string().optional(),
});

export const telemetryClientIdSchema = z.looseObject({ clientId: z.string() });
