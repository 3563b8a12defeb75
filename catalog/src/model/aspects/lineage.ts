// The aspects that carry lineage (docs/lineage-model.md §Derivation).
import { z } from 'zod';
import { auditStampSchema, edgeSchema, stringMapSchema, urnOf, urnSchema } from './common.ts';

const DATASET_LINEAGE_TYPES = ['COPY', 'TRANSFORMED', 'VIEW'] as const;
const FINE_GRAINED_UPSTREAM_TYPES = ['FIELD_SET', 'DATASET', 'NONE'] as const;
const FINE_GRAINED_DOWNSTREAM_TYPES = ['FIELD', 'FIELD_SET'] as const;

const upstreamSchema = z.looseObject({
  // Optional here because it has a Pegasus default; the Python client always sends it.
  auditStamp: auditStampSchema.optional(),
  created: auditStampSchema.optional(),
  dataset: urnOf('dataset'),
  type: z.enum(DATASET_LINEAGE_TYPES),
  properties: stringMapSchema.optional(),
  query: urnSchema.optional(),
});

const fineGrainedLineageSchema = z.looseObject({
  upstreamType: z.enum(FINE_GRAINED_UPSTREAM_TYPES),
  upstreams: z.array(urnSchema).optional(),
  downstreamType: z.enum(FINE_GRAINED_DOWNSTREAM_TYPES),
  downstreams: z.array(urnSchema).optional(),
  transformOperation: z.string().optional(),
  confidenceScore: z.number().optional(),
  query: urnSchema.optional(),
});

export const upstreamLineageSchema = z.looseObject({
  upstreams: z.array(upstreamSchema),
  fineGrainedLineages: z.array(fineGrainedLineageSchema).optional(),
});

export const dataJobInputOutputSchema = z.looseObject({
  // Deprecated but required by the model: clients send [].
  inputDatasets: z.array(urnOf('dataset')),
  outputDatasets: z.array(urnOf('dataset')),
  inputDatasetEdges: z.array(edgeSchema).optional(),
  outputDatasetEdges: z.array(edgeSchema).optional(),
  inputDatajobs: z.array(urnOf('dataJob')).optional(),
  inputDatajobEdges: z.array(edgeSchema).optional(),
  inputDatasetFields: z.array(urnSchema).optional(),
  outputDatasetFields: z.array(urnSchema).optional(),
  fineGrainedLineages: z.array(fineGrainedLineageSchema).optional(),
});

export const dataProcessInstanceInputSchema = z.looseObject({
  inputs: z.array(urnSchema),
  inputEdges: z.array(edgeSchema).optional(),
});

export const dataProcessInstanceOutputSchema = z.looseObject({
  outputs: z.array(urnSchema),
  outputEdges: z.array(edgeSchema).optional(),
});

/** Legacy dataProcess lineage: both lists are DatasetUrn arrays in the model. */
export const dataProcessInfoSchema = z.looseObject({
  inputs: z.array(urnOf('dataset')).optional(),
  outputs: z.array(urnOf('dataset')).optional(),
});
