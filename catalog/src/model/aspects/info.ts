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
export type DatasetProperties = z.infer<typeof datasetPropertiesSchema>;

export const schemaFieldSchema = z.looseObject({
  fieldPath: z.string(),
  type: z.looseObject({ type: z.record(z.string(), z.unknown()) }),
  nativeDataType: z.string(),
});
export type SchemaField = z.infer<typeof schemaFieldSchema>;

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
export type SchemaMetadata = z.infer<typeof schemaMetadataSchema>;

export const dataFlowInfoSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  project: z.string().optional(),
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
});
export type DataFlowInfo = z.infer<typeof dataFlowInfoSchema>;

export const dataJobInfoSchema = z.looseObject({
  name: z.string(),
  // union[AzkabanJobType, string]: Python sends {"string": "COMMAND"}.
  type: z.union([z.string(), singleMemberUnion(z.string())]),
  description: z.string().optional(),
  flowUrn: urnOf('dataFlow').optional(),
  customProperties: stringMapSchema.optional(),
  externalUrl: z.string().optional(),
});
export type DataJobInfo = z.infer<typeof dataJobInfoSchema>;

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
export type ChartInfo = z.infer<typeof chartInfoSchema>;

export const dashboardInfoSchema = z.looseObject({
  ...visualisationInfo,
  charts: z.array(urnOf('chart')).optional(),
  chartEdges: z.array(edgeSchema).optional(),
  datasets: z.array(urnOf('dataset')).optional(),
  datasetEdges: z.array(edgeSchema).optional(),
  dashboards: z.array(edgeSchema).optional(),
  dashboardUrl: z.string().optional(),
});
export type DashboardInfo = z.infer<typeof dashboardInfoSchema>;

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
export type CorpUserInfo = z.infer<typeof corpUserInfoSchema>;

export const roleMembershipSchema = z.looseObject({ roles: z.array(urnSchema) });
export type RoleMembership = z.infer<typeof roleMembershipSchema>;

export const dataPlatformInfoSchema = z.looseObject({
  name: z.string(),
  // PlatformType is an enum that grows; any string is accepted.
  type: z.string(),
  datasetNameDelimiter: z.string(),
  displayName: z.string().optional(),
  logoUrl: z.string().optional(),
});
export type DataPlatformInfo = z.infer<typeof dataPlatformInfoSchema>;

export const telemetryClientIdSchema = z.looseObject({ clientId: z.string() });
export type TelemetryClientId = z.infer<typeof telemetryClientIdSchema>;
